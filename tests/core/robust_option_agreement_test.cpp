// Issue 54 (cases 1-3): an option that differs on ONE rank, or a value only one rank
// cannot read, through every C init, the C++ creates and groups = auto's HYMPI_MODEL_*
// environment: HYMPI_ERR_ARG (hympi::Error) on every rank with the same message naming
// the problem, never an abort (MPI_ERR_TRUNCATE: an agreement whose length depended on
// a value), a hang (the ctest timeout) or another argument's message ("datatype extent
// differs"); the library works afterwards.
#include <mpi.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "hympi/hympi.h"
#include "hympi/hympi.hpp"
#include "mpi_check.hpp"

using hympi::test::check;
using hympi::test::expect_same_error;

namespace {

int rank_ = 0, size_ = 1;

enum Kind { kAllgatherv, kAllgather, kBcast, kAllreduce, kReduce, kGather, kScatter, kKinds };
const char* const kKindNames[kKinds] = {"allgatherv", "allgather", "bcast", "allreduce", "reduce", "gather", "scatter"};

// One info key differing: `odd` on the odd rank, `usual` elsewhere ("" = key absent).
struct Differ {
  const char* key;
  const char* odd;
  const char* usual;
  const char* needle;  // what the agreed message must name
};

// Every option of the table, each a valid value on its own (the odd value of
// progress_thread fails locally without MPI_THREAD_MULTIPLE: the same error everywhere),
// and every mix of groups the issue reported.
const std::vector<Differ>& differs() {
  static const std::vector<Differ> all = {
      {"policy", "pure", "hybrid", "'policy'"},
      {"sync", "flags", "barrier", "'sync'"},
      {"leaders", "2", "0", "'leaders'"},
      {"overlap", "true", "false", "'overlap'"},
      {"deterministic", "true", "false", "'deterministic'"},
      {"progress_thread", "true", "false", "progress_thread"},
      {"groups", "auto", "2", "'groups'"},
      {"groups", "2", "auto", "'groups'"},
      {"groups", "auto", "", "'groups'"},
      {"groups", "1", "2", "'groups'"},
      {"groups", "2", "1", "'groups'"},
      {"groups", "3", "2", "'groups'"},
      {"groups", "two", "auto", "'two'"},
      {"groups", "two", "2", "'two'"},
      {"groups", "two", "1", "'two'"},
  };
  return all;
}

// The init of `kind` on comm with `info`; 2 ints per rank, root the last rank.
int init(Kind kind, MPI_Comm comm, MPI_Info info, hympi_request_t* request) {
  std::vector<int64_t> counts(static_cast<std::size_t>(size_), 2);
  switch (kind) {
    case kAllgatherv:
      return hympi_allgatherv_init(counts.data(), MPI_INT, comm, info, request);
    case kAllgather:
      return hympi_allgather_init(2, MPI_INT, comm, info, request);
    case kBcast:
      return hympi_bcast_init(2, MPI_INT, size_ - 1, comm, info, request);
    case kAllreduce:
      return hympi_allreduce_init(2, MPI_INT, MPI_SUM, comm, info, request);
    case kGather:
      return hympi_gather_init(2, MPI_INT, size_ - 1, comm, info, request);
    case kScatter:
      return hympi_scatter_init(2, MPI_INT, size_ - 1, comm, info, request);
    default:
      return hympi_reduce_init(2, MPI_INT, MPI_SUM, 0, comm, info, request);
  }
}

MPI_Info make_info(const char* key, const char* value) {
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "sync", "barrier");  // flag spinning is slow oversubscribed; sync's own case sets it
  if (*value) MPI_Info_set(info, key, value);
  return info;
}

// The C init failed on every rank with HYMPI_ERR_ARG, rank 0's message, naming `needle`.
void expect_c_error(int rc, const hympi_request_t request, const std::string& needle, const std::string& what) {
  std::string message = rc == HYMPI_SUCCESS ? "" : hympi_last_error();
  check(rc == HYMPI_ERR_ARG, what + ": code " + std::to_string(rc) + " (expected HYMPI_ERR_ARG), '" + message + "'");
  check(message.find(needle) != std::string::npos, what + ": '" + message + "' does not name " + needle);
  check(request == HYMPI_REQUEST_NULL, what + ": *request not NULL after a failed init");
  int length = static_cast<int>(message.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string first(static_cast<std::size_t>(length), '\0');
  if (rank_ == 0) first = message;
  MPI_Bcast(first.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
  check(first == message, what + ": rank 0 says '" + first + "', this rank '" + message + "'");
}

// A valid allreduce on comm after the failures: the library still works.
void still_works(MPI_Comm comm, const std::string& what) {
  hympi_request_t request = HYMPI_REQUEST_NULL;
  MPI_Info info = make_info("groups", "2");
  const int rc = hympi_allreduce_init(2, MPI_INT, MPI_SUM, comm, info, &request);
  MPI_Info_free(&info);
  check(rc == HYMPI_SUCCESS, what + ": a valid init after the failures: " + hympi_last_error());
  if (rc != HYMPI_SUCCESS) return;
  int* slot = static_cast<int*>(hympi_request_slot(request));
  slot[0] = 1, slot[1] = rank_;
  const bool ran = hympi_start(request) == HYMPI_SUCCESS && hympi_wait(request) == HYMPI_SUCCESS;
  const int* got = static_cast<const int*>(hympi_request_result(request));
  check(ran && got[0] == size_ && got[1] == size_ * (size_ - 1) / 2, what + ": a valid run after the failures");
  hympi_request_free(&request);
}

// Cases 1 and 2: every option of every C init differing on one rank.
void c_inits(int odd_rank, MPI_Comm comm) {
  for (int k = 0; k < kKinds; ++k)
    for (const Differ& d : differs()) {
      const bool odd = rank_ == odd_rank;
      MPI_Info info = make_info(d.key, odd ? d.odd : d.usual);
      hympi_request_t request = reinterpret_cast<hympi_request_t>(&rank_);  // the init must clear it
      const int rc = init(static_cast<Kind>(k), comm, info, &request);
      MPI_Info_free(&info);
      expect_c_error(rc, request,
                     d.needle, std::string(kKindNames[k]) + ": " + d.key + " '" + d.odd + "' on rank " +
                                   std::to_string(odd_rank) + ", '" + d.usual + "' elsewhere");
    }
  still_works(comm, "C inits, odd rank " + std::to_string(odd_rank));
}

// The C++ creates: groups 0 (auto) vs 2 and 1 vs 2 on one rank.
void cpp_creates(int odd_rank, MPI_Comm comm) {
  const auto& topo = hympi::Topology::of(comm);
  for (auto [odd, usual] : {std::pair{0, 2}, std::pair{2, 0}, std::pair{1, 2}, std::pair{2, 1}}) {
    hympi::CollectiveOptions options;
    options.groups = rank_ == odd_rank ? odd : usual;
    const std::string tag = " groups " + std::to_string(odd) + " on rank " + std::to_string(odd_rank) + ", " +
                            std::to_string(usual) + " elsewhere";
    expect_same_error("groups", [&] { hympi::Allreduce::create(topo, 2, MPI_INT, MPI_SUM, options); },
                      "Allreduce::create" + tag);
    expect_same_error("groups", [&] { hympi::Reduce::create(topo, 2, MPI_INT, MPI_SUM, 0, options); },
                      "Reduce::create" + tag);
    expect_same_error("groups", [&] { hympi::Bcast::create_fixed(topo, 0, 2, sizeof(int), options); },
                      "Bcast::create_fixed" + tag);
    expect_same_error("groups", [&] { hympi::Allgatherv::create_allgather(topo, 2, sizeof(int), options); },
                      "Allgatherv::create_allgather" + tag);
  }
}

// Case 3: groups = auto on every rank, a HYMPI_MODEL_* number only the odd rank cannot read
// (or every rank): the same error everywhere, naming the variable and the value.
void model_numbers(int odd_rank, MPI_Comm comm, bool everywhere) {
  const char* const bad[][2] = {{"HYMPI_MODEL_ALPHA", "fast"},      {"HYMPI_MODEL_ALPHA", "-1"},
                                {"HYMPI_MODEL_ALPHA", "inf"},       {"HYMPI_MODEL_BETA", "0"},
                                {"HYMPI_MODEL_BETA", "nan"},        {"HYMPI_MODEL_SHM_ALPHA", "1e-6x"},
                                {"HYMPI_MODEL_SHM_BETA", "-2e-9"},  {"HYMPI_MODEL_NODE_RANKS", "abc"},
                                {"HYMPI_MODEL_NODE_RANKS", "1e12"}, {"HYMPI_MODEL_NODE_RANKS", "0.5"},
                                {"HYMPI_MODEL_NODE_RANKS", "0"},    {"HYMPI_MODEL_NODE_RANKS", "99999999999"}};
  for (const auto& b : bad) {
    if (everywhere || rank_ == odd_rank) setenv(b[0], b[1], 1);
    const std::string tag = std::string(b[0]) + "=" + b[1] + (everywhere ? " on every rank" : " on one rank");
    const std::string needle = std::string(b[0]) + " must be a positive";
    MPI_Info info = make_info("groups", "auto");
    hympi_request_t request = HYMPI_REQUEST_NULL;
    const int rc = hympi_allreduce_init(2, MPI_INT, MPI_SUM, comm, info, &request);
    MPI_Info_free(&info);
    expect_c_error(rc, request, needle, "hympi_allreduce_init, " + tag);
    check(rc == HYMPI_SUCCESS || std::string(hympi_last_error()).find(std::string("'") + b[1] + "'") != std::string::npos,
          tag + ": the message does not quote the value");
    hympi::CollectiveOptions options;
    options.groups = 0;
    expect_same_error(needle, [&] { hympi::Bcast::create_fixed(hympi::Topology::of(comm), 0, 2, sizeof(int), options); },
                      "Bcast::create_fixed, " + tag);
    unsetenv(b[0]);
  }
  still_works(comm, "after bad HYMPI_MODEL_*");
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  // A fresh communicator (its topology built inside the first failing init) and the world.
  MPI_Comm fresh;
  MPI_Comm_dup(MPI_COMM_WORLD, &fresh);
  for (int odd_rank : {size_ - 1, 0}) {
    if (size_ > 1) {
      c_inits(odd_rank, odd_rank == 0 ? MPI_COMM_WORLD : fresh);
      cpp_creates(odd_rank, MPI_COMM_WORLD);
    }
    model_numbers(odd_rank, fresh, false);
    if (size_ == 1) break;
  }
  model_numbers(0, MPI_COMM_WORLD, true);
  MPI_Comm_free(&fresh);
  const int rc = hympi::test::finish("robust_option_agreement");
  MPI_Finalize();
  return rc;
}
