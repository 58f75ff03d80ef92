// Intercommunicators are refused (issue 42, item 3): every init of the C API
// (C and Fortran handles), hympi_node_info, and the C++ Topology::of,
// Topology::flat, a Topology, Grid2D and TwoLevelGrid, given an intercommunicator
// (world split into even and odd ranks, joined by MPI_Intercomm_create), fail
// on every rank with HYMPI_ERR_ARG / hympi::Error naming "intercommunicator",
// the same text everywhere and *out / *request NULL, instead of crashing inside
// MPI_Comm_split_type. Afterwards the library still works (an allgather on
// MPI_COMM_WORLD against MPI's own). np >= 2. Exit 1 on any failure.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "hympi/error.hpp"
#include "hympi/grid.hpp"
#include "hympi/hympi.h"
#include "hympi/topology.hpp"

namespace {

int rank = 0, size = 1, failures = 0;

void fail(const std::string& what) {
  std::fprintf(stderr, "[rank %d] robust_intercomm FAILED: %s\n", rank, what.c_str());
  ++failures;
}

// The same text on every rank: compared through its hash (min == max over the world).
bool same_everywhere(const std::string& text) {
  unsigned long long h = std::hash<std::string>{}(text), lo = 0, hi = 0;
  MPI_Allreduce(&h, &lo, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&h, &hi, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  return lo == hi;
}

void check_refusal(const char* what, bool failed, const std::string& message, bool output_null) {
  if (!failed) fail(std::string(what) + ": an intercommunicator was accepted");
  if (message.find("intercommunicator") == std::string::npos)
    fail(std::string(what) + ": the message does not name the intercommunicator: '" + message + "'");
  if (!output_null) fail(std::string(what) + ": the output is not NULL");
  if (!same_everywhere(message)) fail(std::string(what) + ": the message differs between ranks");
}

// A C call returning a code; `out` is what it should leave NULL.
template <class Handle>
void c_call(const char* what, const std::function<int(Handle*)>& call) {
  Handle out = reinterpret_cast<Handle>(&rank);  // not NULL: the call must clear it
  const int rc = call(&out);
  check_refusal(what, rc == HYMPI_ERR_ARG, hympi_last_error(), out == nullptr);
}

// A C++ construction that must throw hympi::Error(invalid_argument).
void cpp_call(const char* what, const std::function<void()>& build) {
  std::string message;
  bool failed = false;
  try {
    build();
  } catch (const hympi::Error& e) {
    failed = e.code() == hympi::ErrorCode::invalid_argument;
    message = e.what();
  }
  check_refusal(what, failed, message, true);
}

void refuse_everything(MPI_Comm inter) {
  const MPI_Fint f = MPI_Comm_c2f(inter);
  const std::vector<std::int64_t> counts(static_cast<std::size_t>(size), 3);  // large enough for either group
  int node_rank = -1;
  const int rc = hympi_node_info(inter, &node_rank, nullptr, nullptr, nullptr);
  check_refusal("hympi_node_info", rc == HYMPI_ERR_ARG, hympi_last_error(), node_rank == -1);
  const int frc = hympi_node_info_f(f, &node_rank, nullptr, nullptr, nullptr);
  check_refusal("hympi_node_info_f", frc == HYMPI_ERR_ARG, hympi_last_error(), node_rank == -1);

  using RQ = hympi_request_t;
  const MPI_Fint fd = MPI_Type_c2f(MPI_DOUBLE), fi = MPI_Info_c2f(MPI_INFO_NULL), fs = MPI_Op_c2f(MPI_SUM);
  c_call<RQ>("hympi_allgather_init",
             [&](RQ* r) { return hympi_allgather_init(3, MPI_DOUBLE, inter, MPI_INFO_NULL, r); });
  c_call<RQ>("hympi_allgatherv_init",
             [&](RQ* r) { return hympi_allgatherv_init(counts.data(), MPI_DOUBLE, inter, MPI_INFO_NULL, r); });
  c_call<RQ>("hympi_bcast_init", [&](RQ* r) { return hympi_bcast_init(3, MPI_DOUBLE, 0, inter, MPI_INFO_NULL, r); });
  c_call<RQ>("hympi_allreduce_init",
             [&](RQ* r) { return hympi_allreduce_init(3, MPI_DOUBLE, MPI_SUM, inter, MPI_INFO_NULL, r); });
  c_call<RQ>("hympi_reduce_init",
             [&](RQ* r) { return hympi_reduce_init(3, MPI_DOUBLE, MPI_SUM, 0, inter, MPI_INFO_NULL, r); });
  c_call<RQ>("hympi_allgather_init_f", [&](RQ* r) { return hympi_allgather_init_f(3, fd, f, fi, r); });
  c_call<RQ>("hympi_allgatherv_init_f", [&](RQ* r) {
    return hympi_allgatherv_init_f(counts.data(), static_cast<std::int64_t>(counts.size()), fd, f, fi, r);
  });
  c_call<RQ>("hympi_bcast_init_f", [&](RQ* r) { return hympi_bcast_init_f(3, fd, 0, f, fi, r); });
  c_call<RQ>("hympi_allreduce_init_f", [&](RQ* r) { return hympi_allreduce_init_f(3, fd, fs, f, fi, r); });
  c_call<RQ>("hympi_reduce_init_f", [&](RQ* r) { return hympi_reduce_init_f(3, fd, fs, 0, f, fi, r); });

  cpp_call("Topology::of", [&] { hympi::Topology::of(inter); });
  cpp_call("Topology::flat", [&] { hympi::Topology::flat(inter); });
  cpp_call("Topology", [&] { hympi::Topology t(inter, hympi::LayoutSpec{}); });
  int local = 0;
  MPI_Comm_size(inter, &local);
  cpp_call("Grid2D", [&] { hympi::Grid2D g(inter, 1, local); });
  cpp_call("TwoLevelGrid", [&] {
    hympi::TwoLevelGrid g(inter, hympi::TwoLevelShape{1, local, 1, 1, hympi::GridOrder::row_major, false});
  });
}

// The library after the refusals: one allgather on the world against MPI's.
void still_works() {
  hympi_request_t req = nullptr;
  if (hympi_allgather_init(2, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req) != HYMPI_SUCCESS)
    return fail(std::string("allgather init on MPI_COMM_WORLD afterwards: ") + hympi_last_error());
  int* slot = static_cast<int*>(hympi_request_slot(req));
  slot[0] = 10 * rank, slot[1] = 10 * rank + 1;
  if (hympi_start(req) != HYMPI_SUCCESS || hympi_wait(req) != HYMPI_SUCCESS) fail("allgather afterwards failed");
  std::vector<int> mine{10 * rank, 10 * rank + 1}, want(static_cast<std::size_t>(2 * size));
  MPI_Allgather(mine.data(), 2, MPI_INT, want.data(), 2, MPI_INT, MPI_COMM_WORLD);
  if (std::memcmp(hympi_request_result(req), want.data(), want.size() * sizeof(int)) != 0)
    fail("allgather afterwards differs from MPI_Allgather");
  hympi_request_free(&req);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    if (rank == 0) std::fprintf(stderr, "robust_intercomm_test needs 2 or more ranks\n");
    MPI_Finalize();
    return 2;
  }
  // Even and odd world ranks; the leaders are world ranks 0 and 1.
  MPI_Comm half = MPI_COMM_NULL, inter = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 == 0 ? 1 : 0, 7, &inter);
  refuse_everything(inter);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
  still_works();
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) std::printf("robust intercomm: %d ranks: %s\n", size, total ? "FAILED" : "ok");
  MPI_Finalize();
  return total ? 1 : 0;
}
