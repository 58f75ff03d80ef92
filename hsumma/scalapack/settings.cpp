#include "settings.hpp"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "hympi/layout.hpp"

namespace hympi::hsumma::scalapack {

const char* const setting_keys[10] = {"enabled", "policy",    "sync",  "groups", "block",
                                      "outer",   "lookahead", "stats", "model",  "engine"};

namespace {

bool parse_bool(const std::string& v, bool& out) {
  if (v == "1" || v == "on" || v == "yes" || v == "true") return out = true, true;
  if (v == "0" || v == "off" || v == "no" || v == "false") return out = false, true;
  return false;
}

bool parse_positive(const std::string& v, std::int64_t& out) {
  char* end = nullptr;
  const long long x = std::strtoll(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || x < 1) return false;
  out = x;
  return true;
}

}  // namespace

std::string Settings::set(const std::string& key, const std::string& value) {
  const std::string bad = "bad value '" + value + "' for " + key;
  if (key == "enabled" || key == "lookahead" || key == "stats") {
    bool& target = key == "enabled" ? enabled : key == "lookahead" ? lookahead : stats;
    return parse_bool(value, target) ? "" : bad + " (expected 1/0, on/off)";
  }
  if (key == "policy" || key == "sync") {
    try {
      if (key == "policy")
        policy = parse_policy(value);
      else
        sync = parse_sync(value);
      return "";
    } catch (const std::exception& e) {
      return bad + " (" + e.what() + ")";
    }
  }
  if (key == "groups") {
    if (value == "auto") return group_rows = group_cols = 0, "";
    int i = 0, j = 0;
    char tail = 0;
    if (std::sscanf(value.c_str(), "%dx%d%c", &i, &j, &tail) != 2 || i < 1 || j < 1)
      return bad + " (expected IxJ, e.g. 2x2, or auto)";
    group_rows = i, group_cols = j;
    return "";
  }
  if (key == "block") {
    if (value == "auto") return block = 0, "";
    return parse_positive(value, block) ? "" : bad + " (expected an integer >= 1 or auto)";
  }
  if (key == "outer") {
    if (value == "0") return outer = 0, "";
    return parse_positive(value, outer) ? "" : bad + " (expected an integer >= 0)";
  }
  if (key == "model") {
    try {
      if (value == "measured") return measured = true, "";
      model = model::parse_bcast(value);
      measured = false;
      return "";
    } catch (const std::exception&) {
      return bad + " (unknown broadcast model: expected measured, vandegeijn, binomial or pipelined)";
    }
  }
  if (key == "engine") {
    if (value == "auto") return engine = EngineChoice::automatic, "";
    if (value == "direct") return engine = EngineChoice::direct, "";
    if (value == "redistribute") return engine = EngineChoice::redistribute, "";
    return bad + " (expected auto, direct or redistribute)";
  }
  return "unknown key '" + key + "' (known: enabled policy sync groups block outer lookahead stats model engine)";
}

bool Settings::operator==(const Settings& o) const {
  return enabled == o.enabled && policy == o.policy && sync == o.sync && group_rows == o.group_rows &&
         group_cols == o.group_cols && block == o.block && outer == o.outer && lookahead == o.lookahead &&
         measured == o.measured && model == o.model;
}

EngineOptions engine_options(const Settings& s) {
  EngineOptions o;
  o.bcast.policy = s.policy;
  o.bcast.sync = s.sync;
  o.layout = layout_from_env();
  o.lookahead = s.lookahead;
  return o;
}

Settings& settings() {
  static Settings s = [] {
    Settings out;
    for (const char* key : setting_keys) {
      std::string var = "HYMPI_PDGEMM_";
      for (const char* p = key; *p; ++p) var += static_cast<char>(std::toupper(static_cast<unsigned char>(*p)));
      if (std::string(key) == "enabled") var = "HYMPI_PDGEMM";
      const char* value = std::getenv(var.c_str());
      if (!value) continue;
      const std::string error = out.set(key, value);
      if (!error.empty()) std::fprintf(stderr, "hympi pdgemm: ignoring %s=%s: %s\n", var.c_str(), value, error.c_str());
    }
    return out;
  }();
  return s;
}

}  // namespace hympi::hsumma::scalapack
