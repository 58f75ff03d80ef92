// Internal: the one spelling of an integer in hympi's text inputs (the integer info
// keys `leaders` and `groups`, HYMPI_MODEL_NODE_RANKS): one or more decimal digits
// and nothing else (no sign, space, point or exponent), at most INT_MAX. A value
// beyond what it can use (a G above the ranks) is the key's to reduce, not refused
// here: the rule is about spelling, the range is each key's.
#pragma once
#include <climits>
#include <string>

namespace hympi::detail {

inline bool parse_decimal_int(const std::string& text, int& out) {
  if (text.empty()) return false;
  long long value = 0;
  for (char ch : text) {
    if (ch < '0' || ch > '9') return false;
    value = value * 10 + (ch - '0');
    if (value > INT_MAX) return false;  // stops before any overflow
  }
  out = static_cast<int>(value);
  return true;
}

}  // namespace hympi::detail
