// SMPI test of BG/P's DCMF broadcast (apps/smpi/glue/dcmf_*), on a bgp platform with block
// placement (make_platform.py bgp). usage:
//   hympi-smpi-dcmf-test check [quick]    every rank's (x,y,z,t) distinct; shapes of the
//                                         world, a RECT and an IRREG communicator; the
//                                         rectangle broadcast delivers the root's exact bytes
//                                         (roots 0, last, middle; sizes around the thresholds,
//                                         or three sizes with quick)
//   hympi-smpi-dcmf-test time MIN_BINOM MIN_ONE [N STRIDE]
//                                         1 MiB on the first half of the ranks (or N ranks
//                                         STRIDE apart from rank 0; RECT): the
//                                         rectangle against the layer's binomial tree (the
//                                         IRREG fallback) and against its own one-color
//                                         protocol; fails below the given ratios (and unless
//                                         an SMPI shared-malloc buffer takes the same time)
//   hympi-smpi-dcmf-test full             bcast_dcmf itself (the layer's MPI_Bcast with dcmf) on
//                                         RECT and IRREG communicators, exact bytes
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "dcmf_rect.hpp"
#include "sim_bcast_algorithms.hpp"

using namespace hympi_sim;

namespace {

int rank_ = 0, size_ = 0, failures = 0;

void fail(const std::string& what) {
  std::printf("FAIL (rank %d): %s\n", rank_, what.c_str());
  ++failures;
}

unsigned char pattern(long long i, int root, long long bytes) {
  return static_cast<unsigned char>((i * 131 + root * 7 + bytes) % 251);
}

// The ranks of the first `n` of the world, or every `stride`-th: their communicator.
MPI_Comm comm_of(int first, int n, int stride) {
  MPI_Group world, g;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  std::vector<int> ranks;
  for (int i = 0; i < n; ++i) ranks.push_back(first + i * stride);
  MPI_Group_incl(world, n, ranks.data(), &g);
  MPI_Comm c;
  MPI_Comm_create(MPI_COMM_WORLD, g, &c);
  MPI_Group_free(&g);
  MPI_Group_free(&world);
  return c;
}

using Bcast = void (*)(char*, long long, int, MPI_Comm, dcmf::CommInfo&);

void rect_multi(char* b, long long n, int root, MPI_Comm, dcmf::CommInfo& info) { dcmf::bcast_rectangle(b, n, root, info, false); }
void rect_one(char* b, long long n, int root, MPI_Comm, dcmf::CommInfo& info) { dcmf::bcast_rectangle(b, n, root, info, true); }
void binomial(char* b, long long n, int root, MPI_Comm c, dcmf::CommInfo&) {
  bcast_binomial(b, static_cast<int>(n), MPI_BYTE, root, c);  // the layer's: the IRREG fallback
}

// Every root in `roots` and size in `sizes`: the root's pattern arrives exactly everywhere.
void check_bytes(MPI_Comm c, dcmf::CommInfo& info, const std::vector<long long>& sizes, const char* what,
                 void (*bcast)(char*, long long, int, MPI_Comm, dcmf::CommInfo&)) {
  int r, n;
  MPI_Comm_rank(c, &r);
  MPI_Comm_size(c, &n);
  for (int root : {0, n - 1, n / 2 + 1})
    for (long long bytes : sizes) {
      std::vector<char> buf(static_cast<std::size_t>(bytes));
      for (long long i = 0; i < bytes; ++i) buf[i] = r == root ? static_cast<char>(pattern(i, root, bytes)) : '\x5a';
      bcast(buf.data(), bytes, root, c, info);
      long long bad = 0;
      for (long long i = 0; i < bytes; ++i) bad += buf[i] != static_cast<char>(pattern(i, root, bytes));
      if (bad) fail(std::string(what) + ": root " + std::to_string(root) + ", " + std::to_string(bytes) + " B: " +
                    std::to_string(bad) + " wrong bytes");
    }
}

double timed(MPI_Comm c, dcmf::CommInfo& info, Bcast bcast, long long bytes, bool shared = false) {
  std::vector<char> own(shared ? 0 : static_cast<std::size_t>(bytes), 1);
  // SMPI shared malloc (the timing runs' buffers): no data moves, the same simulated time.
  char* buf = shared ? static_cast<char*>(SMPI_SHARED_MALLOC(static_cast<std::size_t>(bytes))) : own.data();
  MPI_Barrier(c);
  double t0 = MPI_Wtime();
  bcast(buf, bytes, 0, c, info);
  if (shared) SMPI_SHARED_FREE(buf);
  double t1 = MPI_Wtime(), start, end;
  MPI_Allreduce(&t0, &start, 1, MPI_DOUBLE, MPI_MIN, c);
  MPI_Allreduce(&t1, &end, 1, MPI_DOUBLE, MPI_MAX, c);
  return end - start;
}

void check(bool quick) {
  // Every rank's coordinates are distinct and t runs over the node's ranks.
  dcmf::CommInfo world;
  dcmf::describe(MPI_COMM_WORLD, world);
  std::vector<int> all(4 * static_cast<std::size_t>(size_));
  MPI_Allgather(world.me.c, 4, MPI_INT, all.data(), 4, MPI_INT, MPI_COMM_WORLD);
  for (int a = 0; a < size_; ++a)
    for (int b = a + 1; b < size_; ++b)
      if (!std::memcmp(&all[4 * a], &all[4 * b], 4 * sizeof(int))) fail("ranks " + std::to_string(a) + " and " + std::to_string(b) + " share coordinates");
  if (world.shape.shape() != dcmf::Shape::world || !world.shape.filled) fail("the world should be WORLD and filled");
  // Half the world (block placement: whole nodes, a sub-box) is RECT; every 3rd rank is not.
  MPI_Comm half = comm_of(0, size_ / 2, 1), third = comm_of(0, size_ / 3, 3);
  dcmf::CommInfo h, t;
  if (third != MPI_COMM_NULL) {
    dcmf::describe(third, t);
    if (t.shape.shape() != dcmf::Shape::irreg) fail(std::string("every 3rd rank should be IRREG, is ") + dcmf::name(t.shape.shape()));
  }
  const std::vector<long long> sizes = quick ? std::vector<long long>{1000, 65537, 300000}
                                             : std::vector<long long>{1, 100, 128, 129, 1024, 1025, 8192, 8193, 65536,
                                                                      65537, 300000};
  check_bytes(MPI_COMM_WORLD, world, sizes, "world, rectangle", rect_multi);
  if (half != MPI_COMM_NULL) {
    dcmf::describe(half, h);
    if (h.shape.shape() != dcmf::Shape::rect) fail(std::string("half the world should be RECT, is ") + dcmf::name(h.shape.shape()));
    if (h.key == world.key || (third != MPI_COMM_NULL && h.key == t.key)) fail("communicators sharing ranks share a key");
    check_bytes(half, h, sizes, "half, rectangle", rect_multi);
    check_bytes(half, h, {1000, 65537}, "half, one color", rect_one);
  }
  if (rank_ == 0)
    std::printf("dcmf check: world %s box %s-%s, half %s, every 3rd %s; %d ranks\n", dcmf::name(world.shape.shape()),
                world.shape.box.lo.str().c_str(), world.shape.box.hi.str().c_str(), dcmf::name(h.shape.shape()),
                dcmf::name(t.shape.shape()), size_);
  if (half != MPI_COMM_NULL) MPI_Comm_free(&half);
  if (third != MPI_COMM_NULL) MPI_Comm_free(&third);
}

void time(double min_binom, double min_one, int n, int stride) {
  MPI_Comm half = comm_of(0, n, stride);
  if (half == MPI_COMM_NULL) return;
  dcmf::CommInfo h;
  dcmf::describe(half, h);
  const long long mib = 1 << 20;
  const double rect = timed(half, h, rect_multi, mib), one = timed(half, h, rect_one, mib),
               binom = timed(half, h, binomial, mib), shared = timed(half, h, rect_multi, mib, true);
  if (rank_ == 0) {
    std::printf("dcmf time: 1 MiB on %d ranks (%s, box %s-%s, %zu colors): rectangle %.6f ms, one color %.6f ms, "
                "binomial %.6f ms; binomial/rectangle %.2f, one color/rectangle %.2f\n",
                n, dcmf::name(h.shape.shape()), h.shape.box.lo.str().c_str(), h.shape.box.hi.str().c_str(),
                dcmf::plan_colors(h.shape.box, mib, false).colors.size(), rect * 1e3, one * 1e3, binom * 1e3,
                binom / rect, one / rect);
    if (binom / rect < min_binom) fail("the rectangle should beat the binomial tree by " + std::to_string(min_binom) + "x");
    if (one / rect < min_one) fail("several colors should beat one by " + std::to_string(min_one) + "x");
    if (std::fabs(shared / rect - 1) > 1e-3)  // the same up to the barrier's skew
      fail("a shared-malloc buffer took " + std::to_string(shared * 1e3) + " ms, not the same time");
  }
  MPI_Comm_free(&half);
}

void full() {
  MPI_Comm half = comm_of(0, size_ / 2, 1), third = comm_of(0, size_ / 3, 3);
  dcmf::CommInfo none;
  const bool in_half = half != MPI_COMM_NULL, in_third = third != MPI_COMM_NULL;
  auto via_dcmf = [](char* b, long long n, int root, MPI_Comm c, dcmf::CommInfo&) {
    bcast_dcmf(b, static_cast<int>(n), MPI_BYTE, root, c);
  };
  const std::vector<long long> sizes = {1, 128, 129, 1024, 1025, 8192, 8193, 65536, 65537, 300000};
  if (in_half) check_bytes(half, none, sizes, "bcast_dcmf RECT", via_dcmf);
  if (in_third) check_bytes(third, none, sizes, "bcast_dcmf IRREG", via_dcmf);
  check_bytes(MPI_COMM_WORLD, none, {1000, 65537}, "bcast_dcmf world", via_dcmf);
  if (in_half) {  // 1 MiB on RECT: bcast_dcmf picks the rectangle, not the binomial fallback
    const double dcmf = timed(half, none, via_dcmf, 1 << 20), binom = timed(half, none, binomial, 1 << 20);
    int r;
    MPI_Comm_rank(half, &r);
    if (r == 0) std::printf("dcmf full: 1 MiB on RECT: bcast_dcmf %.6f ms, binomial %.6f ms\n", dcmf * 1e3, binom * 1e3);
    if (r == 0 && binom / dcmf < 6) fail("bcast_dcmf on a RECT communicator should run the rectangle (6x the binomial)");
  }
  if (rank_ == 0) std::printf("dcmf full: bcast_dcmf on RECT, IRREG and the world\n");
  if (in_half) MPI_Comm_free(&half);
  if (in_third) MPI_Comm_free(&third);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "check" && argc <= 3) {
    check(argc == 3 && std::string(argv[2]) == "quick");
  } else if (mode == "time" && (argc == 4 || argc == 6)) {
    time(std::atof(argv[2]), std::atof(argv[3]), argc == 6 ? std::atoi(argv[4]) : size_ / 2,
         argc == 6 ? std::atoi(argv[5]) : 1);
  } else if (mode == "full") {
    full();
  } else {
    if (rank_ == 0) std::fprintf(stderr, "usage: %s check [quick] | time MIN_BINOM MIN_ONE [N STRIDE] | full\n", argv[0]);
    MPI_Finalize();
    return 2;
  }
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return all ? 1 : 0;
}
