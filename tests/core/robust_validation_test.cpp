// Every validation failing on a subset of ranks only (leaders, non-leaders, one
// rank): every rank must throw the same error, nobody may hang (ctest's timeout),
// and the library must keep working afterwards.
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "hympi/hympi.hpp"
#include "mpi_check.hpp"

using hympi::test::check;
using hympi::test::expect_same_error;

namespace {

// Who passes the bad argument.
struct Subset {
  const char* name;
  std::function<bool(const hympi::Topology&)> bad;
};

// Counts that differ between ranks in the ways a sum/xor hash cannot see: the
// same total moved between ranks, two entries swapped, xor-colliding values.
std::vector<std::vector<std::int64_t>> hash_blind_variants(int p) {
  std::vector<std::vector<std::int64_t>> v;
  std::vector<std::int64_t> moved(p, 1);
  moved[0] += 1;
  moved[p - 1] -= 1;  // {2,0}: same sum as {1,1}
  v.push_back(moved);
  std::vector<std::int64_t> swapped(p);
  for (int r = 0; r < p; ++r) swapped[r] = r + 1;
  std::swap(swapped[0], swapped[p - 1]);
  v.push_back(swapped);
  std::vector<std::int64_t> big(p, 1);
  big[p - 1] = std::int64_t{1} << 40;  // far apart, still no allocation: refused first
  v.push_back(big);
  return v;
}

// The reference counts the others pass: 1 per rank (or r + 1 for the swapped case).
std::vector<std::int64_t> reference_for(std::size_t variant, int p) {
  std::vector<std::int64_t> c(p, 1);
  if (variant == 1)
    for (int r = 0; r < p; ++r) c[r] = r + 1;
  return c;
}

void check_still_works(const hympi::Topology& topo, hympi::CollectiveOptions opt, const std::string& tag) {
  auto ag = hympi::Allgatherv::create_allgather(topo, 2, sizeof(double), opt);
  ag->slot_as<double>()[0] = topo.rank();
  ag->slot_as<double>()[1] = -topo.rank();
  ag->run();
  bool ok = true;
  for (int r = 0; r < topo.size(); ++r)
    ok = ok && ag->result_as<double>()[2 * r] == r && ag->result_as<double>()[2 * r + 1] == -r;
  check(ok, "library works after the errors" + tag);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    const auto& topo = hympi::Topology::of(MPI_COMM_WORLD);
    const int p = topo.size(), me = topo.rank();
    const std::vector<Subset> subsets = {
        {"leaders only", [](const hympi::Topology& t) { return t.is_leader(); }},
        {"non-leaders only", [](const hympi::Topology& t) { return !t.is_leader(); }},
        {"last rank only", [](const hympi::Topology& t) { return t.rank() == t.size() - 1; }},
    };
    for (auto policy : {hympi::Policy::pure, hympi::Policy::hybrid})
      for (auto sync : {hympi::SyncKind::flags, hympi::SyncKind::barrier}) {
        const hympi::CollectiveOptions opt{policy, sync};
        const std::string tag = std::string(" (") + to_string(policy) + "/" + to_string(sync) + ")";
        for (const Subset& s : subsets) {
          const bool bad = s.bad(topo);
          int any_bad = bad, any_good = !bad;
          MPI_Allreduce(MPI_IN_PLACE, &any_bad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
          MPI_Allreduce(MPI_IN_PLACE, &any_good, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
          if (!any_bad) continue;  // e.g. no non-leaders in this layout
          const std::string where = tag + ", bad on " + s.name;
          std::vector<std::int64_t> good(p, 1);
          expect_same_error(
              "one non-negative count per rank",
              [&] { hympi::Allgatherv::create(topo, std::vector<std::int64_t>(bad ? p + 1 : p, 1), 8, opt); },
              "wrong number of counts" + where);
          auto negative = good;
          if (bad) negative[me] = -3;
          expect_same_error(
              "negative", [&] { hympi::Allgatherv::create(topo, negative, 8, opt); }, "negative count" + where);
          if (any_good) {
            const auto variants = hash_blind_variants(p);
            for (std::size_t v = 0; v < variants.size(); ++v)
              expect_same_error(
                  "differ", [&] { hympi::Allgatherv::create(topo, bad ? variants[v] : reference_for(v, p), 8, opt); },
                  "counts differ, variant " + std::to_string(v) + where);
          }
          // Only leaders used to check the int range of node counts: 2^31 elements
          // on one node. Refused everywhere before anything is allocated. One
          // leader: with several (automatic for 2 GiB) each slice fits in an int.
          {
            std::vector<std::int64_t> huge(p, 0);
            huge[0] = std::int64_t{1} << 31;
            hympi::CollectiveOptions one_leader = opt;
            one_leader.leaders = 1;
            expect_same_error(
                "does not fit MPI's int", [&] { hympi::Allgatherv::create(topo, huge, 1, one_leader); },
                "node count beyond int" + where);
          }
          if (!any_good) continue;
          // set_counts failing on a subset: the object stays exactly as it was.
          auto ag = hympi::Allgatherv::create(topo, good, sizeof(double), opt);
          void* slot_before = ag->slot();
          expect_same_error(
              "differ", [&] { ag->set_counts(bad ? hash_blind_variants(p)[0] : good); },
              "set_counts that differ" + where);
          check(ag->slot() == slot_before && ag->counts() == good,
                "set_counts failure left the object as it was" + where);
          ag->slot_as<double>()[0] = 3.0 * me;
          ag->run();
          bool ok = true;
          for (int r = 0; r < p; ++r) ok = ok && ag->result_as<double>()[r] == 3.0 * r;
          check(ok, "object works after a failed set_counts" + where);
        }
        // Sizes whose byte count overflows are refused before any allocation.
        expect_same_error(
            "overflows", [&] { hympi::Bcast::create(topo, std::int64_t{1} << 62, 8, opt); },
            "bcast capacity overflow" + tag);
        expect_same_error(
            "overflows",
            [&] {
              hympi::Allgatherv::create_allgather(topo, std::numeric_limits<std::int64_t>::max() / p / 2, 64, opt);
            },
            "allgatherv size overflow" + tag);
        check_still_works(topo, opt, tag);
      }
  }
  const int rc = hympi::test::finish("robust_validation");
  MPI_Finalize();
  return rc;
}
