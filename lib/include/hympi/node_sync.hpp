// Node synchronization policies. A collective step is: stores -> arrive ->
// (leaders work on the bridge) -> release -> loads. Both policies make the
// stores of every node rank visible to every other node rank (MPI_Win_sync around
// the synchronization, unified memory model).
#pragma once
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>

#include "hympi/enums.hpp"  // SyncKind, parse_sync, to_string

namespace hympi {

class Topology;
class NodeBuffer;

// What a rank waiting on a node neighbour's flag (SyncKind::flags) does once
// spinning has not helped. The default, sched_yield(), hands the core to the rank
// it waits for. A tool that runs ranks as cooperative threads in one OS thread
// (SimGrid SMPI) must switch to another rank instead, or the wait never ends.
// Process-wide; install it before collectives run. nullptr restores the default.
using IdleFunction = void (*)();
void set_idle_function(IdleFunction idle);

class NodeSync {
 public:
  virtual ~NodeSync() = default;
  // After arrive() returns on the leader, every node rank has arrived (its stores
  // before arrive() are visible to the leader). Non-leaders do not wait.
  virtual void arrive() = 0;
  // After release() returns on any rank, the leader has passed release() (its
  // stores, including what it received on the bridge, are visible).
  virtual void release() = 0;
  // arrive + release in one step when there is no bridge work: a full node barrier.
  virtual void full() = 0;
  // full() split in two for nonblocking collectives: start_full() announces this
  // rank's arrival (its stores are published) without waiting; test_full() is true
  // once every node rank has started the same full(), and then orders memory like
  // full(). Call test_full() until it is true before the next synchronization.
  virtual void start_full() = 0;
  virtual bool test_full() = 0;
  // How often a waiter polls before it yields the core (more when the node has a
  // core per rank, fewer when it is oversubscribed).
  virtual int spins_before_yield() const { return 64; }
  virtual SyncKind kind() const = 0;

  // `data` is the window whose memory is ordered; may be null (pure barrier).
  static std::unique_ptr<NodeSync> create(SyncKind kind, const Topology& topo, const NodeBuffer* data);
};

}  // namespace hympi
