// Private helper of the grouped collectives: a collective as a chain of steps
// (inner collective in the group, outer among the leaders, ...), each taken by
// the ranks that have a part in it, blocking (run) or nonblocking (start, then
// the chain is a Flight of the progress engine: a step is posted when the one
// before completed, in whichever hympi test()/wait() of this process takes a
// round, so grouped requests complete in any order, as every core collective).
//
// Re-entrancy: advance() runs inside the engine's round (its lock held, its
// in_round set). A step's begin/poll may start or test an inner core
// collective: its ProgressEngine::add only appends to the flight list (the
// round iterates by index, so the new flight is taken later in the same round)
// and its test's poke returns at once (in_round); neither blocks.
#pragma once
#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "hympi/error.hpp"
#include "hympi/persistent.hpp"
#include "hympi/topology.hpp"
#include "progress.hpp"
#include "requests.hpp"

namespace hympi::detail {

struct Step {
  std::function<void()> run;    // the blocking form
  std::function<void()> begin;  // posts the nonblocking form
  std::function<bool()> poll;   // true once the posted form completed (never blocks)
};

// An inner collective of the core (its own start/test).
inline Step core_step(PersistentCollective& op) {
  return {[&op] { op.run(); }, [&op] { op.start(); }, [&op] { return op.test(); }};
}

// An MPI collective: `blocking` calls MPI_X, `post` calls MPI_IX with requests.add().
inline Step mpi_step(std::function<void()> blocking, std::function<void(Requests&)> post, Requests& requests) {
  return {std::move(blocking), [post = std::move(post), &requests] { post(requests); },
          [&requests] { return requests.test(); }};
}

// Local work (a copy): done when taken.
inline Step local_step(std::function<void()> work) {
  return {work, work, [] { return true; }};
}

class StepChain final : public Flight {
 public:
  // `topo`: the object's communicator, checked alive at every run() and start() as the
  // flat collectives check theirs (the groups' own communicators outlive a freed one,
  // so without it a pure grouped request went on working on a freed communicator).
  StepChain(std::string what, const Topology& topo) : what_(std::move(what)), topo_(topo) {}
  // Destroyed in flight (every rank destroys it, as every core collective): the
  // remaining steps complete first, so no group waits for a leader whose chain
  // stopped after the outer level; then out of the engine. The owner declares the
  // chain last, after the steps' objects and their Requests.
  ~StepChain() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (in_flight_ && !finalized) {
      owner_ = std::this_thread::get_id();  // the steps now run in the destroying thread
      try {
        wait();
      } catch (...) {  // an error cannot leave a destructor; the memory is safe either way
      }
    }
    ProgressEngine::remove(*this);
  }

  void add(Step step) { steps_.push_back(std::move(step)); }
  // New steps (allgatherv's set_counts), only while idle.
  void replace(std::vector<Step> steps) {
    require_idle("set_counts()");
    steps_ = std::move(steps);
  }

  void run() {
    require_idle("run()");
    topo_.require_comm_alive((what_ + " run()").c_str());
    for (auto& step : steps_) step.run();
  }
  void start() {
    require_idle("start()");
    topo_.require_comm_alive((what_ + " start()").c_str());
    in_flight_ = true;
    next_ = 0;
    posted_ = false;
    owner_ = std::this_thread::get_id();
    // Takes a round: the first step is posted. A polling wait probes MPI_COMM_WORLD, not the
    // object's communicator: the application may free that while the object lives.
    ProgressEngine::add(*this, MPI_COMM_WORLD, /*background=*/false);
  }
  // One round of every flight; true once the last step completed (a step's error
  // is thrown here, and ends the flight).
  bool test() {
    if (!in_flight_) return true;
    return ended([&] { return ProgressEngine::test(*this); });
  }
  void wait() {
    if (!in_flight_) return;
    ended([&] {
      ProgressEngine::wait(*this, kSpinsBeforeYield);
      return true;
    });
  }

  // Posts every step whose predecessor completed; true once the last one did. A
  // failed step ends the flight (the engine rethrows in this chain's test/wait;
  // the object can be started again, as the core's). The steps run in the
  // thread that started the chain only: an inner collective's completion (its
  // landing) belongs to it, not to a progress worker's round.
  bool advance() override {
    if (std::this_thread::get_id() != owner_) return false;
    for (; next_ < steps_.size(); ++next_, posted_ = false) {
      if (!posted_) steps_[next_].begin();
      posted_ = true;
      if (!steps_[next_].poll()) return false;
    }
    return true;
  }

  void require_idle(const char* call) const {
    if (in_flight_) require(false, what_ + " " + call + " while a start() is in flight: call wait() first");
  }

 private:
  // The flight stays "in flight" (start() refused) from start() to the test()/wait()
  // that finds it complete or failed, as the core's (node_exchange.hpp).
  template <class F>
  bool ended(F&& done) {
    try {
      if (!done()) return false;
    } catch (...) {
      in_flight_ = false;
      throw;
    }
    in_flight_ = false;
    return true;
  }

  static constexpr int kSpinsBeforeYield = 64;  // as Requests::wait
  std::string what_;
  const Topology& topo_;  // kept alive by the owner (Topology::keep_alive)
  std::vector<Step> steps_;
  std::size_t next_ = 0;
  bool posted_ = false, in_flight_ = false;
  // Read by whichever thread takes an engine round, written by start() and the destructor.
  std::atomic<std::thread::id> owner_{};
};

}  // namespace hympi::detail
