#include "reduction_args.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "bridges.hpp"
#include "hympi/collectives.hpp"
#include "hympi/error.hpp"
#include "hympi/topology.hpp"

namespace hympi::detail {

namespace {

// Which predefined ops MPI defines for a predefined type (MPI 4.1, 6.9.2).
enum TypeClass : unsigned {
  kInteger = 1,
  kFloating = 2,
  kComplex = 4,
  kLogical = 8,
  kByte = 16,
  kPair = 32,
  kOther = 0
};

TypeClass classify(MPI_Datatype type) {
  const MPI_Datatype integers[] = {MPI_INT,         MPI_LONG,          MPI_SHORT,         MPI_UNSIGNED_SHORT,
                                   MPI_UNSIGNED,    MPI_UNSIGNED_LONG, MPI_LONG_LONG_INT, MPI_UNSIGNED_LONG_LONG,
                                   MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_INT8_T,        MPI_INT16_T,
                                   MPI_INT32_T,     MPI_INT64_T,       MPI_UINT8_T,       MPI_UINT16_T,
                                   MPI_UINT32_T,    MPI_UINT64_T,      MPI_AINT,          MPI_OFFSET,
                                   MPI_COUNT,       MPI_INTEGER,       MPI_INTEGER1,      MPI_INTEGER2,
                                   MPI_INTEGER4,    MPI_INTEGER8};
  const MPI_Datatype floating[] = {MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_REAL, MPI_DOUBLE_PRECISION,
                                   MPI_REAL4, MPI_REAL8};
  const MPI_Datatype complex[] = {MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX, MPI_C_LONG_DOUBLE_COMPLEX, MPI_COMPLEX,
                                  MPI_DOUBLE_COMPLEX};
  const MPI_Datatype logical[] = {MPI_C_BOOL, MPI_LOGICAL, MPI_CXX_BOOL};
  const MPI_Datatype pairs[] = {MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT,
                                MPI_2INT,      MPI_SHORT_INT,  MPI_LONG_DOUBLE_INT};
  const auto in = [type](const auto& list) {
    return std::find(std::begin(list), std::end(list), type) != std::end(list);
  };
  if (in(integers)) return kInteger;
  if (in(floating)) return kFloating;
  if (in(complex)) return kComplex;
  if (in(logical)) return kLogical;
  if (type == MPI_BYTE) return kByte;
  if (in(pairs)) return kPair;
  return kOther;
}

struct PredefinedOp {
  MPI_Op op;
  const char* name;
  unsigned classes;  // TypeClass bits the op is defined for
};

const std::array<PredefinedOp, 12>& predefined_ops() {
  static const std::array<PredefinedOp, 12> ops{{
      {MPI_SUM, "MPI_SUM", kInteger | kFloating | kComplex},
      {MPI_PROD, "MPI_PROD", kInteger | kFloating | kComplex},
      {MPI_MIN, "MPI_MIN", kInteger | kFloating},
      {MPI_MAX, "MPI_MAX", kInteger | kFloating},
      {MPI_LAND, "MPI_LAND", kInteger | kLogical},
      {MPI_LOR, "MPI_LOR", kInteger | kLogical},
      {MPI_LXOR, "MPI_LXOR", kInteger | kLogical},
      {MPI_BAND, "MPI_BAND", kInteger | kByte},
      {MPI_BOR, "MPI_BOR", kInteger | kByte},
      {MPI_BXOR, "MPI_BXOR", kInteger | kByte},
      {MPI_MINLOC, "MPI_MINLOC", kPair},
      {MPI_MAXLOC, "MPI_MAXLOC", kPair},
  }};
  return ops;
}

// Index into predefined_ops(), or -1 for a user-defined op.
int op_id(MPI_Op op) {
  const auto& ops = predefined_ops();
  for (std::size_t i = 0; i < ops.size(); ++i)
    if (ops[i].op == op) return static_cast<int>(i);
  return -1;
}

std::string op_name(int id) {
  return id < 0 ? "a user-defined op" : predefined_ops()[id].name;
}

std::string type_name(MPI_Datatype type) {
  char name[MPI_MAX_OBJECT_NAME] = {};
  int length = 0;
  if (MPI_Type_get_name(type, name, &length) != MPI_SUCCESS || length == 0) return "(unnamed type)";
  return std::string(name, static_cast<std::size_t>(length));
}

// What every rank must pass identically; compared with rank 0's.
struct Signature {
  std::int64_t count, root, extent, size, op, policy, sync, leaders, deterministic;
  char type[MPI_MAX_OBJECT_NAME];
};

void check_local(const char* what, std::int64_t count, MPI_Datatype type, MPI_Op op, int root, int comm_size,
                 const CollectiveOptions& options, ReductionArgs& args) {
  const std::string w = what;
  require(count >= 0, w + " count must be >= 0, got " + std::to_string(count));
  require(root == kEveryRank || (root >= 0 && root < comm_size), w + " root must be a rank of the communicator (0.." +
                                                                     std::to_string(comm_size - 1) + "), got " +
                                                                     std::to_string(root));
  require(options.leaders >= 0, w + " leaders must be >= 0 (0 = automatic), got " + std::to_string(options.leaders));
  require(root != kEveryRank || progress_thread_available(options), kProgressThreadNeedsMultiple);
  require(type != MPI_DATATYPE_NULL, w + " datatype is MPI_DATATYPE_NULL");
  require(op != MPI_OP_NULL, w + " op is MPI_OP_NULL");
  int integers = 0, addresses = 0, types = 0, combiner = 0;
  HYMPI_CHECK_MPI(MPI_Type_get_envelope(type, &integers, &addresses, &types, &combiner));
  require(combiner == MPI_COMBINER_NAMED, w + " needs a predefined datatype (MPI_DOUBLE, MPI_FLOAT, MPI_INT32_T, "
                                              "MPI_INT64_T, ...); derived datatypes are not supported");
  int commutative = 0;
  HYMPI_CHECK_MPI(MPI_Op_commutative(op, &commutative));
  require(commutative != 0, w + " needs a commutative op; this user-defined op was created with commute = 0");
  const int id = op_id(op);
  const TypeClass klass = classify(type);
  if (id >= 0)
    require((predefined_ops()[id].classes & klass) != 0,
            w + ": " + op_name(id) + " is not defined for datatype " + type_name(type));
  MPI_Aint lb = 0, extent = 0;
  HYMPI_CHECK_MPI(MPI_Type_get_extent(type, &lb, &extent));
  require(lb == 0 && extent > 0, w + " datatype " + type_name(type) + " has no usable extent");
  args.extent = static_cast<std::size_t>(extent);
  require(static_cast<std::uint64_t>(count) <= SIZE_MAX / args.extent,
          w + " count " + std::to_string(count) + " overflows size_t bytes", ErrorCode::out_of_memory);
  args.bytes = static_cast<std::size_t>(count) * args.extent;
}

}  // namespace

ReductionArgs check_reduction_args(const Topology& topo, const char* what, std::int64_t count, MPI_Datatype type,
                                   MPI_Op op, int root, const CollectiveOptions& options) {
  topo.require_comm_alive(what);
  ReductionArgs args;
  args.count = count;
  args.type = type;
  args.op = op;
  args.root = root;
  checked_together(topo.comm(), [&] { check_local(what, count, type, op, root, topo.size(), options, args); });

  Signature mine{};
  int size = 0;
  MPI_Type_size(type, &size);
  mine = {count,
          root,
          static_cast<std::int64_t>(args.extent),
          size,
          op_id(op),
          static_cast<std::int64_t>(options.policy),
          static_cast<std::int64_t>(options.sync),
          options.leaders,
          options.deterministic ? 1 : 0,
          {}};
  const std::string name = type_name(type);
  std::strncpy(mine.type, name.c_str(), sizeof mine.type - 1);
  Signature first = mine;
  HYMPI_CHECK_MPI(MPI_Bcast(&first, sizeof first, MPI_BYTE, 0, topo.comm()));
  checked_together(topo.comm(), [&] {
    const std::string w = what, me = "rank " + std::to_string(topo.rank());
    const auto same = [&](std::int64_t a, std::int64_t b, const char* field) {
      require(a == b, w + " " + field + " differs between ranks: " + me + " has " + std::to_string(a) +
                          ", rank 0 has " + std::to_string(b));
    };
    same(mine.count, first.count, "count");
    same(mine.root, first.root, "root");
    require(std::strcmp(mine.type, first.type) == 0 && mine.size == first.size && mine.extent == first.extent,
            w + " datatype differs between ranks: " + me + " has " + mine.type + ", rank 0 has " + first.type);
    require(mine.op == first.op, w + " op differs between ranks: " + me + " has " + op_name(static_cast<int>(mine.op)) +
                                     ", rank 0 has " + op_name(static_cast<int>(first.op)));
    same(mine.policy, first.policy, "policy");
    same(mine.sync, first.sync, "sync");
    same(mine.leaders, first.leaders, "leaders");
    same(mine.deterministic, first.deterministic, "deterministic");
  });
  return args;
}

void reduce_local(const void* in, void* inout, std::int64_t count, const ReductionArgs& args) {
  const auto* src = static_cast<const std::byte*>(in);
  auto* dst = static_cast<std::byte*>(inout);
  for_each_int_chunk(count, [&](std::int64_t offset, int n) {
    const std::size_t at = static_cast<std::size_t>(offset) * args.extent;
    HYMPI_CHECK_MPI(MPI_Reduce_local(src + at, dst + at, n, args.type, args.op));
  });
}

}  // namespace hympi::detail
