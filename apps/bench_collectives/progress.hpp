// A progress line on stderr for long sweeps (rank 0 only): rewritten in place
// on a terminal, at most one line per 2 s otherwise (logs, ctest).
#pragma once
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <string>

namespace hympi::bench {

class Progress {
 public:
  Progress(bool enabled, int total) : enabled_(enabled), total_(total), tty_(isatty(2)), start_(MPI_Wtime()) {}
  void step(const std::string& what) {
    if (!enabled_) return;
    ++done_;
    const double now = MPI_Wtime();
    if (!tty_ && now - last_ < 2.0 && done_ < total_) return;  // logs: one line per 2 s at most
    last_ = now;
    std::fprintf(stderr, "%s[%d/%d] %s, %.1f s%s", tty_ ? "\r\033[K" : "", done_, total_, what.c_str(), now - start_,
                 tty_ ? "" : "\n");
    std::fflush(stderr);
  }
  void finish() {
    if (enabled_ && tty_) std::fprintf(stderr, "\r\033[K");
  }

 private:
  bool enabled_;
  int total_, done_ = 0;
  bool tty_;
  double start_, last_ = -1e9;
};

}  // namespace hympi::bench
