// MPI's datatype table for hympi's reductions (MPI 4.1, 6.9.2): every predefined
// (type, op) pair this MPI build defines, through the C++ Allreduce / Reduce and
// the persistent C API (hympi_allreduce_init / hympi_reduce_init), against MPI's
// own MPI_Allreduce / MPI_Reduce on the same input (small integers, so every
// result is exact in any combination order); pairs MPI refuses fail with the same
// error on every rank; a user op on a contiguous derived type is called with that
// type and whole elements, never a slice of one.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "hympi.h"
#include "hympi/hympi.hpp"
#include "mpi_check.hpp"

using hympi::test::check;
using hympi::test::expect_same_error;

namespace {

// ---- the element layouts the test writes and compares ----

enum class Kind { integer, f32, f64, f80, f128, unknown };

// One scalar inside an element: where, in which format, how many bytes (integers).
struct Field {
  std::size_t offset = 0;
  Kind kind = Kind::integer;
  std::size_t bytes = 0;
};

enum class Group { c_integer, fortran_integer, floating, complex, logical, byte, multi_language, pair };

struct TypeCase {
  std::string name;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  Group group = Group::c_integer;
  std::vector<Field> fields;
  std::size_t extent = 0;
};

// Writes the small integer v (0..255) as the field's format.
void put(const Field& f, unsigned char* element, int v) {
  unsigned char* at = element + f.offset;
  switch (f.kind) {
    case Kind::integer:
      std::memset(at, 0, f.bytes);
      at[0] = static_cast<unsigned char>(v);  // little-endian, non-negative
      break;
    case Kind::f32: {
      const float x = static_cast<float>(v);
      std::memcpy(at, &x, sizeof x);
      break;
    }
    case Kind::f64: {
      const double x = v;
      std::memcpy(at, &x, sizeof x);
      break;
    }
    case Kind::f80: {
      const long double x = v;
      std::memcpy(at, &x, 10);  // the x87 bits; the rest is padding
      break;
    }
    case Kind::f128: {
#if defined(__SIZEOF_FLOAT128__)
      const __float128 x = v;
      std::memcpy(at, &x, sizeof x);
#endif
      break;
    }
    case Kind::unknown:
      break;
  }
}

// Compares values, not bytes: -0 == +0 (complex products may give either).
template <class T>
bool same_as(const unsigned char* a, const unsigned char* b, std::size_t bytes) {
  T x{}, y{};
  std::memcpy(&x, a, bytes);
  std::memcpy(&y, b, bytes);
  return x == y;
}

bool same(const Field& f, const unsigned char* a, const unsigned char* b) {
  a += f.offset;
  b += f.offset;
  switch (f.kind) {
    case Kind::integer:
      return std::memcmp(a, b, f.bytes) == 0;
    case Kind::f32:
      return same_as<float>(a, b, 4);
    case Kind::f64:
      return same_as<double>(a, b, 8);
    case Kind::f80:
      return same_as<long double>(a, b, 10);
    case Kind::f128:
#if defined(__SIZEOF_FLOAT128__)
      return same_as<__float128>(a, b, 16);
#else
      return false;
#endif
    case Kind::unknown:
      return false;
  }
  return false;
}

bool same_elements(const TypeCase& t, const void* a, const void* b, std::int64_t n) {
  const auto* x = static_cast<const unsigned char*>(a);
  const auto* y = static_cast<const unsigned char*>(b);
  for (std::int64_t i = 0; i < n; ++i)
    for (const Field& f : t.fields)
      if (!same(f, x + i * t.extent, y + i * t.extent)) return false;
  return true;
}

// Which 16-byte float MPI means by `type` (MPI_LONG_DOUBLE: x87; MPI_REAL16: the
// Fortran compiler's real(16)): the format in which MPI computes 1 + 2 = 3.
Kind probe_16(MPI_Datatype type, std::size_t extent, std::size_t offset) {
  for (Kind k : {Kind::f80, Kind::f128}) {
    const Field f{offset, k, 16};
    std::vector<unsigned char> a(extent, 0), b(extent, 0), three(extent, 0);
    put(f, a.data(), 1);
    put(f, b.data(), 2);
    put(f, three.data(), 3);
    if (MPI_Reduce_local(a.data(), b.data(), 1, type, MPI_SUM) == MPI_SUCCESS && same(f, b.data(), three.data()))
      return k;
  }
  return Kind::unknown;
}

Kind float_kind(MPI_Datatype type, std::size_t bytes, std::size_t extent, std::size_t offset) {
  if (bytes == 4) return Kind::f32;
  if (bytes == 8) return Kind::f64;
  if (bytes == 16) return probe_16(type, extent, offset);
  return Kind::unknown;  // MPI_REAL2 / MPI_COMPLEX4: no half-precision format here
}

// ---- MPI 4.1, 6.9.2: the types of each group, and the ops of each group ----

struct Named {
  const char* name;
  MPI_Datatype type;
  Group group;
};

std::vector<Named> standard_types() {
  std::vector<Named> v = {
      {"MPI_INT", MPI_INT, Group::c_integer},
      {"MPI_LONG", MPI_LONG, Group::c_integer},
      {"MPI_SHORT", MPI_SHORT, Group::c_integer},
      {"MPI_UNSIGNED_SHORT", MPI_UNSIGNED_SHORT, Group::c_integer},
      {"MPI_UNSIGNED", MPI_UNSIGNED, Group::c_integer},
      {"MPI_UNSIGNED_LONG", MPI_UNSIGNED_LONG, Group::c_integer},
      {"MPI_LONG_LONG_INT", MPI_LONG_LONG_INT, Group::c_integer},
      {"MPI_LONG_LONG", MPI_LONG_LONG, Group::c_integer},
      {"MPI_UNSIGNED_LONG_LONG", MPI_UNSIGNED_LONG_LONG, Group::c_integer},
      {"MPI_SIGNED_CHAR", MPI_SIGNED_CHAR, Group::c_integer},
      {"MPI_UNSIGNED_CHAR", MPI_UNSIGNED_CHAR, Group::c_integer},
      {"MPI_INT8_T", MPI_INT8_T, Group::c_integer},
      {"MPI_INT16_T", MPI_INT16_T, Group::c_integer},
      {"MPI_INT32_T", MPI_INT32_T, Group::c_integer},
      {"MPI_INT64_T", MPI_INT64_T, Group::c_integer},
      {"MPI_UINT8_T", MPI_UINT8_T, Group::c_integer},
      {"MPI_UINT16_T", MPI_UINT16_T, Group::c_integer},
      {"MPI_UINT32_T", MPI_UINT32_T, Group::c_integer},
      {"MPI_UINT64_T", MPI_UINT64_T, Group::c_integer},
      {"MPI_INTEGER", MPI_INTEGER, Group::fortran_integer},
#ifdef MPI_INTEGER1
      {"MPI_INTEGER1", MPI_INTEGER1, Group::fortran_integer},
#endif
#ifdef MPI_INTEGER2
      {"MPI_INTEGER2", MPI_INTEGER2, Group::fortran_integer},
#endif
#ifdef MPI_INTEGER4
      {"MPI_INTEGER4", MPI_INTEGER4, Group::fortran_integer},
#endif
#ifdef MPI_INTEGER8
      {"MPI_INTEGER8", MPI_INTEGER8, Group::fortran_integer},
#endif
#ifdef MPI_INTEGER16
      {"MPI_INTEGER16", MPI_INTEGER16, Group::fortran_integer},
#endif
      {"MPI_FLOAT", MPI_FLOAT, Group::floating},
      {"MPI_DOUBLE", MPI_DOUBLE, Group::floating},
      {"MPI_REAL", MPI_REAL, Group::floating},
      {"MPI_DOUBLE_PRECISION", MPI_DOUBLE_PRECISION, Group::floating},
      {"MPI_LONG_DOUBLE", MPI_LONG_DOUBLE, Group::floating},
#ifdef MPI_REAL2
      {"MPI_REAL2", MPI_REAL2, Group::floating},
#endif
#ifdef MPI_REAL4
      {"MPI_REAL4", MPI_REAL4, Group::floating},
#endif
#ifdef MPI_REAL8
      {"MPI_REAL8", MPI_REAL8, Group::floating},
#endif
#ifdef MPI_REAL16
      {"MPI_REAL16", MPI_REAL16, Group::floating},
#endif
      {"MPI_LOGICAL", MPI_LOGICAL, Group::logical},
      {"MPI_C_BOOL", MPI_C_BOOL, Group::logical},
      {"MPI_CXX_BOOL", MPI_CXX_BOOL, Group::logical},
      {"MPI_COMPLEX", MPI_COMPLEX, Group::complex},
#ifdef MPI_C_COMPLEX
      {"MPI_C_COMPLEX", MPI_C_COMPLEX, Group::complex},
#endif
#ifdef MPI_C_FLOAT_COMPLEX
      {"MPI_C_FLOAT_COMPLEX", MPI_C_FLOAT_COMPLEX, Group::complex},
#endif
#ifdef MPI_C_DOUBLE_COMPLEX
      {"MPI_C_DOUBLE_COMPLEX", MPI_C_DOUBLE_COMPLEX, Group::complex},
#endif
#ifdef MPI_C_LONG_DOUBLE_COMPLEX
      {"MPI_C_LONG_DOUBLE_COMPLEX", MPI_C_LONG_DOUBLE_COMPLEX, Group::complex},
#endif
      {"MPI_CXX_FLOAT_COMPLEX", MPI_CXX_FLOAT_COMPLEX, Group::complex},
      {"MPI_CXX_DOUBLE_COMPLEX", MPI_CXX_DOUBLE_COMPLEX, Group::complex},
      {"MPI_CXX_LONG_DOUBLE_COMPLEX", MPI_CXX_LONG_DOUBLE_COMPLEX, Group::complex},
      {"MPI_DOUBLE_COMPLEX", MPI_DOUBLE_COMPLEX, Group::complex},
#ifdef MPI_COMPLEX4
      {"MPI_COMPLEX4", MPI_COMPLEX4, Group::complex},
#endif
#ifdef MPI_COMPLEX8
      {"MPI_COMPLEX8", MPI_COMPLEX8, Group::complex},
#endif
#ifdef MPI_COMPLEX16
      {"MPI_COMPLEX16", MPI_COMPLEX16, Group::complex},
#endif
#ifdef MPI_COMPLEX32
      {"MPI_COMPLEX32", MPI_COMPLEX32, Group::complex},
#endif
      {"MPI_BYTE", MPI_BYTE, Group::byte},
      {"MPI_AINT", MPI_AINT, Group::multi_language},
      {"MPI_OFFSET", MPI_OFFSET, Group::multi_language},
      {"MPI_COUNT", MPI_COUNT, Group::multi_language},
  };
  // "Handles returned from MPI_TYPE_CREATE_F90_*" belong to the groups too.
  MPI_Datatype f90 = MPI_DATATYPE_NULL;
  if (MPI_Type_create_f90_integer(9, &f90) == MPI_SUCCESS) v.push_back({"f90_integer(9)", f90, Group::fortran_integer});
  if (MPI_Type_create_f90_real(15, MPI_UNDEFINED, &f90) == MPI_SUCCESS)
    v.push_back({"f90_real(15)", f90, Group::floating});
  if (MPI_Type_create_f90_complex(6, MPI_UNDEFINED, &f90) == MPI_SUCCESS)
    v.push_back({"f90_complex(6)", f90, Group::complex});
  return v;
}

std::vector<MPI_Op> ops_of(Group g) {
  switch (g) {
    case Group::c_integer:
      return {MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX, MPI_LAND, MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR};
    case Group::fortran_integer:
    case Group::multi_language:
      return {MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX, MPI_BAND, MPI_BOR, MPI_BXOR};
    case Group::floating:
      return {MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX};
    case Group::complex:
      return {MPI_SUM, MPI_PROD};
    case Group::logical:
      return {MPI_LAND, MPI_LOR, MPI_LXOR};
    case Group::byte:
      return {MPI_BAND, MPI_BOR, MPI_BXOR};
    case Group::pair:
      return {MPI_MINLOC, MPI_MAXLOC};
  }
  return {};
}

std::string op_name(MPI_Op op) {
  const std::pair<MPI_Op, const char*> names[] = {
      {MPI_SUM, "MPI_SUM"},         {MPI_PROD, "MPI_PROD"},  {MPI_MIN, "MPI_MIN"},       {MPI_MAX, "MPI_MAX"},
      {MPI_LAND, "MPI_LAND"},       {MPI_LOR, "MPI_LOR"},    {MPI_LXOR, "MPI_LXOR"},     {MPI_BAND, "MPI_BAND"},
      {MPI_BOR, "MPI_BOR"},         {MPI_BXOR, "MPI_BXOR"},  {MPI_MINLOC, "MPI_MINLOC"}, {MPI_MAXLOC, "MPI_MAXLOC"},
      {MPI_REPLACE, "MPI_REPLACE"}, {MPI_NO_OP, "MPI_NO_OP"}};
  for (const auto& n : names)
    if (n.first == op) return n.second;
  return "a user op";
}

template <class V, class I>
struct PairOf {
  V value;
  I index;
};

// The value and index fields of a pair type's C (or Fortran) layout.
template <class V, class I>
std::vector<Field> pair_fields(Kind value, Kind index) {
  using P = PairOf<V, I>;
  return {{offsetof(P, value), value, sizeof(V)}, {offsetof(P, index), index, sizeof(I)}};
}

std::size_t extent_of(MPI_Datatype type) {
  MPI_Aint lb = 0, extent = 0;
  MPI_Type_get_extent(type, &lb, &extent);
  return static_cast<std::size_t>(extent);
}

// The layouts: scalars by group and size, complex as (re, im), pairs by their C
// struct. A type MPI_DATATYPE_NULL or of size 0 (not in this build) is left out.
std::vector<TypeCase> type_cases(std::vector<std::string>& skipped) {
  std::vector<TypeCase> out;
  for (const Named& n : standard_types()) {
    if (n.type == MPI_DATATYPE_NULL) {
      skipped.push_back(std::string(n.name) + " (MPI_DATATYPE_NULL here)");
      continue;
    }
    int size = 0;
    MPI_Type_size(n.type, &size);
    if (size <= 0) {
      skipped.push_back(std::string(n.name) + " (size 0 here)");
      continue;
    }
    TypeCase t{n.name, n.type, n.group, {}, extent_of(n.type)};
    const auto bytes = static_cast<std::size_t>(size);
    if (n.group == Group::floating) {
      t.fields = {{0, float_kind(n.type, bytes, t.extent, 0), bytes}};
    } else if (n.group == Group::complex) {
      const Kind k = float_kind(n.type, bytes / 2, t.extent, 0);
      t.fields = {{0, k, bytes / 2}, {bytes / 2, k, bytes / 2}};
    } else {
      t.fields = {{0, Kind::integer, bytes}};
    }
    if (t.fields[0].kind == Kind::unknown) {
      skipped.push_back(std::string(n.name) + " (no known float format of " + std::to_string(size) + " bytes)");
      continue;
    }
    out.push_back(t);
  }
  const auto pair = [&](const char* name, MPI_Datatype type, std::vector<Field> fields) {
    if (type != MPI_DATATYPE_NULL) out.push_back({name, type, Group::pair, std::move(fields), extent_of(type)});
  };
  pair("MPI_FLOAT_INT", MPI_FLOAT_INT, pair_fields<float, int>(Kind::f32, Kind::integer));
  pair("MPI_DOUBLE_INT", MPI_DOUBLE_INT, pair_fields<double, int>(Kind::f64, Kind::integer));
  pair("MPI_LONG_INT", MPI_LONG_INT, pair_fields<long, int>(Kind::integer, Kind::integer));
  pair("MPI_2INT", MPI_2INT, pair_fields<int, int>(Kind::integer, Kind::integer));
  pair("MPI_SHORT_INT", MPI_SHORT_INT, pair_fields<short, int>(Kind::integer, Kind::integer));
  pair("MPI_LONG_DOUBLE_INT", MPI_LONG_DOUBLE_INT, pair_fields<long double, int>(Kind::f80, Kind::integer));
  pair("MPI_2REAL", MPI_2REAL, pair_fields<float, float>(Kind::f32, Kind::f32));
  pair("MPI_2DOUBLE_PRECISION", MPI_2DOUBLE_PRECISION, pair_fields<double, double>(Kind::f64, Kind::f64));
  pair("MPI_2INTEGER", MPI_2INTEGER, pair_fields<int, int>(Kind::integer, Kind::integer));
  return out;
}

// Small values whose combination is exact in any order: sums <= 8 per rank set,
// products of 1s and 2s, 0/1 truth values, arbitrary bits for the bitwise ops,
// (value, rank) with ties for MINLOC/MAXLOC.
std::vector<unsigned char> input(const TypeCase& t, MPI_Op op, std::int64_t n, int rank, int seed) {
  std::vector<unsigned char> data(static_cast<std::size_t>(n) * t.extent, 0);
  for (std::int64_t i = 0; i < n; ++i) {
    unsigned char* e = data.data() + i * t.extent;
    const int mix = static_cast<int>((rank * 5 + i * 3 + seed) % 7);
    if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR) {
      for (std::size_t b = 0; b < t.fields[0].bytes; ++b)
        e[b] = static_cast<unsigned char>(rank * 131 + i * 31 + static_cast<int>(b) * 17 + seed);
    } else if (op == MPI_MINLOC || op == MPI_MAXLOC) {
      put(t.fields[0], e, mix % 3);
      put(t.fields[1], e, rank);
    } else {
      for (std::size_t f = 0; f < t.fields.size(); ++f) {
        int v = mix % 3;                                              // SUM, MIN, MAX
        if (op == MPI_PROD) v = 1 + (mix + static_cast<int>(f)) % 2;  // 1 or 2
        if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR) v = mix % 3 != 0 ? 1 : 0;
        put(t.fields[f], e, v);
      }
    }
  }
  return data;
}

// ---- the variants and the four ways to run a reduction ----

struct Variant {
  hympi::Policy policy;
  hympi::SyncKind sync;
  int leaders;
};

std::string name_of(const Variant& v) {
  return std::string(to_string(v.policy)) + "/" + to_string(v.sync) + "/leaders=" + std::to_string(v.leaders);
}

hympi::CollectiveOptions options_of(const Variant& v) {
  hympi::CollectiveOptions o;
  o.policy = v.policy;
  o.sync = v.sync;
  o.leaders = v.leaders;
  return o;
}

MPI_Info info_of(const Variant& v) {
  MPI_Info info = MPI_INFO_NULL;
  MPI_Info_create(&info);
  MPI_Info_set(info, "policy", to_string(v.policy));
  MPI_Info_set(info, "sync", to_string(v.sync));
  MPI_Info_set(info, "leaders", std::to_string(v.leaders).c_str());
  return info;
}

enum class Api { cpp, c };

// hympi's result (root: -1 allreduce) of `in`, copied out; empty off the root.
std::vector<unsigned char> run_hympi(Api api, const hympi::Topology& topo, const Variant& v, std::int64_t n,
                                     MPI_Datatype type, std::size_t extent, MPI_Op op, int root,
                                     const std::vector<unsigned char>& in) {
  std::vector<unsigned char> out;
  const std::size_t bytes = static_cast<std::size_t>(n) * extent;
  if (api == Api::cpp) {
    const void* result = nullptr;
    if (root < 0) {
      auto r = hympi::Allreduce::create(topo, n, type, op, options_of(v));
      check(r->count() == n && r->type() == type, "Allreduce count() and type() are the caller's");
      std::memcpy(r->slot(), in.data(), bytes);
      r->start();
      r->wait();
      result = r->result();
      out.assign(static_cast<const unsigned char*>(result), static_cast<const unsigned char*>(result) + bytes);
    } else {
      auto r = hympi::Reduce::create(topo, n, type, op, root, options_of(v));
      check(r->count() == n && r->type() == type, "Reduce count() and type() are the caller's");
      std::memcpy(r->slot(), in.data(), bytes);
      r->run();
      result = r->result();
      if (result)
        out.assign(static_cast<const unsigned char*>(result), static_cast<const unsigned char*>(result) + bytes);
    }
    return out;
  }
  MPI_Info info = info_of(v);
  hympi_request_t req = HYMPI_REQUEST_NULL;
  const int rc = root < 0 ? hympi_allreduce_init(n, type, op, MPI_COMM_WORLD, info, &req)
                          : hympi_reduce_init(n, type, op, root, MPI_COMM_WORLD, info, &req);
  MPI_Info_free(&info);
  check(rc == HYMPI_SUCCESS, std::string("C init: ") + hympi_last_error());
  if (rc != HYMPI_SUCCESS) return out;
  check(hympi_request_elem_size(req) == extent, "C elem size is the extent");
  std::memcpy(hympi_request_slot(req), in.data(), bytes);
  check(hympi_start(req) == HYMPI_SUCCESS && hympi_wait(req) == HYMPI_SUCCESS, "C start and wait");
  if (const void* result = hympi_request_result(req))
    out.assign(static_cast<const unsigned char*>(result), static_cast<const unsigned char*>(result) + bytes);
  check(hympi_request_free(&req) == HYMPI_SUCCESS, "C free");
  return out;
}

// MPI's own result, or false (on every rank) when MPI refuses the pair.
bool run_mpi(std::int64_t n, MPI_Datatype type, MPI_Op op, int root, const std::vector<unsigned char>& in,
             std::vector<unsigned char>& out) {
  out.assign(in.size(), 0);
  const int count = static_cast<int>(n);
  const int rc = root < 0 ? MPI_Allreduce(in.data(), out.data(), count, type, op, MPI_COMM_WORLD)
                          : MPI_Reduce(in.data(), out.data(), count, type, op, root, MPI_COMM_WORLD);
  int failed = rc != MPI_SUCCESS;
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return failed == 0;
}

struct Tally {
  int pairs = 0, runs = 0;
  std::vector<std::string> mpi_refused;
};

// One run of hympi against MPI's result.
void compare(const hympi::Topology& topo, Api api, const Variant& v, const TypeCase& t, MPI_Op op, std::int64_t n,
             int root, const std::vector<unsigned char>& in, const std::vector<unsigned char>& expected,
             const std::string& pair, Tally& tally) {
  const int rank = topo.rank();
  const std::string what =
      pair + (root < 0 ? " allreduce " : " reduce ") + (api == Api::cpp ? "C++ " : "C ") + name_of(v);
  // ROBUST_DATATYPES_TRACE=1: every run on stderr (where a slow or stuck run is).
  if (std::getenv("ROBUST_DATATYPES_TRACE")) std::fprintf(stderr, "[rank %d] %s\n", rank, what.c_str());
  try {
    const auto got = run_hympi(api, topo, v, n, t.type, t.extent, op, root, in);
    if (root < 0 || rank == root)
      check(got.size() == expected.size() && same_elements(t, got.data(), expected.data(), n), what);
    else
      check(got.empty(), what + ": no result off the root");
  } catch (const std::exception& e) {
    check(false, what + ": " + e.what());
  }
  ++tally.runs;
}

// One (type, op) pair, one run: the face and collective in turn (C++ allreduce,
// C reduce, C allreduce, C++ reduce: a type with k ops meets k of them), under
// the pure policy or, with `hybrid` (one op per type), the hybrid engine in the
// next hybrid variant. One run per pair because each run is several collectives
// and a hybrid creation node windows: oversubscribed, busy-polling MPICH ranks on
// a loaded 2-core machine take ~0.1 s per run. What the hybrid engine adds per
// type (extent, padding, slices) does not depend on the op. The reduce's
// reference is MPI_Allreduce's result (exact data: any order gives it).
void check_pair(const hympi::Topology& topo, const std::vector<Variant>& hybrids, const TypeCase& t, MPI_Op op,
                int seed, int way, bool hybrid, Tally& tally) {
  const std::int64_t n = 13;  // more than the node ranks and leaders: several slices
  const std::string pair = t.name + " + " + op_name(op);
  const auto in = input(t, op, n, topo.rank(), seed);
  std::vector<unsigned char> expected;
  if (!run_mpi(n, t.type, op, -1, in, expected)) {
    tally.mpi_refused.push_back(pair);
    return;  // MPI itself cannot: nothing to compare with (reported)
  }
  const Variant pure{hympi::Policy::pure, hympi::SyncKind::flags, 1};
  const Variant& v = hybrid ? hybrids[static_cast<std::size_t>(seed) % hybrids.size()] : pure;
  const Api api = way % 4 == 0 || way % 4 == 3 ? Api::cpp : Api::c;
  const int root = way % 2 ? seed % topo.size() : -1;
  compare(topo, api, v, t, op, n, root, in, expected, pair, tally);
  ++tally.pairs;
}

// ---- pairs MPI refuses ----

void check_refused(const hympi::Topology& topo, const std::vector<Variant>& variants, MPI_Datatype type, MPI_Op op,
                   const std::string& what) {
  const std::string needle = "is not defined for datatype";
  for (const Variant& v : variants) {
    const std::string tag = what + " " + name_of(v);
    expect_same_error(
        needle, [&] { hympi::Allreduce::create(topo, 4, type, op, options_of(v)); }, tag + " (C++ allreduce)");
    expect_same_error(
        needle, [&] { hympi::Reduce::create(topo, 4, type, op, topo.size() - 1, options_of(v)); },
        tag + " (C++ reduce)");
    MPI_Info info = info_of(v);
    hympi_request_t req = HYMPI_REQUEST_NULL;
    expect_same_error(
        needle,
        [&] {
          const int rc = hympi_allreduce_init(4, type, op, MPI_COMM_WORLD, info, &req);
          if (rc == HYMPI_SUCCESS) hympi_request_free(&req);
          if (rc != HYMPI_ERR_ARG || req != nullptr)
            throw std::runtime_error("hympi_allreduce_init did not fail with HYMPI_ERR_ARG");
          throw std::runtime_error(hympi_last_error());
        },
        tag + " (C allreduce_init)");
    expect_same_error(
        needle,
        [&] {
          const int rc = hympi_reduce_init(4, type, op, 0, MPI_COMM_WORLD, info, &req);
          if (rc == HYMPI_SUCCESS) hympi_request_free(&req);
          if (rc != HYMPI_ERR_ARG || req != nullptr)
            throw std::runtime_error("hympi_reduce_init did not fail with HYMPI_ERR_ARG");
          throw std::runtime_error(hympi_last_error());
        },
        tag + " (C reduce_init)");
    MPI_Info_free(&info);
  }
}

// ---- a user op on a contiguous derived type ----

MPI_Datatype g_triple = MPI_DATATYPE_NULL;
int g_wrong_calls = 0;  // calls with another datatype than g_triple

// Lexicographic max of (x, y, z) triples: commutative and associative, and wrong
// if an element were cut (the next element's x would be read as this one's y).
void lexmax(void* in, void* inout, int* len, MPI_Datatype* type) {
  int size = 0;
  MPI_Type_size(*type, &size);
  if (*type != g_triple || size != 3 * static_cast<int>(sizeof(double))) {
    ++g_wrong_calls;
    return;
  }
  const auto* a = static_cast<const double*>(in);
  auto* b = static_cast<double*>(inout);
  for (int i = 0; i < *len; ++i, a += 3, b += 3)
    if (a[0] > b[0] || (a[0] == b[0] && (a[1] > b[1] || (a[1] == b[1] && a[2] > b[2])))) std::memcpy(b, a, 24);
}

void check_user_op(const hympi::Topology& topo, const std::vector<Variant>& variants) {
  MPI_Op op = MPI_OP_NULL;
  MPI_Op_create(lexmax, 1, &op);
  const TypeCase t{"contiguous(3, MPI_DOUBLE)",
                   g_triple,
                   Group::floating,
                   {{0, Kind::f64, 8}, {8, Kind::f64, 8}, {16, Kind::f64, 8}},
                   24};
  const int rank = topo.rank(), p = topo.size();
  for (std::int64_t n : {7, 1001})
    for (int root : {-1, p - 1}) {
      std::vector<unsigned char> in(static_cast<std::size_t>(n) * 24), expected;
      auto* d = reinterpret_cast<double*>(in.data());
      for (std::int64_t i = 0; i < n; ++i) {
        d[3 * i] = static_cast<double>((rank + i) % 3);  // ties in x, decided by y then z
        d[3 * i + 1] = static_cast<double>((rank * 5 + i) % 4);
        d[3 * i + 2] = rank + 0.5 * static_cast<double>(i);
      }
      check(run_mpi(n, g_triple, op, root, in, expected), "MPI reduces the triples");
      // Leaders 1, 2, 3: slices of 7 (or 1001) elements over 1 to 3 node ranks.
      const std::vector<Variant> all = {
          variants[0], variants[1], variants[4], {hympi::Policy::hybrid, hympi::SyncKind::flags, 3}};
      for (std::size_t k = 0; k < all.size(); ++k) {
        const Variant& v = all[k];
        const Api api = (static_cast<std::int64_t>(k) + n + root) % 2 ? Api::c : Api::cpp;  // faces in turn
        const std::string what = "user op on " + t.name + " n=" + std::to_string(n) +
                                 (root < 0 ? " allreduce " : " reduce ") + (api == Api::cpp ? "C++ " : "C ") +
                                 name_of(v);
        g_wrong_calls = 0;
        try {
          const auto got = run_hympi(api, topo, v, n, g_triple, 24, op, root, in);
          if (root < 0 || rank == root)
            check(got.size() == expected.size() && same_elements(t, got.data(), expected.data(), n), what);
        } catch (const std::exception& e) {
          check(false, what + ": " + e.what());
        }
        check(g_wrong_calls == 0, what + ": the op was called with another datatype than the user's (" +
                                      std::to_string(g_wrong_calls) + " times)");
      }
    }
  // Deterministic (ordered) reduction: the same rule.
  hympi::CollectiveOptions o;
  o.deterministic = true;
  std::vector<unsigned char> in(7 * 24), expected;
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = 0;
  auto* d = reinterpret_cast<double*>(in.data());
  for (int i = 0; i < 21; ++i) d[i] = (rank * 3 + i) % 5;
  run_mpi(7, g_triple, op, -1, in, expected);
  g_wrong_calls = 0;
  auto r = hympi::Allreduce::create(topo, 7, g_triple, op, o);
  std::memcpy(r->slot(), in.data(), in.size());
  r->run();
  check(same_elements(t, r->result(), expected.data(), 7) && g_wrong_calls == 0,
        "user op on contiguous(3, MPI_DOUBLE), deterministic");
  MPI_Op_free(&op);
}

// A predefined op on a contiguous type (an hympi extension: elementwise on the
// basic type, as MPI's one-sided accumulate defines it) equals MPI on the basic type.
void check_predefined_on_contiguous(const hympi::Topology& topo, const std::vector<Variant>& variants) {
  const int rank = topo.rank();
  MPI_Datatype ints3 = MPI_DATATYPE_NULL, pairs2 = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(3, MPI_INT, &ints3);
  MPI_Type_commit(&ints3);
  MPI_Type_contiguous(2, MPI_2INT, &pairs2);
  MPI_Type_commit(&pairs2);
  struct Case {
    MPI_Datatype type, basic;
    int k;
    MPI_Op op;
    const char* name;
  };
  for (const Case& c : {Case{ints3, MPI_INT, 3, MPI_SUM, "contiguous(3, MPI_INT) + MPI_SUM"},
                        Case{pairs2, MPI_2INT, 2, MPI_MINLOC, "contiguous(2, MPI_2INT) + MPI_MINLOC"}}) {
    const std::int64_t n = 7;
    std::vector<unsigned char> in(static_cast<std::size_t>(n * c.k) * sizeof(int) * (c.basic == MPI_2INT ? 2 : 1));
    auto* v = reinterpret_cast<int*>(in.data());
    for (std::size_t i = 0; i < in.size() / sizeof(int); ++i)
      v[i] = c.basic == MPI_2INT && i % 2 ? rank : static_cast<int>((rank * 7 + i) % 5);
    std::vector<unsigned char> expected;
    run_mpi(n * c.k, c.basic, c.op, -1, in, expected);
    for (const Variant& var : {variants[0], variants[2], variants[3]})
      for (Api api : {Api::cpp, Api::c}) {
        const auto got = run_hympi(api, topo, var, n, c.type, in.size() / n, c.op, -1, in);
        check(got == expected, std::string(c.name) + (api == Api::cpp ? " C++ " : " C ") + name_of(var));
      }
  }
  MPI_Type_free(&ints3);
  MPI_Type_free(&pairs2);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  // MPI refusing a pair (a build without some op) is reported, not fatal.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  {
    const auto& topo = hympi::Topology::of(MPI_COMM_WORLD);
    using hympi::Policy;
    using hympi::SyncKind;
    const std::vector<Variant> hybrids = {{Policy::hybrid, SyncKind::flags, 1},
                                          {Policy::hybrid, SyncKind::flags, 2},
                                          {Policy::hybrid, SyncKind::barrier, 1},
                                          {Policy::hybrid, SyncKind::barrier, 2}};
    std::vector<Variant> variants = {{Policy::pure, SyncKind::flags, 1}};
    variants.insert(variants.end(), hybrids.begin(), hybrids.end());
    const double start = MPI_Wtime();
    std::vector<std::string> skipped;
    Tally tally;
    int seed = 0;
    for (const TypeCase& t : type_cases(skipped)) {
      int way = seed;  // each type starts at another way
      for (MPI_Op op : ops_of(t.group)) {
        ++seed;
        check_pair(topo, hybrids, t, op, seed, way++, op == ops_of(t.group).front(), tally);
      }
    }

    const double pairs_done = MPI_Wtime();
    const std::vector<Variant> two = {{Policy::pure, SyncKind::flags, 1}, {Policy::hybrid, SyncKind::barrier, 1}};
    check_refused(topo, two, MPI_DOUBLE, MPI_MINLOC, "MPI_MINLOC on MPI_DOUBLE");
    check_refused(topo, two, MPI_BYTE, MPI_SUM, "MPI_SUM on MPI_BYTE");
    check_refused(topo, two, MPI_DOUBLE, MPI_BAND, "MPI_BAND on MPI_DOUBLE");
    check_refused(topo, two, MPI_DOUBLE, MPI_LAND, "MPI_LAND on MPI_DOUBLE");
    check_refused(topo, two, MPI_C_DOUBLE_COMPLEX, MPI_MAX, "MPI_MAX on MPI_C_DOUBLE_COMPLEX");
    check_refused(topo, two, MPI_CHAR, MPI_SUM, "MPI_SUM on MPI_CHAR");
    check_refused(topo, two, MPI_WCHAR, MPI_MAX, "MPI_MAX on MPI_WCHAR");
    check_refused(topo, two, MPI_C_BOOL, MPI_SUM, "MPI_SUM on MPI_C_BOOL");
    check_refused(topo, two, MPI_INTEGER, MPI_LAND, "MPI_LAND on MPI_INTEGER (Fortran integer)");
    check_refused(topo, two, MPI_AINT, MPI_LOR, "MPI_LOR on MPI_AINT");
    check_refused(topo, two, MPI_2INT, MPI_SUM, "MPI_SUM on MPI_2INT");
    check_refused(topo, two, MPI_DOUBLE_INT, MPI_MAX, "MPI_MAX on MPI_DOUBLE_INT");
    check_refused(topo, two, MPI_INT, MPI_REPLACE, "MPI_REPLACE (one-sided only) on MPI_INT");
    check_refused(topo, two, MPI_INT, MPI_NO_OP, "MPI_NO_OP (one-sided only) on MPI_INT");

    MPI_Type_contiguous(3, MPI_DOUBLE, &g_triple);
    MPI_Type_commit(&g_triple);
    check_refused(topo, two, g_triple, MPI_BAND, "MPI_BAND on contiguous(3, MPI_DOUBLE)");
    const double refused_done = MPI_Wtime();
    check_user_op(topo, variants);
    check_predefined_on_contiguous(topo, variants);
    MPI_Type_free(&g_triple);

    if (topo.rank() == 0) {
      std::printf(
          "robust_datatypes: %d (type, op) pairs, %d hympi runs: %.1f s; refused pairs %.1f s; derived "
          "types %.1f s\n",
          tally.pairs, tally.runs, pairs_done - start, refused_done - pairs_done, MPI_Wtime() - refused_done);
      for (const auto& s : skipped) std::printf("  not in this build: %s\n", s.c_str());
      for (const auto& s : tally.mpi_refused) std::printf("  MPI itself refuses: %s (not compared)\n", s.c_str());
    }
  }
  const int rc = hympi::test::finish("robust_datatypes_test");
  MPI_Finalize();
  return rc;
}
