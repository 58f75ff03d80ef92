// Private helper of the core: the node's part of a hybrid collective in flight,
// written once for Allgatherv and Bcast (nonblocking, and blocking multi-leader).
//
//   start():  this rank's stores are published, its arrival announced (no wait)
//   arrived:  once the whole node has arrived, each slice owner (bridges.hpp)
//             posts its slice's bridge exchange as nonblocking requests
//             (a reduction first combines its share of the node's slots and
//             announces that, and the owners post once every share is combined)
//   released: a rank whose own requests completed announces it; once every node
//             rank has, the node copy is complete and readable by everyone.
//
// test() takes whatever step is ready and never blocks; wait() repeats it and
// drives MPI progress in between. Any node rank entering test()/wait() moves the
// node forward: the one that sees the node arrived posts its slices at once, and
// a node rank's progress polls complete the bridge messages of its own slices.
// An MPI request can only be completed by the process that posted it, so the
// node's bridge work is spread over k owners (leaders = k); a busy owner delays
// its slice only, and with k = node size every rank carries a share.
#pragma once
#include <mpi.h>

#include <functional>

#include "bridges.hpp"
#include "hympi/node_sync.hpp"
#include "requests.hpp"

namespace hympi {

class Topology;

namespace detail {

class NodeExchange {
 public:
  // Starts the nonblocking bridge exchange of one slice as requests.add() requests.
  using Post = std::function<void(int slice, MPI_Comm bridge, Requests& requests)>;
  // This rank's node-local work once the whole node arrived (a reduction's share).
  using Combine = std::function<void()>;

  NodeExchange(const Topology& topo, NodeSync& sync, const Bridges& bridges)
      : topo_(topo), sync_(sync), bridges_(bridges) {}
  // Destroyed in flight (every rank destroys it): the exchange completes first.
  ~NodeExchange();
  NodeExchange(const NodeExchange&) = delete;
  NodeExchange& operator=(const NodeExchange&) = delete;

  void start(Post post, Combine combine = {});
  // The same exchange, blocking (run() with several leaders): a node barrier, the
  // owners' slices posted and completed in one MPI_Waitall (which lets the MPI, or
  // a simulator, block instead of being polled), a node barrier.
  void run(const Post& post, const Combine& combine = {});
  // True once the node copy is complete (then idle again).
  bool test();
  void wait();
  bool in_flight() const { return phase_ != Phase::idle; }

 private:
  enum class Phase { idle, arriving, combining, bridging, releasing };
  void post_owned();

  const Topology& topo_;
  NodeSync& sync_;
  const Bridges& bridges_;
  Post post_;
  Combine combine_;
  Phase phase_ = Phase::idle;
  Requests requests_;
};

}  // namespace detail
}  // namespace hympi
