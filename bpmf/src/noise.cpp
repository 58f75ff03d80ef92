#include "bpmf/noise.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "hympi/error.hpp"

namespace bpmf {

namespace {
[[noreturn]] void refuse(const std::string& spec, const std::string& why) {
  throw hympi::Error(hympi::ErrorCode::invalid_argument,
                     "--noise '" + spec + "': " + why + " (use fixed:ALPHA or adaptive[:SN_INIT,SN_MAX])");
}

// A whole finite number: from_chars, so "1abc" or "" is refused, not read as 1 or 0.
double number(const std::string& text, const std::string& spec, const char* what) {
  double value = 0.0;
  const char* end = text.data() + text.size();
  const auto r = std::from_chars(text.data(), end, value);
  if (text.empty() || r.ec != std::errc() || r.ptr != end || !std::isfinite(value))
    refuse(spec, std::string(what) + " '" + text + "' is not a finite number");
  return value;
}
}  // namespace

NoiseConfig parse_noise(const std::string& spec, double& alpha) {
  NoiseConfig noise;
  const auto colon = spec.find(':');
  const std::string kind = spec.substr(0, colon), rest = colon == std::string::npos ? "" : spec.substr(colon + 1);
  if (kind == "fixed") {
    if (colon == std::string::npos) refuse(spec, "fixed needs its precision, fixed:ALPHA");
    alpha = number(rest, spec, "ALPHA");
  } else if (kind == "adaptive") {
    noise.kind = NoiseKind::adaptive;
    if (colon != std::string::npos) {
      const auto comma = rest.find(',');
      if (comma == std::string::npos) refuse(spec, "adaptive takes two values, adaptive:SN_INIT,SN_MAX");
      noise.sn_init = number(rest.substr(0, comma), spec, "SN_INIT");
      noise.sn_max = number(rest.substr(comma + 1), spec, "SN_MAX");
    }
  } else {
    refuse(spec, "unknown noise '" + kind + "'");
  }
  try {
    check_noise(noise, alpha);
  } catch (const hympi::Error& e) {
    refuse(spec, e.what());
  }
  return noise;
}

void check_noise(const NoiseConfig& noise, double alpha) {
  const auto bad = [](const std::string& why) { throw hympi::Error(hympi::ErrorCode::invalid_argument, why); };
  if (noise.kind == NoiseKind::fixed) {
    if (!(alpha > 0.0) || !std::isfinite(alpha))
      bad("the noise precision alpha must be > 0 (got " + std::to_string(alpha) + ")");
  } else if (noise.kind == NoiseKind::adaptive) {
    if (!(noise.sn_init > 0.0) || !std::isfinite(noise.sn_init) || !std::isfinite(noise.sn_max))
      bad("SN_INIT must be > 0 (got " + std::to_string(noise.sn_init) + ")");
    if (!(noise.sn_init <= noise.sn_max))
      bad("SN_INIT " + std::to_string(noise.sn_init) + " is above SN_MAX " + std::to_string(noise.sn_max));
  } else {
    bad("unknown noise kind");
  }
}

std::string noise_text(const NoiseConfig& noise, double alpha) {
  char text[64];
  if (noise.kind == NoiseKind::fixed)
    std::snprintf(text, sizeof text, "fixed:%g", alpha);
  else
    std::snprintf(text, sizeof text, "adaptive:%g,%g", noise.sn_init, noise.sn_max);
  return text;
}

double draw_noise_precision(double sse, std::int64_t n, double var, double alpha_max, Stream& stream) {
  const double shape = 0.5 + 0.5 * static_cast<double>(n);
  const double rate = 0.5 * var + 0.5 * sse;
  const double alpha = stream.gamma(shape) / rate;
  return alpha < alpha_max ? alpha : alpha_max;
}

}  // namespace bpmf
