// Grouped collectives (CollectiveOptions::groups) under MPI's completion rule:
// operations started in the same order on every rank may complete in any order.
//  1. three grouped requests (allreduce, bcast, allreduce; G = 2 and 3; both
//     policies) started in one order everywhere and completed in opposite orders
//     on the two halves of the ranks (by rank parity, then by the parity of the
//     rank's block of p/G ranks, so that group leaders disagree), by wait() and
//     by polling test(). A leader that waits its first request must still post
//     the other requests' next levels (the leaders' MPI collective the other
//     leaders wait for): the progress engine takes them (steps.hpp). Vectors
//     of 256 KiB: no level completes eagerly without its receivers.
//  2. a grouped allreduce waited while the application's own MPI_Isend/Irecv
//     pair (1 MiB, rendezvous) to the neighbours is in flight.
// Every result is checked against the flat MPI collective on the same data. A
// poll that stalls for 20 s fails at once (MPI_Abort); ctest's timeout catches
// a wait() that hangs.
#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hympi/hympi.hpp"
#include "mpi_check.hpp"

using hympi::test::check;

namespace {

constexpr double kStallSeconds = 20;
constexpr std::int64_t kCount = std::int64_t{1} << 15;  // 256 KiB: rendezvous on both MPIs

std::int64_t ival(int rank, std::int64_t i, int it, int k) {
  return (rank * 7919 + i * 31 + it * 101 + k * 13) % 1000 - 500;
}

std::string name(const hympi::CollectiveOptions& o) {
  return std::string(to_string(o.policy)) + " groups=" + std::to_string(o.groups);
}

void poll(hympi::PersistentCollective& op, const std::string& what) {
  const double start = MPI_Wtime();
  while (!op.test())
    if (MPI_Wtime() - start > kStallSeconds) {
      hympi::test::fail(what + ": test() made no progress for 20 s");
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
}

// The flat reference of request k (0, 2: allreduce sums; 1: bcast from p - 1).
std::vector<std::int64_t> reference(int k, int p, int it) {
  std::vector<std::int64_t> ref(kCount, 0);
  for (std::int64_t i = 0; i < kCount; ++i)
    if (k == 1)
      ref[i] = ival(p - 1, i, it, k);
    else
      for (int r = 0; r < p; ++r) ref[i] += ival(r, i, it, k);
  return ref;
}

// A, B, C started in this order; completed A B C on one half, C B A on the other.
void test_opposite_orders(const hympi::Topology& topo, const hympi::CollectiveOptions& o) {
  const int p = topo.size(), rank = topo.rank();
  std::vector<std::unique_ptr<hympi::PersistentCollective>> ops;
  ops.push_back(hympi::Allreduce::create(topo, kCount, MPI_INT64_T, MPI_SUM, o));
  ops.push_back(hympi::Bcast::create_fixed(topo, p - 1, kCount, sizeof(std::int64_t), o));
  ops.push_back(hympi::Allreduce::create(topo, kCount, MPI_INT64_T, MPI_SUM, o));
  const int block = (rank * std::max(o.groups, 1)) / p;  // the pure policy's group of this rank
  for (int it = 0; it < 4; ++it) {
    for (int k = 0; k < 3; ++k) {
      std::vector<std::int64_t> mine(kCount);
      for (std::int64_t i = 0; i < kCount; ++i) mine[i] = ival(rank, i, it, k);
      if (void* slot = ops[k]->slot()) std::memcpy(slot, mine.data(), sizeof(std::int64_t) * kCount);
    }
    for (auto& op : ops) op->start();
    const bool reversed = ((it < 2 ? rank : block) % 2) == 1;
    const bool by_test = it % 2 == 1;
    const std::string what = name(o) + " round " + std::to_string(it) + (by_test ? " test()" : " wait()");
    for (int j = 0; j < 3; ++j) {
      auto& op = *ops[reversed ? 2 - j : j];
      if (by_test)
        poll(op, what);
      else
        op.wait();
    }
    for (int k = 0; k < 3; ++k)
      check(std::memcmp(ops[k]->result(), reference(k, p, it).data(), sizeof(std::int64_t) * kCount) == 0,
            what + " request " + std::to_string(k));
  }
}

// A grouped allreduce waited with the application's rendezvous messages in flight.
void test_with_messages(const hympi::Topology& topo, const hympi::CollectiveOptions& o) {
  const int p = topo.size(), rank = topo.rank();
  if (p < 2) return;
  const int n = (1 << 20) / static_cast<int>(sizeof(std::int64_t));
  auto op = hympi::Allreduce::create(topo, kCount, MPI_INT64_T, MPI_SUM, o);
  std::vector<std::int64_t> out(n), in(n, -1);
  for (int i = 0; i < n; ++i) out[i] = rank * 1000003LL + i;
  for (std::int64_t i = 0; i < kCount; ++i) static_cast<std::int64_t*>(op->slot())[i] = ival(rank, i, 7, 0);
  op->start();
  MPI_Request r[2];
  const int right = (rank + 1) % p, left = (rank + p - 1) % p;
  MPI_Irecv(in.data(), n, MPI_INT64_T, left, 77, topo.comm(), &r[0]);
  MPI_Isend(out.data(), n, MPI_INT64_T, right, 77, topo.comm(), &r[1]);
  op->wait();
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  bool ok = true;
  for (int i = 0; i < n; ++i) ok = ok && in[i] == left * 1000003LL + i;
  check(ok, name(o) + " the application's message");
  std::vector<std::int64_t> ref(kCount, 0);
  for (std::int64_t i = 0; i < kCount; ++i)
    for (int r2 = 0; r2 < p; ++r2) ref[i] += ival(r2, i, 7, 0);
  check(std::memcmp(op->result(), ref.data(), sizeof(std::int64_t) * kCount) == 0,
        name(o) + " allreduce with messages in flight");
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    const auto& topo = hympi::Topology::of(MPI_COMM_WORLD);
    for (auto policy : {hympi::Policy::pure, hympi::Policy::hybrid})
      for (int g : {2, 3}) {
        hympi::CollectiveOptions o;
        o.policy = policy;
        o.groups = g;
        test_opposite_orders(topo, o);
        test_with_messages(topo, o);
      }
  }
  const int rc = hympi::test::finish("grouped_any_order_test");
  MPI_Finalize();
  return rc;
}
