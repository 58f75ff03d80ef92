// hympi-bpmf-synth: writes a synthetic low-rank train/test pair as Matrix Market
// files (gzipped when a name ends in .gz), for tests and offline runs. Not an MPI
// program, but it exits like every app (apps/common/app.hpp): 0 ok, 2 bad input.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "app.hpp"
#include "bpmf/matrix_market.hpp"
#include "bpmf/synthetic.hpp"

int main(int argc, char** argv) {
  using hympi::apps::kBadInput;
  CLI::App app{"hympi-bpmf-synth: synthetic low-rank rating matrices (R = U V^T + offset + noise) for hympi-bpmf"};
  bpmf::SyntheticSpec s;
  std::string train = "train.mm", test = "test.mm";
  app.add_option("--rows", s.rows, "Rows")->capture_default_str();
  app.add_option("--cols", s.cols, "Columns")->capture_default_str();
  app.add_option("--rank", s.rank, "True rank of U V^T")->capture_default_str();
  app.add_option("--density", s.density, "Fraction of observed cells")->capture_default_str();
  app.add_option("--noise", s.noise, "Noise standard deviation")->capture_default_str();
  app.add_option("--test-fraction", s.test_fraction, "Fraction of observed cells held out")->capture_default_str();
  app.add_option("--offset", s.offset, "Constant added to every value")->capture_default_str();
  app.add_option("--seed", s.seed, "Generator seed")->capture_default_str();
  app.add_option("--train", train, "Output training file (.mm or .mm.gz)")->capture_default_str();
  app.add_option("--test", test, "Output test file (.mm or .mm.gz)")->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : kBadInput;
  }
  try {
    const auto data = bpmf::generate_synthetic(s);
    const std::string what = "synthetic rank-" + std::to_string(s.rank) + " data, noise " + std::to_string(s.noise) +
                             ", seed " + std::to_string(s.seed);
    bpmf::write_matrix_market(train, data.train, what + " (train)");
    bpmf::write_matrix_market(test, data.test, what + " (test)");
    std::cout << "wrote " << data.train.entries.size() << " training entries to " << train << " and "
              << data.test.entries.size() << " test entries to " << test << " (" << s.rows << " x " << s.cols << ")\n";
  } catch (const std::exception& e) {
    std::cerr << "hympi-bpmf-synth: error: " << e.what() << std::endl;
    return kBadInput;
  }
  return 0;
}
