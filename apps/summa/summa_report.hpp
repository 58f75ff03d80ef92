// Output of hympi-summa: a header and one line per repetition on stdout, the check
// verdict, and one CSV record per repetition (written once the check is known).
#pragma once
#include <string>
#include <vector>

#include "hympi/hsumma/checks.hpp"
#include "record.hpp"
#include "run_info.hpp"
#include "summa_setup.hpp"

namespace hympi::apps {

// What one algorithm variant is, for the output.
struct Variant {
  SummaAlgorithm algorithm = SummaAlgorithm::summa;
  Policy policy = Policy::hybrid;
  bool grouped = false;
  std::int64_t nb = -1;    // pdgemm only
  int lookahead = 0;       // engine only
  int I = 1, J = 1;        // groups (hsumma only)
  std::int64_t k_run = 0;  // columns of k multiplied (engine with --max-steps); 0 = k
  bool engine() const { return algorithm != SummaAlgorithm::pdgemm; }
  std::string policy_text() const { return engine() ? to_string(policy) : "-"; }
};

// One repetition's numbers, already reduced (max over ranks) and per multiply.
struct Sample {
  double time = 0, bcast = 0, sync = 0, dgemm = 0;
  long long outer = 0, inner = 0;
};

// The correctness checks of one variant: "residual:ok+serial:ok", the worst ratio.
struct Checks {
  std::string label = "none";
  double worst_ratio = 0;
  bool ok = true;
  void add(SummaCheck kind, const hsumma::CheckResult& r);
};

class Reporter {
 public:
  // Collective: opens the CSV (a bad --csv is bad input, exit 2).
  Reporter(const Setup& s, const RunInfo& info, double ref_gflops);
  void header(const Variant& v) const;
  void sample(const Variant& v, int rep, const Sample& x);
  // Prints the check verdict and writes the buffered repetitions.
  void finish(const Checks& checks);

 private:
  struct Pending {
    Variant v;
    int rep = 0;
    Sample x;
  };
  double gflops(const Variant& v, double seconds) const;
  Record record(const Pending& p, const Checks& checks) const;

  const Setup& s_;
  const RunInfo& info_;
  double ref_;
  RecordCsv csv_;
  std::vector<Pending> pending_;
};

}  // namespace hympi::apps
