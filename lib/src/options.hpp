// Internal: the one table of the core's options (CollectiveOptions). Every face
// reads it: the C info parser (info key = name), the creates' checks and their
// agreement between ranks, the persistent inits. Adding an option is a field in
// CollectiveOptions (collectives.hpp) and one row in option_keys() (options.cpp);
// lib/README.md "Options" lists the rows (tests/core/options_test checks both).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "hympi/collectives.hpp"

namespace hympi::detail {

struct OptionKey {
  const char* name;           // the CollectiveOptions field and the MPI_Info key
  std::string type;           // what its values are, for messages ("'true' or 'false'")
  const char* default_value;  // spelled as an info value; CollectiveOptions{} holds it (checked)
  const char* help;           // one line, for README/--help
  bool agreed;                // must be equal on every rank (compared at every creation)
  // Applies an info / text value; false: refused, `o` unchanged.
  bool (*parse)(CollectiveOptions& o, const std::string& value);
  // The value as an integer: what the agreement compares.
  std::int64_t (*value)(const CollectiveOptions& o);
  // Local validity: "" or a message naming the problem (run on every rank, agreed).
  std::string (*check)(const CollectiveOptions& o);
};

// Every core option, in the order documented.
const std::vector<OptionKey>& option_keys();

// The local checks of every row, in order: "" or the first problem.
std::string option_problem(const CollectiveOptions& o);

}  // namespace hympi::detail
