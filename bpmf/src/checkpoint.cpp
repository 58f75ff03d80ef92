#include "bpmf/checkpoint.hpp"

#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "bpmf/durable_file.hpp"
#include "bpmf/matrix_market.hpp"
#include "hympi/error.hpp"

namespace bpmf {

namespace {

constexpr char kMagic[8] = {'H', 'Y', 'B', 'P', 'M', 'F', 'C', '4'};
// kMagic's layout with the calibration fraction after sn_max (written only when it is > 0).
constexpr char kMagicCalibrated[8] = {'H', 'Y', 'B', 'P', 'M', 'F', 'C', '5'};
// The same layout, written while adaptive noise's SN meant a precision SN / var.
constexpr char kMagicSnOverVar[8] = {'H', 'Y', 'B', 'P', 'M', 'F', 'C', '3'};
constexpr char kMagicBeforeNoise[8] = {'H', 'Y', 'B', 'P', 'M', 'F', 'C', '2'};
constexpr char kMagicBeforeChainIds[8] = {'H', 'Y', 'B', 'P', 'M', 'F', 'C', '1'};
constexpr std::size_t kChainIdLength = 32;

// A 64-bit hash of a sequence of words (splitmix64's finaliser after each word).
class Hash {
 public:
  void add(std::uint64_t word) {
    std::uint64_t z = (h_ ^ word) + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    h_ = z ^ (z >> 31);
  }
  void add_bytes(const char* bytes, std::size_t n) {
    for (std::size_t i = 0; i < n; i += 8) {
      std::uint64_t w = 0;
      std::memcpy(&w, bytes + i, std::min<std::size_t>(8, n - i));
      add(w);
    }
    add(n);
  }
  std::uint64_t value() const { return h_; }

 private:
  std::uint64_t h_ = 0x243f6a8885a308d3ULL;
};

// Shape and count first, then every entry in order: a streamed source hashes like the
// same entries in memory.
void hash_ratings(Hash& h, const TrainingInput& r) {
  h.add(static_cast<std::uint64_t>(r.rows));
  h.add(static_cast<std::uint64_t>(r.cols));
  h.add(static_cast<std::uint64_t>(r.nnz));
  r.source([&h](const Entry& e) {
    std::uint64_t value = 0;
    std::memcpy(&value, &e.value, sizeof value);
    h.add(static_cast<std::uint64_t>(static_cast<std::uint32_t>(e.row)) << 32 | static_cast<std::uint32_t>(e.col));
    h.add(value);
  });
}

template <class T>
void put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

void put_array(std::string& out, const std::vector<double>& v) {
  put<std::int64_t>(out, static_cast<std::int64_t>(v.size()));
  out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(double));
}

// Reads the fields back, refusing to run past the end.
class Reader {
 public:
  Reader(const std::string& bytes, const std::string& path) : bytes_(bytes), path_(path) {}
  template <class T>
  T get() {
    T value;
    std::memcpy(&value, take(sizeof value), sizeof value);
    return value;
  }
  std::vector<double> get_array() {
    const auto n = get<std::int64_t>();
    if (n < 0 || static_cast<std::uint64_t>(n) > (bytes_.size() - at_) / sizeof(double)) truncated();
    std::vector<double> v(static_cast<std::size_t>(n));
    std::memcpy(v.data(), take(v.size() * sizeof(double)), v.size() * sizeof(double));
    return v;
  }

 private:
  const char* take(std::size_t n) {
    if (n > bytes_.size() - at_) truncated();
    const char* p = bytes_.data() + at_;
    at_ += n;
    return p;
  }
  [[noreturn]] void truncated() const { throw InputError("checkpoint '" + path_ + "' is truncated"); }
  const std::string& bytes_;
  const std::string& path_;
  std::size_t at_ = 0;
};

// The first field in which `found` differs from `expected`, as a sentence; empty if none.
std::string difference(const ChainIdentity& found, const ChainIdentity& expected) {
  const auto text = [](const char* what, auto a, auto b) {
    return std::string(what) + " " + std::to_string(a) + ", this run " + what + " " + std::to_string(b);
  };
  if (found.data_hash != expected.data_hash || found.rows != expected.rows || found.cols != expected.cols ||
      found.test_entries != expected.test_entries)
    return "it was made from other data (" + std::to_string(found.rows) + " x " + std::to_string(found.cols) + ", " +
           std::to_string(found.test_entries) + " test entries, data hash " + std::to_string(found.data_hash) +
           "; this run: " + std::to_string(expected.rows) + " x " + std::to_string(expected.cols) + ", " +
           std::to_string(expected.test_entries) + " test entries, data hash " + std::to_string(expected.data_hash) +
           ")";
  if (found.K != expected.K) return "other K: checkpoint " + text("K", found.K, expected.K);
  if (found.seed != expected.seed) return "other seed: checkpoint " + text("seed", found.seed, expected.seed);
  if (found.noise != expected.noise || found.sn_init != expected.sn_init || found.sn_max != expected.sn_max ||
      found.alpha != expected.alpha) {
    const auto noise = [](const ChainIdentity& id) { return noise_text({id.noise, id.sn_init, id.sn_max}, id.alpha); };
    return "other noise: checkpoint noise " + noise(found) + ", this run noise " + noise(expected);
  }
  if (found.burnin != expected.burnin)
    return "other burn-in: checkpoint " + text("burn-in", found.burnin, expected.burnin);
  if (found.calibrate != expected.calibrate)  // other ratings held out: the chain trained on other data
    return "other calibration holdout: checkpoint " + text("--calibrate", found.calibrate, expected.calibrate);
  if (!expected.chain.empty() && found.chain != expected.chain)
    return "other chain id: checkpoint chain " + (found.chain.empty() ? "none (format HYBPMFC1)" : found.chain) +
           ", this run chain " + expected.chain;
  return "";
}

// A count stored as int64 that this program keeps as int: one out of that range
// would silently wrap (2^32 + 2 read as iteration 2) and pass the sampler's checks.
int count_field(std::int64_t value, const std::string& path, const char* field) {
  if (value < 0 || value > std::numeric_limits<int>::max())
    throw InputError("checkpoint '" + path + "' has " + field + " " + std::to_string(value) + ", outside 0.." +
                     std::to_string(std::numeric_limits<int>::max()));
  return static_cast<int>(value);
}

}  // namespace

std::uint64_t checkpoint_checksum(const char* bytes, std::size_t n) {
  Hash h;
  h.add_bytes(bytes, n);
  return h.value();
}

std::uint64_t data_hash(const TrainingInput& train, const Ratings& test) {
  Hash h;
  hash_ratings(h, train);
  hash_ratings(h, training_input(test, 0.0));  // the hash reads the entries, not the mean
  return h.value();
}

ChainIdentity chain_identity(const TrainingInput& train, const Ratings& test, const SamplerConfig& config) {
  ChainIdentity id;
  id.data_hash = data_hash(train, test);
  id.rows = train.rows;
  id.cols = train.cols;
  id.test_entries = static_cast<std::int64_t>(test.entries.size());
  id.K = config.K;
  id.burnin = config.burnin;
  id.seed = config.seed;
  id.calibrate = config.calibrate;
  id.noise = config.noise.kind;
  if (id.noise == NoiseKind::fixed) {
    id.alpha = config.alpha;
  } else {
    id.sn_init = config.noise.sn_init;
    id.sn_max = config.noise.sn_max;
  }
  return id;
}

std::string new_chain_id() {
  std::random_device device;
  std::string id;
  for (int word = 0; word < 4; ++word) {
    char hex[9];
    std::snprintf(hex, sizeof hex, "%08x", static_cast<unsigned>(device()));
    id += hex;
  }
  return id;
}

std::string checkpoint_path(const std::string& dir) {
  return dir + "/chain.ckpt";
}

void write_checkpoint(const std::string& dir, const ChainIdentity& id, const ChainState& state) {
  if (id.chain.size() != kChainIdLength)
    throw InputError("cannot write a checkpoint without a chain id (got '" + id.chain + "')");
  const bool calibrated = id.calibrate != 0.0;
  std::string out(calibrated ? kMagicCalibrated : kMagic, sizeof kMagic);
  out += id.chain;
  put(out, id.data_hash);
  put(out, id.rows);
  put(out, id.cols);
  put(out, id.test_entries);
  put(out, id.K);
  put(out, id.burnin);
  put(out, id.seed);
  put(out, id.alpha);
  put<std::int64_t>(out, static_cast<std::int64_t>(id.noise));
  put(out, id.sn_init);
  put(out, id.sn_max);
  if (calibrated) put(out, id.calibrate);
  put<std::int64_t>(out, state.iteration);
  put<std::int64_t>(out, state.averaged);
  put(out, state.alpha);
  put(out, state.precision_sum);
  put(out, state.inverse_precision_sum);
  for (const auto* v : {&state.U, &state.V, &state.prediction_sum, &state.moment_mean, &state.moment_m2})
    put_array(out, *v);
  put(out, checkpoint_checksum(out.data(), out.size()));
  write_file_durably(checkpoint_path(dir), out);
}

ChainState read_checkpoint(const std::string& dir, const ChainIdentity& expected, std::string* found_chain) {
  const std::string path = checkpoint_path(dir);
  const std::string bytes = read_whole_file(path);
  const auto starts_with = [&bytes](const char(&magic)[8]) {
    return bytes.size() >= sizeof magic + 8 && std::memcmp(bytes.data(), magic, sizeof magic) == 0;
  };
  const bool sn_over_var = starts_with(kMagicSnOverVar), calibrated = starts_with(kMagicCalibrated);
  const bool has_noise = starts_with(kMagic) || sn_over_var || calibrated;
  const bool has_chain_id = has_noise || starts_with(kMagicBeforeNoise);
  if (!has_chain_id && !starts_with(kMagicBeforeChainIds))
    throw InputError("'" + path + "' is not a hympi-bpmf checkpoint");
  std::uint64_t stored = 0;
  std::memcpy(&stored, bytes.data() + bytes.size() - 8, 8);
  if (stored != checkpoint_checksum(bytes.data(), bytes.size() - 8))
    throw InputError("checkpoint '" + path + "' is corrupt (checksum mismatch)");
  Reader in(bytes, path);
  in.get<std::uint64_t>();  // the magic
  ChainIdentity found;
  if (has_chain_id)  // HYBPMFC1 (written before chain ids) has none: found.chain stays empty
    for (std::size_t k = 0; k < kChainIdLength; ++k) found.chain += in.get<char>();
  found.data_hash = in.get<std::uint64_t>();
  found.rows = in.get<std::int64_t>();
  found.cols = in.get<std::int64_t>();
  found.test_entries = in.get<std::int64_t>();
  found.K = in.get<std::int64_t>();
  found.burnin = in.get<std::int64_t>();
  found.seed = in.get<std::uint64_t>();
  found.alpha = in.get<double>();
  if (has_noise) {  // HYBPMFC1 and 2 are chains with fixed noise
    const auto kind = in.get<std::int64_t>();
    if (kind != static_cast<std::int64_t>(NoiseKind::fixed) && kind != static_cast<std::int64_t>(NoiseKind::adaptive))
      throw InputError("checkpoint '" + path + "' has an unknown noise kind " + std::to_string(kind));
    found.noise = static_cast<NoiseKind>(kind);
    found.sn_init = in.get<double>();
    found.sn_max = in.get<double>();
    if (calibrated) found.calibrate = in.get<double>();
    // Its precisions were drawn below another cap: going on would mix two models.
    if (sn_over_var && found.noise == NoiseKind::adaptive)
      throw InputError("checkpoint '" + path +
                       "' is an adaptive-noise chain of format HYBPMFC3, whose SN_INIT and SN_MAX meant the precisions "
                       "SN / var (before 2026-11-29); they now mean (SN + 1) / var, as in SMURFF: start a new chain");
  }
  const std::string differs = difference(found, expected);
  if (!differs.empty()) throw InputError("checkpoint '" + path + "' belongs to another chain: " + differs);
  if (found_chain) *found_chain = found.chain;
  ChainState s;
  s.iteration = count_field(in.get<std::int64_t>(), path, "iteration");
  s.averaged = count_field(in.get<std::int64_t>(), path, "averaged");
  if (has_noise) {
    s.alpha = in.get<double>();
    s.precision_sum = in.get<double>();
    s.inverse_precision_sum = in.get<double>();
  } else {
    s.alpha = found.alpha;
  }
  for (auto* v : {&s.U, &s.V, &s.prediction_sum, &s.moment_mean, &s.moment_m2}) *v = in.get_array();
  return s;
}

void broadcast(ChainState& s, MPI_Comm comm, int root) {
  int head[2] = {s.iteration, s.averaged};
  HYMPI_CHECK_MPI(MPI_Bcast(head, 2, MPI_INT, root, comm));
  s.iteration = head[0];
  s.averaged = head[1];
  double noise[3] = {s.alpha, s.precision_sum, s.inverse_precision_sum};
  HYMPI_CHECK_MPI(MPI_Bcast(noise, 3, MPI_DOUBLE, root, comm));
  s.alpha = noise[0];
  s.precision_sum = noise[1];
  s.inverse_precision_sum = noise[2];
  for (auto* v : {&s.U, &s.V, &s.prediction_sum, &s.moment_mean, &s.moment_m2}) broadcast_values(*v, comm, root);
}

void broadcast_values(std::vector<double>& v, MPI_Comm comm, int root) {
  long long n = static_cast<long long>(v.size());
  HYMPI_CHECK_MPI(MPI_Bcast(&n, 1, MPI_LONG_LONG, root, comm));
  v.resize(static_cast<std::size_t>(n));
  // Chunks keep the count within an int.
  const long long chunk = 1LL << 27;
  for (long long off = 0; off < n; off += chunk)
    HYMPI_CHECK_MPI(MPI_Bcast(v.data() + off, static_cast<int>(std::min(chunk, n - off)), MPI_DOUBLE, root, comm));
}

}  // namespace bpmf
