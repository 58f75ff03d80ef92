#include "agreement.hpp"

#include <climits>
#include <functional>
#include <string>
#include <utility>

#include "options.hpp"

namespace hympi::detail {

void Agreement::same(std::string what, std::int64_t value, std::string (*show)(std::int64_t)) {
  items_.push_back({std::move(what), value, false, show});
}

std::size_t Agreement::largest(std::string what, std::int64_t value) {
  items_.push_back({std::move(what), value, true, nullptr});
  return items_.size() - 1;
}

void Agreement::options(const CollectiveOptions& options) {
  check([&] {
    const std::string problem = option_problem(options);
    require(problem.empty(), problem);
  });
  for (const OptionKey& key : option_keys())
    if (key.agreed)
      same(info_names_ ? "info '" + std::string(key.name) + "'" : std::string(key.name), key.value(options));
  // Always one item, whatever groups is (the shape of the agreement never depends on a
  // value it agrees: an item added for auto only misaligned the MPI_Allreduce when
  // groups differed); only auto reads the machine, the others agree 0.
  std::string machine;
  if (options.groups == 0)
    check([&] { machine = grouped_model_machine(); });  // a bad HYMPI_MODEL_* on one rank: its error, everywhere
  same("groups=auto's machine (the HYMPI_MODEL_* environment)",
       machine.empty() ? 0 : static_cast<std::int64_t>(std::hash<std::string>{}(machine) >> 1));
}

std::size_t Agreement::options_items() {
  std::size_t n = 1;  // groups=auto's machine
  for (const OptionKey& key : option_keys()) n += key.agreed ? 1 : 0;
  return n;
}

void Agreement::run(MPI_Comm comm) {
  int rank = 0, size = 0;
  HYMPI_CHECK_MPI(MPI_Comm_rank(comm, &rank));
  HYMPI_CHECK_MPI(MPI_Comm_size(comm, &size));
  // [lowest failing rank as size - rank (0: none), each value's max, each value's -min]
  const std::size_t n = items_.size();
  std::vector<std::int64_t> mine(1 + 2 * n), all(1 + 2 * n);
  mine[0] = failed() ? size - rank : 0;
  for (std::size_t i = 0; i < n; ++i) {
    mine[1 + i] = items_[i].value;
    mine[1 + n + i] = -items_[i].value;  // INT64_MIN never occurs: values are sizes, counts, flags and ids
  }
  HYMPI_CHECK_MPI(MPI_Allreduce(mine.data(), all.data(), static_cast<int>(mine.size()), MPI_INT64_T, MPI_MAX, comm));
  if (all[0] != 0) throw_error_of(comm, size - static_cast<int>(all[0]), error_ ? &*error_ : nullptr);
  agreed_.assign(all.begin() + 1, all.begin() + 1 + static_cast<std::ptrdiff_t>(n));
  for (std::size_t i = 0; i < n; ++i) {
    const Item& item = items_[i];
    const std::int64_t highest = all[1 + i], lowest = -all[1 + n + i];
    if (lowest == highest || item.largest_wins) continue;
    const auto show = [&](std::int64_t v) { return item.show ? item.show(v) : std::to_string(v); };
    require(false, prefix_ + item.what + " differs between ranks (" + show(lowest) + " and " + show(highest) +
                       "); every rank must pass the same value");
  }
}

}  // namespace hympi::detail
