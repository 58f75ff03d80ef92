// Probes of the simulated MPI layer (apps/smpi/glue/sim_*.cpp) for tests/smpi/check_fidelity.py.
// Each mode prints "key=value" lines the test reads; simulated times in seconds.
//   p2p BYTES SRC DST        one hympi_sim::send SRC -> DST: the receiver's completion time
//   mpi_p2p BYTES SRC DST    the same with plain MPI_Send / MPI_Recv
//   flows BYTES S1 D1 S2 D2  two simultaneous layer messages: each receiver's completion time
//   notify SRC DST           two notifies with payloads: the payloads and the first one's arrival
//   bcast BYTES ROOT         one MPI_Bcast on the world: the last rank's completion time
//   check                    bit-exact broadcasts (MPI_Bcast and every layer algorithm) over
//                            several communicators, roots, counts and datatypes: "check=ok CASES"
//   groups                   the layer's one group per member list (sim_groups.cpp): pairs, the
//                            world reversed and each rank alone, made twice, freed and remade;
//                            every rank of a list holds the same group, its communicator sums
//                            right, MPI_Group_compare agrees: "groups=ok CASES shared=LISTS"
#include <mpi.h>
#include <simgrid/actor.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "sim_bcast_algorithms.hpp"
#include "sim_p2p.hpp"

namespace {

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

void p2p(bool layer, int bytes, int src, int dst) {
  std::vector<char> buf(static_cast<std::size_t>(bytes), 1);
  const double t0 = MPI_Wtime();
  const int me = world_rank();
  if (me == src) {
    if (layer)
      hympi_sim::send(buf.data(), bytes, MPI_BYTE, dst, 7, MPI_COMM_WORLD);
    else
      MPI_Send(buf.data(), bytes, MPI_BYTE, dst, 7, MPI_COMM_WORLD);
  } else if (me == dst) {
    if (layer)
      hympi_sim::recv(buf.data(), bytes, MPI_BYTE, src, 7, MPI_COMM_WORLD);
    else
      MPI_Recv(buf.data(), bytes, MPI_BYTE, src, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    std::printf("time_s=%.12g\n", MPI_Wtime() - t0);
  }
}

void flows(int bytes, int s1, int d1, int s2, int d2) {
  std::vector<char> buf(static_cast<std::size_t>(bytes), 1);
  const int me = world_rank();
  if (me == s1) hympi_sim::send(buf.data(), bytes, MPI_BYTE, d1, 7, MPI_COMM_WORLD);
  if (me == s2) hympi_sim::send(buf.data(), bytes, MPI_BYTE, d2, 7, MPI_COMM_WORLD);
  if (me == d1) hympi_sim::recv(buf.data(), bytes, MPI_BYTE, s1, 7, MPI_COMM_WORLD);
  if (me == d2) hympi_sim::recv(buf.data(), bytes, MPI_BYTE, s2, 7, MPI_COMM_WORLD);
  if (me == d1) std::printf("flow1_s=%.12g\n", MPI_Wtime());
  if (me == d2) std::printf("flow2_s=%.12g\n", MPI_Wtime());
}

// Two notifies SRC -> DST (payloads 0x1234567890abcdef, then 7): DST prints both payloads and the
// first one's arrival time (a 0-byte message: the route's latency, no overheads).
void notify(int src, int dst) {
  const int me = world_rank();
  if (me == src) {
    hympi_sim::notify(dst, 3, MPI_COMM_WORLD, 0x1234567890abcdefULL);
    hympi_sim::notify(dst, 3, MPI_COMM_WORLD, 7);
  } else if (me == dst) {
    std::uint64_t first = 0, second = 0;
    hympi_sim::wait_notify(src, 3, MPI_COMM_WORLD, &first);
    const double t = MPI_Wtime();
    hympi_sim::wait_notify(MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &second);
    std::printf("payloads=%llx,%llx\ntime_s=%.12g\n", static_cast<unsigned long long>(first),
                static_cast<unsigned long long>(second), t);
  }
}

void bcast(int bytes, int root) {
  std::vector<char> buf(static_cast<std::size_t>(bytes), 1);
  const double t0 = MPI_Wtime();
  MPI_Bcast(buf.data(), bytes, MPI_BYTE, root, MPI_COMM_WORLD);
  double t = MPI_Wtime() - t0, last = 0;
  MPI_Reduce(&t, &last, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (world_rank() == 0) std::printf("time_s=%.12g\n", last);
}

using Alg = int (*)(void*, int, MPI_Datatype, int, MPI_Comm);

int value(int root, int count, long i) { return static_cast<int>((root * 7919 + count * 31 + i * 2654435761L) % 1000003); }

// One broadcast of `count` elements of `type` (ints, or a vector type of 2 ints every 3) from
// `root`, checked element by element on every rank (and the vector type's gaps untouched).
int one_case(Alg alg, MPI_Comm comm, int root, int count, bool strided, const char* name) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Datatype type = MPI_INT;
  long ints = count;
  if (strided) {
    MPI_Type_vector(2, 1, 3, MPI_INT, &type);  // ints 0 and 3 of every 3-int... extent 4 ints
    MPI_Type_commit(&type);
    ints = 4L * count;
  }
  std::vector<int> buf(static_cast<std::size_t>(ints));
  for (long i = 0; i < ints; ++i) buf[i] = rank == root ? value(root, count, i) : -1;
  alg(buf.data(), count, type, root, comm);
  int bad = 0;
  for (long i = 0; i < ints; ++i) {
    const bool data = !strided || (i % 4 == 0 || i % 4 == 3);
    const int want = rank == root || data ? value(root, count, i) : -1;
    if (buf[i] != want) ++bad;
  }
  if (strided) MPI_Type_free(&type);
  int all_bad = 0;
  MPI_Allreduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, comm);
  if (all_bad && rank == 0)
    std::printf("FAIL %s size=%d root=%d count=%d strided=%d: %d wrong ints\n", name, size, root, count, strided,
                all_bad);
  return all_bad ? 1 : 0;
}

void check() {
  struct Named {
    Alg alg;
    const char* name;
  };
  const Named algs[] = {{MPI_Bcast, "MPI_Bcast"},
                        {hympi_sim::bcast_binomial, "binomial"},
                        {hympi_sim::bcast_scatter_ring, "scatter_ring"},
                        {hympi_sim::bcast_scatter_rdb, "scatter_rdb"},
                        {hympi_sim::bcast_mpich, "mpich"}};
  // The world, halves (two communicators at once), and thirds (sizes not powers of two).
  const int me = world_rank();
  MPI_Comm halves, thirds;
  MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &halves);
  MPI_Comm_split(MPI_COMM_WORLD, me % 3, -me, &thirds);
  const MPI_Comm comms[] = {MPI_COMM_WORLD, halves, thirds};
  const int counts[] = {1, 5, 1000, 3071, 3072, 40000, 131072};  // below/at 12 KiB, not divisible by p, 512 KiB
  int cases = 0, failed = 0;
  for (MPI_Comm comm : comms) {
    int size = 0;
    MPI_Comm_size(comm, &size);
    const int roots[] = {0, size - 1, size / 2};
    for (const Named& a : algs)
      for (int root : roots)
        for (int count : counts)
          for (int strided = 0; strided < 2; ++strided) {
            if (strided && count > 3072) continue;
            failed += one_case(a.alg, comm, root, count, strided != 0, a.name);
            ++cases;
          }
  }
  // A root that comes late to a 1-element scatter + ring: with merged steps the other ranks' rings
  // need not wait for it (one piece, on the root), yet they must end with its bytes.
  {
    int size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int root = size - 1;
    int value_in = me == root ? 424242 : -1;
    if (me == root) sg_actor_sleep_for(1e-3);
    hympi_sim::bcast_scatter_ring(&value_in, 1, MPI_INT, root, MPI_COMM_WORLD);
    int bad = value_in != 424242, all_bad = 0;
    MPI_Allreduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (all_bad && me == 0) std::printf("FAIL late root: %d ranks wrong\n", all_bad);
    failed += all_bad ? 1 : 0;
    ++cases;
  }
  MPI_Comm_free(&halves);
  MPI_Comm_free(&thirds);
  if (me == 0) std::printf("check=%s %d\n", failed ? "FAILED" : "ok", cases);
}

// The handle of `group` on every rank of `comm`, gathered (SMPI's ranks share one heap).
std::vector<std::uintptr_t> handles_on(MPI_Comm comm, MPI_Group group) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  std::vector<std::uintptr_t> all(static_cast<std::size_t>(size));
  const auto mine = reinterpret_cast<std::uintptr_t>(group);
  MPI_Allgather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine, MPI_BYTE, comm);
  return all;
}

void groups() {
  int me = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Group world = MPI_GROUP_NULL;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  const int high = me | 1, low = me & ~1;
  std::vector<int> reversed(static_cast<std::size_t>(size));
  for (int i = 0; i < size; ++i) reversed[static_cast<std::size_t>(i)] = size - 1 - i;
  std::vector<std::vector<int>> lists = {reversed, {me}};
  if (high < size) lists.push_back({high, low});  // high rank first: the group's own order
  int failed = 0, cases = 0, shared = 0;
  std::vector<std::uintptr_t> first(lists.size());
  for (int round = 0; round < 2; ++round)
    for (std::size_t l = 0; l < lists.size(); ++l) {
      const std::vector<int>& members = lists[l];
      const int n = static_cast<int>(members.size());
      MPI_Group g = MPI_GROUP_NULL, fresh = MPI_GROUP_NULL;
      MPI_Group_incl(world, n, members.data(), &g);
      PMPI_Group_incl(world, n, members.data(), &fresh);  // SimGrid's own, for the comparison
      int same = MPI_UNEQUAL;
      MPI_Group_compare(g, fresh, &same);
      PMPI_Group_free(&fresh);
      MPI_Comm comm = MPI_COMM_NULL;
      MPI_Comm_create_group(MPI_COMM_WORLD, g, 11 + static_cast<int>(l), &comm);
      int rank = -1, sum = -1, want = 0;
      for (int m : members) want += m;
      if (comm != MPI_COMM_NULL) {
        MPI_Comm_rank(comm, &rank);
        MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, comm);
      }
      // One handle for every member, the same in both rounds (kept, not remade); a list of one is the rank's own.
      const std::vector<std::uintptr_t> all = comm == MPI_COMM_NULL ? std::vector<std::uintptr_t>{} : handles_on(comm, g);
      bool one = !all.empty();
      for (std::uintptr_t h : all) one = one && h == all[0];
      if (round == 0) first[l] = reinterpret_cast<std::uintptr_t>(g);
      bool kept = reinterpret_cast<std::uintptr_t>(g) == first[l];
      if (n == 1) {  // the rank's MPI_COMM_SELF group, not a copy of it
        MPI_Group self = MPI_GROUP_NULL;
        MPI_Comm_group(MPI_COMM_SELF, &self);
        kept = kept && g == self;
        MPI_Group_free(&self);
      }
      const bool ok = same == MPI_IDENT && comm != MPI_COMM_NULL && members[static_cast<std::size_t>(rank)] == me &&
                      sum == want && one && kept;
      if (!ok)
        std::printf("FAIL rank %d list %zu round %d: compare %d, comm rank %d, sum %d of %d, one handle %d, kept %d\n", me,
                    l, round, same, rank, sum, want, one, kept);
      failed += !ok;
      ++cases;
      if (round == 0 && n > 1 && rank == 0) ++shared;
      MPI_Group_free(&g);
      if (g != MPI_GROUP_NULL) ++failed, std::printf("FAIL rank %d: MPI_Group_free left the handle\n", me);
      if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
    }
  int totals[3] = {failed, cases, shared}, sums[3] = {0, 0, 0};
  MPI_Allreduce(totals, sums, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) std::printf("groups=%s %d shared=%d\n", sums[0] ? "FAILED" : "ok", sums[1], sums[2]);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const std::string mode = argc > 1 ? argv[1] : "";
  auto arg = [&](int i) { return i < argc ? std::atoi(argv[i]) : 0; };
  if (mode == "p2p" || mode == "mpi_p2p")
    p2p(mode == "p2p", arg(2), arg(3), arg(4));
  else if (mode == "flows")
    flows(arg(2), arg(3), arg(4), arg(5), arg(6));
  else if (mode == "notify")
    notify(arg(2), arg(3));
  else if (mode == "bcast")
    bcast(arg(2), arg(3));
  else if (mode == "check")
    check();
  else if (mode == "groups")
    groups();
  else if (world_rank() == 0)
    std::fprintf(stderr, "usage: sim_fidelity_probe p2p|mpi_p2p|flows|notify|bcast|check|groups ...\n");
  MPI_Finalize();
  return 0;
}
