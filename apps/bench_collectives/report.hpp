// Output of the benchmark: the OSU-style table on stdout, one CSV row per
// operation x variant x size, and the ratios the benchmark targets.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "bench_options.hpp"
#include "measure.hpp"
#include "record.hpp"
#include "run_info.hpp"

namespace hympi::bench {

struct Result {
  std::string op;
  Variant variant;
  int root = -1;  // bcast, reduce, gather and scatter only
  std::int64_t size = 0;
  Measurement m;
  std::string type = "double";   // element type (--type for the reductions)
  std::string reduce_op;         // --op of the reductions, "" otherwise
  std::string baseline;          // --baseline
  std::string baseline_setting;  // what the MPI reports using (baseline_setting())
  int groups = 1;                // the G the core used (effective_groups)
  double groups_model_s = 0;     // the core's model time for that G (0: flat)
  std::string groups_model{};    // its machine (hympi::grouped_model_machine; empty: no collective)
};

std::string validation_text(const Measurement& m);  // "Pass" | "Fail" | "-" (not checked)

// The CSV record of one result (the run metadata is added by apps::RecordCsv).
apps::Record record(const Result& result);

// One OSU table (preamble + rows) for one operation under one variant.
void print_table(std::ostream& out, const std::string& title, const Variant& variant, const apps::RunInfo& info,
                 const std::vector<Result>& rows, bool validate);

// "ratio pure/hybrid-flags allgather @32768 = 12.3x" and the other targets.
void print_ratios(std::ostream& out, const apps::RunInfo& info, const std::vector<Result>& results);

}  // namespace hympi::bench
