// Internal: the one agreement round of a creation. Every check and every value
// that must match between ranks is collected first (no communication), then
// run() settles them all in one MPI_Allreduce: every rank returns, or every rank
// throws the same hympi::Error: the lowest failing rank's own error, else the
// first value that differs between ranks. A C init starts the agreement with
// its own checks (handles, datatype, info) and hands it to the core's create,
// which adds its own and runs it: one round per init, never a rank left waiting.
// The rule (issue 54): what is agreed is fixed before any value is looked at. Every
// rank adds the same items in the same order whatever the values it holds (an item
// only some values need is added always, neutral where unused; no path chosen by an
// option before the round), so the MPI_Allreduce has one length everywhere: a value
// that differs is this error, never a truncated or misaligned reduction.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "hympi/collectives.hpp"
#include "hympi/error.hpp"

namespace hympi::detail {

class Agreement {
 public:
  // `prefix` starts every message about a value ("hympi_bcast_init: "); with
  // `info_names` the options are named as info keys ("info 'leaders'").
  explicit Agreement(std::string prefix = "", bool info_names = false)
      : prefix_(std::move(prefix)), info_names_(info_names) {}

  // Runs `local_checks` (may throw hympi::Error or std::bad_alloc) unless an
  // earlier check of this rank failed; the error is kept for run().
  template <class F>
  void check(F&& local_checks) {
    if (failed()) return;
    try {
      local_checks();
    } catch (const Error& e) {
      error_ = e;
    } catch (const std::bad_alloc&) {
      error_ = Error(ErrorCode::out_of_memory, "hympi: out of memory while checking arguments");
    }
  }
  bool failed() const { return error_.has_value(); }

  // A value every rank must pass identically; `show` prints it in the message.
  void same(std::string what, std::int64_t value, std::string (*show)(std::int64_t) = nullptr);
  // A value that may differ: every rank gets the largest. Returns its index for agreed().
  std::size_t largest(std::string what, std::int64_t value);
  // The options table (options.hpp): every row's local check, every agreed row's value,
  // and groups=auto's machine (0 unless auto): options_items() items, whatever the values.
  void options(const CollectiveOptions& options);
  // How many items options() adds (the SMPI skeleton sends a round of the same length).
  static std::size_t options_items();

  // Collective over comm: one MPI_Allreduce (and the failing rank's message
  // broadcast when one failed). Throws the same Error on every rank, or returns.
  void run(MPI_Comm comm);
  // After run(): the agreed value at `index` (the largest where largest()).
  std::int64_t agreed(std::size_t index) const { return agreed_[index]; }

 private:
  struct Item {
    std::string what;
    std::int64_t value;
    bool largest_wins;
    std::string (*show)(std::int64_t);
  };
  std::string prefix_;
  bool info_names_;
  std::optional<Error> error_;
  std::vector<Item> items_;
  std::vector<std::int64_t> agreed_;
};

}  // namespace hympi::detail
