// What the measurement loop times: one collective under one variant, through the
// core's request model (hympi::PersistentCollective). Each operation lives in its
// own small file (gather_operation.cpp, bcast.cpp, reduce_operation.cpp,
// rooted_operation.cpp, node_barrier.cpp) and only says how its data look (a Data); the write, run,
// check, timing and output are the same for all of them (Operation, measure.hpp,
// report.hpp, osu_mode.cpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hympi/collectives.hpp"
#include "hympi/enums.hpp"
#include "hympi/persistent.hpp"
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
inline constexpr const char* kNodeBarrier = "node-barrier";
// pure, hybrid-barrier, hybrid-flags, node-barrier: what --variants accepts.
std::vector<std::string> variant_names();
Variant parse_variant(const std::string& name);

// The element the gathers, scatter and the broadcast move: doubles (the default mode) or
// bytes (OSU mode, as OSU's MPI_CHAR). The reductions move elements of --type.
enum class Element { f64, byte };

// What differs between the operations: which collective serves a size, what a
// rank contributes, what the result must be. One small file per operation.
class Data {
 public:
  virtual ~Data() = default;
  // Collective, untimed: the collective for `size` elements per rank (a new one,
  // or the previous one resized), valid until the next bind().
  virtual PersistentCollective& bind(std::int64_t size) = 0;
  // Bytes this rank writes into slot() (0: none).
  virtual std::size_t contribution_bytes() const = 0;
  // This rank's contribution for `iteration`, contribution_bytes() into `out`.
  virtual void fill(void* out, int iteration) const = 0;
  // How many elements of `result` differ from what `iteration` should give.
  virtual std::int64_t errors(const void* result, int iteration) const = 0;
  // Elements in the result a rank reads (the whole gathered vector / the message).
  virtual std::int64_t result_elements() const = 0;
  // False for the node barrier (no data to check).
  virtual bool checks_data() const { return true; }
};

// One collective measured through the core's request model: the same write, run
// and check for every operation and both modes (default and OSU).
class Operation {
 public:
  explicit Operation(std::unique_ptr<Data> data) : data_(std::move(data)) {}
  // Collective: binds the collective for `size` elements and fills the source with iteration 0.
  void resize(std::int64_t size);
  // Untimed: this rank's source data for `iteration` (only when validating, so
  // that every iteration moves different data).
  void prepare(int iteration) { data_->fill(source_.data(), iteration); }
  // Writes this rank's contribution into slot(), as a producer of the data would.
  void write();
  // Runs the collective.
  void exchange() { collective_->run(); }
  std::int64_t errors(int iteration) const { return data_->errors(collective_->result(), iteration); }
  bool checks_data() const { return data_->checks_data(); }
  std::int64_t result_elements() const { return data_->result_elements(); }
  // Bytes of result memory this rank's node holds.
  std::size_t bytes_per_node() const { return collective_->bytes_per_node(); }

 private:
  std::unique_ptr<Data> data_;
  PersistentCollective* collective_ = nullptr;
  std::vector<unsigned char> source_;
};

// The value rank `rank` contributes at element `i` in `iteration`: exact in a
// double and different for every (iteration, rank, element).
inline double pattern(int iteration, int rank, std::int64_t i) {
  const std::uint64_t mix = static_cast<std::uint64_t>(iteration) * 0x9E3779B1u +
                            static_cast<std::uint64_t>(rank) * 0x85EBCA77u + static_cast<std::uint64_t>(i) * 3u;
  return static_cast<double>(mix & ((std::uint64_t{1} << 52) - 1));
}

// The same for an element of type T: doubles as above; bytes distinct per rank
// (a misplaced block is visible) and per iteration.
template <class T>
T element_value(int iteration, int rank, std::int64_t i) {
  if constexpr (sizeof(T) == 1)
    return static_cast<T>((rank * 131 + i * 7 + iteration * 29 + 1) & 0xff);
  else
    return static_cast<T>(pattern(iteration, rank, i));
}

// Calls f(T{}) with T the C++ type of the gathers' and the broadcast's element.
template <class F>
auto with_element(Element element, F&& f) {
  if (element == Element::byte) return f(static_cast<unsigned char>(0));
  return f(double{});
}

// Per-rank counts of an allgather(v) for `size` elements per rank.
using CountsRule = std::vector<std::int64_t> (*)(std::int64_t size, int ranks);

// What an operation's data depend on besides the variant.
struct DataSetting {
  int root = 0;                    // bcast, reduce, gather, scatter
  Element element = Element::f64;  // allgather(v), bcast, gather, scatter
};

struct OperationKind {
  std::string name;   // "allgather"
  std::string title;  // "Allgather", for the table preamble
  // One object per variant, created once and bound to each size in turn.
  std::function<std::unique_ptr<Data>(const Topology& topo, const Variant& variant, const DataSetting& setting)> make;
  bool reduces = false;  // combines by --op on elements of --type
  bool rooted = false;   // has a --root (bcast, reduce, gather, scatter)
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
OperationKind gather_kind();
OperationKind scatter_kind();
std::vector<OperationKind> operation_kinds(const Reduction& reduction);
std::vector<std::string> operation_names();  // what --ops accepts
OperationKind find_operation(const std::string& name, const Reduction& reduction);

// The bytes of one call by which the core picks its groups (effective_groups):
// the whole result of allgather(v), the whole gathered / scattered vector, the
// vector of bcast and the reductions. `result_elements` is Data::result_elements().
std::int64_t grouping_bytes(const OperationKind& kind, std::int64_t size, std::int64_t result_elements, int ranks,
                            std::size_t element_bytes);

// MPI_Barrier on the node communicator, for any operation.
std::unique_ptr<Data> make_node_barrier(const Topology& topo);

}  // namespace hympi::bench
