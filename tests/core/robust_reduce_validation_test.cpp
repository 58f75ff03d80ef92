// Reductions given bad or mismatched arguments on a subset of ranks (leaders,
// non-leaders, the last rank): every rank must throw the same hympi::Error naming
// the problem, nobody may hang (ctest's timeout), and the library must keep
// working afterwards.
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "hympi/hympi.hpp"
#include "mpi_check.hpp"

using hympi::test::check;
using hympi::test::expect_same_error;

namespace {

void plus(void* in, void* inout, int* n, MPI_Datatype*) {
  for (int i = 0; i < *n; ++i) static_cast<double*>(inout)[i] += static_cast<const double*>(in)[i];
}

struct Subset {
  const char* name;
  std::function<bool(const hympi::Topology&)> bad;
};

// One argument set: what a good rank passes, and what a bad one changes.
struct Args {
  std::int64_t count = 4;
  MPI_Datatype type = MPI_DOUBLE;
  MPI_Op op = MPI_SUM;
  int root = 0;
  hympi::CollectiveOptions options;
};

struct Case {
  const char* needle;
  bool reduce;  // Reduce::create (root matters) rather than Allreduce::create
  std::function<void(Args&)> spoil;
};

void create(const hympi::Topology& topo, bool reduce, const Args& a) {
  if (reduce)
    hympi::Reduce::create(topo, a.count, a.type, a.op, a.root, a.options);
  else
    hympi::Allreduce::create(topo, a.count, a.type, a.op, a.options);
}

void check_still_works(const hympi::Topology& topo, const hympi::CollectiveOptions& options, const std::string& tag) {
  auto sum = hympi::Allreduce::create(topo, 3, MPI_INT64_T, MPI_SUM, options);
  for (int i = 0; i < 3; ++i) sum->slot_as<std::int64_t>()[i] = topo.rank() * (i + 1);
  sum->run();
  const std::int64_t total = std::int64_t{topo.size()} * (topo.size() - 1) / 2;
  bool ok = true;
  for (int i = 0; i < 3; ++i) ok = ok && sum->result_as<std::int64_t>()[i] == total * (i + 1);
  check(ok, "allreduce works after the errors" + tag);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    const auto& topo = hympi::Topology::of(MPI_COMM_WORLD);
    const int p = topo.size();
    MPI_Op user = MPI_OP_NULL, non_commutative = MPI_OP_NULL;
    MPI_Op_create(plus, 1, &user);
    MPI_Op_create(plus, 0, &non_commutative);
    // Contiguous derived types are accepted (robust_datatypes_test); a vector is not.
    MPI_Datatype strided = MPI_DATATYPE_NULL;
    MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &strided);
    MPI_Type_commit(&strided);
    const std::vector<Case> cases = {
        {"count differs between ranks", false, [](Args& a) { a.count = 5; }},
        {"datatype differs between ranks", false, [](Args& a) { a.type = MPI_FLOAT; }},
        {"datatype differs between ranks", false, [](Args& a) { a.type = MPI_INT64_T; }},  // same size
        {"op differs between ranks", false, [](Args& a) { a.op = MPI_MAX; }},
        {"op differs between ranks", false, [&](Args& a) { a.op = user; }},
        {"root differs between ranks", true, [p](Args& a) { a.root = p - 1; }},
        {"policy differs between ranks", false,
         [](Args& a) {
           a.options.policy = a.options.policy == hympi::Policy::pure ? hympi::Policy::hybrid : hympi::Policy::pure;
         }},
        {"deterministic differs between ranks", false, [](Args& a) { a.options.deterministic = true; }},
        {"count must be >= 0", false, [](Args& a) { a.count = -1; }},
        {"root must be a rank of the communicator", true, [p](Args& a) { a.root = p; }},
        {"root must be a rank of the communicator", true, [](Args& a) { a.root = -1; }},
        {"needs a commutative op", false, [&](Args& a) { a.op = non_commutative; }},
        {"needs a predefined datatype", false, [&](Args& a) { a.type = strided; }},
        {"is not defined for datatype", false, [](Args& a) { a.type = MPI_BYTE; }},  // MPI_SUM on bytes
        {"datatype is MPI_DATATYPE_NULL", false, [](Args& a) { a.type = MPI_DATATYPE_NULL; }},
        {"leaders must be >= 0", false, [](Args& a) { a.options.leaders = -2; }},
    };
    const std::vector<Subset> subsets = {
        {"leaders only", [](const hympi::Topology& t) { return t.is_leader(); }},
        {"non-leaders only", [](const hympi::Topology& t) { return !t.is_leader(); }},
        {"last rank only", [](const hympi::Topology& t) { return t.rank() == t.size() - 1; }},
    };
    for (auto policy : {hympi::Policy::pure, hympi::Policy::hybrid}) {
      Args good;
      good.options.policy = policy;
      const std::string tag = std::string(" (") + to_string(policy) + ")";
      for (const Subset& s : subsets) {
        int any_bad = s.bad(topo), any_good = !s.bad(topo);
        MPI_Allreduce(MPI_IN_PLACE, &any_bad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
        MPI_Allreduce(MPI_IN_PLACE, &any_good, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
        if (!any_bad) continue;  // e.g. no non-leaders in this layout
        for (const Case& c : cases) {
          // A mismatch needs a good rank to differ from (not so when every rank is bad).
          if (!any_good && std::string(c.needle).find("differs") != std::string::npos) continue;
          Args mine = good;
          if (s.bad(topo)) c.spoil(mine);
          expect_same_error(
              c.needle, [&] { create(topo, c.reduce, mine); }, std::string(c.needle) + tag + ", bad on " + s.name);
        }
      }
      check_still_works(topo, good.options, tag);
    }
    MPI_Type_free(&strided);
    MPI_Op_free(&user);
    MPI_Op_free(&non_commutative);
  }
  const int rc = hympi::test::finish("robust_reduce_validation_test");
  MPI_Finalize();
  return rc;
}
