#include "settings.hpp"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <tuple>

#include "hympi/enums.hpp"
#include "hympi/grid.hpp"
#include "hympi/layout.hpp"
#include "hympi/summa/element.hpp"

namespace hympi::hsumma::scalapack {

namespace {

bool parse_positive(const std::string& v, std::int64_t& out) {
  char* end = nullptr;
  const long long x = std::strtoll(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || x < 1) return false;
  out = x;
  return true;
}

// A key whose value is one of the vocabulary's booleans.
template <bool Settings::*Field>
SettingKey boolean(const char* name) {
  return {name, bool_spellings(), [](Settings& s, const std::string& v) {
            const auto b = parse_bool(v);
            if (b) s.*Field = *b;
            return b.has_value();
          }};
}

// A key whose value is a name of an enum's table (enums.hpp).
template <class Enum, Enum Settings::*Field>
SettingKey named(const char* name) {
  return {name, enum_choice<Enum>(), [](Settings& s, const std::string& v) {
            try {
              s.*Field = parse_enum<Enum>(v);
              return true;
            } catch (const std::exception&) {
              return false;
            }
          }};
}

// The formulas model=... may name besides "measured" (cost_model.hpp).
std::string model_choice() {
  std::vector<std::string> names{"measured"};
  for (const std::string& name : enum_names<model::Bcast>()) names.push_back(name);
  return "a broadcast model: " + quoted_choice(names);
}

// In the order of README's table (tests/scalapack/settings_test.cpp compares them).
std::vector<SettingKey> make_keys() {
  std::vector<SettingKey> keys;
  keys.push_back(boolean<&Settings::enabled>("enabled"));
  keys.push_back(named<Policy, &Settings::policy>("policy"));
  keys.push_back(named<SyncKind, &Settings::sync>("sync"));
  keys.push_back({"groups", "IxJ with I, J >= 1 (e.g. 2x2) or 'auto'", [](Settings& s, const std::string& v) {
                    if (v == "auto") return s.group_rows = s.group_cols = 0, true;
                    try {
                      std::tie(s.group_rows, s.group_cols) = parse_grid(v, "groups");
                      return true;
                    } catch (const std::exception&) {
                      return false;
                    }
                  }});
  keys.push_back({"model", model_choice(), [](Settings& s, const std::string& v) {
                    if (v == "measured") return s.measured = true, true;
                    try {
                      s.model = model::parse_bcast(v);
                      s.measured = false;
                      return true;
                    } catch (const std::exception&) {
                      return false;
                    }
                  }});
  keys.push_back({"block", "an integer >= 1 or 'auto'", [](Settings& s, const std::string& v) {
                    if (v == "auto") return s.block = 0, true;
                    return parse_positive(v, s.block);
                  }});
  keys.push_back({"outer", "an integer >= 0 (0: the block)", [](Settings& s, const std::string& v) {
                    if (v == "0") return s.outer = 0, true;
                    return parse_positive(v, s.outer);
                  }});
  keys.push_back(boolean<&Settings::lookahead>("lookahead"));
  keys.push_back(boolean<&Settings::stats>("stats"));
  keys.push_back(named<EngineChoice, &Settings::engine>("engine"));
  // Only where the BLAS has the kernels: elsewhere 'on' is refused, saying why.
  SettingKey gemm3m = boolean<&Settings::gemm3m>("gemm3m");
  if (!summa::gemm3m_available()) {
    gemm3m.accepts = "off (this BLAS has no cgemm3m_/zgemm3m_)";
    gemm3m.apply = [](Settings& s, const std::string& v) {
      const auto b = parse_bool(v);
      if (b && !*b) s.gemm3m = false;
      return b && !*b;
    };
  }
  keys.push_back(gemm3m);
  return keys;
}

}  // namespace

std::string SettingKey::variable() const {
  std::string var = "HYMPI_PDGEMM";
  if (std::string(name) == "enabled") return var;
  var += '_';
  for (const char* p = name; *p; ++p) var += static_cast<char>(std::toupper(static_cast<unsigned char>(*p)));
  return var;
}

const std::vector<SettingKey>& setting_keys() {
  static const std::vector<SettingKey> keys = make_keys();
  return keys;
}

std::string known_setting_keys() {
  std::string names;
  for (const SettingKey& key : setting_keys()) names += (names.empty() ? "" : " ") + std::string(key.name);
  return names;
}

std::string Settings::set(const std::string& key, const std::string& value) {
  for (const SettingKey& k : setting_keys()) {
    if (key != k.name) continue;
    Settings changed = *this;  // a refused value leaves *this as it was
    if (!k.apply(changed, value)) return "bad value '" + value + "' for " + key + " (expected " + k.accepts + ")";
    *this = changed;
    return "";
  }
  return "unknown key '" + key + "' (known: " + known_setting_keys() + ")";
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
    for (const SettingKey& key : setting_keys()) {
      const std::string var = key.variable();
      const char* value = std::getenv(var.c_str());
      if (!value) continue;
      const std::string error = out.set(key.name, value);
      if (!error.empty()) std::fprintf(stderr, "hympi pdgemm: ignoring %s=%s: %s\n", var.c_str(), value, error.c_str());
    }
    return out;
  }();
  return s;
}

}  // namespace hympi::hsumma::scalapack
