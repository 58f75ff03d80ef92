// MPI test: the training matrix streamed from the synthetic generator
// (for_each_synthetic into TrainingMatrix's source constructor) is the one built
// from the whole generated matrix, bit for bit, under pure and hybrid; a source that
// disagrees with the announced shape or count is refused on every rank; and
// streaming keeps each rank's peak memory (VmHWM) within 1.3x of its steady state
// (VmRSS with the matrix built and read), because no rank ever holds the entries.
// argv[1] = pure | hybrid: the policy of the memory check (one per process, as the
// high-water mark covers the process's whole life, so the memory part runs first);
// optional argv[2..4] = rows cols density of the memory check, for measuring at scale.
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "bpmf/synthetic.hpp"
#include "bpmf/training_matrix.hpp"
#include "hympi/topology.hpp"
#include "mpi_check.hpp"

namespace {

using hympi::test::check;

// A field of /proc/self/status in bytes (-1 when absent).
long long status_bytes(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const std::string key = std::string(field) + ":";
  while (std::getline(in, line))
    if (line.compare(0, key.size(), key) == 0) return std::stoll(line.substr(key.size())) * 1024;
  return -1;
}

bpmf::TrainingSource train_of(const bpmf::SyntheticSpec& spec) {
  return [spec](const std::function<void(const bpmf::Entry&)>& emit) {
    bpmf::for_each_synthetic(spec, [&](const bpmf::Entry& e, bool test) {
      if (!test) emit(e);
    });
  };
}

// What a streaming loader keeps on every rank: the test entries, the training count
// and mean (summed in file order, as mean_value does).
struct Pass {
  std::vector<bpmf::Entry> test;
  std::int64_t train = 0;
  double mean = 0.0;
};
Pass first_pass(const bpmf::SyntheticSpec& spec) {
  Pass p;
  double sum = 0.0;
  bpmf::for_each_synthetic(spec, [&](const bpmf::Entry& e, bool test) {
    if (test) {
      p.test.push_back(e);
      return;
    }
    sum += e.value;
    ++p.train;
  });
  p.mean = p.train ? sum / static_cast<double>(p.train) : 0.0;
  return p;
}

// Reads every byte of both orientations, as the sampler does, so they count in RSS.
double touch(const bpmf::TrainingMatrix& m) {
  double sum = 0.0;
  for (int s = 0; s < 2; ++s) {
    const auto& v = m.side(s);
    for (std::int64_t at = 0; at < v.offsets[v.items]; ++at) sum += v.value[at] + v.index[at];
  }
  return sum;
}

void check_peak_memory(const hympi::Topology& topo, hympi::Policy policy, const bpmf::SyntheticSpec& spec) {
  const double start = MPI_Wtime();
  const Pass pass = first_pass(spec);
  const bpmf::TrainingMatrix m(topo, spec.rows, spec.cols, pass.train, train_of(spec), pass.mean, policy);
  const double sum = touch(m);
  const long long rss = status_bytes("VmRSS"), hwm = status_bytes("VmHWM");
  const auto per_copy = static_cast<long long>(24 * pass.train);
  const std::string name = std::string(hympi::to_string(policy)) + " on rank " + std::to_string(topo.rank());
  check(rss > 0 && hwm > 0, name + ": no VmRSS / VmHWM in /proc/self/status");
  check(rss >= per_copy, name + ": RSS " + std::to_string(rss) + " B below the " + std::to_string(per_copy) +
                             " B matrix it has read (sum " + std::to_string(sum) + ")");
  check(static_cast<double>(hwm) <= 1.3 * static_cast<double>(rss),
        name + ": peak " + std::to_string(hwm) + " B is above 1.3x the steady " + std::to_string(rss) + " B");
  long long mine[2] = {rss, hwm}, node[2] = {0, 0};
  MPI_Reduce(mine, node, 2, MPI_LONG_LONG, MPI_SUM, 0, topo.node_comm());
  if (topo.is_leader())
    std::printf("%s, node of %d ranks: steady RSS %lld B, peak %lld B (%.3fx), %lld ratings, %.2f s\n",
                hympi::to_string(policy), topo.node_size(), node[0], node[1],
                static_cast<double>(node[1]) / static_cast<double>(node[0]), static_cast<long long>(pass.train),
                MPI_Wtime() - start);
}

bool same_view(const bpmf::SideView& a, const bpmf::SideView& b) {
  const auto n = static_cast<std::size_t>(a.offsets[a.items]);
  return a.items == b.items && std::memcmp(a.offsets, b.offsets, sizeof(std::int64_t) * (a.items + 1)) == 0 &&
         std::memcmp(a.index, b.index, sizeof(std::int32_t) * n) == 0 &&
         std::memcmp(a.value, b.value, sizeof(double) * n) == 0;
}

void check_same_bits(const hympi::Topology& topo) {
  bpmf::SyntheticSpec spec;
  spec.rows = 300;
  spec.cols = 200;
  spec.density = 0.1;
  spec.offset = 3.0;
  const auto whole = bpmf::generate_synthetic(spec);
  const Pass pass = first_pass(spec);
  check(pass.mean == bpmf::mean_value(whole.train), "streamed mean differs from mean_value");
  check(pass.test.size() == whole.test.entries.size() &&
            std::memcmp(pass.test.data(), whole.test.entries.data(), sizeof(bpmf::Entry) * pass.test.size()) == 0,
        "streamed test entries differ from generate_synthetic's");
  for (auto policy : {hympi::Policy::pure, hympi::Policy::hybrid}) {
    const bpmf::TrainingMatrix built(topo, whole.train, pass.mean, policy);
    const bpmf::TrainingMatrix streamed(topo, spec.rows, spec.cols, pass.train, train_of(spec), pass.mean, policy);
    check(streamed.ratings() == built.ratings() && same_view(streamed.side(0), built.side(0)) &&
              same_view(streamed.side(1), built.side(1)),
          std::string(hympi::to_string(policy)) + ": the streamed matrix differs from the one built from Ratings");
    hympi::test::expect_same_error(
        "announced",
        [&] { bpmf::TrainingMatrix(topo, spec.rows, spec.cols, pass.train + 1, train_of(spec), 0.0, policy); },
        "a source with fewer entries than announced");
    hympi::test::expect_same_error(
        "outside the shape",
        [&] { bpmf::TrainingMatrix(topo, spec.rows - 1, spec.cols, pass.train, train_of(spec), 0.0, policy); },
        "a source with entries outside the shape");
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const auto& topo = hympi::Topology::of(MPI_COMM_WORLD);  // layout from HYMPI_* environment
  const bool hybrid = argc > 1 && std::strcmp(argv[1], "hybrid") == 0;
  bpmf::SyntheticSpec spec;
  spec.rows = argc > 4 ? std::stoll(argv[2]) : 5000;
  spec.cols = argc > 4 ? std::stoll(argv[3]) : 2000;
  spec.density = argc > 4 ? std::stod(argv[4]) : 0.3;  // 2.4 M training ratings: 58 MB a copy, above MPI's own RSS
  spec.seed = 7;
  check_peak_memory(topo, hybrid ? hympi::Policy::hybrid : hympi::Policy::pure, spec);
  check_same_bits(topo);
  const int rc = hympi::test::finish("bpmf_synthetic_stream_test");
  MPI_Finalize();
  return rc;
}
