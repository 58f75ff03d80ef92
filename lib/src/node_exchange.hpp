// Private helper of the core: the node's part of a hybrid collective in flight,
// written once for Allgatherv, Bcast, Allreduce and Reduce (nonblocking, and
// blocking multi-leader).
//
//   start():  this rank's stores are published, its arrival announced (no wait)
//   arrived:  once the whole node has arrived, each slice owner (bridges.hpp)
//             posts its slice's bridge exchange as nonblocking requests
//             (a reduction first combines its share of the node's slots and
//             announces that, and the owners post once every share is combined)
//   released: a rank whose own requests completed announces it; once every node
//             rank has, the node copy is complete and readable by everyone.
//
// The exchange is a Flight of the process's progress engine (progress.hpp):
// whichever hympi test()/wait() this process enters, of any object, takes the
// steps that are ready, so a node rank's arrival is answered by whichever of its
// neighbours next enters the library, and several exchanges in flight complete
// in any order. An MPI request can only be completed by the process that posted
// it, so the node's bridge work is spread over k owners (leaders = k); a busy
// owner delays its slice only, and with k = node size every rank carries a share.
// With a progress thread (CollectiveOptions::progress_thread, MPI_THREAD_MULTIPLE)
// the process's worker takes the same steps in the background.
#pragma once
#include <mpi.h>

#include <functional>

#include "bridges.hpp"
#include "hympi/node_sync.hpp"
#include "progress.hpp"
#include "requests.hpp"

namespace hympi {

class Topology;

namespace detail {

class NodeExchange final : public Flight {
 public:
  // Starts the nonblocking bridge exchange of one slice as requests.add() requests.
  using Post = std::function<void(int slice, MPI_Comm bridge, Requests& requests)>;
  // This rank's node-local work once the whole node arrived (a reduction's share).
  using Combine = std::function<void()>;
  // Run once, in the caller's thread, when test()/wait() finds the exchange
  // complete (the collective flips its double buffer): the exchange stays in
  // flight until then, even if it could finish inside start().
  using Land = std::function<void()>;

  // background: the process's progress worker drives the exchange too.
  NodeExchange(const Topology& topo, NodeSync& sync, const Bridges& bridges, bool background = false)
      : topo_(topo), sync_(sync), bridges_(bridges), background_(background) {}
  // Destroyed in flight (every rank destroys it): the exchange completes first.
  ~NodeExchange();
  NodeExchange(const NodeExchange&) = delete;
  NodeExchange& operator=(const NodeExchange&) = delete;

  // Takes the first steps at once (posts when the node is already there).
  void start(Post post, Combine combine = {}, Land land = {});
  // The same exchange, blocking (run() with several leaders): a node barrier, the
  // owners' slices posted and completed (one MPI_Waitall when nothing else is in
  // flight, which lets the MPI, or a simulator, block), a node barrier.
  void run(const Post& post);
  // True once the node copy is complete (then idle again, and landed). Takes a
  // round of the progress engine: every operation in flight moves.
  bool test();
  void wait();
  bool in_flight() const { return active_; }

  bool advance() override { return step(); }

 private:
  enum class Phase { idle, arriving, combining, bridging, releasing };
  void post_owned(const Post& post);
  bool step();                 // takes every step that is ready; true once complete
  bool landed(bool complete);  // ends the flight (and runs land_) when complete
  void abandon();              // ends a flight whose step failed

  const Topology& topo_;
  NodeSync& sync_;
  const Bridges& bridges_;
  Post post_;
  Combine combine_;
  Land land_;
  Phase phase_ = Phase::idle;
  bool active_ = false;  // from start() to the test()/wait() that finds it complete
  Requests requests_;
  const bool background_;
};

}  // namespace detail
}  // namespace hympi
