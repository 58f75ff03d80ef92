// hympi-bpmf-synth: writes a synthetic low-rank train/test pair as Matrix Market
// files (gzipped when a name ends in .gz), for tests and offline runs. One process
// does the work (rank 0; start it alone); it runs through the apps' skeleton
// (apps/common/app.hpp), so it exits like every app (0 ok, 2 bad input) and
// `--csv` records what it wrote with the run metadata.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "app.hpp"
#include "bpmf/matrix_market.hpp"
#include "bpmf/synthetic.hpp"
#include "common_options.hpp"
#include "hympi/error.hpp"
#include "hympi/topology.hpp"
#include "record.hpp"
#include "run_info.hpp"

namespace {

constexpr hympi::apps::AppInfo kApp{
    "hympi-bpmf-synth", "Synthetic low-rank rating matrices (R = U V^T + offset + noise) for hympi-bpmf"};

struct Options {
  bpmf::SyntheticSpec spec;
  std::string train = "train.mm", test = "test.mm";
  hympi::apps::CommonOptions common;
};

void add_options(CLI::App& app, Options& o) {
  bpmf::SyntheticSpec& s = o.spec;
  app.add_option("--rows", s.rows, "Rows")->capture_default_str();
  app.add_option("--cols", s.cols, "Columns")->capture_default_str();
  app.add_option("--rank", s.rank, "True rank of U V^T")->capture_default_str();
  app.add_option("--density", s.density, "Fraction of observed cells")->capture_default_str();
  app.add_option("--noise", s.noise, "Noise standard deviation")->capture_default_str();
  app.add_option("--test-fraction", s.test_fraction, "Fraction of observed cells held out")->capture_default_str();
  app.add_option("--offset", s.offset, "Constant added to every value")->capture_default_str();
  app.add_option("--seed", s.seed, "Generator seed")->capture_default_str();
  app.add_option("--train", o.train, "Output training file (.mm or .mm.gz)")->capture_default_str();
  app.add_option("--test", o.test, "Output test file (.mm or .mm.gz)")->capture_default_str();
  hympi::apps::add_common_options(app, o.common, "Append one row describing the files written to this CSV ('-' = stdout)");
}

hympi::apps::Record record(const Options& o, std::size_t train_entries, std::size_t test_entries) {
  const bpmf::SyntheticSpec& s = o.spec;
  hympi::apps::Record r;
  r.add("rows", s.rows).add("cols", s.cols).add("rank", s.rank).add("density", s.density).add("noise", s.noise);
  r.add("test_fraction", s.test_fraction).add("offset", s.offset).add("seed", s.seed);
  return r.add("train", o.train).add("test", o.test).add("train_entries", train_entries).add("test_entries", test_entries);
}

int run(Options& o) {
  int rank = 0, size = 1;
  HYMPI_CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  HYMPI_CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  const auto info = hympi::apps::gather_run_info(hympi::Topology::of(MPI_COMM_WORLD, o.common.layout.resolve(size)));
  auto csv = hympi::apps::RecordCsv::open(MPI_COMM_WORLD, o.common.csv, record(o, 0, 0), &info);
  std::string error;
  std::size_t train_entries = 0, test_entries = 0;
  if (rank == 0) {
    try {  // a bad spec or an unwritable file: bad input, told to every rank
      const auto data = bpmf::generate_synthetic(o.spec);
      const bpmf::SyntheticSpec& s = o.spec;
      const std::string what = "synthetic rank-" + std::to_string(s.rank) + " data, noise " + std::to_string(s.noise) +
                               ", seed " + std::to_string(s.seed);
      bpmf::write_matrix_market(o.train, data.train, what + " (train)");
      bpmf::write_matrix_market(o.test, data.test, what + " (test)");
      train_entries = data.train.entries.size(), test_entries = data.test.entries.size();
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  hympi::apps::agree_on_success(MPI_COMM_WORLD, error);
  csv.write(record(o, train_entries, test_entries));
  if (rank == 0)
    std::printf("wrote %zu training entries to %s and %zu test entries to %s (%lld x %lld)\n", train_entries,
                o.train.c_str(), test_entries, o.test.c_str(), static_cast<long long>(o.spec.rows),
                static_cast<long long>(o.spec.cols));
  return hympi::apps::kSuccess;
}

}  // namespace

int main(int argc, char** argv) {
  return hympi::apps::run_app<Options>(argc, argv, kApp, add_options, run);
}
