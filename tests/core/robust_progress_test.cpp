// MPI's completion rules, tried as a hostile application would:
//  1. a rank that only polls test() must still move the application's messages:
//     its node neighbour is blocked in a rendezvous MPI_Send to it before its own
//     start(), so the collective cannot complete unless test() drives MPI;
//  2. k = 2..4 collectives of mixed kinds started in one order on every rank and
//     completed in a different permutation on each node, by wait() or by polling
//     test() only, with and without the application's messages in flight;
//  3. the same starts/tests/waits through MPI's nonblocking collectives give the
//     same results as through hympi's persistent C API.
// Every result is checked against values computed from the ranks' inputs. A
// poll that stalls for 20 s fails the test at once (MPI_Abort), and ctest's
// timeout catches a wait() that hangs.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "hympi.h"
#include "hympi/hympi.hpp"
#include "mpi_check.hpp"

using hympi::test::check;

namespace {

constexpr double kStallSeconds = 20;
constexpr std::size_t kRendezvousBytes = std::size_t{1} << 20;

// Small integers: every sum is exact, whatever the order of combination.
double value(int rank, int iteration, int k) {
  return 100.0 * rank + 10.0 * (iteration % 7) + k;
}

// Polls `done` until it says true; a stall is a hang, reported at once.
void poll(const std::function<bool()>& done, const std::string& what) {
  const double start = MPI_Wtime();
  while (!done())
    if (MPI_Wtime() - start > kStallSeconds) {
      hympi::test::fail(what + ": test() made no progress for 20 s");
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
}

// One collective object behind a uniform face: fill inputs, start, test, wait, check.
struct Op {
  std::string name;
  std::function<void(int iteration)> fill;
  std::function<void(int iteration)> start;
  std::function<bool()> test;
  std::function<void()> wait;
  std::function<void(int iteration)> check;
};

// An Op over a collective started without arguments: every collective but the
// broadcast whose root changes per start is a hympi::PersistentCollective (the
// core's one request model).
template <class Collective>
Op plain_op(std::string name, std::shared_ptr<Collective> c, std::function<void(int)> fill,
            std::function<void(int)> check_result) {
  return {std::move(name),           std::move(fill),    [c](int) { c->start(); },
          [c] { return c->test(); }, [c] { c->wait(); }, std::move(check_result)};
}

std::vector<Op> make_ops(const hympi::Topology& topo, const hympi::CollectiveOptions& options) {
  const int p = topo.size(), me = topo.rank();
  // A fill writing this rank's first n values of iteration i into c's slot.
  const auto own_values = [me](auto c, std::int64_t n) {
    return [=](int i) {
      for (int k = 0; k < n; ++k) c->template slot_as<double>()[k] = value(me, i, k);
    };
  };
  std::vector<Op> ops;
  {
    std::shared_ptr<hympi::Allgatherv> ag = hympi::Allgatherv::create_allgather(topo, 3, sizeof(double), options);
    ops.push_back(plain_op("allgather", ag, own_values(ag, 3), [=](int i) {
      bool ok = true;
      for (int r = 0; r < p; ++r)
        for (int k = 0; k < 3; ++k) ok = ok && ag->result_as<double>()[3 * r + k] == value(r, i, k);
      check(ok, "allgather result");
    }));
  }
  {
    std::vector<std::int64_t> counts(p);
    for (int r = 0; r < p; ++r) counts[r] = (r * 5 + 2) % 4;  // some ranks send nothing
    std::shared_ptr<hympi::Allgatherv> ag = hympi::Allgatherv::create(topo, counts, sizeof(double), options);
    ops.push_back(plain_op("allgatherv", ag, own_values(ag, counts[me]), [=](int i) {
      bool ok = true;
      for (int r = 0; r < p; ++r)
        for (int k = 0; k < ag->counts()[r]; ++k)
          ok = ok && ag->result_as<double>()[ag->displs()[r] + k] == value(r, i, k);
      check(ok, "allgatherv result");
    }));
  }
  {
    std::shared_ptr<hympi::Bcast> bc = hympi::Bcast::create(topo, 16, sizeof(double), options);
    const auto root = [p](int i) { return (3 * i + 1) % p; };
    ops.push_back({"bcast",
                   [=](int i) {
                     if (me == root(i))
                       for (int k = 0; k < 16; ++k) bc->buffer_as<double>()[k] = value(root(i), i, k);
                   },
                   [=](int i) { bc->start(root(i), 16); }, [=] { return bc->test(); }, [=] { bc->wait(); },
                   [=](int i) {
                     bool ok = true;
                     for (int k = 0; k < 16; ++k) ok = ok && bc->result_as<double>()[k] == value(root(i), i, k);
                     check(ok, "bcast result");
                   }});
  }
  {
    // As MPI_Bcast_init: root and count bound at creation; only the root has a slot.
    const int root = p / 2;
    std::shared_ptr<hympi::PersistentCollective> fixed =
        hympi::Bcast::create_fixed(topo, root, 7, sizeof(double), options);
    ops.push_back(plain_op(
        "fixed bcast", fixed,
        [=](int i) {
          check((fixed->slot() != nullptr) == (me == root), "a fixed bcast's slot is the root's only");
          if (me == root)
            for (int k = 0; k < 7; ++k) fixed->slot_as<double>()[k] = value(root, i, k);
        },
        [=](int i) {
          bool ok = true;
          for (int k = 0; k < 7; ++k) ok = ok && fixed->result_as<double>()[k] == value(root, i, k);
          check(ok, "fixed bcast result");
        }));
  }
  const auto sum = [p](int i, int k) {
    double s = 0;
    for (int r = 0; r < p; ++r) s += value(r, i, k);
    return s;
  };
  {
    std::shared_ptr<hympi::Allreduce> ar = hympi::Allreduce::create(topo, 5, MPI_DOUBLE, MPI_SUM, options);
    ops.push_back(plain_op("allreduce", ar, own_values(ar, 5), [=](int i) {
      bool ok = true;
      for (int k = 0; k < 5; ++k) ok = ok && ar->result_as<double>()[k] == sum(i, k);
      check(ok, "allreduce result");
    }));
  }
  {
    std::shared_ptr<hympi::Reduce> rd = hympi::Reduce::create(topo, 5, MPI_DOUBLE, MPI_SUM, p - 1, options);
    ops.push_back(plain_op("reduce", rd, own_values(rd, 5), [=](int i) {
      if (me != p - 1) return check(rd->result() == nullptr, "reduce result off the root");
      bool ok = true;
      for (int k = 0; k < 5; ++k) ok = ok && rd->result_as<double>()[k] == sum(i, k);
      check(ok, "reduce result");
    }));
  }
  return ops;
}

// The application's message across nodes (last rank -> rank 0), rendezvous-sized,
// posted before the collectives start and completed after they complete.
struct Traffic {
  std::vector<char> buffer;
  MPI_Request request = MPI_REQUEST_NULL;
  int sender, receiver, me;
  Traffic(int p, int me_) : sender(p - 1), receiver(0), me(me_) {
    if (sender == receiver || (me != sender && me != receiver)) return;
    buffer.assign(kRendezvousBytes, static_cast<char>(me == sender ? 9 : 0));
    if (me == receiver)
      MPI_Irecv(buffer.data(), static_cast<int>(buffer.size()), MPI_CHAR, sender, 11, MPI_COMM_WORLD, &request);
    else
      MPI_Isend(buffer.data(), static_cast<int>(buffer.size()), MPI_CHAR, receiver, 11, MPI_COMM_WORLD, &request);
  }
  void finish() {
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    if (!buffer.empty() && me == receiver) check(buffer.front() == 9 && buffer.back() == 9, "application message");
  }
};

// The n-th permutation of [0, k) in lexicographic order.
std::vector<int> permutation(int k, int n) {
  std::vector<int> order(static_cast<std::size_t>(k));
  std::iota(order.begin(), order.end(), 0);
  for (int i = 0; i < n; ++i) std::next_permutation(order.begin(), order.end());
  return order;
}

// Case 2: start in one order everywhere, complete per node in another.
void completion_orders(const hympi::Topology& topo, const hympi::CollectiveOptions& options, const std::string& tag,
                       int& iteration) {
  std::vector<Op> ops = make_ops(topo, options);
  const int kinds = static_cast<int>(ops.size());
  for (int k = 2; k <= 4; ++k)
    for (bool polling : {false, true})
      for (bool traffic : {false, true}) {
        ++iteration;
        std::vector<Op*> chosen;
        for (int j = 0; j < k; ++j) chosen.push_back(&ops[static_cast<std::size_t>((iteration + 2 * j) % kinds)]);
        std::sort(chosen.begin(), chosen.end());
        chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
        const int n = static_cast<int>(chosen.size());
        // Node 0 completes in start order, the others in reverse or a rotation of it.
        const std::vector<int> order = permutation(n, (topo.node_index() * 5 + iteration) % (n == 2 ? 2 : 6));
        std::unique_ptr<Traffic> message = traffic ? std::make_unique<Traffic>(topo.size(), topo.rank()) : nullptr;
        for (Op* op : chosen) op->fill(iteration);
        for (Op* op : chosen) op->start(iteration);
        std::string names;
        for (int j : order) names += chosen[static_cast<std::size_t>(j)]->name + " ";
        for (int j : order) {
          Op& op = *chosen[static_cast<std::size_t>(j)];
          if (polling)
            poll(op.test, tag + " " + op.name + " (completion order " + names + ")");
          else
            op.wait();
        }
        if (message) message->finish();
        for (Op* op : chosen) op->check(iteration);
      }
}

// Case 1: rank a polls test() only; its node neighbour b is blocked in a
// rendezvous MPI_Send to a before its own start().
void polling_moves_messages(const hympi::Topology& topo, const hympi::CollectiveOptions& options,
                            const std::string& tag, int& iteration) {
  const auto& node = topo.map().ranks_of_node[static_cast<std::size_t>(topo.node_index())];
  std::vector<Op> ops = make_ops(topo, options);
  for (Op& op : ops) {
    ++iteration;
    const int me = topo.rank();
    // On every node with two ranks or more: its first rank receives from its last.
    const bool pair = node.size() >= 2;
    const int receiver = node.front(), sender = node.back();
    std::vector<char> buffer(pair && (me == receiver || me == sender) ? kRendezvousBytes : 0, 4);
    MPI_Request request = MPI_REQUEST_NULL;
    if (pair && me == receiver)
      MPI_Irecv(buffer.data(), static_cast<int>(buffer.size()), MPI_CHAR, sender, 12, MPI_COMM_WORLD, &request);
    if (pair && me == sender)
      MPI_Send(buffer.data(), static_cast<int>(buffer.size()), MPI_CHAR, receiver, 12, MPI_COMM_WORLD);
    op.fill(iteration);
    op.start(iteration);
    poll(op.test, tag + " " + op.name + " polled beside a blocked MPI_Send");
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    op.check(iteration);
  }
}

// Completed operations stay completed: test()/wait() again return at once (as
// MPI's on an inactive request), for Bcast as for Allgatherv; an empty allgather
// still has a result pointer (a zero-size array in Fortran, not a null one).
void completed_stays_completed(const hympi::Topology& topo, const hympi::CollectiveOptions& options,
                               const std::string& tag) {
  auto bc = hympi::Bcast::create(topo, 4, sizeof(double), options);
  if (topo.rank() == 0) bc->buffer_as<double>()[0] = 7;
  bc->start(0, 1);
  poll([&] { return bc->test(); }, tag + " bcast test");
  bool ok = true;
  try {
    bc->wait();
    bc->wait();
    ok = bc->test();
  } catch (const std::exception&) {
    ok = false;
  }
  check(ok && bc->result_as<double>()[0] == 7, tag + ": bcast wait() twice after test() must return");
  auto empty = hympi::Allgatherv::create_allgather(topo, 0, sizeof(double), options);
  empty->run();
  check(empty->result() != nullptr, tag + ": an empty allgather's result must not be null");
}

// Creation arguments that may differ between ranks are agreed before anyone
// refuses: a bad element size on one rank is the same error everywhere (no
// rank left in the creation), differing element sizes are named, differing bcast
// capacities become the largest (one window layout per node).
void agreed_at_creation(const hympi::Topology& topo, const hympi::CollectiveOptions& options, const std::string& tag) {
  const bool last = topo.rank() == topo.size() - 1;
  hympi::test::expect_same_error(
      "element size must be > 0",
      [&] { hympi::Allgatherv::create_allgather(topo, 2, last ? 0 : sizeof(double), options); },
      tag + ": allgatherv element size 0 on one rank");
  if (topo.size() > 1)
    hympi::test::expect_same_error(
        "element size differs between ranks", [&] { hympi::Bcast::create(topo, 4, last ? 4 : 8, options); },
        tag + ": bcast element sizes differ");
  auto bc = hympi::Bcast::create(topo, last ? 9 : 3, sizeof(double), options);
  check(bc->capacity() == 9, tag + ": differing bcast capacities agree on the largest");
  if (topo.rank() == 0)
    for (int k = 0; k < 9; ++k) bc->buffer_as<double>()[k] = k + 0.25;
  bc->run(0, 9);
  bool ok = true;
  for (int k = 0; k < 9; ++k) ok = ok && bc->result_as<double>()[k] == k + 0.25;
  check(ok, tag + ": a broadcast of the largest capacity after agreement");
  if (topo.size() > 1) {
    hympi::test::expect_same_error(
        "bcast root differs between ranks",
        [&] { hympi::Bcast::create_fixed(topo, last ? 1 : 0, 4, sizeof(double), options); },
        tag + ": fixed bcast roots differ");
    hympi::test::expect_same_error(
        "bcast count must be >= 0",
        [&] { hympi::Bcast::create_fixed(topo, 0, last ? -1 : 4, sizeof(double), options); },
        tag + ": a negative fixed bcast count on one rank");
  }
}

// Case 3: one sequence of starts and completions through MPI's nonblocking
// collectives and through hympi's persistent ones, with the same inputs: the same
// results. (MPI-4's MPI_Allgather_init would be the closer twin, but MPICH 4.0.2
// returns the first round's result from every later start of a persistent
// allgather: a 2-rank MPI_Allgather_init/MPI_Start/MPI_Wait loop shows it.)
void side_by_side_with_mpi(MPI_Comm comm, const char* policy) {
  int p = 0, me = 0;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &me);
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "policy", policy);
  constexpr int n = 6;
  std::vector<double> ag_in(n), ag_out(static_cast<std::size_t>(n) * p), bc(n), ar_in(n), ar_out(n);
  MPI_Request mpi[3];
  hympi_request_t hy[3] = {};
  check(hympi_allgather_init(n, MPI_DOUBLE, comm, info, &hy[0]) == HYMPI_SUCCESS, "hympi_allgather_init");
  check(hympi_bcast_init(n, MPI_DOUBLE, p - 1, comm, info, &hy[1]) == HYMPI_SUCCESS, "hympi_bcast_init");
  check(hympi_allreduce_init(n, MPI_DOUBLE, MPI_MAX, comm, info, &hy[2]) == HYMPI_SUCCESS, "hympi_allreduce_init");
  for (int round = 0; round < 6; ++round) {
    for (int k = 0; k < n; ++k) {
      ag_in[k] = value(me, round, k);
      ar_in[k] = value((me + round) % p, round, k);
      if (me == p - 1) bc[k] = value(me, round, k) + 0.5;
    }
    std::copy(ag_in.begin(), ag_in.end(), static_cast<double*>(hympi_request_slot(hy[0])));
    std::copy(ar_in.begin(), ar_in.end(), static_cast<double*>(hympi_request_slot(hy[2])));
    if (me == p - 1) std::copy(bc.begin(), bc.end(), static_cast<double*>(hympi_request_slot(hy[1])));
    MPI_Iallgather(ag_in.data(), n, MPI_DOUBLE, ag_out.data(), n, MPI_DOUBLE, comm, &mpi[0]);
    MPI_Ibcast(bc.data(), n, MPI_DOUBLE, p - 1, comm, &mpi[1]);
    MPI_Iallreduce(ar_in.data(), ar_out.data(), n, MPI_DOUBLE, MPI_MAX, comm, &mpi[2]);
    for (auto& h : hy) check(hympi_start(h) == HYMPI_SUCCESS, "hympi_start");
    // Each rank completes in its own order: by test on even ranks, wait on odd ones.
    const std::vector<int> order = permutation(3, (me + round) % 6);
    for (int j : order) {
      if (me % 2 == 0) {
        int flag = 0;
        poll([&] { return MPI_Test(&mpi[j], &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && flag; }, "MPI_Test");
        poll([&] { return hympi_test(hy[j], &flag) == HYMPI_SUCCESS && flag; }, "hympi_test side by side");
      } else {
        MPI_Wait(&mpi[j], MPI_STATUS_IGNORE);
        check(hympi_wait(hy[j]) == HYMPI_SUCCESS, "hympi_wait");
      }
    }
    const auto same = [&](const std::vector<double>& ours, int which, std::size_t count, const char* what) {
      const auto* theirs = static_cast<const double*>(hympi_request_result(hy[which]));
      std::string detail;
      for (std::size_t i = 0; theirs && i < count; ++i)
        if (ours[i] != theirs[i]) {
          detail = " (element " + std::to_string(i) + ": MPI " + std::to_string(ours[i]) + ", hympi " +
                   std::to_string(theirs[i]) + ")";
          break;
        }
      check(theirs && detail.empty(), std::string("MPI-4 and hympi differ: ") + what + ", policy " + policy + detail);
    };
    same(ag_out, 0, ag_out.size(), "allgather");
    same(bc, 1, bc.size(), "bcast");
    same(ar_out, 2, ar_out.size(), "allreduce");
  }
  for (auto& h : hy) hympi_request_free(&h);
  MPI_Info_free(&info);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    const auto& topo = hympi::Topology::of(MPI_COMM_WORLD);
    int iteration = 0;
    for (auto policy : {hympi::Policy::pure, hympi::Policy::hybrid})
      for (auto sync : {hympi::SyncKind::flags, hympi::SyncKind::barrier})
        for (int leaders : {1, 2}) {
          if (policy == hympi::Policy::pure && (sync != hympi::SyncKind::flags || leaders != 1)) continue;
          hympi::CollectiveOptions options;
          options.policy = policy;
          options.sync = sync;
          options.leaders = leaders;
          const std::string tag = std::string(hympi::to_string(policy)) + "/" + hympi::to_string(sync) +
                                  "/leaders=" + std::to_string(leaders);
          polling_moves_messages(topo, options, tag, iteration);
          completed_stays_completed(topo, options, tag);
          agreed_at_creation(topo, options, tag);
          completion_orders(topo, options, tag, iteration);
        }
    side_by_side_with_mpi(MPI_COMM_WORLD, "pure");
    side_by_side_with_mpi(MPI_COMM_WORLD, "hybrid");
  }
  const int rc = hympi::test::finish("robust_progress");
  MPI_Finalize();
  return rc;
}
