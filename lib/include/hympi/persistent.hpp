// The one request model of hympi's collectives: a collective whose arguments are
// all bound at creation, as MPI-4's persistent requests (MPI_Allgather_init & co.).
// Allgatherv, Allreduce and Reduce are PersistentCollectives; a Bcast becomes one
// with its root and count bound (Bcast::create_fixed, as MPI_Bcast_init). The C
// persistent API (hympi_*_init) and the benchmarks drive every operation through
// this interface.
//
// One operation in flight at a time:
//   write slot()  ->  run()                         (blocking), or
//   write slot()  ->  start()  ->  test() / wait()  (nonblocking)
//   read result() until this rank's next run() or start().
// slot() must not be written and result() not read while an operation flies.
// After completion (test() returned true, or wait()) test() and wait() return at
// once until the next start(), as MPI's on an inactive request. Every test() and
// wait() of any hympi object moves every hympi operation in flight in the process
// and drives MPI progress (README "Completion and progress rules").
#pragma once
#include <cstddef>

namespace hympi {

class PersistentCollective {
 public:
  virtual ~PersistentCollective() = default;

  // Where this rank writes its contribution before the next run()/start();
  // nullptr where it contributes nothing (a fixed broadcast's non-roots).
  virtual void* slot() = 0;
  // The result; nullptr where this rank gets none (a reduce's non-roots).
  virtual const void* result() const = 0;
  // The whole operation. Collective over the object's communicator.
  virtual void run() = 0;
  // Nonblocking form (collective like run(); start() never waits for other nodes).
  // The defaults are the blocking run(): forms that have no nonblocking path.
  virtual void start() { run(); }
  virtual bool test() { return true; }
  virtual void wait() {}
  // Bytes of slot and result memory this rank's node holds (pure: one copy per rank).
  virtual std::size_t bytes_per_node() const = 0;

  template <class T>
  T* slot_as() {
    return static_cast<T*>(slot());
  }
  template <class T>
  const T* result_as() const {
    return static_cast<const T*>(result());
  }
};

}  // namespace hympi
