// The pure allgather with equal counts is MPI_Allgather (#54 case 19): its result
// must match MPI_Allgather's bit for bit, through run() and start()/wait(), for
// element sizes 1, 3 and 8, after set_counts() switches between equal and unequal
// counts. The MPI calls are also counted (PMPI interposition below), so that a
// fall-back to MPI_Allgatherv, which gives the same bits, fails too.
#include <mpi.h>

#include <cstring>
#include <string>
#include <vector>

#include "hympi/hympi.hpp"
#include "mpi_check.hpp"

using hympi::test::check;

namespace {

// Calls seen while `counting` (only around the object's run()/start()).
bool counting = false;
int allgathers = 0, allgathervs = 0;

}  // namespace

// The library's calls land here (the program's definitions come first); the
// test's own reference calls are made outside the counting window.
extern "C" {
int MPI_Allgather(const void* s, int sc, MPI_Datatype st, void* r, int rc, MPI_Datatype rt, MPI_Comm c) {
  allgathers += counting;
  return PMPI_Allgather(s, sc, st, r, rc, rt, c);
}
int MPI_Iallgather(const void* s, int sc, MPI_Datatype st, void* r, int rc, MPI_Datatype rt, MPI_Comm c,
                   MPI_Request* q) {
  allgathers += counting;
  return PMPI_Iallgather(s, sc, st, r, rc, rt, c, q);
}
int MPI_Allgatherv(const void* s, int sc, MPI_Datatype st, void* r, const int rc[], const int d[], MPI_Datatype rt,
                   MPI_Comm c) {
  allgathervs += counting;
  return PMPI_Allgatherv(s, sc, st, r, rc, d, rt, c);
}
int MPI_Iallgatherv(const void* s, int sc, MPI_Datatype st, void* r, const int rc[], const int d[], MPI_Datatype rt,
                    MPI_Comm c, MPI_Request* q) {
  allgathervs += counting;
  return PMPI_Iallgatherv(s, sc, st, r, rc, d, rt, c, q);
}
}

namespace {

// Byte b of rank r's contribution at iteration it: every byte value occurs
// (NaN and denormal patterns in 8-byte elements too), different per rank.
unsigned char byte_of(int rank, std::int64_t b, int it) {
  return static_cast<unsigned char>((b * 131 + rank * 29 + it * 7 + (b >> 8)) & 0xff);
}

// One run through the object, checked against MPI_Allgather of the same bytes and
// against the call the object must make (Allgather when equal, else Allgatherv).
void run_once(hympi::Allgatherv& coll, const hympi::Topology& topo, std::size_t elem, bool nonblocking, int it,
              const std::string& label) {
  const int rank = topo.rank(), p = topo.size();
  const auto& counts = coll.counts();
  const std::int64_t mine = counts[rank] * static_cast<std::int64_t>(elem);
  std::vector<unsigned char> own(static_cast<std::size_t>(mine));
  for (std::int64_t b = 0; b < mine; ++b) own[b] = byte_of(rank, b, it);
  if (!own.empty()) std::memcpy(coll.slot(), own.data(), own.size());  // memcpy's pointers may not be null
  bool equal = true;
  for (auto c : counts) equal = equal && c == counts.front();
  allgathers = allgathervs = 0;
  counting = true;
  if (nonblocking) {
    coll.start();
    coll.wait();
  } else {
    coll.run();
  }
  counting = false;
  check(allgathers == (equal ? 1 : 0) && allgathervs == (equal ? 0 : 1),
        label + ": made " + std::to_string(allgathers) + " allgather and " + std::to_string(allgathervs) +
            " allgatherv calls (equal counts: " + std::to_string(equal) + ")");
  if (!equal) return;  // unequal counts: collectives_test checks them against MPI_Allgatherv
  std::vector<unsigned char> expected(static_cast<std::size_t>(mine) * p + 1);
  PMPI_Allgather(own.data(), static_cast<int>(mine), MPI_BYTE, expected.data(), static_cast<int>(mine), MPI_BYTE,
                 topo.comm());
  const bool same = std::memcmp(coll.result(), expected.data(), static_cast<std::size_t>(mine) * p) == 0;
  check(same, label + ": result differs from MPI_Allgather's");
}

void test_element(const hympi::Topology& topo, std::size_t elem) {
  const int p = topo.size();
  const std::string what = "element " + std::to_string(elem) + " bytes";
  // Created with equal counts both ways (create_allgather, create with a vector).
  auto a = hympi::Allgatherv::create_allgather(topo, 5, elem, {hympi::Policy::pure});
  auto b = hympi::Allgatherv::create(topo, std::vector<std::int64_t>(p, 5), elem, {hympi::Policy::pure});
  int it = 0;
  for (bool nonblocking : {false, true}) {
    const std::string how = what + (nonblocking ? " start/wait" : " run");
    run_once(*a, topo, elem, nonblocking, it++, "create_allgather " + how);
    run_once(*b, topo, elem, nonblocking, it++, "create(equal) " + how);
    // Counts changed after creation: 0, larger, unequal, then equal again.
    for (std::int64_t count : {0, 1, 4099, 70001}) {
      a->set_counts(std::vector<std::int64_t>(p, count));
      run_once(*a, topo, elem, nonblocking, it++, "set_counts " + std::to_string(count) + " " + how);
    }
    std::vector<std::int64_t> unequal(p, 3);
    unequal[p - 1] = 4;
    a->set_counts(unequal);
    run_once(*a, topo, elem, nonblocking, it++, "set_counts unequal " + how);
    a->set_counts(std::vector<std::int64_t>(p, 9));
    run_once(*a, topo, elem, nonblocking, it++, "set_counts equal again " + how);
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    const auto& topo = hympi::Topology::of(MPI_COMM_WORLD);
    for (std::size_t elem : {1, 3, 8}) test_element(topo, elem);
  }
  const int rc = hympi::test::finish("pure_allgather_test");
  MPI_Finalize();
  return rc;
}
