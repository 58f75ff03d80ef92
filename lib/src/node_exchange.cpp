#include "node_exchange.hpp"

#include <utility>

#include "hympi/topology.hpp"
#include "progress.hpp"

namespace hympi::detail {

NodeExchange::~NodeExchange() {
  if (worker_.joinable()) {
    worker_.join();
    if (worker_error_) return;  // nobody left to tell; requests_ still completes its requests
  }
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized || !in_flight()) return;
  try {
    wait();
  } catch (...) {  // nothing can be thrown from a destructor; requests_ still completes its requests
  }
}

void NodeExchange::start(Post post, Combine combine, Land land) {
  require(!in_flight(), "a hybrid collective was started while the previous one is in flight: complete it first");
  post_ = std::move(post);
  combine_ = std::move(combine);
  land_ = std::move(land);
  sync_.start_full();
  phase_ = Phase::arriving;
  active_ = true;
  if (!background_) {
    step();
    return;
  }
  worker_done_.store(false, std::memory_order_relaxed);
  worker_error_ = nullptr;
  worker_ = std::thread([this] {
    try {
      finish();
    } catch (...) {
      worker_error_ = std::current_exception();
    }
    worker_done_.store(true, std::memory_order_release);
  });
}

// The worker's outcome, once it has finished: its error is the caller's.
bool NodeExchange::join_worker() {
  if (!worker_done_.load(std::memory_order_acquire)) return false;
  worker_.join();
  if (worker_error_) {
    phase_ = Phase::idle;
    active_ = false;
    std::rethrow_exception(std::exchange(worker_error_, nullptr));
  }
  return true;
}

void NodeExchange::run(const Post& post) {
  require(!in_flight(), "a hybrid collective was run while another one is in flight: complete it first");
  sync_.full();
  if (topo_.num_nodes() == 1) return;
  post_owned(post);
  requests_.wait();
  sync_.full();
}

void NodeExchange::post_owned(const Post& post) {
  for (int s : bridges_.owned()) post(s, bridges_.comm(s), requests_);
}

bool NodeExchange::landed(bool complete) {
  if (!complete) return false;
  active_ = false;
  if (land_) std::exchange(land_, Land{})();
  return true;
}

bool NodeExchange::test() {
  if (!active_) return true;
  return landed(worker_.joinable() ? join_worker() : step());
}

void NodeExchange::wait() {
  if (!active_) return;
  if (!worker_.joinable()) {
    finish();
    landed(true);
    return;
  }
  for (int spins = 0; !join_worker();)
    if (spins < sync_.spins_before_yield())
      ++spins;
    else
      std::this_thread::yield();  // the worker drives MPI; this thread only waits for it
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

void NodeExchange::finish() {
  for (int spins = 0; !step();)
    if (spins < sync_.spins_before_yield())
      ++spins;
    else
      progress_then_idle(topo_.node_comm());
}

}  // namespace hympi::detail
