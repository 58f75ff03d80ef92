#include "sim_sink.hpp"

#include <smpi/smpi.h>

#include <algorithm>

#include "sim_p2p.hpp"

extern "C" double hympi_smpi_dgemm_flops(long m, long n, long k);  // glue/sim_dgemm.cpp

namespace hympi::pdgemm_skel {
namespace {
constexpr int kTag = 51;  // below the layer's own tags (sim_p2p.hpp)
}

SimSink::SimSink(const Case& c, int place, MPI_Comm comm, const std::vector<int>& ranks, std::ostream* trace)
    : c_(c), place_(place), comm_(comm), ranks_(ranks), trace_(trace ? new TraceSink(*trace, place) : nullptr) {
  // The largest message: a chunk of local rows, columns or K (blocks round up).
  const long cmp = (c.M + c.P - 1) / c.P + c.nb, cnq = (c.N + c.Q - 1) / c.Q + c.nb, kp = (c.K + c.P - 1) / c.P + c.nb;
  buffer_ = static_cast<char*>(SMPI_SHARED_MALLOC(static_cast<std::size_t>(8L * c.kb * std::max({cmp, cnq, kp}))));
  // The communicators of TN's and NT's sums (BLACS' column and row scopes), built from
  // groups: MPI_Comm_split is O(P) at one rank under SMPI (apps/smpi/README.md).
  const bool rows = c.transb == 'T';  // NT sums along the process row, TN down the column
  const int members_n = rows ? c.Q : c.P;
  if ((c.transa == 'T' || c.transb == 'T') && members_n > 1) {
    MPI_Group all, scope;
    MPI_Comm_group(comm, &all);
    std::vector<int> members(static_cast<std::size_t>(members_n));
    for (int i = 0; i < members_n; ++i) {
      const int member_place = rows ? (place / c.Q) * c.Q + i : i * c.Q + place % c.Q;
      members[static_cast<std::size_t>(i)] = ranks_[static_cast<std::size_t>(member_place)];
    }
    MPI_Group_incl(all, members_n, members.data(), &scope);
    MPI_Comm_create(comm, scope, &scope_);
    MPI_Group_free(&scope);
    MPI_Group_free(&all);
  }
}

SimSink::~SimSink() {
  if (scope_ != MPI_COMM_NULL) MPI_Comm_free(&scope_);
  SMPI_SHARED_FREE(buffer_);
}

void SimSink::send(int peer, long bytes, bool blocking) {
  if (trace_) trace_->send(peer, bytes, blocking);
  hympi_sim::send(buffer_, static_cast<int>(bytes), MPI_BYTE, ranks_[static_cast<std::size_t>(peer)], kTag, comm_);
}

void SimSink::recv(int peer, long bytes) {
  if (trace_) trace_->recv(peer, bytes);
  hympi_sim::recv(buffer_, static_cast<int>(bytes), MPI_BYTE, ranks_[static_cast<std::size_t>(peer)], kTag, comm_);
}

void SimSink::dgemm(char ta, char tb, long m, long n, long k) {
  if (trace_) trace_->dgemm(ta, tb, m, n, k);
  const double t0 = MPI_Wtime();
  smpi_execute_flops(hympi_smpi_dgemm_flops(m, n, k));
  const double t1 = MPI_Wtime();
  dgemm_s += t1 - t0;
  marks.insert(marks.end(), {t1 - start_, dgemm_s});
}

void SimSink::reduce(int root, int size, long bytes) {
  if (trace_) trace_->reduce(root, size, bytes);
  const bool rows = c_.transb == 'T';
  const int count = static_cast<int>(bytes / 8);
  const int mine = rows ? place_ % c_.Q : place_ / c_.Q, to = rows ? root % c_.Q : root / c_.Q;
  double* data = reinterpret_cast<double*>(buffer_);
  MPI_Reduce(mine == to ? MPI_IN_PLACE : data, data, count, MPI_DOUBLE, MPI_SUM, to, scope_);
}

void SimSink::begin() {
  start_ = MPI_Wtime();
  if (trace_) trace_->begin(c_);
}

void SimSink::end() {
  if (trace_) trace_->end();
}

}  // namespace hympi::pdgemm_skel
