#include "bpmf/saved_samples.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <regex>
#include <sstream>
#include <type_traits>

#include "bpmf/durable_file.hpp"
#include "bpmf/matrix_market.hpp"
#include "bpmf/npy.hpp"

namespace bpmf {

namespace {
constexpr const char* kFormat = "hympi-bpmf-samples-1";
constexpr const char* kFormatAdaptive = "hympi-bpmf-samples-2";  // adaptive noise: older readers refuse it

std::string model_path(const std::string& dir) {
  return dir + "/model.txt";
}

std::string hex16(std::uint64_t value) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(value));
  return hex;
}
}  // namespace

void write_model_info(const std::string& dir, const ModelInfo& info, const std::string& chain) {
  std::filesystem::create_directories(dir);
  std::ostringstream s;
  s.precision(17);
  const bool adaptive = info.noise == NoiseKind::adaptive;
  s << "format = " << (adaptive ? kFormatAdaptive : kFormat) << "\nK = " << info.K << "\nalpha = " << info.alpha
    << "\nmean = " << info.mean << "\nrows = " << info.rows << "\ncols = " << info.cols << "\nseed = " << info.seed
    << "\nburnin = " << info.burnin << "\n";
  if (info.data_hash != 0) s << "data = " << hex16(info.data_hash) << "\n";
  s << "noise = " << (adaptive ? "adaptive" : "fixed") << "\n";
  if (adaptive) s << "sn_init = " << info.sn_init << "\nsn_max = " << info.sn_max << "\n";
  if (info.calibrate != 0.0) s << "calibrate = " << info.calibrate << "\n";
  if (info.calibration_ratings > 0)
    s << "calibration_ratings = " << info.calibration_ratings << "\nmultiplier_68 = " << info.multiplier_68
      << "\nmultiplier_95 = " << info.multiplier_95 << "\n";
  if (info.calibration_ratings > 0 && info.calibrated_std)
    s << "calibrated_std = " << to_string(*info.calibrated_std)
      << "\ncalibration_samples = " << info.calibration_samples << "\n";
  s << "chain = " << chain << "\n";
  write_file_durably(model_path(dir), s.str());
}

namespace {
// What a value of type T (read in `base`) must look like, for the message.
template <class T>
const char* form_of(int base) {
  if constexpr (std::is_floating_point_v<T>)
    return "a finite number";
  else if (base == 16)
    return "a 64-bit hexadecimal number";
  else if constexpr (std::is_same_v<T, int>)
    return "an integer within an int";
  else if constexpr (std::is_signed_v<T>)
    return "a 64-bit integer";
  else
    return "an integer from 0 to 2^64 - 1";
}

// A value of model.txt, whole and in range: std::stoi would read "4abc" as 4 and
// std::stoull "-1" as 2^64 - 1.
template <class T>
T parse_value(const std::string& text, const std::string& path, const char* key, int base = 10) {
  T value{};
  const char* end = text.data() + text.size();
  std::from_chars_result r;
  if constexpr (std::is_integral_v<T>)
    r = std::from_chars(text.data(), end, value, base);
  else
    r = std::from_chars(text.data(), end, value);
  bool ok = r.ec == std::errc() && r.ptr == end && !text.empty();
  if constexpr (std::is_floating_point_v<T>) ok = ok && std::isfinite(value);
  if (!ok) throw InputError("'" + path + "': " + key + " = '" + text + "' is not " + form_of<T>(base));
  return value;
}

std::map<std::string, std::string> read_keys(const std::string& path) {
  std::istringstream in(read_whole_file(path));
  std::map<std::string, std::string> kv;
  for (std::string line; std::getline(in, line);) {
    const auto eq = line.find(" = ");
    if (eq != std::string::npos) kv[line.substr(0, eq)] = line.substr(eq + 3);
  }
  return kv;
}
}  // namespace

bool model_chain(const std::string& dir, std::string& chain) {
  const std::string path = model_path(dir);
  if (!std::filesystem::exists(path)) return false;
  const auto kv = read_keys(path);
  const auto it = kv.find("chain");
  chain = it == kv.end() ? "" : it->second;
  return true;
}

ModelInfo read_model_info(const std::string& dir) {
  const std::string path = model_path(dir);
  const auto kv = read_keys(path);
  const auto get = [&](const std::string& key) {
    const auto it = kv.find(key);
    if (it == kv.end()) throw InputError("'" + path + "' has no '" + key + "'");
    return it->second;
  };
  const std::string format = get("format");
  if (format != kFormat && format != kFormatAdaptive)
    throw InputError("'" + path + "' is not in the format " + std::string(kFormat) + " or " + kFormatAdaptive);
  ModelInfo info;
  // Written since 2026-11-29; none: fixed (alpha). Adaptive only in the format made for it.
  const std::string noise = kv.count("noise") ? kv.at("noise") : "fixed";
  if (noise != "fixed" && noise != "adaptive")
    throw InputError("'" + path + "': noise = '" + noise + "' is not fixed or adaptive");
  if ((noise == "adaptive") != (format == kFormatAdaptive))
    throw InputError("'" + path + "': noise " + noise + " in the format " + format);
  if (noise == "adaptive") {
    info.noise = NoiseKind::adaptive;
    info.sn_init = parse_value<double>(get("sn_init"), path, "sn_init");
    info.sn_max = parse_value<double>(get("sn_max"), path, "sn_max");
  }
  info.K = parse_value<int>(get("K"), path, "K");
  info.alpha = parse_value<double>(get("alpha"), path, "alpha");
  info.mean = parse_value<double>(get("mean"), path, "mean");
  info.rows = parse_value<std::int64_t>(get("rows"), path, "rows");
  info.cols = parse_value<std::int64_t>(get("cols"), path, "cols");
  info.seed = parse_value<std::uint64_t>(get("seed"), path, "seed");
  info.burnin = parse_value<int>(get("burnin"), path, "burnin");
  // Written since 2026-11-29; 0 (not compared) in an older model.txt.
  if (kv.count("data")) info.data_hash = parse_value<std::uint64_t>(kv.at("data"), path, "data", 16);
  // Since 2026-11-29, with --calibrate; the multipliers once the chain has ended.
  if (kv.count("calibrate")) info.calibrate = parse_value<double>(kv.at("calibrate"), path, "calibrate");
  if (kv.count("calibration_ratings")) {
    info.calibration_ratings = parse_value<std::int64_t>(kv.at("calibration_ratings"), path, "calibration_ratings");
    info.multiplier_68 = parse_value<double>(get("multiplier_68"), path, "multiplier_68");
    info.multiplier_95 = parse_value<double>(get("multiplier_95"), path, "multiplier_95");
    // Since the review of 2026-11-29 (issue 53): none, unknown.
    if (kv.count("calibrated_std")) {
      const std::string kind = kv.at("calibrated_std");
      if (kind != "noise" && kind != "latent")
        throw InputError("'" + path + "': calibrated_std = '" + kind + "' is not noise or latent");
      info.calibrated_std = kind == "noise" ? PredictiveStd::with_noise : PredictiveStd::latent;
      info.calibration_samples = parse_value<std::int64_t>(get("calibration_samples"), path, "calibration_samples");
    }
  }
  if (info.K < 1 || !(info.alpha > 0) || info.rows < 1 || info.cols < 1)
    throw InputError("'" + path + "' describes no valid model (K, alpha, rows or cols)");
  return info;
}

std::string model_difference(const ModelInfo& found, const ModelInfo& expected) {
  const auto text = [](const char* what, const auto& a, const auto& b) {
    std::ostringstream s;
    s.precision(17);
    s << what << " " << a << ", this run " << what << " " << b;
    return s.str();
  };
  if (found.data_hash != 0 && expected.data_hash != 0 && found.data_hash != expected.data_hash)
    return text("data", hex16(found.data_hash), hex16(expected.data_hash));
  if (found.rows != expected.rows) return text("rows", found.rows, expected.rows);
  if (found.cols != expected.cols) return text("cols", found.cols, expected.cols);
  if (found.mean != expected.mean) return text("mean", found.mean, expected.mean);
  if (found.K != expected.K) return text("K", found.K, expected.K);
  const auto noise = [](const ModelInfo& m) {
    return m.noise == NoiseKind::fixed ? std::string("fixed") : noise_text({m.noise, m.sn_init, m.sn_max}, m.alpha);
  };
  if (noise(found) != noise(expected) || found.sn_init != expected.sn_init || found.sn_max != expected.sn_max)
    return text("noise", noise(found), noise(expected));
  if (found.alpha != expected.alpha) return text("alpha", found.alpha, expected.alpha);
  if (found.seed != expected.seed) return text("seed", found.seed, expected.seed);
  if (found.burnin != expected.burnin) return text("burnin", found.burnin, expected.burnin);
  if (found.calibrate != expected.calibrate) return text("calibrate", found.calibrate, expected.calibrate);
  return "";
}

std::string sample_file(const std::string& dir, int index, const std::string& what) {
  char name[32];
  std::snprintf(name, sizeof name, "sample-%06d-", index);
  return dir + "/" + name + what + ".npy";
}

void save_sample(const std::string& dir, int index, const ModelInfo& info, const double* U, const double* V,
                 const Hyper& rows, const Hyper& cols, double alpha) {
  write_npy(sample_file(dir, index, "U"), U, info.rows, info.K);
  write_npy(sample_file(dir, index, "V"), V, info.cols, info.K);
  // Eigen is column-major: Lambda is symmetric, so its storage is also its row-major form.
  write_npy(sample_file(dir, index, "mu_U"), rows.mu.data(), 1, info.K);
  write_npy(sample_file(dir, index, "Lambda_U"), rows.Lambda.data(), info.K, info.K);
  write_npy(sample_file(dir, index, "mu_V"), cols.mu.data(), 1, info.K);
  write_npy(sample_file(dir, index, "Lambda_V"), cols.Lambda.data(), info.K, info.K);
  write_npy(sample_file(dir, index, "alpha"), &alpha, 1, 1);
}

double read_sample_precision(const std::string& dir, int index) {
  const std::string path = sample_file(dir, index, "alpha");
  const NpyMatrix m = read_npy(path);
  if (m.rows != 1 || m.cols != 1 || !(m.values[0] > 0.0) || !std::isfinite(m.values[0]))
    throw InputError("'" + path + "' is not one positive finite noise precision");
  return m.values[0];
}

namespace {
// The files of one sample, as save_sample writes them.
const char* const kSampleParts[] = {"U", "V", "mu_U", "Lambda_U", "mu_V", "Lambda_V"};

// The numbers of the samples with any file in `dir`, ascending and distinct; empty
// when it has none or does not exist. %06d writes sample 1000000 with 7 digits.
std::vector<int> sample_numbers(const std::string& dir, std::error_code& ec) {
  std::vector<int> out;
  static const std::regex name(R"(sample-(\d{6,})-(U|V|mu_U|Lambda_U|mu_V|Lambda_V|alpha)\.npy)");
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    std::smatch m;
    const std::string file = entry.path().filename().string();
    if (!std::regex_match(file, m, name)) continue;
    if (m[1].length() > 10 || std::stoll(m[1]) > std::numeric_limits<int>::max())
      throw InputError("'" + dir + "/" + file + "' is not a sample this program writes (its number is too large)");
    out.push_back(std::stoi(m[1]));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}
}  // namespace

bool holds_samples(const std::string& dir) {
  std::error_code ec;
  return !sample_numbers(dir, ec).empty();
}

std::vector<int> saved_sample_indices(const std::string& dir, NoiseKind noise) {
  std::error_code ec;
  std::vector<int> out = sample_numbers(dir, ec);
  if (ec) throw InputError("cannot list '" + dir + "': " + ec.message());
  if (out.empty()) throw InputError("'" + dir + "' holds no saved samples (sample-NNNNNN-V.npy)");
  // A sample missing a file (a copy cut short, a file deleted) must not silently
  // drop out of the average or be half read.
  std::vector<std::string> parts(std::begin(kSampleParts), std::end(kSampleParts));
  if (noise == NoiseKind::adaptive) parts.push_back("alpha");  // fixed: alpha is model.txt's (older samples have none)
  for (const int index : out)
    for (const auto& part : parts)
      if (!std::filesystem::exists(sample_file(dir, index, part)))
        throw InputError("sample " + std::to_string(index) + " in '" + dir + "' is incomplete: '" +
                         sample_file(dir, index, part) + "' is missing");
  return out;
}

}  // namespace bpmf
