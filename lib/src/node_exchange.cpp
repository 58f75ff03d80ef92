#include "node_exchange.hpp"

#include "hympi/topology.hpp"
#include "progress.hpp"

namespace hympi::detail {

NodeExchange::~NodeExchange() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized || !in_flight()) return;
  try {
    wait();
  } catch (...) {  // nothing can be thrown from a destructor; requests_ still completes its requests
  }
}

void NodeExchange::start(Post post) {
  require(!in_flight(), "a hybrid collective was started while the previous one is in flight: complete it first");
  post_ = std::move(post);
  sync_.start_full();
  phase_ = Phase::arriving;
}

void NodeExchange::run(const Post& post) {
  require(!in_flight(), "a hybrid collective was run while another one is in flight: complete it first");
  sync_.full();
  if (topo_.num_nodes() == 1) return;
  for (int s : bridges_.owned()) post(s, bridges_.comm(s), requests_.add());
  requests_.wait();
  sync_.full();
}

bool NodeExchange::test() {
  switch (phase_) {
    case Phase::idle:
      return true;
    case Phase::arriving:
      if (!sync_.test_full()) return false;
      if (topo_.num_nodes() == 1) {  // nothing crosses nodes: the arrival barrier is the whole step
        phase_ = Phase::idle;
        return true;
      }
      for (int s : bridges_.owned()) post_(s, bridges_.comm(s), requests_.add());
      phase_ = Phase::bridging;
      [[fallthrough]];
    case Phase::bridging:
      if (!requests_.test()) return false;
      sync_.start_full();
      phase_ = Phase::releasing;
      [[fallthrough]];
    case Phase::releasing:
      if (!sync_.test_full()) return false;
      phase_ = Phase::idle;
      return true;
  }
  return true;
}

void NodeExchange::wait() {
  for (int spins = 0; !test();)
    if (spins < sync_.spins_before_yield())
      ++spins;
    else
      progress_then_idle(topo_.node_comm());
}

}  // namespace hympi::detail
