// Allreduce and Reduce (pure, hybrid with one and several leaders, deterministic)
// checked against plain MPI_Allreduce / MPI_Reduce: bit-exact for integers and
// min/max, within a stated rounding bound for floating sums and products; the
// deterministic mode bit-exact against a serial reduction in communicator-rank
// order computed on every rank (so it is also identical across layouts and
// policies). Data changes every iteration and some ranks dawdle before reading,
// so a reuse race shows up.
#include "hympi/reduce.hpp"

#include <mpi.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "hympi/hympi.hpp"
#include "mpi_check.hpp"

using hympi::test::check;

namespace {

enum class OpKind { sum, prod, min, max, user };
const char* name(OpKind op) {
  const char* names[] = {"sum", "prod", "min", "max", "user"};
  return names[static_cast<int>(op)];
}

// A commutative and associative user op that MPI_SUM cannot imitate:
// a (+) b = a + b + 1 on int64, max(|a|, |b|) on floating types.
template <class T>
void user_combine(const T* in, T* inout, int n) {
  for (int i = 0; i < n; ++i) {
    if constexpr (std::is_integral_v<T>)
      inout[i] = static_cast<T>(in[i] + inout[i] + 1);
    else
      inout[i] = std::max(std::fabs(in[i]), std::fabs(inout[i]));
  }
}
template <class T>
void user_function(void* in, void* inout, int* n, MPI_Datatype*) {
  user_combine(static_cast<const T*>(in), static_cast<T*>(inout), *n);
}

template <class T>
T apply(OpKind op, T x, T acc) {
  switch (op) {
    case OpKind::sum:
      return static_cast<T>(x + acc);
    case OpKind::prod:
      return static_cast<T>(x * acc);
    case OpKind::min:
      return std::min(x, acc);
    case OpKind::max:
      return std::max(x, acc);
    case OpKind::user:
      user_combine(&x, &acc, 1);
      return acc;
  }
  return acc;
}

// Element i of rank r's contribution at iteration it: varied magnitudes (so the
// order of a floating sum matters), near 1 for products, small for integers.
template <class T>
T value(OpKind op, int rank, std::int64_t i, int it) {
  const std::uint64_t h = (static_cast<std::uint64_t>(rank) * 1000003u + static_cast<std::uint64_t>(i) * 7919u +
                           static_cast<std::uint64_t>(it) * 104729u) *
                          0x9E3779B97F4A7C15ull;
  const int small = static_cast<int>((h >> 40) % 19) - 9;  // -9..9
  if constexpr (std::is_integral_v<T>) {
    if (op == OpKind::prod) return static_cast<T>(small % 3 == 0 ? -1 : (small % 2 == 0 ? 2 : 1));
    return static_cast<T>(small * 1000 + static_cast<int>(h >> 58));
  } else {
    const double unit = static_cast<double>(h >> 11) / 9007199254740992.0 - 0.5;  // [-0.5, 0.5)
    if (op == OpKind::prod) return static_cast<T>(1.0 + unit * 1e-2);
    return static_cast<T>(unit * std::pow(10.0, small % 7));
  }
}

template <class T>
MPI_Datatype mpi_type() {
  if constexpr (std::is_same_v<T, double>) return MPI_DOUBLE;
  if constexpr (std::is_same_v<T, float>) return MPI_FLOAT;
  if constexpr (std::is_same_v<T, std::int32_t>) return MPI_INT32_T;
  if constexpr (std::is_same_v<T, std::int64_t>) return MPI_INT64_T;
}

struct OpHandle {
  MPI_Op op = MPI_OP_NULL;
  bool user = false;
  OpHandle(OpKind kind, MPI_User_function* fn) {
    const MPI_Op predefined[] = {MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX};
    if (kind == OpKind::user) {
      MPI_Op_create(fn, 1, &op);
      user = true;
    } else {
      op = predefined[static_cast<int>(kind)];
    }
  }
  ~OpHandle() {
    if (user) MPI_Op_free(&op);
  }
};

struct Variant {
  const char* label;
  hympi::CollectiveOptions options;
};

hympi::CollectiveOptions opts(hympi::Policy p, hympi::SyncKind s, int leaders, bool det) {
  hympi::CollectiveOptions o;
  o.policy = p;
  o.sync = s;
  o.leaders = leaders;
  o.deterministic = det;
  return o;
}

const Variant kVariants[] = {
    {"pure", opts(hympi::Policy::pure, hympi::SyncKind::barrier, 0, false)},
    {"hybrid/flags/1leader", opts(hympi::Policy::hybrid, hympi::SyncKind::flags, 1, false)},
    {"hybrid/barrier/3leaders", opts(hympi::Policy::hybrid, hympi::SyncKind::barrier, 3, false)},
    {"hybrid/flags/auto", opts(hympi::Policy::hybrid, hympi::SyncKind::flags, 0, false)},
    {"pure/deterministic", opts(hympi::Policy::pure, hympi::SyncKind::barrier, 0, true)},
    {"hybrid/flags/deterministic", opts(hympi::Policy::hybrid, hympi::SyncKind::flags, 2, true)},
};

void jitter(int rank, int it) {
  if ((rank * 5 + it) % 3 == 0) usleep(100 * ((rank * 7 + it) % 4));
}

// Checks `got` (count elements) against the plain-MPI or serial reference.
template <class T>
int compare(const T* got, const std::vector<T>& mpi_ref, const std::vector<T>& serial,
            const std::vector<double>& abs_sum, OpKind op, bool deterministic, int p) {
  const double eps = std::numeric_limits<T>::epsilon();
  int bad = 0;
  for (std::size_t i = 0; i < mpi_ref.size(); ++i) {
    bool ok;
    if (deterministic) {
      ok = std::memcmp(&got[i], &serial[i], sizeof(T)) == 0;
    } else if (std::is_integral_v<T> || op == OpKind::min || op == OpKind::max || op == OpKind::user) {
      ok = got[i] == mpi_ref[i];
    } else {
      // Any summation order: |error| <= (p - 1) eps sum|x| for each of the two results.
      const double bound =
          op == OpKind::sum ? 2.0 * p * eps * abs_sum[i] : 2.0 * p * eps * std::fabs(double(mpi_ref[i]));
      ok = std::fabs(double(got[i]) - double(mpi_ref[i])) <= bound;
    }
    bad += ok ? 0 : 1;
  }
  return bad;
}

template <class T>
void test_case(const hympi::Topology& topo, OpKind kind, std::int64_t count, const Variant& v, int iterations) {
  const int rank = topo.rank(), p = topo.size(), root = (p - 1) / 2 + (count % 2);
  const int reduce_root = root % p;
  OpHandle op(kind, &user_function<T>);
  const MPI_Datatype type = mpi_type<T>();
  auto all = hympi::Allreduce::create(topo, count, type, op.op, v.options);
  auto red = hympi::Reduce::create(topo, count, type, op.op, reduce_root, v.options);
  const std::string what = std::string(v.label) + " " + name(kind) + " count " + std::to_string(count) + " ";
  std::vector<T> mine(count), mpi_ref(count), all_data(count * p), serial(count), reduce_ref(count);
  std::vector<double> abs_mine(count), abs_sum(count);
  for (int it = 0; it < iterations; ++it) {
    for (std::int64_t i = 0; i < count; ++i) mine[i] = value<T>(kind, rank, i, it);
    std::memcpy(all->slot(), mine.data(), count * sizeof(T));
    std::memcpy(red->slot(), mine.data(), count * sizeof(T));
    all->run();
    red->run();
    // References on private memory: plain MPI, and a serial reduction in rank order.
    const int n = static_cast<int>(count);
    MPI_Allreduce(mine.data(), mpi_ref.data(), n, type, op.op, topo.comm());
    MPI_Allgather(mine.data(), n, type, all_data.data(), n, type, topo.comm());
    for (std::int64_t i = 0; i < count; ++i) {
      T acc = all_data[i];
      for (int r = 1; r < p; ++r) acc = apply(kind, all_data[r * count + i], acc);
      serial[i] = acc;
      abs_mine[i] = std::fabs(double(mine[i]));
    }
    MPI_Allreduce(abs_mine.data(), abs_sum.data(), n, MPI_DOUBLE, MPI_SUM, topo.comm());
    jitter(rank, it);
    const bool det = v.options.deterministic;
    const int bad_all = compare(all->result_as<T>(), mpi_ref, serial, abs_sum, kind, det, p);
    check(bad_all == 0,
          what + "allreduce iteration " + std::to_string(it) + ": " + std::to_string(bad_all) + " wrong elements");
    if (rank == reduce_root) {
      check(count == 0 || red->result() != nullptr, what + "reduce result() is null on the root");
      if (red->result())
        check(compare(red->result_as<T>(), mpi_ref, serial, abs_sum, kind, det, p) == 0,
              what + "reduce to root " + std::to_string(reduce_root) + " iteration " + std::to_string(it) + " wrong");
    } else {
      check(red->result() == nullptr, what + "reduce result() is not null off the root");
    }
  }
}

template <class T>
void test_type(const hympi::Topology& topo) {
  for (const Variant& v : kVariants)
    for (OpKind kind : {OpKind::sum, OpKind::prod, OpKind::min, OpKind::max, OpKind::user})
      test_case<T>(topo, kind, 13, v, 3);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    const auto& topo = hympi::Topology::of(MPI_COMM_WORLD);
    test_type<double>(topo);
    test_type<float>(topo);
    test_type<std::int32_t>(topo);
    test_type<std::int64_t>(topo);
    for (const Variant& v : kVariants) {
      for (std::int64_t count : {0, 1, 2, 1001}) test_case<double>(topo, OpKind::sum, count, v, 4);
    }
    // >= 1 MiB per rank: several slice owners on the bridge.
    for (const Variant& v : kVariants) test_case<double>(topo, OpKind::sum, 131072 + 3, v, 2);
  }
  const int rc = hympi::test::finish("reduce_test");
  MPI_Finalize();
  return rc;
}
