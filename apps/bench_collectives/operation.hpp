// What the measurement loop times: one collective under one variant. Each
// operation lives in its own small file (allgather.cpp, allgatherv.cpp,
// bcast.cpp, node_barrier.cpp) and only says how its data look; the timing,
// reduction and output are the same for all of them (measure.hpp, report.hpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hympi/collectives.hpp"
#include "hympi/topology.hpp"

namespace hympi::bench {

// pure | hybrid-barrier | hybrid-flags run a hympi collective with that policy and
// sync; node-barrier only runs MPI_Barrier on the node communicator.
struct Variant {
  std::string name;
  bool runs_collective = true;
  CollectiveOptions options;
  std::string policy_name() const;  // "pure", "hybrid", or "none"
  std::string sync_name() const;    // "barrier", "flags", or "" for pure
};
Variant parse_variant(const std::string& name);

class Operation {
 public:
  virtual ~Operation() = default;
  // Collective: sizes the operation for `size` doubles per rank (the same object
  // is reused across sizes; buffers grow) and fills the source with iteration 0.
  virtual void resize(std::int64_t size) = 0;
  // Untimed: this rank's source data for `iteration` (only when validating, so
  // that every iteration moves different data).
  virtual void prepare(int iteration) = 0;
  // Timed (by default): write this rank's contribution into the collective
  // (slot() / the root's buffer()), as a producer of the data would.
  virtual void write() = 0;
  // Timed: run the collective.
  virtual void exchange() = 0;
  // Untimed: how many result elements differ from what `iteration` should give.
  virtual std::int64_t errors(int iteration) const = 0;
  // False for the node barrier (no data to check).
  virtual bool checks_data() const { return true; }
  // Doubles in the result a rank reads (the whole gathered vector / the message).
  virtual std::int64_t result_doubles() const = 0;
  // Bytes of result memory this rank's node holds.
  virtual std::size_t bytes_per_node() const = 0;
};

// The value rank `rank` contributes at element `i` in `iteration`: exact in a
// double and different for every (iteration, rank, element).
inline double pattern(int iteration, int rank, std::int64_t i) {
  const std::uint64_t mix = static_cast<std::uint64_t>(iteration) * 0x9E3779B1u +
                            static_cast<std::uint64_t>(rank) * 0x85EBCA77u + static_cast<std::uint64_t>(i) * 3u;
  return static_cast<double>(mix & ((std::uint64_t{1} << 52) - 1));
}

// Per-rank counts of an allgather(v) for `size` doubles per rank.
using CountsRule = std::vector<std::int64_t> (*)(std::int64_t size, int ranks);

struct OperationKind {
  std::string name;   // "allgather"
  std::string title;  // "Allgather", for the table preamble
  // One object per variant, created once for sizes up to `max_size` and reused.
  std::function<std::unique_ptr<Operation>(const Topology& topo, const Variant& variant, int root,
                                           std::int64_t max_size)>
      make;
  bool reduces = false;  // combines by --op on elements of --type
};

// --type and --op of the reductions (reduce_types.hpp).
struct Reduction {
  std::string type = "double";
  std::string op = "sum";
};

// The operations this benchmark knows, in the order they run.
OperationKind allgather_kind();
OperationKind allgatherv_kind();
OperationKind bcast_kind();
OperationKind allreduce_kind(const Reduction& reduction);
OperationKind reduce_kind(const Reduction& reduction);
OperationKind find_operation(const std::string& name, const Reduction& reduction);

// Shared by allgather and allgatherv: a hympi::Allgatherv whose counts follow `rule`.
std::unique_ptr<Operation> make_gather_operation(const Topology& topo, const Variant& variant, CountsRule rule,
                                                 bool equal_counts);
// MPI_Barrier on the node communicator, for any operation.
std::unique_ptr<Operation> make_node_barrier(const Topology& topo);

}  // namespace hympi::bench
