#include "options.hpp"

#include "bridges.hpp"
#include "decimal.hpp"
#include "hympi/enums.hpp"
#include "hympi/error.hpp"

namespace hympi::detail {

namespace {

// The MPI standard's spelling of a boolean info value: a strict subset of
// hympi's vocabulary (enums.hpp's parse_bool), since an info carries MPI's words.
bool parse_flag(bool& field, const std::string& value) {
  if (value != "true" && value != "false") return false;
  field = value == "true";
  return true;
}

template <class Enum>
bool parse_named(Enum& field, const std::string& value) {
  try {
    field = parse_enum<Enum>(value);
    return true;
  } catch (const Error&) {
    return false;
  }
}

// A non-negative int in the one integer spelling (decimal.hpp).
bool parse_count(int& field, const std::string& value) { return parse_decimal_int(value, field); }

// groups: a positive integer, or "auto" (0: the model's choice).
bool parse_groups(int& field, const std::string& value) {
  if (value == "auto") {
    field = 0;
    return true;
  }
  int g = 0;
  if (!parse_count(g, value) || g < 1) return false;
  field = g;
  return true;
}

std::string no_problem(const CollectiveOptions&) { return ""; }

std::vector<OptionKey> make_keys() {
  const std::string flag = "'true' or 'false'";
  return {
      {"policy", enum_choice<Policy>(), "hybrid", "pure: a private copy per rank (plain MPI); hybrid: one copy per node",
       true, [](CollectiveOptions& o, const std::string& v) { return parse_named(o.policy, v); },
       [](const CollectiveOptions& o) { return static_cast<std::int64_t>(o.policy); }, no_problem},
      {"sync", enum_choice<SyncKind>(), "flags", "node synchronization: MPI_Barrier, or flags in shared memory", true,
       [](CollectiveOptions& o, const std::string& v) { return parse_named(o.sync, v); },
       [](const CollectiveOptions& o) { return static_cast<std::int64_t>(o.sync); }, no_problem},
      {"leaders", "a non-negative integer (decimal digits, at most 2147483647; 0 = automatic)", "0",
       "bridge ranks per node: 0 = one per 256 KiB moved, 1 = single leader, k = k slices", true,
       [](CollectiveOptions& o, const std::string& v) { return parse_count(o.leaders, v); },
       [](const CollectiveOptions& o) { return static_cast<std::int64_t>(o.leaders); },
       [](const CollectiveOptions& o) {
         return o.leaders >= 0 ? std::string()
                               : "leaders must be >= 0 (0 = automatic, 1 = one leader per node), got " +
                                     std::to_string(o.leaders);
       }},
      {"overlap", flag, "false", "bcast: room for one broadcast in flight while the previous result is read", true,
       [](CollectiveOptions& o, const std::string& v) { return parse_flag(o.overlap, v); },
       [](const CollectiveOptions& o) { return std::int64_t{o.overlap}; }, no_problem},
      {"deterministic", flag, "false", "reductions: combined in rank order, the same bits for any layout and policy",
       true, [](CollectiveOptions& o, const std::string& v) { return parse_flag(o.deterministic, v); },
       [](const CollectiveOptions& o) { return std::int64_t{o.deterministic}; }, no_problem},
      {"progress_thread", flag, "false",
       "a worker thread completes hybrid nonblocking collectives (needs MPI_THREAD_MULTIPLE)", true,
       [](CollectiveOptions& o, const std::string& v) { return parse_flag(o.progress_thread, v); },
       [](const CollectiveOptions& o) { return std::int64_t{o.progress_thread}; },
       [](const CollectiveOptions& o) {
         return progress_thread_available(o) ? std::string() : std::string(kProgressThreadNeedsMultiple);
       }},
      {"groups", "a positive integer (decimal digits, at most 2147483647) or 'auto'", "1",
       "G balanced groups of consecutive ranks (hybrid: whole nodes): leaders' collective, then each group's; "
       "auto = the route model's G",
       true, [](CollectiveOptions& o, const std::string& v) { return parse_groups(o.groups, v); },
       [](const CollectiveOptions& o) { return static_cast<std::int64_t>(o.groups); },
       [](const CollectiveOptions& o) {
         if (o.groups < 0) return "groups must be >= 1, or 0 = automatic, got " + std::to_string(o.groups);
         if (o.groups != 1 && o.deterministic)
           return "groups = " + std::to_string(o.groups) +
                  " cannot be combined with deterministic (its rank-order combination is flat); choose one";
         return std::string();
       }},
  };
}

}  // namespace

const std::vector<OptionKey>& option_keys() {
  static const std::vector<OptionKey> keys = make_keys();
  return keys;
}

std::string option_problem(const CollectiveOptions& o) {
  for (const OptionKey& key : option_keys()) {
    std::string problem = key.check(o);
    if (!problem.empty()) return problem;
  }
  return "";
}

}  // namespace hympi::detail
