// The tracer's text format (README.md, "Trace format"), written by the skeleton.
#ifndef HYMPI_PDGEMM_TRACE_SINK_HPP
#define HYMPI_PDGEMM_TRACE_SINK_HPP

#include <ostream>

#include "pdgemm_schedule.hpp"

namespace hympi::pdgemm_skel {

class TraceSink : public Sink {
 public:
  TraceSink(std::ostream& os, int rank) : os_(os), rank_(rank) {}
  void begin(const Case& c) {
    os_ << 'r' << rank_ << " pdgemm " << c.transa << ' ' << c.transb << ' ' << c.M << ' ' << c.N << ' ' << c.K << '\n';
  }
  void end() { os_ << 'r' << rank_ << " end\n"; }
  void send(int peer, long bytes, bool blocking) override {
    os_ << 'r' << rank_ << " send " << peer << ' ' << bytes << (blocking ? " blocking\n" : " nonblocking\n");
  }
  void recv(int peer, long bytes) override { os_ << 'r' << rank_ << " recv " << peer << ' ' << bytes << " blocking\n"; }
  void dgemm(char ta, char tb, long m, long n, long k) override {
    os_ << 'r' << rank_ << " dgemm " << ta << ' ' << tb << ' ' << m << ' ' << n << ' ' << k << '\n';
  }
  void reduce(int root, int size, long bytes) override {
    os_ << 'r' << rank_ << " coll reduce size " << size << " root " << root << " bytes " << bytes << '\n';
  }

 private:
  std::ostream& os_;
  int rank_;
};

}  // namespace hympi::pdgemm_skel

#endif
