// Gather and scatter (hympi::Gather, hympi::Scatter; lib/src/rooted.hpp) against
// MPI_Gather / MPI_Scatter on the same data, bit for bit: both policies, groups 1,
// 2, 3, auto and p + 5, every root kind (0, p - 1, p / 2), 64-bit and 3-byte
// elements and count 0; every object runs rounds with new data: run(), start() +
// polling test(), start() + wait(), and two objects started in one order and
// completed in the other. Bad input (root out of range or differing between ranks,
// negative or differing count, differing element size, differing or bad groups) is
// the same error on every rank, and a gather works after each. A slow reader (the
// others write their next slot meanwhile) catches a result overwritten too early.
// Memory (hybrid, flat): the root's node holds two copies of the whole buffer, every
// other node two copies of its own ranks' parts only (node_size() * count elements).
#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "hympi/hympi.hpp"
#include "drive.hpp"
#include "mpi_check.hpp"

using hympi::test::check;
using hympi::test::drive;

namespace {

using Create = std::unique_ptr<hympi::PersistentCollective> (*)(const hympi::Topology&, int, std::int64_t,
                                                                std::size_t, hympi::CollectiveOptions);

unsigned char byte(int rank, std::size_t i, int it, int salt) {
  return static_cast<unsigned char>((rank * 131 + i * 7 + it * 29 + salt * 17) % 251);
}

std::string name(bool gather, const hympi::CollectiveOptions& o, int root, std::int64_t count, std::size_t elem) {
  return std::string(gather ? "gather" : "scatter") + " " + to_string(o.policy) + " groups=" + std::to_string(o.groups) +
         " root=" + std::to_string(root) + " count=" + std::to_string(count) + " elem=" + std::to_string(elem);
}

// One object, kRounds rounds, each checked against the MPI collective.
void check_one(const hympi::Topology& topo, bool gather, hympi::CollectiveOptions o, int root, std::int64_t count,
               std::size_t elem) {
  const int p = topo.size(), rank = topo.rank();
  const std::string what = name(gather, o, root, count, elem);
  auto op = (gather ? &hympi::Gather::create : &hympi::Scatter::create)(topo, root, count, elem, o);
  const std::size_t part = static_cast<std::size_t>(count) * elem, whole = part * static_cast<std::size_t>(p);
  if (o.policy == hympi::Policy::hybrid && o.groups == 1) {
    // Two copies, each rounded up to 64 bytes: the whole on the root's node, this
    // node's ranks' parts elsewhere.
    const bool root_node = topo.node_index() == topo.node_of(root);
    const std::size_t copy = root_node ? whole : part * static_cast<std::size_t>(topo.node_size());
    const std::size_t expected = 2 * ((copy + 63) / 64 * 64);
    check(op->bytes_per_node() == expected, what + ": " + std::to_string(op->bytes_per_node()) +
                                                " shared bytes on node " + std::to_string(topo.node_index()) +
                                                ", expected " + std::to_string(expected));
  }
  MPI_Datatype t;
  MPI_Type_contiguous(static_cast<int>(elem), MPI_BYTE, &t);
  MPI_Type_commit(&t);
  for (int it = 0; it < 3; ++it) {
    // This rank's data: its part (gather), or the whole buffer (scatter's root).
    std::vector<unsigned char> mine(gather ? part : (rank == root ? whole : 0));
    for (std::size_t i = 0; i < mine.size(); ++i) mine[i] = byte(rank, i, it, gather);
    const bool has_slot = gather || rank == root, has_result = !gather || rank == root;
    check((op->slot() != nullptr) == has_slot, what + ": slot where the rank writes");
    if (has_slot && !mine.empty()) std::memcpy(op->slot(), mine.data(), mine.size());
    drive(*op, it);
    std::vector<unsigned char> ref(gather ? (rank == root ? whole : 0) : part, 0xEE);
    if (gather)
      MPI_Gather(mine.data(), static_cast<int>(count), t, ref.data(), static_cast<int>(count), t, root, MPI_COMM_WORLD);
    else
      MPI_Scatter(mine.data(), static_cast<int>(count), t, ref.data(), static_cast<int>(count), t, root,
                  MPI_COMM_WORLD);
    check((op->result() != nullptr) == has_result, what + ": result where the rank reads");
    if (has_result && op->result() && !ref.empty())
      check(std::memcmp(op->result(), ref.data(), ref.size()) == 0,
            what + " round " + std::to_string(it) + ": differs from MPI's");
  }
  MPI_Type_free(&t);
}

// Two objects started in one order, completed in the other on half the ranks.
void any_order(const hympi::Topology& topo, hympi::CollectiveOptions o) {
  const int p = topo.size(), rank = topo.rank(), count = 37;
  auto g = hympi::Gather::create(topo, p - 1, count, sizeof(int), o);
  auto s = hympi::Scatter::create(topo, 0, count, sizeof(int), o);
  for (int i = 0; i < count; ++i) g->slot_as<int>()[i] = rank * 1000 + i;
  if (rank == 0)
    for (int i = 0; i < count * p; ++i) s->slot_as<int>()[i] = 7 * i + 1;
  g->start();
  s->start();
  if (rank % 2) {
    s->wait();
    g->wait();
  } else {
    while (!g->test()) {
    }
    s->wait();
  }
  for (int i = 0; i < count; ++i) check(s->result_as<int>()[i] == 7 * (rank * count + i) + 1, "any order: scatter");
  if (rank == p - 1)
    for (int r = 0; r < p; ++r)
      for (int i = 0; i < count; ++i)
        check(g->result_as<int>()[r * count + i] == r * 1000 + i, "any order: gather");
}

// The reader of a result is slow: it sleeps before reading, while the others go on at
// once and write their next slot (gather: every rank but the root; scatter: the root),
// so a result overwritten by the next call's data (one node copy instead of two) shows.
void slow_reader(const hympi::Topology& topo, hympi::CollectiveOptions o) {
  const int p = topo.size(), rank = topo.rank(), count = 64, root = p - 1;
  auto g = hympi::Gather::create(topo, root, count, sizeof(int), o);
  auto s = hympi::Scatter::create(topo, root, count, sizeof(int), o);
  const std::string what = std::string("slow reader ") + to_string(o.policy) + " groups=" + std::to_string(o.groups);
  for (int it = 0; it < 4; ++it) {
    for (int i = 0; i < count; ++i) g->slot_as<int>()[i] = rank * 100000 + it * 1000 + i;
    g->run();
    if (rank == root) {
      const double until = MPI_Wtime() + 0.02;
      while (MPI_Wtime() < until) {
      }
      for (int r = 0; r < p; ++r)
        for (int i = 0; i < count; ++i)
          check(g->result_as<int>()[r * count + i] == r * 100000 + it * 1000 + i, what + ": gather result overwritten");
    }
  }
  for (int it = 0; it < 4; ++it) {
    if (rank == root)
      for (int i = 0; i < count * p; ++i) s->slot_as<int>()[i] = it * 1000000 + i;
    s->run();
    if (rank != root) {
      const double until = MPI_Wtime() + 0.02;
      while (MPI_Wtime() < until) {
      }
    }
    for (int i = 0; i < count; ++i)
      check(s->result_as<int>()[i] == it * 1000000 + rank * count + i, what + ": scatter result overwritten");
  }
}

// The library works after a refused creation: a small gather.
void still_works(const hympi::Topology& topo, const std::string& after) {
  auto g = hympi::Gather::create(topo, 0, 1, sizeof(int), {});
  *g->slot_as<int>() = topo.rank() + 5;
  g->run();
  if (topo.rank() == 0)
    for (int r = 0; r < topo.size(); ++r) check(g->result_as<int>()[r] == r + 5, "gather after " + after);
}

void bad_input(const hympi::Topology& topo) {
  const int p = topo.size(), rank = topo.rank();
  for (Create create : {&hympi::Gather::create, &hympi::Scatter::create}) {
    const std::string which = create == &hympi::Gather::create ? "gather" : "scatter";
    auto refused = [&](const std::string& needle, const std::string& what, const std::function<void()>& body) {
      hympi::test::expect_same_error(needle, body, which + ": " + what);
      still_works(topo, which + " " + what);
    };
    refused("root " + std::to_string(p) + " is not a rank", "root out of range",
            [&] { create(topo, p, 4, 8, {}); });
    refused("is not a rank", "negative root", [&] { create(topo, -1, 4, 8, {}); });
    if (p > 1) {
      refused(which + " root differs between ranks", "root differing",
              [&] { create(topo, rank == p - 1 ? 1 : 0, 4, 8, {}); });
      refused(which + " count differs between ranks", "count differing",
              [&] { create(topo, 0, rank == p - 1 ? 5 : 4, 8, {}); });
      refused(which + " element size differs between ranks", "element size differing",
              [&] { create(topo, 0, 4, rank == p - 1 ? 4 : 8, {}); });
      hympi::CollectiveOptions o;
      o.groups = rank == p - 1 ? 2 : 1;
      refused("groups differs between ranks", "groups differing", [&] { create(topo, 0, 4, 8, o); });
    }
    refused("count must be >= 0", "negative count", [&] { create(topo, 0, -3, 8, {}); });
    refused("does not fit MPI's int counts", "count above int", [&] { create(topo, 0, std::int64_t{1} << 33, 1, {}); });
    hympi::CollectiveOptions neg;
    neg.groups = -2;
    refused("groups", "negative groups", [&] { create(topo, 0, 4, 8, neg); });
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    const hympi::Topology& topo = hympi::Topology::of(MPI_COMM_WORLD);
    const int p = topo.size();
    std::vector<int> roots{0};
    if (p > 1) roots.push_back(p - 1);
    if (p > 2) roots.push_back(p / 2);
    for (hympi::Policy policy : {hympi::Policy::pure, hympi::Policy::hybrid})
      for (int groups : {1, 2, 3, 0, p + 5}) {
        hympi::CollectiveOptions o;
        o.policy = policy;
        o.groups = groups;
        for (bool gather : {true, false}) {
          for (int root : roots) check_one(topo, gather, o, root, 301, sizeof(std::int64_t));
          check_one(topo, gather, o, p - 1, 5, 3);  // a 3-byte element (contiguous type)
          check_one(topo, gather, o, 0, 0, 8);      // nothing to move
        }
        any_order(topo, o);
        if (groups <= 2) slow_reader(topo, o);
      }
    bad_input(topo);
  }
  const int rc = hympi::test::finish("rooted_test");
  MPI_Finalize();
  return rc;
}
