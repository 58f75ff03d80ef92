// MPI test of the SUMMA/HSUMMA engine. For every P x Q factorization of the
// number of ranks (or the one given by --grid), every group split I x J (I | P,
// J | Q: G = 1, the divisors and G = p), both broadcast policies, non-divisible
// sizes and M != b: C is checked against a serial dgemm reference with the
// norm-wise bound, and must be bit-identical to SUMMA with the same b (the
// engine's dgemm sequence does not depend on G, M or the policy). A corrupted C
// must fail the check (the check is not vacuous). Lookahead on or off must not
// change a bit either. Exit 1 on every rank on any failure (mpi_check.hpp).
// On 4+ ranks only the 2-D grids and two size cases run, to keep the suite short.
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "hympi/error.hpp"
#include "hympi/hsumma/checks.hpp"
#include "hympi/hsumma/engine.hpp"
#include "hympi/layout.hpp"
#include "hympi/topology.hpp"
#include "mpi_check.hpp"

namespace {

using namespace hympi;
using hympi::test::fail;

struct Size {
  std::int64_t m, n, k;
};
struct Blocks {
  std::int64_t b, M;
};

int rank_ = 0, cases_ = 0;

std::string describe(const Size& s, int P, int Q, int I, int J, const Blocks& bl, Policy policy, bool gm) {
  char buf[200];
  std::snprintf(buf, sizeof buf, "m=%lld n=%lld k=%lld grid=%dx%d groups=%dx%d b=%lld M=%lld policy=%s%s",
                (long long)s.m, (long long)s.n, (long long)s.k, P, Q, I, J, (long long)bl.b, (long long)bl.M,
                to_string(policy), gm ? " group-major" : "");
  return buf;
}

// Runs one engine and checks it; returns this rank's C block.
std::vector<double> run_case(const TwoLevelShape& shape, const hsumma::EngineOptions& opt, const std::string& what,
                             bool corrupt = false) {
  ++cases_;
  hsumma::Engine engine(MPI_COMM_WORLD, shape, opt);
  const auto ab = engine.a_block(), bb = engine.b_block(), cb = engine.c_block();
  const auto A = hsumma::fill_local(ab, 1), B = hsumma::fill_local(bb, 2);
  std::vector<double> C(std::max<std::int64_t>(1, cb.ld() * cb.local_cols()), -7.0);
  engine.multiply(A.data(), B.data(), C.data(), false);          // no closing barrier: runs into the next call
  const auto t = engine.multiply(A.data(), B.data(), C.data());  // reuse: the second call must give the same result
  // Hybrid on one node: every grid row and column is inside the node, so panels are
  // read from the owners' published blocks and nothing is broadcast.
  if (opt.bcast.policy == Policy::hybrid && opt.share_inputs &&
      Topology::of(MPI_COMM_WORLD, opt.layout).num_nodes() == 1 && t.outer_bcasts + t.inner_bcasts != 0)
    fail("hybrid on one node still broadcast " + std::to_string(t.outer_bcasts + t.inner_bcasts) + " panels: " + what);
  if (corrupt && cb.elements() > 0) C[0] += 1e-6;
  const double na = hsumma::frobenius_norm(MPI_COMM_WORLD, ab, A.data());
  const double nb = hsumma::frobenius_norm(MPI_COMM_WORLD, bb, B.data());
  const auto serial = hsumma::check_serial(MPI_COMM_WORLD, cb, C.data(), opt.k, 1, 2, na, nb);
  const auto residual = hsumma::check_residual(MPI_COMM_WORLD, ab, A.data(), bb, B.data(), cb, C.data(), na, nb);
  if (corrupt) {
    if (serial.ok()) fail("a corrupted C passed the serial check: " + what);
  } else {
    if (!serial.ok())
      fail("serial check (error " + std::to_string(serial.error) + " > bound " + std::to_string(serial.bound) +
           "): " + what);
    if (!residual.ok()) fail("residual check: " + what);
  }
  C.resize(static_cast<std::size_t>(cb.elements() > 0 ? cb.ld() * cb.local_cols() : 0));
  return C;
}

bool all_equal(const std::vector<double>& a, const std::vector<double>& b) {
  int same = a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
  int all = 0;
  MPI_Allreduce(&same, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all == 1;
}

void test_grid(int P, int Q, const LayoutSpec& layout) {
  // Non-divisible sizes with M != b and M > k, a degenerate size (ranks with empty
  // blocks), and a divisible one; fewer on 4+ ranks (oversubscribed 2-core machine).
  std::vector<std::pair<Size, Blocks>> cases = {{{37, 29, 41}, {3, 9}}, {{5, 7, 3}, {4, 8}}};
  if (P * Q <= 3) cases.insert(cases.end(), {{{24, 24, 24}, {8, 64}}, {{37, 29, 41}, {4, 8}}, {{37, 29, 41}, {8, 64}}});
  for (const auto& [s, bl] : cases) {
    std::vector<double> reference;  // SUMMA, pure, block b, no lookahead
    for (bool ahead : {false, true})
      for (int v = 0; v < 3; ++v) {  // pure, hybrid with shared inputs, hybrid without (lookahead only)
        const Policy policy = v == 0 ? Policy::pure : Policy::hybrid;
        const bool share = v != 2;
        if (!share && !ahead) continue;
        const std::string tag = std::string(ahead ? " lookahead" : "") + (share ? "" : " unshared");
        // SUMMA hybrid with barrier node sync, HSUMMA hybrid with flags: both kinds covered.
        // SUMMA: one group, M = b (no outer level).
        hsumma::EngineOptions so{s.m, s.n, s.k, bl.b, bl.b, {policy, SyncKind::barrier}, layout, ahead, share};
        const std::string what = "SUMMA " + describe(s, P, Q, 1, 1, {bl.b, bl.b}, policy, false) + tag;
        auto C = run_case({P, Q, 1, 1, GridOrder::row_major, false}, so, what);
        if (reference.empty())
          reference = C;
        else if (!all_equal(C, reference))
          fail("SUMMA differs from SUMMA pure without lookahead: " + what);
        for (int I = 1; I <= P; ++I)
          for (int J = 1; J <= Q; ++J) {
            if (P % I || Q % J) continue;
            for (bool gm : {false, true}) {
              if (gm && (I * J == 1 || I * J == P * Q)) continue;  // group-major changes nothing there
              hsumma::EngineOptions eo{s.m, s.n, s.k, bl.b, bl.M, {policy, SyncKind::flags}, layout, ahead, share};
              const std::string hwhat = "HSUMMA " + describe(s, P, Q, I, J, bl, policy, gm) + tag;
              auto H = run_case({P, Q, I, J, GridOrder::row_major, gm}, eo, hwhat);
              if (!gm && !all_equal(H, reference)) fail("HSUMMA differs from SUMMA (bitwise): " + hwhat);
            }
          }
      }
  }
  // The check must catch a small corruption.
  hsumma::EngineOptions eo{37, 29, 41, 4, 8, {Policy::hybrid, SyncKind::flags}, layout};
  run_case({P, Q, 1, 1, GridOrder::row_major, false}, eo, "corrupted " + std::to_string(P) + "x" + std::to_string(Q),
           true);
  // Column-major rank order.
  run_case({P, Q, 1, 1, GridOrder::column_major, false}, eo, "column-major grid");
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  try {
    const LayoutSpec layout = layout_from_env();
    int P0 = 0, Q0 = 0;
    if (argc == 3 && std::string(argv[1]) == "--grid") std::sscanf(argv[2], "%dx%d", &P0, &Q0);
    for (int P = 1; P <= size; ++P) {
      if (size % P) continue;
      if (P0 > 0 && (P != P0 || size / P != Q0)) continue;
      // On 4+ ranks (oversubscribed) only the 2-D grids: 1xN / Nx1 are covered on 2 and 3 ranks.
      if (P0 == 0 && size >= 4 && (P == 1 || P == size)) continue;
      test_grid(P, size / P, layout);
    }
    if (cases_ == 0) fail("no grid tested (bad --grid?)");
    if (rank_ == 0) std::printf("%d engine runs on %d ranks (layout %s)\n", cases_, size, layout.describe().c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rank %d: error: %s\n", rank_, e.what());
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int rc = hympi::test::finish("summa_engine_test");
  MPI_Finalize();
  return rc;
}
