// Collectives with one interface and two policies:
//  * pure   - every rank holds a private copy (MPI_Allgather in place when the
//             counts are equal, else MPI_Allgatherv / MPI_Bcast);
//  * hybrid - one copy per node in a shared window: ranks write their part in
//             place, node leaders exchange over the bridge, everyone reads the
//             node copy by load/store.
// Both are persistent and zero-copy for the caller: write into slot()/buffer(),
// call run(), read result(). The hybrid form double-buffers the node copy, so a
// result stays valid until this rank's next run() and no rank overwrites data a
// neighbour may still be reading (the sync inside the next run() is the fence).
//
// Inside an application: every hympi test()/wait() of any object, and every
// long wait inside a collective, advances every hympi operation in flight in
// this process and drives MPI progress (progress engine, README "Completion and
// progress rules"), so operations started in the same order complete in any
// order and the application's own messages in flight (an MPI_Irecv posted before
// run(), an MPI_Send a neighbour is blocked in) keep moving. Like MPI's blocking collectives,
// run(), start() and wait() may block until the other ranks of the node (start:
// the node; run/wait: the communicator) reach the same call: a rank must not wait
// for a message that a node neighbour only sends after its own call.
// Objects keep their topology alive; once the user frees the communicator
// (MPI_Comm_free), every call but destruction throws hympi::Error.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hympi/enums.hpp"  // Policy, parse_policy, to_string
#include "hympi/node_sync.hpp"
#include "hympi/persistent.hpp"

namespace hympi {

class Topology;

// Every field is a row of the core's one options table (lib/src/options.cpp:
// its info key, accepted values, default, help, agreement between ranks); a new
// option is a field here and a row there (lib/README.md "Options").
struct CollectiveOptions {
  Policy policy = Policy::hybrid;
  SyncKind sync = SyncKind::flags;
  // Bcast only: room for one broadcast in flight while the previous result is
  // still read (start/wait lookahead). Costs one more panel: pure keeps 2
  // private buffers, hybrid 3 node copies instead of 2.
  bool overlap = false;
  // Bridge ranks per node (multi-leader): the node's cross-node traffic is split
  // into k slices, each exchanged by a different node rank over its own bridge
  // communicator; a node with fewer than k ranks uses all it has (slice s is node
  // rank s % node size's). 0 = automatic (the measured default, see README), 1 =
  // the single-leader scheme. Must be >= 0 and equal on every rank (checked: an
  // error on every rank). k is fixed when the object is created (capped at the
  // largest node); results are bit-identical for every k.
  int leaders = 0;
  // Reductions only: the same bits for any placement, node layout and policy
  // (contributions combined in communicator-rank order). Costs more traffic.
  bool deterministic = false;
  // Hybrid nonblocking collectives (start/test/wait): the process's one
  // persistent progress worker completes the node's part and its bridge slices
  // in the background, so a rank busy computing, leader or not, holds nobody
  // back. Needs MPI_THREAD_MULTIPLE (MPI_Init_thread; otherwise an error on
  // every rank at creation); must be the same on every rank. The worker spins on
  // a core while an operation flies, competing with the caller's work. Pure
  // collectives rely on the MPI's own progress.
  bool progress_thread = false;
  // Grouped collectives (README "Grouped collectives"): G balanced groups of
  // consecutive ranks (hybrid: of whole nodes), the outer collective among the
  // group leaders, the inner one inside each group. 1 = the flat collective
  // (default); 0 = automatic (the route model's closed form for this size, message
  // and machine); G above what can be made (ranks; hybrid: nodes) is reduced to
  // it. Bcast::create_fixed, Allgatherv, Allreduce, Reduce, Gather and Scatter; must be >= 0 and
  // equal on every rank. effective_groups() says what a call will use.
  int groups = 1;
};

// The G a collective of `bytes` per call (bcast and reductions: the vector;
// allgather(v): the whole result) uses on `topo` with `options`: options.groups
// reduced to the groups that can be made, or the automatic choice. 1 and the
// number of units (ranks; hybrid: nodes) are the flat path. Local, the same on
// every rank (groups = auto with HYMPI_MODEL_TORUS set asks MPI, locally, whether
// the communicator's ranks are the world's in order). root: the bcast's or reduce's
// root (it leads its group); without it, 0 (allgather(v), allreduce).
int effective_groups(const Topology& topo, const CollectiveOptions& options, std::int64_t bytes);
int effective_groups(const Topology& topo, const CollectiveOptions& options, std::int64_t bytes, int root);
// The seconds groups = auto's closed form predicts for that G (README "Grouped
// collectives": MPICH's broadcast per level, HYMPI_MODEL_ALPHA / HYMPI_MODEL_BETA);
// 0 for the flat path.
double grouped_model_seconds(const Topology& topo, const CollectiveOptions& options, std::int64_t bytes);
double grouped_model_seconds(const Topology& topo, const CollectiveOptions& options, std::int64_t bytes, int root);
// The machine that closed form uses (the HYMPI_MODEL_* environment), as
// "alpha=3e-06;beta=2.35294e-09;bcast=mpich;node_ranks=1;shm_alpha=...;shm_beta=...;torus=none":
// what a recorded prediction needs beside it. A set variable that is not a positive
// finite number (NODE_RANKS: a positive decimal integer) throws hympi::Error
// (invalid_argument) naming it and its value, as every function here that reads them.
std::string grouped_model_machine();

// A PersistentCollective (persistent.hpp): slot() holds this rank's counts()[rank]
// elements; result() the whole result in communicator-rank order, rank r's data at
// displs()[r]. Both stay valid until this rank's next run(), start() or set_counts().
class Allgatherv : public PersistentCollective {
 public:

  // Collective over topo.comm(). counts[r] elements of `elem_size` bytes from rank r;
  // counts must be identical on every rank (checked).
  static std::unique_ptr<Allgatherv> create(const Topology& topo, std::vector<std::int64_t> counts,
                                            std::size_t elem_size, CollectiveOptions options);
  // Equal counts: an allgather.
  static std::unique_ptr<Allgatherv> create_allgather(const Topology& topo, std::int64_t count_per_rank,
                                                      std::size_t elem_size, CollectiveOptions options);

  // Collective: new counts (same rules as create); buffers grow when needed.
  // Ends the validity of result(), slot() and displs() on every rank: read the
  // last result before calling it. Strong guarantee: on error (counts that differ,
  // no room) every rank throws the same hympi::Error and the object is unchanged.
  virtual void set_counts(std::vector<std::int64_t> counts) = 0;

  // Nonblocking (PersistentCollective's start/test/wait): start() begins the exchange of what this rank wrote in slot();
  // test() advances it and returns true once result() is complete; wait()
  // completes it (free after test() said true). One exchange in flight at a time;
  // slot() must not be written and result() not read while it flies (the previous
  // result is not kept: read it before start()). Collective like run(); start()
  // never waits for other ranks. Pure: MPI_Iallgather(v). Hybrid: start() publishes
  // this rank's part and announces its arrival; whichever node rank then enters
  // test()/wait() and sees the whole node arrived posts its own slices of the
  // bridge exchange (leaders = k: the slice owners; MPI_Iallgatherv/Ialltoallw on
  // the slice's bridge), polls them, and announces when they are done; the result
  // is complete once every node rank has. An MPI request can only be completed by
  // the process that posted it, so a busy owner delays its own slice only: with
  // leaders = node size every rank carries a share and no single rank holds the
  // node; with options.progress_thread the process's progress worker takes the
  // steps, so a rank that computes without calling test() holds nobody back.
  // Every test() and wait(), of any object, moves every hympi operation in flight
  // and drives MPI progress (the application's messages move).
  const std::vector<std::int64_t>& counts() const { return counts_; }
  const std::vector<std::int64_t>& displs() const { return displs_; }
  std::size_t elem_size() const { return elem_size_; }
  CollectiveOptions options() const { return options_; }

 protected:
  std::vector<std::int64_t> counts_, displs_;
  std::size_t elem_size_ = 0;
  CollectiveOptions options_;
  std::shared_ptr<const Topology> topology_owner_;  // destroyed last: windows go before their communicators
};

// Gather and Scatter (as MPI_Gather_init / MPI_Scatter_init): `count` elements of
// `elem_size` bytes per rank, to or from `root`; root and count bound at creation
// and agreed (root out of range or differing, a negative or differing count,
// differing element sizes or options: the same hympi::Error on every rank).
// Gather: every rank writes its count elements into slot(); the root's result()
// holds size() * count elements, rank r's at r * count (nullptr elsewhere).
// Scatter: the root writes size() * count elements into slot() (nullptr
// elsewhere), rank r's part at r * count; every rank's result() holds its part.
// Pure: MPI_Gather / MPI_Scatter on private buffers. Hybrid: the root's node holds
// one copy of the whole buffer in a shared window, every other node one copy of its
// own ranks' parts only (node_size() * count elements), both double-buffered; ranks
// write and read their part in place, the node leaders exchange the nodes' parts
// over the bridge (one MPI_Alltoallw with the root's node). bytes_per_node() is
// this rank's node's window (2 copies, each rounded up to 64 bytes). options.groups as the other grouped
// collectives (G groups, the root leads its group). PersistentCollective's request
// model (run, start/test/wait, results valid until this rank's next run()/start()).
// Collective over topo.comm().
struct Gather {
  static std::unique_ptr<PersistentCollective> create(const Topology& topo, int root, std::int64_t count,
                                                      std::size_t elem_size, CollectiveOptions options);
};
struct Scatter {
  static std::unique_ptr<PersistentCollective> create(const Topology& topo, int root, std::int64_t count,
                                                      std::size_t elem_size, CollectiveOptions options);
};

class Bcast {
 public:
  virtual ~Bcast() = default;

  // Collective over topo.comm(). Room for up to `capacity` elements of `elem_size` bytes.
  // elem_size must be the same on every rank (checked); capacity may differ, and
  // the largest is every rank's capacity() (one window layout per node).
  static std::unique_ptr<Bcast> create(const Topology& topo, std::int64_t capacity, std::size_t elem_size,
                                       CollectiveOptions options);
  // As MPI_Bcast_init: `count` elements from `root`, both bound at creation and
  // agreed (the same error on every rank otherwise). slot() is the root's buffer()
  // (nullptr elsewhere), result() the latest completed broadcast. Collective over
  // topo.comm().
  static std::unique_ptr<PersistentCollective> create_fixed(const Topology& topo, int root, std::int64_t count,
                                                            std::size_t elem_size, CollectiveOptions options);

  // Where the root writes its `count` elements before run()/start(). Only the
  // root may write; other ranks must not touch it. Under Policy::pure without
  // overlap buffer() is result(): a root must not build its next payload in
  // place from the current result (copy it out first); hybrid and overlap keep
  // them apart.
  virtual void* buffer() = 0;
  // Broadcast from `root` (any rank of topo.comm(), leader or not). `root` and
  // `count` must agree on every rank; count <= capacity. The root may instead
  // pass its contiguous data as `root_data` (ignored elsewhere): pure sends it
  // without a copy and the root's result() is then root_data itself; hybrid
  // copies it into the node copy.
  virtual void run(int root, std::int64_t count, const void* root_data = nullptr) = 0;
  // The same broadcast split in two, for overlapping it with work: start() sends
  // what the root wrote, wait() completes it; one broadcast in flight at a time.
  // With options().overlap a result stays readable until this rank's second
  // start() after it: through the next broadcast's flight and landing. Without
  // overlap, start() ends the previous result's validity. Hybrid start() only
  // announces this rank's arrival; the node's slice owners forward the data once
  // the whole node has arrived, inside test()/wait() (see Allgatherv::test()). Destroying the
  // object with a broadcast in flight completes it first (every rank must destroy it).
  virtual void start(int root, std::int64_t count, const void* root_data = nullptr) = 0;
  virtual void wait() = 0;
  // Advances the broadcast in flight; true once it is complete (then wait() is free).
  // Same progress rules as Allgatherv::test(): any node rank's test() moves the
  // node on, each slice owner posts and polls its own bridge broadcast. The
  // default (base class) completes it.
  virtual bool test() {
    wait();
    return true;
  }
  // The latest completed broadcast, valid until this rank's next run() or start().
  virtual const void* result() const = 0;
  virtual std::size_t bytes_per_node() const = 0;
  // Seconds this rank spent in node synchronization so far (hybrid only; the
  // rest of a broadcast's time is packing and the bridge).
  double node_sync_seconds() const { return node_sync_seconds_; }

  template <class T>
  T* buffer_as() {
    return static_cast<T*>(buffer());
  }
  template <class T>
  const T* result_as() const {
    return static_cast<const T*>(result());
  }

  std::int64_t capacity() const { return capacity_; }
  CollectiveOptions options() const { return options_; }

 protected:
  std::int64_t capacity_ = 0;
  std::size_t elem_size_ = 0;
  CollectiveOptions options_;
  double node_sync_seconds_ = 0;
  std::shared_ptr<const Topology> topology_owner_;  // destroyed last: windows go before their communicators
};

}  // namespace hympi
