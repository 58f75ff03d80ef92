#include "progress.hpp"

#include "hympi/error.hpp"

#include <sched.h>

#include <string>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace hympi {

namespace {
std::atomic<IdleFunction> g_idle{nullptr};
}  // namespace

void set_idle_function(IdleFunction function) {
  g_idle.store(function, std::memory_order_relaxed);
}

namespace detail {

namespace {

// The engine's state. Never destroyed: a detached worker may still sleep on it
// at exit, and collectives destroyed by static destructors still unregister.
struct EngineState {
  // Recursive: a user's reduction op runs inside a round, and a hympi call it
  // makes must find `in_round` set instead of deadlocking on the lock.
  std::recursive_mutex mutex;
  std::condition_variable_any wake;  // the worker sleeps while no background flight flies
  bool in_round = false;             // a round is being taken (under the lock)
  std::vector<Flight*> flights;      // start order
  int background = 0;
  bool worker = false;
  std::atomic<int> count{0};  // flights.size(), readable without the lock
};

EngineState& state() {
  static EngineState* const s = new EngineState;
  return *s;
}

// Whether another thread may take rounds too: the application has
// MPI_THREAD_MULTIPLE (progress threads need it, so the worker implies it).
bool threaded() {
  static const bool multiple = [] {
    int provided = MPI_THREAD_SINGLE;
    MPI_Query_thread(&provided);
    return provided == MPI_THREAD_MULTIPLE;
  }();
  return multiple;
}

// The engine's lock, taken only where another thread may take rounds: even an
// uncontended lock per spin shows at sub-microsecond latencies.
class EngineLock {
 public:
  explicit EngineLock(EngineState& s) : mutex_(threaded() ? &s.mutex : nullptr) {
    if (mutex_) mutex_->lock();
  }
  ~EngineLock() {
    if (mutex_) mutex_->unlock();
  }
  EngineLock(const EngineLock&) = delete;
  EngineLock& operator=(const EngineLock&) = delete;

 private:
  std::recursive_mutex* mutex_;
};

// After spinning has not helped: MPI progress, then give the core away.
void idle_step(MPI_Comm comm) {
  if (const IdleFunction custom = g_idle.load(std::memory_order_relaxed)) {
    if (requests_in_flight() > 0) drive_progress(comm);
    custom();
    return;
  }
  drive_progress(comm);
  sched_yield();
}

}  // namespace

void refuse_in_flight(const char* what, const char* call) {
  throw Error(ErrorCode::invalid_argument, std::string("hympi: ") + what + " " + call +
                                               ": the previous start() is in flight (started, not completed): "
                                               "complete it with wait() or test() (C: hympi_wait, hympi_test) first");
}

void ProgressEngine::retire(std::size_t index) {
  EngineState& s = state();
  Flight* f = s.flights[index];
  s.flights.erase(s.flights.begin() + static_cast<std::ptrdiff_t>(index));
  s.count.store(static_cast<int>(s.flights.size()), std::memory_order_relaxed);
  if (f->background_) --s.background;
  f->done_.store(true, std::memory_order_release);
}

void ProgressEngine::round_locked() {
  // No TLS: under SimGrid SMPI every simulated rank shares one OS thread, while
  // this state (a global of the program) is privatized per rank.
  EngineState& s = state();
  if (s.in_round) return;
  struct Guard {
    bool& flag;
    explicit Guard(bool& f) : flag(f) { flag = true; }
    ~Guard() { flag = false; }
  } guard(s.in_round);
  for (std::size_t i = 0; i < s.flights.size();) {
    Flight* f = s.flights[i];
    bool complete = false;
    try {
      complete = f->advance();
    } catch (...) {  // the owner's error: rethrown in its own test/wait, nobody else's
      f->error_ = std::current_exception();
      complete = true;
    }
    if (complete)
      retire(i);
    else
      ++i;
  }
}

void ProgressEngine::add(Flight& flight, MPI_Comm comm, bool background) {
  EngineState& s = state();
  EngineLock lock(s);
  flight.done_.store(false, std::memory_order_relaxed);
  flight.error_ = nullptr;
  flight.comm_ = comm;
  flight.background_ = background;
  s.flights.push_back(&flight);
  s.count.store(static_cast<int>(s.flights.size()), std::memory_order_relaxed);
  if (background) {
    ++s.background;
    if (!s.worker) {
      s.worker = true;
      std::thread(worker_loop).detach();
    }
    s.wake.notify_one();
  }
  round_locked();
}

bool ProgressEngine::finished(Flight& flight) {
  if (!flight.done_.load(std::memory_order_acquire)) return false;
  if (flight.error_) std::rethrow_exception(std::exchange(flight.error_, nullptr));
  return true;
}

bool ProgressEngine::test(Flight& flight) {
  if (!flight.done_.load(std::memory_order_acquire)) poke();
  if (finished(flight)) return true;
  drive_progress(flight.comm_);  // a polling caller moves the application's messages too
  return false;
}

void ProgressEngine::wait(Flight& flight, int spins_before_yield) {
  for (int spins = 0;;) {
    poke();
    if (finished(flight)) return;
    if (spins < spins_before_yield) {
      ++spins;  // saturates: no overflow however long the wait
    } else {
      idle_step(flight.comm_);
    }
  }
}

void ProgressEngine::remove(Flight& flight) {
  EngineState& s = state();
  EngineLock lock(s);
  for (std::size_t i = 0; i < s.flights.size(); ++i)
    if (s.flights[i] == &flight) return retire(i);
}

bool ProgressEngine::busy() {
  return state().count.load(std::memory_order_relaxed) > 0;
}

void ProgressEngine::poke() {
  if (!busy()) return;
  EngineLock lock(state());
  round_locked();
}

// The persistent worker of progress threads: rounds while a background flight
// flies, driving MPI between them; asleep otherwise (it never touches MPI then,
// so it may outlive MPI_Finalize).
void ProgressEngine::worker_loop() {
  EngineState& s = state();
  std::unique_lock<std::recursive_mutex> lock(s.mutex);
  for (int spins = 0;;) {
    s.wake.wait(lock, [&] { return s.background > 0; });
    round_locked();
    if (s.background == 0) {
      spins = 0;
      continue;
    }
    lock.unlock();
    if (spins < 64) {
      ++spins;
    } else {
      drive_progress(MPI_COMM_WORLD);  // not a flight's communicator: its owner may free it meanwhile
      std::this_thread::yield();
    }
    lock.lock();
  }
}

std::atomic<int>& requests_in_flight() {
  static std::atomic<int> count{0};  // the worker posts requests too
  return count;
}

void drive_progress(MPI_Comm comm) {
  int flag = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, MPI_STATUS_IGNORE);
}

void progress_then_idle(MPI_Comm comm) {
  ProgressEngine::poke();
  idle_step(comm);
}

}  // namespace detail
}  // namespace hympi
