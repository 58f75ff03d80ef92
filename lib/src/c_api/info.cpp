#include "c_api/info.hpp"

#include <cerrno>
#include <cstdlib>
#include <string>
#include <vector>

#include "hympi/error.hpp"

namespace hympi::c_api {

namespace {

// The value of `key`, or false when info does not hold it.
bool lookup(MPI_Info info, const char* key, std::string& value) {
  int length = 0, found = 0;
  HYMPI_CHECK_MPI(MPI_Info_get_valuelen(info, key, &length, &found));
  if (!found) return false;
  std::vector<char> text(static_cast<std::size_t>(length) + 1, '\0');
#if MPI_VERSION >= 4
  int buflen = length + 1;
  HYMPI_CHECK_MPI(MPI_Info_get_string(info, key, &buflen, text.data(), &found));
#else
  HYMPI_CHECK_MPI(MPI_Info_get(info, key, length, text.data(), &found));
#endif
  value.assign(text.data());
  return found != 0;
}

[[noreturn]] void bad_value(const char* call, const char* key, const std::string& value, const char* expected) {
  throw Error(ErrorCode::invalid_argument, std::string("hympi: ") + call + ": info key '" + key + "' has value '" +
                                               value + "'; expected " + expected);
}

// The MPI standard's spelling of a boolean info value, "true" or "false": a subset of
// hympi's vocabulary (enums.hpp's parse_bool) kept strict, since an info carries MPI's words.
bool parse_bool(const char* call, const char* key, const std::string& value) {
  if (value == "true") return true;
  if (value == "false") return false;
  bad_value(call, key, value, "'true' or 'false'");
}

template <class Enum>
Enum parse_named(const char* call, const char* key, const std::string& value) {
  try {
    return parse_enum<Enum>(value);
  } catch (const Error&) {
    bad_value(call, key, value, enum_choice<Enum>().c_str());
  }
}

int parse_leaders(const char* call, const std::string& value) {
  char* end = nullptr;
  errno = 0;
  const long k = value.empty() ? -1 : std::strtol(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || errno != 0 || k < 0 || k > 1 << 20)
    bad_value(call, "leaders", value, "a non-negative integer (0 = automatic)");
  return static_cast<int>(k);
}

}  // namespace

CollectiveOptions options_from_info(MPI_Info info, const char* call) {
  CollectiveOptions options;
  if (info == MPI_INFO_NULL) return options;
  std::string value;
  // The core's parsers (their names and the papers' aliases), with key and value in the message.
  if (lookup(info, "policy", value)) options.policy = parse_named<Policy>(call, "policy", value);
  if (lookup(info, "sync", value)) options.sync = parse_named<SyncKind>(call, "sync", value);
  if (lookup(info, "leaders", value)) options.leaders = parse_leaders(call, value);
  if (lookup(info, "overlap", value)) options.overlap = parse_bool(call, "overlap", value);
  if (lookup(info, "deterministic", value)) options.deterministic = parse_bool(call, "deterministic", value);
  if (lookup(info, "progress_thread", value)) options.progress_thread = parse_bool(call, "progress_thread", value);
  return options;
}

}  // namespace hympi::c_api
