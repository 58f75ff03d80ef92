// Grouped collectives (CollectiveOptions::groups) against the flat MPI collective
// on the same data: bcast (fixed root), allgather, allgatherv (a zero count
// among them), allreduce and reduce over several (type, op) pairs: integer sum,
// double max, MPI_MINLOC on MPI_DOUBLE_INT (ties: the lowest index must win), a
// user-defined commutative op and a contiguous type. Both policies, G in
// {2, 3, auto} for every operation and {1, p + 5} (the flat paths) for the
// exchanges; every object runs three rounds with new data: run(), start() +
// polling test(), start() + wait(). effective_groups() is checked against the
// construction (capped at ranks, or nodes under hybrid), and bad groups
// (negative, differing between ranks, with deterministic, on a root-per-call
// Bcast) and a non-commutative user op (refused by the core, grouped or not)
// are the same error on every rank.
#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "hympi/hympi.hpp"
#include "drive.hpp"
#include "mpi_check.hpp"

using hympi::test::check;
using hympi::test::drive;

namespace {

constexpr int kRounds = 3;

std::string name(const hympi::CollectiveOptions& o) {
  return std::string(to_string(o.policy)) + " groups=" + std::to_string(o.groups);
}

std::int64_t ival(int rank, std::int64_t i, int it) {
  return (rank * 7919 + i * 31 + it * 101) % 1000 - 500;
}

void test_bcast(const hympi::Topology& topo, hympi::CollectiveOptions o) {
  const int p = topo.size(), rank = topo.rank();
  const std::int64_t count = 1501;
  for (int root : {0, p - 1, p / 2}) {
    auto op = hympi::Bcast::create_fixed(topo, root, count, sizeof(std::int64_t), o);
    for (int it = 0; it < kRounds; ++it) {
      std::vector<std::int64_t> ref(count);
      for (std::int64_t i = 0; i < count; ++i) ref[i] = ival(root, i, it);
      if (rank == root) std::memcpy(op->slot(), ref.data(), count * sizeof(std::int64_t));
      check((op->slot() != nullptr) == (rank == root), "bcast slot only on the root");
      drive(*op, it);
      // The flat MPI collective on the same data.
      std::vector<std::int64_t> flat(count, -1);
      if (rank == root) flat = ref;
      MPI_Bcast(flat.data(), static_cast<int>(count), MPI_INT64_T, root, topo.comm());
      check(std::memcmp(op->result(), flat.data(), count * sizeof(std::int64_t)) == 0,
            "bcast " + name(o) + " root " + std::to_string(root) + " round " + std::to_string(it));
    }
  }
}

void test_allgatherv(const hympi::Topology& topo, hympi::CollectiveOptions o, bool equal) {
  const int p = topo.size(), rank = topo.rank();
  std::vector<std::int64_t> counts(p);
  for (int r = 0; r < p; ++r) counts[r] = equal ? 257 : (r == 1 ? 0 : 100 + 37 * r);
  auto op = hympi::Allgatherv::create(topo, counts, sizeof(double), o);
  const auto displs = hympi::displacements(counts);
  const std::int64_t total = displs[p - 1] + counts[p - 1];
  std::vector<int> icounts(counts.begin(), counts.end()), idispls(displs.begin(), displs.end());
  for (int it = 0; it < kRounds; ++it) {
    std::vector<double> mine(counts[rank] + 1);
    for (std::int64_t i = 0; i < counts[rank]; ++i) mine[i] = static_cast<double>(ival(rank, i, it)) + 0.25;
    std::memcpy(op->slot(), mine.data(), counts[rank] * sizeof(double));
    drive(*op, it);
    std::vector<double> flat(total + 1);
    MPI_Allgatherv(mine.data(), icounts[rank], MPI_DOUBLE, flat.data(), icounts.data(), idispls.data(), MPI_DOUBLE,
                   topo.comm());
    check(std::memcmp(op->result(), flat.data(), total * sizeof(double)) == 0,
          std::string(equal ? "allgather " : "allgatherv ") + name(o) + " round " + std::to_string(it));
  }
}

void xor_op(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* a = static_cast<std::uint32_t*>(in);
  auto* b = static_cast<std::uint32_t*>(inout);
  for (int i = 0; i < *len; ++i) b[i] ^= a[i];
}

struct DoubleInt {
  double v;
  int i;
};

// One (type, op) pair: the flat reference uses `ref_type` x `ref_factor` elements
// (a contiguous type is reduced as its basic elements, as MPI's own semantics).
struct Pair {
  const char* what;
  MPI_Datatype type;
  MPI_Op op;
  std::size_t extent;
  MPI_Datatype ref_type;
  int ref_factor;
  void (*fill)(void* data, std::int64_t count, int rank, int it);
};

void fill_i64(void* d, std::int64_t n, int rank, int it) {
  for (std::int64_t i = 0; i < n; ++i) static_cast<std::int64_t*>(d)[i] = ival(rank, i, it);
}
void fill_double(void* d, std::int64_t n, int rank, int it) {
  for (std::int64_t i = 0; i < n; ++i) static_cast<double*>(d)[i] = static_cast<double>(ival(rank, i, it)) * 0.5;
}
void fill_minloc(void* d, std::int64_t n, int rank, int it) {
  // Few distinct values: ties between ranks, where the lowest index must win.
  for (std::int64_t i = 0; i < n; ++i) static_cast<DoubleInt*>(d)[i] = {static_cast<double>(ival(rank, i, it) % 3), rank};
}
void fill_u32(void* d, std::int64_t n, int rank, int it) {
  for (std::int64_t i = 0; i < n; ++i)
    static_cast<std::uint32_t*>(d)[i] = static_cast<std::uint32_t>(ival(rank, i, it) * 2654435761u);
}
void fill_i32(void* d, std::int64_t n, int rank, int it) {
  for (std::int64_t i = 0; i < n; ++i) static_cast<std::int32_t*>(d)[i] = static_cast<std::int32_t>(ival(rank, i, it));
}

// Equal results: byte for byte, except MPI_DOUBLE_INT's padding (its 4 bytes after the int are
// not part of the value; an optimizing build leaves them different in the two results).
bool same_result(const void* got, const void* want, std::size_t bytes, MPI_Datatype type) {
  if (type != MPI_DOUBLE_INT) return std::memcmp(got, want, bytes) == 0;
  const auto* a = static_cast<const DoubleInt*>(got);
  const auto* b = static_cast<const DoubleInt*>(want);
  for (std::size_t k = 0; k < bytes / sizeof(DoubleInt); ++k)
    if (std::memcmp(&a[k].v, &b[k].v, sizeof(double)) != 0 || a[k].i != b[k].i) return false;
  return true;
}

void test_reductions(const hympi::Topology& topo, hympi::CollectiveOptions o, const std::vector<Pair>& pairs) {
  const int p = topo.size(), rank = topo.rank();
  const std::int64_t count = 1001;
  for (const Pair& pair : pairs) {
    const std::size_t bytes = count * pair.extent;
    for (int root : {-1, p - 1}) {  // -1: allreduce; the root last (not a group's lowest rank)
      std::unique_ptr<hympi::PersistentCollective> op;
      if (root < 0)
        op = hympi::Allreduce::create(topo, count, pair.type, pair.op, o);
      else
        op = hympi::Reduce::create(topo, count, pair.type, pair.op, root, o);
      for (int it = 0; it < kRounds; ++it) {
        std::vector<char> mine(bytes), flat(bytes);
        pair.fill(mine.data(), count * pair.ref_factor, rank, it);
        std::memcpy(op->slot(), mine.data(), bytes);
        drive(*op, it);
        const int n = static_cast<int>(count) * pair.ref_factor;
        if (root < 0)
          MPI_Allreduce(mine.data(), flat.data(), n, pair.ref_type, pair.op, topo.comm());
        else
          MPI_Reduce(mine.data(), flat.data(), n, pair.ref_type, pair.op, root, topo.comm());
        const std::string what = std::string(root < 0 ? "allreduce " : "reduce ") + pair.what + " " + name(o) +
                                 " root " + std::to_string(root) + " round " + std::to_string(it);
        if (root < 0 || rank == root)
          check(op->result() && same_result(op->result(), flat.data(), bytes, pair.type), what);
        else
          check(op->result() == nullptr, what + ": a result off the root");
      }
    }
  }
}

void test_errors(const hympi::Topology& topo) {
  const int rank = topo.rank();
  hympi::CollectiveOptions o;
  o.groups = -1;
  hympi::test::expect_same_error("groups must be >= 1, or 0 = automatic", [&] { hympi::Allgatherv::create_allgather(topo, 4, 8, o); },
                                 "groups = -1");
  o.groups = rank == 0 ? 2 : 3;
  if (topo.size() > 1)
    hympi::test::expect_same_error("groups", [&] { hympi::Bcast::create_fixed(topo, 0, 4, 8, o); },
                                   "groups differing between ranks");
  o.groups = 2;
  o.deterministic = true;
  hympi::test::expect_same_error("deterministic", [&] { hympi::Allreduce::create(topo, 4, MPI_DOUBLE, MPI_SUM, o); },
                                 "groups with deterministic");
  o.deterministic = false;
  MPI_Op noncommutative;
  MPI_Op_create(&xor_op, 0, &noncommutative);
  hympi::test::expect_same_error("commutative",
                                 [&] { hympi::Allreduce::create(topo, 4, MPI_UINT32_T, noncommutative, o); },
                                 "groups with a non-commutative op");
  MPI_Op_free(&noncommutative);
  hympi::test::expect_same_error("create_fixed", [&] { hympi::Bcast::create(topo, 4, 8, o); },
                                 "groups on a root-per-call Bcast");
}

// The effective G: the requested one capped at the units (ranks; hybrid: nodes).
void test_effective(const hympi::Topology& topo) {
  const int p = topo.size(), nodes = topo.num_nodes();
  for (auto policy : {hympi::Policy::pure, hympi::Policy::hybrid}) {
    const int units = policy == hympi::Policy::hybrid ? nodes : p;
    for (int g : {1, 2, 3, p, p + 5}) {
      hympi::CollectiveOptions o;
      o.policy = policy;
      o.groups = g;
      const int eff = hympi::effective_groups(topo, o, 1 << 20);
      // Under hybrid, groups left empty by large nodes are dropped: at most min(g, units).
      const bool ok = policy == hympi::Policy::pure ? eff == std::min(g, units) : eff >= 1 && eff <= std::min(g, units);
      check(ok, "effective_groups " + name(o) + " = " + std::to_string(eff) + " with " + std::to_string(units) +
                    " units");
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    const auto& topo = hympi::Topology::of(MPI_COMM_WORLD);
    const int p = topo.size();
    MPI_Op xor_user;
    MPI_Op_create(&xor_op, 1, &xor_user);
    MPI_Datatype triple;
    MPI_Type_contiguous(3, MPI_INT32_T, &triple);
    MPI_Type_commit(&triple);
    const std::vector<Pair> pairs = {
        {"int64 sum", MPI_INT64_T, MPI_SUM, 8, MPI_INT64_T, 1, fill_i64},
        {"double max", MPI_DOUBLE, MPI_MAX, 8, MPI_DOUBLE, 1, fill_double},
        {"double_int minloc", MPI_DOUBLE_INT, MPI_MINLOC, sizeof(DoubleInt), MPI_DOUBLE_INT, 1, fill_minloc},
        {"uint32 user xor", MPI_UINT32_T, xor_user, 4, MPI_UINT32_T, 1, fill_u32},
        {"contiguous 3 x int32 sum", triple, MPI_SUM, 12, MPI_INT32_T, 3, fill_i32},
    };
    // Every operation for G = 2, 3 and auto; the flat paths (1, and p + 5 reduced to
    // the units) for the exchanges (the reductions' flat path is core.reduce's).
    for (auto policy : {hympi::Policy::pure, hympi::Policy::hybrid})
      for (int g : {2, 3, 0, 1, p + 5}) {
        hympi::CollectiveOptions o;
        o.policy = policy;
        o.groups = g;
        test_bcast(topo, o);
        test_allgatherv(topo, o, true);
        test_allgatherv(topo, o, false);
        if (g == 2 || g == 3 || g == 0) test_reductions(topo, o, pairs);
      }
    test_effective(topo);
    test_errors(topo);
    MPI_Type_free(&triple);
    MPI_Op_free(&xor_user);
  }
  const int rc = hympi::test::finish("grouped_test");
  MPI_Finalize();
  return rc;
}
