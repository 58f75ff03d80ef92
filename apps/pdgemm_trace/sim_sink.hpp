// The skeleton's events as simulated costs (SMPI builds only): ring messages are
// charged messages of the simulated MPI layer (apps/smpi/glue/sim_p2p.hpp), DGEMMs
// smpi_execute_flops of glue/sim_dgemm.cpp's charge for their shape, TN's and NT's
// sums MPI_Reduce on column / row communicators. Used by hympi-smpi-pdgemm-skeleton and by the
// SMPI build's pdgemm_ (glue/scalapack_stubs.cpp).
#ifndef HYMPI_PDGEMM_SIM_SINK_HPP
#define HYMPI_PDGEMM_SIM_SINK_HPP

#include <mpi.h>

#include <memory>
#include <ostream>
#include <vector>

#include "pdgemm_schedule.hpp"
#include "trace_sink.hpp"

namespace hympi::pdgemm_skel {

class SimSink : public Sink {
 public:
  // `ranks[i]`: the rank in `comm` of grid place i = row * Q + column, kept by reference (it
  // must outlive the sink: a p-sized copy per rank is 4 bytes x p^2 of host memory under SMPI);
  // `trace`: also write the events in the tracer's format (may be null). Collective over
  // `comm` for TN.
  SimSink(const Case& c, int place, MPI_Comm comm, const std::vector<int>& ranks, std::ostream* trace);
  ~SimSink() override;
  SimSink(const SimSink&) = delete;
  SimSink& operator=(const SimSink&) = delete;

  void send(int peer, long bytes, bool blocking) override;
  void recv(int peer, long bytes) override;
  void dgemm(char ta, char tb, long m, long n, long k) override;
  void reduce(int root, int size, long bytes) override;
  void begin();
  void end();
  double dgemm_s = 0;  // simulated seconds charged to DGEMMs
  // After every DGEMM (NN: the end of a K chunk): simulated seconds since begin(), then
  // dgemm_s so far; a step-limited run's slope comes from these marks (smpi_main.cpp).
  std::vector<double> marks;

 private:
  const Case& c_;
  int place_;
  MPI_Comm comm_;
  const std::vector<int>& ranks_;
  std::unique_ptr<TraceSink> trace_;
  MPI_Comm scope_ = MPI_COMM_NULL;  // TN: my process column; NT: my process row
  double start_ = 0;
  char* buffer_ = nullptr;  // one shared scratch block: SMPI skips payload copies of shared memory
};

}  // namespace hympi::pdgemm_skel

#endif
