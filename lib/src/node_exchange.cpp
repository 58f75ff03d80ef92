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

void NodeExchange::start(Post post, Combine combine) {
  require(!in_flight(), "a hybrid collective was started while the previous one is in flight: complete it first");
  post_ = std::move(post);
  combine_ = std::move(combine);
  sync_.start_full();
  phase_ = Phase::arriving;
}

void NodeExchange::run(const Post& post, const Combine& combine) {
  require(!in_flight(), "a hybrid collective was run while another one is in flight: complete it first");
  sync_.full();
  if (combine) {
    combine();
    sync_.full();
  }
  if (topo_.num_nodes() == 1) return;
  for (int s : bridges_.owned()) post(s, bridges_.comm(s), requests_);
  requests_.wait();
  sync_.full();
}

void NodeExchange::post_owned() {
  for (int s : bridges_.owned()) post_(s, bridges_.comm(s), requests_);
}

bool NodeExchange::test() {
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
          post_owned();
          phase_ = Phase::bridging;
        }
        break;
      case Phase::combining:
        if (!sync_.test_full()) return false;
        post_owned();
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

void NodeExchange::wait() {
  for (int spins = 0; !test();)
    if (spins < sync_.spins_before_yield())
      ++spins;
    else
      progress_then_idle(topo_.node_comm());
}

}  // namespace hympi::detail
