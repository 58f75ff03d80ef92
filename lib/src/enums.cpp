#include "hympi/enums.hpp"

#include <cctype>

#include "hympi/error.hpp"

namespace hympi {

namespace {

// The boolean vocabulary: each pair is one true and one false spelling.
struct BoolPair {
  const char* yes;
  const char* no;
};
constexpr BoolPair bool_pairs[] = {{"1", "0"}, {"true", "false"}, {"yes", "no"}, {"on", "off"}};

bool same_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

}  // namespace

std::string quoted_choice(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += "'" + names[i] + "'";
  }
  return out;
}

void throw_unknown_name(const char* what, const std::vector<std::string>& names,
                        const std::vector<std::string>& aliases, std::string_view text) {
  std::string message = std::string("hympi: ") + what + " must be " + quoted_choice(names);
  if (!aliases.empty()) {
    message += " (also accepted: ";
    for (std::size_t i = 0; i < aliases.size(); ++i) message += (i ? ", '" : "'") + aliases[i] + "'";
    message += ")";
  }
  throw Error(ErrorCode::invalid_argument, message + ", got '" + std::string(text) + "'");
}

std::optional<bool> parse_bool(std::string_view text) {
  for (const auto& pair : bool_pairs) {
    if (same_ignoring_case(text, pair.yes)) return true;
    if (same_ignoring_case(text, pair.no)) return false;
  }
  return std::nullopt;
}

std::string bool_spellings() {
  std::string out;
  for (const auto& pair : bool_pairs) out += std::string(out.empty() ? "" : ", ") + pair.yes + "/" + pair.no;
  return out + " (any case)";
}

}  // namespace hympi
