// The options every app shares, in one place: adding an option to every app means
// adding it here (a field of CommonOptions and a line in add_common_options).
//   --csv FILE           append the app's records to FILE ('-' = stdout)
//   --ranks-per-node N   emulate nodes of N ranks (default: $HYMPI_RANKS_PER_NODE, else real nodes)
//   --node-sizes 4,2     emulate irregular nodes ($HYMPI_NODE_SIZES)
//   --placement P        block | roundrobin ($HYMPI_PLACEMENT)
// Also the typed enum options (policy, sync, grid order): parsed once on the command
// line into the library's enums, by the names of the library's tables (hympi/enums.hpp).
#pragma once
#include <CLI/CLI.hpp>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "hympi/collectives.hpp"
#include "hympi/enums.hpp"
#include "hympi/grid.hpp"
#include "hympi/layout.hpp"
#include "hympi/node_sync.hpp"

namespace hympi::apps {

struct LayoutOptions {
  int ranks_per_node = -1;  // -1: take the environment
  std::string node_sizes;
  std::string placement;
  // Options override the environment; throws hympi::Error(invalid_argument) on bad
  // text or when the layout does not fit `comm_size` ranks (same verdict on every rank).
  LayoutSpec resolve(int comm_size) const;
};

struct CommonOptions {
  std::string csv;  // "" = no CSV
  LayoutOptions layout;
};

// `csv_help` says what one row is for this app.
void add_common_options(CLI::App& app, CommonOptions& options, const std::string& csv_help);

// name -> value of an enum, from its table (names only: the apps take no aliases).
// Every enum option of the apps goes through its EnumTable (hympi/enums.hpp; an
// app's own enums specialize it too: hsumma's model::Bcast, bpmf's PredictiveStd,
// hympi-summa's algorithms and checks).
template <class Enum>
std::map<std::string, Enum> name_map() {
  std::map<std::string, Enum> names;
  for (const auto& s : EnumTable<Enum>::names) names.emplace(s.text, s.value);
  return names;
}

inline std::map<std::string, Policy> policy_names() {
  return name_map<Policy>();
}
inline std::map<std::string, SyncKind> sync_names() {
  return name_map<SyncKind>();
}
inline std::map<std::string, GridOrder> grid_order_names() {
  return name_map<GridOrder>();
}

// The current value of an enum option (or list of them, comma separated), for --help.
template <class Enum>
std::string enum_text(const Enum& value) {
  return enum_name(value);
}
template <class Enum>
std::string enum_text(const std::vector<Enum>& values) {
  std::string text;
  for (const auto& v : values) text += (text.empty() ? "" : ",") + std::string(enum_name(v));
  return text;
}

// Accepts exactly the names of `names` and hands CLI11 the enum's value, so the
// option lands typed; anything else is a usage error listing the names.
template <class Enum>
CLI::Validator enum_validator(std::map<std::string, Enum> names) {
  std::string list;
  for (const auto& entry : names) list += (list.empty() ? "" : "|") + entry.first;
  return CLI::Validator(
      [names, list](std::string& text) -> std::string {
        const auto it = names.find(text);
        if (it == names.end()) return "'" + text + "' is not one of " + list;
        text = std::to_string(static_cast<int>(it->second));
        return "";
      },
      list, "enum");
}

// A typed option; --help shows the names and the current value as the default.
template <class T, class Enum>
CLI::Option* add_enum_option(CLI::App& app, const std::string& flags, T& target, std::map<std::string, Enum> names,
                             const std::string& help) {
  return app.add_option(flags, target, help)
      ->transform(enum_validator(std::move(names)))
      ->default_str(enum_text(target));
}

}  // namespace hympi::apps
