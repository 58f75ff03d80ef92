// Output of hympi-bench-overlap: the table on rank 0's stdout and one CSV record
// per operation x size x variant x polls.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "record.hpp"
#include "run_info.hpp"

namespace hympi::overlap {

struct Row {
  std::string op;       // allgather | allreduce (printed "i" + op)
  std::string variant;  // mpi | pure | hybrid
  int leaders = 0;      // --leaders of the hybrid variant, 0 otherwise
  bool progress_thread = false;
  int polls = 0;
  std::int64_t size = 0;  // doubles per rank (allgather) or vector length (allreduce)
  int iterations = 0;
  double comm_s = 0, compute_s = 0, total_s = 0;
  double overlap_pct = 0;
  std::string cache = "warm";   // --cache
  std::size_t evict_bytes = 0;  // per rank and iteration (cold)
};

// max(0, 100 - 100 * (t_total - t_compute) / t_comm): 100 = the collective hidden.
double overlap_pct(double comm_s, double compute_s, double total_s);

// The CSV record of one row (the run metadata is added by apps::RecordCsv).
apps::Record record(const Row& row);

// The table's preamble and column titles, then one line per row (rank 0 only).
void print_header(const apps::RunInfo& info, bool progress_thread);
void print_row(const Row& row);

}  // namespace hympi::overlap
