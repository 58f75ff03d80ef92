#include "node_exchange.hpp"

#include <utility>

#include "hympi/topology.hpp"

namespace hympi::detail {

NodeExchange::~NodeExchange() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && in_flight()) {
    try {
      wait();
    } catch (...) {  // nothing can be thrown from a destructor; requests_ still completes its requests
    }
  }
  ProgressEngine::remove(*this);  // a failed flight may still be registered
}

void NodeExchange::start(Post post, Combine combine, Land land) {
  require_idle(in_flight(), "hybrid collective", "start()");
  post_ = std::move(post);
  combine_ = std::move(combine);
  land_ = std::move(land);
  sync_.start_full();
  phase_ = Phase::arriving;
  active_ = true;
  ProgressEngine::add(*this, topo_.node_comm(), background_);
}

void NodeExchange::run(const Post& post) {
  require_idle(in_flight(), "hybrid collective", "run()");
  sync_.full();
  if (topo_.num_nodes() == 1) return;
  ProgressEngine::poke();  // what else flies posts what it can before this rank blocks in MPI
  post_owned(post);
  requests_.wait();
  sync_.full();
}

void NodeExchange::post_owned(const Post& post) {
  for (int s : bridges_.owned()) post(s, bridges_.comm(s), requests_);
}

// A failed step ends the flight (the engine retired it): the object can start again.
void NodeExchange::abandon() {
  phase_ = Phase::idle;
  active_ = false;
}

bool NodeExchange::landed(bool complete) {
  if (!complete) return false;
  active_ = false;
  if (land_) std::exchange(land_, Land{})();
  return true;
}

bool NodeExchange::test() {
  if (!active_) return true;
  try {
    return landed(ProgressEngine::test(*this));
  } catch (...) {
    abandon();
    throw;
  }
}

void NodeExchange::wait() {
  if (!active_) return;
  try {
    ProgressEngine::wait(*this, sync_.spins_before_yield());
  } catch (...) {
    abandon();
    throw;
  }
  landed(true);
}

bool NodeExchange::step() {
  const bool one_node = topo_.num_nodes() == 1;
  for (;;) switch (phase_) {
      case Phase::idle:
        return true;
      case Phase::arriving:
        if (!sync_.test_full()) return false;
        if (combine_) {  // the combined shares must be visible before anyone sends them
          combine_();
          sync_.start_full();
          phase_ = one_node ? Phase::releasing : Phase::combining;
        } else if (one_node) {  // nothing crosses nodes: the arrival barrier is the whole step
          phase_ = Phase::idle;
        } else {
          post_owned(post_);
          phase_ = Phase::bridging;
        }
        break;
      case Phase::combining:
        if (!sync_.test_full()) return false;
        post_owned(post_);
        phase_ = Phase::bridging;
        break;
      case Phase::bridging:
        if (!requests_.test()) return false;
        sync_.start_full();
        phase_ = Phase::releasing;
        break;
      case Phase::releasing:
        if (!sync_.test_full()) return false;
        phase_ = Phase::idle;
        return true;
    }
}

}  // namespace hympi::detail
