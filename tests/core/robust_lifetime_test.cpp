// Object lifetimes an application may legally produce: its communicator freed
// while hympi objects built on it live; a broadcast destroyed in flight (an
// exception unwinding a lookahead loop); a growth that fails. None may crash or
// read freed memory (the ASan suite runs this too), and the library keeps working.
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hympi/hympi.h"
#include "hympi/hympi.hpp"
#include "mpi_check.hpp"

using hympi::test::check;
using hympi::test::expect_error;

namespace {

void communicator_freed(hympi::CollectiveOptions opt, bool flat, const std::string& tag) {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  const auto& topo = flat ? hympi::Topology::flat(comm) : hympi::Topology::of(comm);
  auto ag = hympi::Allgatherv::create_allgather(topo, 4, sizeof(double), opt);
  auto bc = hympi::Bcast::create(topo, 4, sizeof(double), opt);
  ag->run();
  MPI_Comm_free(&comm);  // legal MPI; deletes the cached topology's cache entry
  expect_error(
      "communicator was freed", [&] { ag->run(); }, "allgather run after MPI_Comm_free" + tag);
  expect_error(
      "communicator was freed", [&] { ag->set_counts(ag->counts()); }, "set_counts after MPI_Comm_free" + tag);
  expect_error(
      "communicator was freed", [&] { bc->run(0, 1); }, "bcast run after MPI_Comm_free" + tag);
  expect_error(
      "communicator was freed", [&] { bc->start(0, 1); }, "bcast start after MPI_Comm_free" + tag);
  ag.reset();  // frees windows on the node communicator the topology still owns
  bc.reset();
}

// A node-shared array outliving its communicator: it keeps the topology alive,
// every call that communicates or consults the topology then throws on every
// rank, its own memory stays readable, and destruction is safe.
void node_shared_array_freed(hympi::Policy policy, hympi::SyncKind sync, const std::string& tag) {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  auto array = std::make_unique<hympi::NodeSharedArray>(hympi::Topology::of(comm), 8 * sizeof(double), policy, sync);
  array->fill_by_leader([](std::byte* data, std::size_t bytes) {
    for (std::size_t k = 0; k < bytes / sizeof(double); ++k) reinterpret_cast<double*>(data)[k] = 1.0 + k;
  });
  const std::size_t per_node = array->bytes_per_node();
  MPI_Comm_free(&comm);
  const std::string what = "node-shared array after MPI_Comm_free" + tag + ": ";
  const std::string needle = "communicator was freed";
  hympi::test::expect_same_error(
      needle, [&] { array->fill_by_leader([](std::byte*, std::size_t) {}); }, what + "fill_by_leader");
  hympi::test::expect_same_error(
      needle, [&] { array->fill_cooperatively([](std::byte*, std::size_t, std::size_t) {}); },
      what + "fill_cooperatively");
  hympi::test::expect_same_error(
      needle, [&] { array->publish(); }, what + "publish");
  hympi::test::expect_same_error(
      needle, [&] { static_cast<void>(array->writer()); }, what + "writer");
  hympi::test::expect_same_error(
      needle, [&] { static_cast<void>(array->bytes_per_node()); }, what + "bytes_per_node");
  check(per_node > 0 && array->size() == 8 * sizeof(double) && array->as<double>()[7] == 8.0 &&
            array->shared() == (policy == hympi::Policy::hybrid),
        what + "its own memory stays readable");
  array.reset();  // after the free: must neither crash nor touch the freed communicator
  // The library keeps working on a fresh communicator.
  hympi::NodeSharedArray fresh(hympi::Topology::of(MPI_COMM_WORLD), sizeof(double), policy, sync);
  fresh.fill_by_leader([](std::byte* data, std::size_t) { *reinterpret_cast<double*>(data) = 3.0; });
  check(fresh.as<double>()[0] == 3.0, what + "a new array works afterwards");
}

// The building block under both: a node buffer keeps its topology alive too; a
// growth after the free throws on every rank, and the buffer dies safely.
void node_buffer_freed() {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  auto buffer = std::make_unique<hympi::NodeBuffer>(hympi::Topology::of(comm), 64);
  MPI_Comm_free(&comm);
  hympi::test::expect_same_error(
      "communicator was freed", [&] { buffer->reserve(std::size_t{1} << 20); },
      "node buffer reserve after MPI_Comm_free");
  check(buffer->capacity() >= 64 && buffer->data() != nullptr, "the node buffer is unchanged after the refusal");
  buffer.reset();
}

// A broadcast in flight when its object dies must complete first, on every rank.
void destroyed_in_flight(hympi::CollectiveOptions opt, const std::string& tag) {
  const auto& topo = hympi::Topology::of(MPI_COMM_WORLD);
  const std::int64_t n = 1 << 18;  // 2 MiB: rendezvous, still moving when the object dies
  {
    auto bc = hympi::Bcast::create(topo, n, sizeof(double), opt);
    const int root = topo.size() - 1;
    if (topo.rank() == root)
      for (std::int64_t k = 0; k < n; ++k) bc->buffer_as<double>()[k] = static_cast<double>(k);
    bc->start(root, n);
  }  // destroyed in flight
  auto bc = hympi::Bcast::create(topo, n, sizeof(double), opt);
  if (topo.rank() == 0) bc->buffer_as<double>()[n - 1] = 5.0;
  bc->run(0, n);
  check(bc->result_as<double>()[n - 1] == 5.0, "bcast works after one was destroyed in flight" + tag);
}

// A grouped collective (groups = 2: an outer level among the group leaders, an inner one in
// each group) in flight when its object dies completes all its levels first, on every rank: a
// leader whose chain stopped after the outer level would leave its group waiting forever.
void grouped_destroyed_in_flight(hympi::CollectiveOptions opt, const std::string& tag) {
  const auto& topo = hympi::Topology::of(MPI_COMM_WORLD);
  const int p = topo.size(), me = topo.rank();
  if (p < 2) return;
  opt.groups = 2;
  const std::int64_t n = 1 << 18;  // 2 MiB: rendezvous, still moving when the object dies
  const int root = p - 1;
  {  // The application's own MPI calls move the outer level, no hympi call posts the inner one.
    auto bc = hympi::Bcast::create_fixed(topo, root, n, sizeof(double), opt);
    if (me == root) std::fill_n(bc->slot_as<double>(), n, 2.0);
    bc->start();
    for (int k = 0; k < 20; ++k) {
      MPI_Barrier(MPI_COMM_WORLD);
      usleep(500);
    }
  }  // destroyed in flight with its outer level done
  std::vector<std::unique_ptr<hympi::PersistentCollective>> doomed;
  doomed.push_back(hympi::Bcast::create_fixed(topo, root, n, sizeof(double), opt));
  doomed.push_back(hympi::Allreduce::create(topo, n, MPI_DOUBLE, MPI_SUM, opt));
  doomed.push_back(hympi::Reduce::create(topo, n, MPI_DOUBLE, MPI_SUM, root, opt));
  doomed.push_back(hympi::Allgatherv::create_allgather(topo, n / p, sizeof(double), opt));
  for (auto& op : doomed) {
    if (op->slot()) std::fill_n(static_cast<double*>(op->slot()), op.get() == doomed[3].get() ? n / p : n, 1.0);
    op->start();
  }
  doomed.clear();  // destroyed in flight, in start order
  // Every level completed: the next grouped objects run on clean communicators.
  auto bc = hympi::Bcast::create_fixed(topo, root, n, sizeof(double), opt);
  auto ar = hympi::Allreduce::create(topo, 4, MPI_DOUBLE, MPI_SUM, opt);
  if (me == root) bc->slot_as<double>()[n - 1] = 5.0;
  for (int k = 0; k < 4; ++k) ar->slot_as<double>()[k] = me + k;
  bc->run();
  ar->run();
  check(bc->result_as<double>()[n - 1] == 5.0, "grouped bcast works after grouped ones were destroyed in flight" + tag);
  check(ar->result_as<double>()[3] == p * (p - 1) / 2.0 + 3.0 * p,
        "grouped allreduce works after grouped ones were destroyed in flight" + tag);
}

// Started, then its communicator freed, then destroyed (legal MPI): the levels complete
// without touching the freed communicator.
void grouped_freed_in_flight(hympi::CollectiveOptions opt, const std::string& tag) {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  const auto& topo = hympi::Topology::of(comm);
  const int p = topo.size();
  if (p < 2) {
    MPI_Comm_free(&comm);
    return;
  }
  opt.groups = 2;
  const std::int64_t n = 1 << 18;
  const int g = hympi::effective_groups(topo, opt, n * static_cast<std::int64_t>(sizeof(double)));
  if (g == 1 || g == p) {  // flat: the MPI collective itself (Open MPI 4.1's libnbc crashes when a
    MPI_Comm_free(&comm);  // communicator is freed under its nonblocking collective)
    return;
  }
  auto bc = hympi::Bcast::create_fixed(topo, p - 1, n, sizeof(double), opt);
  auto ar = hympi::Allreduce::create(topo, n, MPI_DOUBLE, MPI_SUM, opt);
  if (bc->slot()) std::fill_n(bc->slot_as<double>(), n, 1.0);
  std::fill_n(ar->slot_as<double>(), n, 1.0);
  bc->start();
  ar->start();
  MPI_Comm_free(&comm);
  bc.reset();
  ar.reset();
  check(true, "grouped objects destroyed in flight after MPI_Comm_free" + tag);
}

// Issue 54 case 4: grouped objects (pure and hybrid) whose communicator was freed refuse
// run() and start() on every rank, as the flat ones do; through the C API HYMPI_ERR_ARG
// (the groups' own communicators outlive the freed one: pure's went on working).
void grouped_refused_after_free(hympi::CollectiveOptions opt, const std::string& tag) {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  const auto& topo = hympi::Topology::of(comm);
  const int p = topo.size();
  opt.groups = 2;
  const int g = hympi::effective_groups(topo, opt, 4 * sizeof(double));
  const int units = opt.policy == hympi::Policy::hybrid && !topo.is_flat() ? topo.num_nodes() : p;
  if (g == 1 || g >= units) {  // the flat path here: communicator_freed covers it
    MPI_Comm_free(&comm);
    return;
  }
  std::vector<std::unique_ptr<hympi::PersistentCollective>> ops;
  ops.push_back(hympi::Bcast::create_fixed(topo, p - 1, 4, sizeof(double), opt));
  ops.push_back(hympi::Allreduce::create(topo, 4, MPI_DOUBLE, MPI_SUM, opt));
  ops.push_back(hympi::Reduce::create(topo, 4, MPI_DOUBLE, MPI_SUM, 0, opt));
  ops.push_back(hympi::Allgatherv::create_allgather(topo, 4, sizeof(double), opt));
  for (auto& op : ops) op->run();
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "groups", "2");
  MPI_Info_set(info, "policy", opt.policy == hympi::Policy::pure ? "pure" : "hybrid");
  hympi_request_t request = HYMPI_REQUEST_NULL;
  check(hympi_allreduce_init(4, MPI_DOUBLE, MPI_SUM, comm, info, &request) == HYMPI_SUCCESS &&
            hympi_start(request) == HYMPI_SUCCESS && hympi_wait(request) == HYMPI_SUCCESS,
        "grouped C request before MPI_Comm_free" + tag);
  MPI_Info_free(&info);
  MPI_Comm_free(&comm);
  const char* names[] = {"bcast", "allreduce", "reduce", "allgather"};
  for (std::size_t k = 0; k < ops.size(); ++k) {
    const std::string what = std::string("grouped ") + names[k];
    expect_error("communicator was freed", [&] { ops[k]->run(); }, what + " run after MPI_Comm_free" + tag);
    expect_error("communicator was freed", [&] { ops[k]->start(); }, what + " start after MPI_Comm_free" + tag);
  }
  const int rc = request ? hympi_start(request) : HYMPI_ERR_ARG;
  check(rc == HYMPI_ERR_ARG && std::string(hympi_last_error()).find("communicator was freed") != std::string::npos,
        "grouped C request start after MPI_Comm_free" + tag + ": code " + std::to_string(rc));
  if (rc == HYMPI_SUCCESS) hympi_wait(request);
  hympi_request_free(&request);
  ops.clear();
}

// Growth beyond what shared memory can hold fails on every rank; the object stays
// exactly as it was and keeps working.
void growth_failure(hympi::CollectiveOptions opt, const std::string& tag) {
  const auto& topo = hympi::Topology::of(MPI_COMM_WORLD);
  const int p = topo.size(), me = topo.rank();
  auto ag = hympi::Allgatherv::create_allgather(topo, 8, sizeof(double), opt);
  for (int k = 0; k < 8; ++k) ag->slot_as<double>()[k] = me + 0.5 * k;
  ag->run();
  const void* result_before = ag->result();
  void* slot_before = ag->slot();
  const std::size_t bytes_before = ag->bytes_per_node();
  // 2^41 doubles per rank: 16 TiB a rank, more than any /dev/shm or heap.
  expect_error(
      "does not fit", [&] { ag->set_counts(std::vector<std::int64_t>(p, std::int64_t{1} << 41)); },
      "growth beyond shared memory" + tag);
  check(ag->result() == result_before && ag->slot() == slot_before && ag->bytes_per_node() == bytes_before &&
            ag->counts() == std::vector<std::int64_t>(p, 8),
        "failed growth left the object as it was" + tag);
  bool ok = true;
  for (int r = 0; r < p; ++r)
    for (int k = 0; k < 8; ++k) ok = ok && ag->result_as<double>()[8 * r + k] == r + 0.5 * k;
  check(ok, "result still readable after a failed growth" + tag);
  for (int k = 0; k < 8; ++k) ag->slot_as<double>()[k] = -me - k;
  ag->run();
  ok = true;
  for (int r = 0; r < p; ++r)
    for (int k = 0; k < 8; ++k) ok = ok && ag->result_as<double>()[8 * r + k] == -r - k;
  check(ok, "object works after a failed growth" + tag);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  for (auto policy : {hympi::Policy::pure, hympi::Policy::hybrid})
    for (auto sync : {hympi::SyncKind::flags, hympi::SyncKind::barrier})
      for (bool overlap : {false, true}) {
        const hympi::CollectiveOptions opt{policy, sync, overlap};
        const std::string tag =
            std::string(" (") + to_string(policy) + "/" + to_string(sync) + (overlap ? "/overlap" : "") + ")";
        communicator_freed(opt, false, tag);
        if (policy == hympi::Policy::pure) communicator_freed(opt, true, tag + " flat");
        destroyed_in_flight(opt, tag);
        if (!overlap) grouped_destroyed_in_flight(opt, tag);
        if (!overlap) grouped_freed_in_flight(opt, tag);
        if (!overlap) grouped_refused_after_free(opt, tag);
        if (!overlap) node_shared_array_freed(policy, sync, tag);
        // Growth is a shared-window matter; pure's private vector fails with bad_alloc.
        if (!overlap && policy == hympi::Policy::hybrid) growth_failure(opt, tag);
      }
  node_buffer_freed();
  const int rc = hympi::test::finish("robust_lifetime");
  MPI_Finalize();
  return rc;
}
