// Settings of the drop-in pdgemm: from HYMPI_PDGEMM_* environment variables at
// first use, changed later by key/value pairs (hympi_pdgemm_set, an MPI_Info).
// They must be equal on every rank of a grid (as the environment normally is).
// The keys, what each accepts and its variable all come from one table
// (setting_keys(), settings.cpp): adding a setting is one row there, one field
// here and one row in README.md's table (tests/scalapack/settings_test checks it).
#pragma once
#include <array>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "hympi/collectives.hpp"
#include "hympi/hsumma/cost_model.hpp"
#include "hympi/hsumma/engine.hpp"
#include "hympi/node_sync.hpp"

namespace hympi::hsumma::scalapack {

// Which engine runs a call the direct engine could run (block_cyclic_summa.hpp).
enum class EngineChoice {
  automatic,     // direct, unless the caller's A, B, C already are the engine's layout (no copies either way)
  direct,        // direct whenever the layouts are aligned
  redistribute,  // always the engine on its block checkerboard (redistributing what differs)
};

}  // namespace hympi::hsumma::scalapack

template <>
struct hympi::EnumTable<hympi::hsumma::scalapack::EngineChoice> {
  using E = hympi::hsumma::scalapack::EngineChoice;
  static constexpr const char* what = "engine";
  static constexpr Spelling<E> names[] = {
      {"auto", E::automatic}, {"direct", E::direct}, {"redistribute", E::redistribute}};
  static constexpr std::array<Spelling<E>, 0> aliases{};
};

namespace hympi::hsumma::scalapack {

struct Settings {
  bool enabled = true;  // off: every call goes to ScaLAPACK's pdgemm
  Policy policy = Policy::hybrid;
  SyncKind sync = SyncKind::flags;
  int group_rows = 1, group_cols = 1;             // HSUMMA groups I x J (1x1: SUMMA; 0x0: auto)
  bool measured = true;                           // groups/block=auto: broadcasts measured (model=measured)
  model::Bcast model = model::Bcast::vandegeijn;  // else this formula (model=binomial|vandegeijn|pipelined)
  std::int64_t block = 256;                       // inner panel width b (0: auto)
  std::int64_t outer = 0;                         // outer panel width M (0: b); rounded up to a multiple of b
  bool lookahead = true;
  bool stats = false;  // print handled / passed-on counts at MPI_Finalize
  EngineChoice engine = EngineChoice::automatic;
  bool gemm3m = false;  // c and z multiply with the BLAS's 3M kernel (summa::element_3m)

  // Applies one key of setting_keys(); returns "" or a message naming the problem
  // (an unknown key, or the value and what the key accepts). A refused value
  // changes nothing.
  std::string set(const std::string& key, const std::string& value);
  // Equal for the engine cache: stats and engine choice do not shape an engine,
  // nor gemm3m (the cache keys plans by their element, 3M or not).
  bool operator==(const Settings& o) const;
  bool auto_groups() const { return group_rows == 0; }
  // The groups I x J fixed by `groups` on a P x Q grid: those that do not
  // divide the grid shrink to the largest that do (gcd). The one such rule.
  std::pair<int, int> groups_on(int P, int Q) const { return {std::gcd(group_rows, P), std::gcd(group_cols, Q)}; }
  bool auto_block() const { return block == 0; }
  const char* model_name() const { return measured ? "measured" : model::bcast_name(model); }
  // The outer panel width M for inner width b: `outer` rounded up to a multiple of b (0: b).
  std::int64_t outer_for(std::int64_t b) const { return outer <= b ? b : (outer + b - 1) / b * b; }
};

// The broadcast setup of the engines and probes under these settings (policy,
// sync, lookahead, the node layout of the environment); sizes are left unset.
EngineOptions engine_options(const Settings& s);

// One key of Settings::set.
struct SettingKey {
  const char* name;                                      // as hympi_pdgemm_set and an MPI_Info take it
  std::string accepts;                                   // what its values may be, for messages ("'pure' or 'hybrid'")
  bool (*apply)(Settings& s, const std::string& value);  // false: refused, `s` unchanged
  // HYMPI_PDGEMM_<NAME>; "enabled" is HYMPI_PDGEMM itself.
  std::string variable() const;
};

// Every key set() accepts, in the order documented: the one list of them.
const std::vector<SettingKey>& setting_keys();
// "enabled policy sync ...": the names, for the unknown-key message.
std::string known_setting_keys();

// The process's settings, read from the environment on first use (a bad value
// is reported on stderr, naming the variable, and the default kept).
Settings& settings();

}  // namespace hympi::hsumma::scalapack
