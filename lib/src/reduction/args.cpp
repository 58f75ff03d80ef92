#include "reduction/args.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>
#include <string>

#include "agreement.hpp"
#include "bridges.hpp"
#include "datatype.hpp"
#include "hympi/collectives.hpp"
#include "hympi/error.hpp"
#include "hympi/topology.hpp"
#include "options.hpp"

namespace hympi::detail {

namespace {

// The groups of MPI 4.1, 6.9.2 that say which predefined ops a predefined type
// takes (a type is in one group; "C integer" and "Fortran integer" differ: the
// logical ops are defined for the first only).
enum TypeClass : unsigned {
  kCInteger = 1,
  kFortranInteger = 2,
  kFloating = 4,
  kLogical = 8,
  kComplex = 16,
  kByte = 32,
  kMultiLanguage = 64,
  kPair = 128,
  kOther = 0
};

// The group of a named predefined type. Only the types this MPI build defines
// are listed; a handle MPI_DATATYPE_NULL (a Fortran kind the compiler lacks, in
// MPICH) never matches, as the caller refused MPI_DATATYPE_NULL before.
TypeClass named_class(MPI_Datatype type) {
  const MPI_Datatype c_integers[] = {MPI_INT,         MPI_LONG,          MPI_SHORT,         MPI_UNSIGNED_SHORT,
                                     MPI_UNSIGNED,    MPI_UNSIGNED_LONG, MPI_LONG_LONG_INT, MPI_UNSIGNED_LONG_LONG,
                                     MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_INT8_T,        MPI_INT16_T,
                                     MPI_INT32_T,     MPI_INT64_T,       MPI_UINT8_T,       MPI_UINT16_T,
                                     MPI_UINT32_T,    MPI_UINT64_T};
  const MPI_Datatype fortran_integers[] = {
      MPI_INTEGER,
#ifdef MPI_INTEGER1
      MPI_INTEGER1,
#endif
#ifdef MPI_INTEGER2
      MPI_INTEGER2,
#endif
#ifdef MPI_INTEGER4
      MPI_INTEGER4,
#endif
#ifdef MPI_INTEGER8
      MPI_INTEGER8,
#endif
#ifdef MPI_INTEGER16
      MPI_INTEGER16,
#endif
  };
  const MPI_Datatype floating[] = {
      MPI_FLOAT,  MPI_DOUBLE, MPI_REAL, MPI_DOUBLE_PRECISION, MPI_LONG_DOUBLE,
#ifdef MPI_REAL2
      MPI_REAL2,
#endif
#ifdef MPI_REAL4
      MPI_REAL4,
#endif
#ifdef MPI_REAL8
      MPI_REAL8,
#endif
#ifdef MPI_REAL16
      MPI_REAL16,
#endif
  };
  const MPI_Datatype complexes[] = {
      MPI_COMPLEX,
#ifdef MPI_C_FLOAT_COMPLEX
      MPI_C_FLOAT_COMPLEX,  // = MPI_C_COMPLEX
#endif
#ifdef MPI_C_DOUBLE_COMPLEX
      MPI_C_DOUBLE_COMPLEX,
#endif
#ifdef MPI_C_LONG_DOUBLE_COMPLEX
      MPI_C_LONG_DOUBLE_COMPLEX,
#endif
#ifndef SMPI_H  // SimGrid 3.32's smpi.h misspells their symbols (smpi_MPI_MPI_CXX_...): they do not link
      MPI_CXX_FLOAT_COMPLEX,
      MPI_CXX_DOUBLE_COMPLEX,
      MPI_CXX_LONG_DOUBLE_COMPLEX,
#endif
      MPI_DOUBLE_COMPLEX,
#ifdef MPI_COMPLEX4
      MPI_COMPLEX4,
#endif
#ifdef MPI_COMPLEX8
      MPI_COMPLEX8,
#endif
#ifdef MPI_COMPLEX16
      MPI_COMPLEX16,
#endif
#ifdef MPI_COMPLEX32
      MPI_COMPLEX32,
#endif
  };
  const MPI_Datatype logicals[] = {MPI_LOGICAL, MPI_C_BOOL, MPI_CXX_BOOL};
  const MPI_Datatype multi_language[] = {MPI_AINT, MPI_OFFSET, MPI_COUNT};
  const MPI_Datatype pairs[] = {MPI_FLOAT_INT,       MPI_DOUBLE_INT, MPI_LONG_INT,          MPI_2INT,    MPI_SHORT_INT,
                                MPI_LONG_DOUBLE_INT, MPI_2REAL,      MPI_2DOUBLE_PRECISION, MPI_2INTEGER};
  const auto in = [type](const auto& list) {
    return std::find(std::begin(list), std::end(list), type) != std::end(list);
  };
  if (in(c_integers)) return kCInteger;
  if (in(fortran_integers)) return kFortranInteger;
  if (in(floating)) return kFloating;
  if (in(complexes)) return kComplex;
  if (in(logicals)) return kLogical;
  if (type == MPI_BYTE) return kByte;
  if (in(multi_language)) return kMultiLanguage;
  if (in(pairs)) return kPair;
  return kOther;  // MPI_CHAR, MPI_WCHAR, MPI_CHARACTER, MPI_PACKED, ...: no predefined op
}

// The group of a predefined type: named, or made by MPI_Type_create_f90_*.
TypeClass classify(MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL) return kOther;
  int integers = 0, addresses = 0, types = 0, combiner = 0;
  HYMPI_CHECK_MPI(MPI_Type_get_envelope(type, &integers, &addresses, &types, &combiner));
  switch (combiner) {
    case MPI_COMBINER_NAMED:
      return named_class(type);
    case MPI_COMBINER_F90_INTEGER:
      return kFortranInteger;
    case MPI_COMBINER_F90_REAL:
      return kFloating;
    case MPI_COMBINER_F90_COMPLEX:
      return kComplex;
    default:
      return kOther;
  }
}

struct PredefinedOp {
  MPI_Op op;
  const char* name;
  unsigned classes;  // TypeClass bits the op is defined for
};

// MPI 4.1, 6.9.2. MPI_REPLACE and MPI_NO_OP are predefined too, but for
// one-sided accumulates only: no type takes them here.
const std::array<PredefinedOp, 14>& predefined_ops() {
  constexpr unsigned arithmetic = kCInteger | kFortranInteger | kFloating | kMultiLanguage;
  constexpr unsigned bitwise = kCInteger | kFortranInteger | kByte | kMultiLanguage;
  static const std::array<PredefinedOp, 14> ops{{
      {MPI_SUM, "MPI_SUM", arithmetic | kComplex},
      {MPI_PROD, "MPI_PROD", arithmetic | kComplex},
      {MPI_MIN, "MPI_MIN", arithmetic},
      {MPI_MAX, "MPI_MAX", arithmetic},
      {MPI_LAND, "MPI_LAND", kCInteger | kLogical},
      {MPI_LOR, "MPI_LOR", kCInteger | kLogical},
      {MPI_LXOR, "MPI_LXOR", kCInteger | kLogical},
      {MPI_BAND, "MPI_BAND", bitwise},
      {MPI_BOR, "MPI_BOR", bitwise},
      {MPI_BXOR, "MPI_BXOR", bitwise},
      {MPI_MINLOC, "MPI_MINLOC", kPair},
      {MPI_MAXLOC, "MPI_MAXLOC", kPair},
      {MPI_REPLACE, "MPI_REPLACE", 0},
      {MPI_NO_OP, "MPI_NO_OP", 0},
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

// The datatype as one agreed value: a hash of its name, its basic type's name and
// its sizes (62 bits, so that the agreement may negate it).
std::int64_t datatype_signature(MPI_Datatype type, const ElementType& element) {
  const std::string text = type_name(type) + "/" + type_name(element.basic) + "/" + std::to_string(element.size) +
                           "/" + std::to_string(element.extent) + "/" + std::to_string(element.basic_per_element);
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  return static_cast<std::int64_t>(h >> 2);
}

std::string hidden(std::int64_t) { return ""; }
std::string shown_op(std::int64_t id) { return op_name(static_cast<int>(id)); }

// What the engines reduce. A user op sees the caller's elements (MPI calls it with
// the caller's datatype and a count of them, so no slice may cut one); a
// predefined op is elementwise, so a contiguous type reduces as count * k of its
// basic type (an extension: MPI defines predefined ops on predefined types only).
void choose_units(const char* what, std::int64_t count, MPI_Datatype type, bool user_op, const ElementType& element,
                  ReductionArgs& args) {
  args.count = count;
  args.type = type;
  args.extent = element.extent;
  if (!user_op && element.basic_per_element != 1) {
    const std::int64_t k = element.basic_per_element;
    require(count <= INT64_MAX / k,
            std::string(what) + " count " + std::to_string(count) + " of " + std::to_string(k) +
                " basic elements each overflows int64",
            ErrorCode::out_of_memory);
    args.count = count * k;
    args.type = element.basic;
    args.extent = element.extent / static_cast<std::size_t>(k);
  }
  require(static_cast<std::uint64_t>(args.count) <= SIZE_MAX / args.extent,
          std::string(what) + " count " + std::to_string(count) + " overflows size_t bytes", ErrorCode::out_of_memory);
  args.bytes = static_cast<std::size_t>(args.count) * args.extent;
}

void check_local(const char* what, std::int64_t count, MPI_Datatype type, MPI_Op op, int root, int comm_size,
                 ElementType& element, ReductionArgs& args) {
  const std::string w = what;
  require(count >= 0, w + " count must be >= 0, got " + std::to_string(count));
  require(root == kEveryRank || (root >= 0 && root < comm_size), w + " root must be a rank of the communicator (0.." +
                                                                     std::to_string(comm_size - 1) + "), got " +
                                                                     std::to_string(root));
  require(type != MPI_DATATYPE_NULL, w + " datatype is MPI_DATATYPE_NULL");
  require(op != MPI_OP_NULL, w + " op is MPI_OP_NULL");
  // Predefined, MPI_Type_create_f90_*, or contiguous / dup of those (else unsupported).
  element = analyse_datatype(type, what, Padding::allowed);
  // Predefined ops first: MPICH calls MPI_REPLACE and MPI_NO_OP non-commutative.
  const int id = op_id(op);
  if (id < 0) {
    int commutative = 0;
    HYMPI_CHECK_MPI(MPI_Op_commutative(op, &commutative));
    require(commutative != 0, w + " needs a commutative op; this user-defined op was created with commute = 0");
  } else {
    require((predefined_ops()[id].classes & classify(element.basic)) != 0,
            w + ": " + op_name(id) + " is not defined for datatype " + type_name(element.basic) +
                (element.basic == type ? "" : " (the basic type of " + type_name(type) + ")"));
  }
  choose_units(what, count, type, id < 0, element, args);
}

}  // namespace

ReductionArgs check_reduction_args(const Topology& topo, const char* what, std::int64_t count, MPI_Datatype type,
                                   MPI_Op op, int root, const CollectiveOptions& options, Agreement& agreement) {
  ReductionArgs args;
  args.op = op;
  args.root = root;
  ElementType element;
  agreement.options(options);
  agreement.check([&] {
    topo.require_comm_alive(what);
    check_local(what, count, type, op, root, topo.size(), element, args);
  });
  const std::string w = what;
  agreement.same(w + " count", count);
  agreement.same(w + " root", root);
  agreement.same(w + " datatype", agreement.failed() ? 0 : datatype_signature(type, element), hidden);
  agreement.same(w + " op", op_id(op), shown_op);
  agreement.run(topo.comm());
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
