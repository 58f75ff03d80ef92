// The application's own point-to-point traffic around every collective, as a
// real code has it: a message posted before a collective and completed after it
// must neither hang (a rank spinning on shared-memory flags has to drive MPI
// progress, or its rendezvous never moves and its neighbours wait forever) nor
// disturb the results. Eager and rendezvous sizes, blocking and nonblocking
// senders, both policies and both syncs; ctest's timeout turns a hang into a failure.
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "hympi/hympi.hpp"
#include "mpi_check.hpp"

using hympi::test::check;

namespace {

// One collective call and a check of its result against what every rank wrote.
struct Case {
  std::string name;
  std::function<void(int iteration)> run_and_check;
};

std::vector<Case> collectives(const hympi::Topology& topo, hympi::CollectiveOptions opt,
                              std::vector<std::unique_ptr<hympi::Allgatherv>>& ags,
                              std::vector<std::unique_ptr<hympi::Bcast>>& bcs) {
  const int p = topo.size(), me = topo.rank();
  std::vector<std::int64_t> counts(p);
  for (int r = 0; r < p; ++r) counts[r] = 1 + (r * 7) % 5;  // irregular, rank order differs from node order
  ags.push_back(hympi::Allgatherv::create_allgather(topo, 3, sizeof(double), opt));
  ags.push_back(hympi::Allgatherv::create(topo, counts, sizeof(double), opt));
  auto overlap = opt;
  overlap.overlap = true;
  bcs.push_back(hympi::Bcast::create(topo, 64, sizeof(double), opt));
  bcs.push_back(hympi::Bcast::create(topo, 64, sizeof(double), overlap));
  auto value = [](int rank, int i, int k) { return 1000.0 * rank + 10.0 * i + k; };
  std::vector<Case> cases;
  for (auto* ag : {ags[0].get(), ags[1].get()})
    cases.push_back({ag == ags[0].get() ? "allgather" : "allgatherv", [=](int i) {
                       for (int k = 0; k < ag->counts()[me]; ++k) ag->slot_as<double>()[k] = value(me, i, k);
                       ag->run();
                       bool ok = true;
                       for (int r = 0; r < p; ++r)
                         for (int k = 0; k < ag->counts()[r]; ++k)
                           ok = ok && ag->result_as<double>()[ag->displs()[r] + k] == value(r, i, k);
                       check(ok, "allgather(v) result with p2p traffic");
                     }});
  auto bcast_case = [=](hympi::Bcast* bc, bool split) {
    return [=](int i) {
      const int root = (i + 1) % p;
      if (me == root)
        for (int k = 0; k < 64; ++k) bc->buffer_as<double>()[k] = value(root, i, k);
      if (split) {
        bc->start(root, 64);
        bc->wait();
      } else {
        bc->run(root, 64);
      }
      bool ok = true;
      for (int k = 0; k < 64; ++k) ok = ok && bc->result_as<double>()[k] == value(root, i, k);
      check(ok, "bcast result with p2p traffic");
    };
  };
  cases.push_back({"bcast run", bcast_case(bcs[0].get(), false)});
  cases.push_back({"bcast start/wait", bcast_case(bcs[1].get(), true)});
  return cases;
}

// receiver: Irecv before, Wait after the collective. sender: Send (or Isend) before,
// Wait after. Both orders of who is on which node come from the pairs chosen below.
void with_traffic(int sender, int receiver, std::size_t bytes, bool blocking_send, const Case& c, int iteration) {
  const int me = hympi::test::world_rank();
  std::vector<char> buf(me == sender || me == receiver ? bytes : 0, static_cast<char>(me == sender ? 7 : 0));
  MPI_Request request = MPI_REQUEST_NULL;
  if (me == receiver) MPI_Irecv(buf.data(), static_cast<int>(bytes), MPI_CHAR, sender, 5, MPI_COMM_WORLD, &request);
  if (me == sender) {
    if (blocking_send)
      MPI_Send(buf.data(), static_cast<int>(bytes), MPI_CHAR, receiver, 5, MPI_COMM_WORLD);
    else
      MPI_Isend(buf.data(), static_cast<int>(bytes), MPI_CHAR, receiver, 5, MPI_COMM_WORLD, &request);
  }
  c.run_and_check(iteration);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  if (me == receiver) check(bytes == 0 || (buf.front() == 7 && buf.back() == 7), "p2p payload " + c.name);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    const auto& topo = hympi::Topology::of(MPI_COMM_WORLD);
    const int p = topo.size();
    // Pairs across nodes and inside one: a non-leader receiving from the last rank
    // (the deadlock), a leader receiving, and the reverse direction.
    const std::vector<std::pair<int, int>> pairs = {{p - 1, 1 % p}, {p - 1, 0}, {0, p - 1}};
    int iteration = 0;
    for (auto policy : {hympi::Policy::pure, hympi::Policy::hybrid})
      for (auto sync : {hympi::SyncKind::flags, hympi::SyncKind::barrier}) {
        std::vector<std::unique_ptr<hympi::Allgatherv>> ags;
        std::vector<std::unique_ptr<hympi::Bcast>> bcs;
        for (const Case& c : collectives(topo, {policy, sync}, ags, bcs))
          for (auto [sender, receiver] : pairs) {
            if (sender == receiver) continue;
            for (std::size_t bytes : {std::size_t{64}, std::size_t{4} << 20})
              for (bool blocking : {true, false}) with_traffic(sender, receiver, bytes, blocking, c, ++iteration);
          }
      }
  }
  const int rc = hympi::test::finish("robust_p2p");
  MPI_Finalize();
  return rc;
}
