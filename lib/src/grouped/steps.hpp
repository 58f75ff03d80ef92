// Private helper of the grouped collectives: a collective as a chain of steps
// (inner collective in the group, outer among the leaders, ...), each taken by
// the ranks that have a part in it, blocking (run) or nonblocking (start, then
// test/wait advance the chain: a step is posted when the one before completed).
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "hympi/error.hpp"
#include "hympi/persistent.hpp"
#include "requests.hpp"

namespace hympi::detail {

struct Step {
  std::function<void()> run;     // the blocking form
  std::function<void()> begin;   // posts the nonblocking form
  std::function<bool()> poll;    // true once the posted form completed
  std::function<void()> finish;  // completes the posted form
};

// An inner collective of the core (its own start/test/wait).
inline Step core_step(PersistentCollective& op) {
  return {[&op] { op.run(); }, [&op] { op.start(); }, [&op] { return op.test(); }, [&op] { op.wait(); }};
}

// An MPI collective: `blocking` calls MPI_X, `post` calls MPI_IX with requests.add().
inline Step mpi_step(std::function<void()> blocking, std::function<void(Requests&)> post, Requests& requests) {
  return {std::move(blocking), [post = std::move(post), &requests] { post(requests); },
          [&requests] { return requests.test(); }, [&requests] { requests.wait(); }};
}

// Local work (a copy): done when taken.
inline Step local_step(std::function<void()> work) {
  return {work, work, [] { return true; }, [] {}};
}

class StepChain {
 public:
  explicit StepChain(std::string what) : what_(std::move(what)) {}
  void add(Step step) { steps_.push_back(std::move(step)); }

  void run() {
    require_idle("run()");
    for (auto& step : steps_) step.run();
  }
  void start() {
    require_idle("start()");
    in_flight_ = true;
    next_ = 0;
    posted_ = false;
    guarded([&] { advance(); });
  }
  // Posts every step whose predecessor completed; true once the last one did.
  bool test() {
    if (!in_flight_) return true;
    return guarded([&] { return advance(); });
  }
  void wait() {
    if (!in_flight_) return;
    guarded([&] {
      for (; next_ < steps_.size(); ++next_, posted_ = false) {
        if (!posted_) steps_[next_].begin();
        posted_ = true;
        steps_[next_].finish();
      }
      in_flight_ = false;
    });
  }

 private:
  bool advance() {
    for (; next_ < steps_.size(); ++next_, posted_ = false) {
      if (!posted_) steps_[next_].begin();
      posted_ = true;
      if (!steps_[next_].poll()) return false;
    }
    in_flight_ = false;
    return true;
  }
  // A failed step ends the flight (the object can be started again, as the core's).
  template <class F>
  auto guarded(F&& f) -> decltype(f()) {
    try {
      return f();
    } catch (...) {
      in_flight_ = false;
      throw;
    }
  }

 public:
  void require_idle(const char* call) const {
    if (in_flight_) require(false, what_ + " " + call + " while a start() is in flight: call wait() first");
  }

 private:
  std::string what_;
  std::vector<Step> steps_;
  std::size_t next_ = 0;
  bool posted_ = false, in_flight_ = false;
};

}  // namespace hympi::detail
