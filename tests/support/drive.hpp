// Runs one round of a persistent collective the way round `it` says: run(), start() +
// polling test(), start() + wait() - so every test covers the three ways to complete.
#pragma once
#include "hympi/hympi.hpp"

namespace hympi::test {

inline void drive(hympi::PersistentCollective& op, int it) {
  if (it % 3 == 0) return op.run();
  op.start();
  if (it % 3 == 1)
    while (!op.test()) {
    }
  else
    op.wait();
}

}  // namespace hympi::test
