// The MPI test harness of every MPI test program (core, summa, bpmf): checks count
// failures per rank and print them on the rank that saw them; finish() makes the
// test fail (exit code 1 on every rank) if any rank saw a failure. Collective-safe:
// a failing check never skips a collective call.
#pragma once
#include <mpi.h>

#include <cstdio>
#include <functional>
#include <string>

namespace hympi::test {

inline int& failures() {
  static int count = 0;
  return count;
}

inline int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

inline int world_size() {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

inline void check(bool ok, const std::string& what) {
  if (ok) return;
  if (++failures() <= 20) std::fprintf(stderr, "[rank %d] FAILED: %s\n", world_rank(), what.c_str());
}

inline void fail(const std::string& what) {
  check(false, what);
}

// Runs `body`, which must throw hympi::Error whose message contains `needle`, on every rank.
template <class F>
void expect_error(const std::string& needle, F&& body, const std::string& what) {
  std::string message;
  try {
    body();
  } catch (const std::exception& e) {
    message = e.what();
  }
  check(message.find(needle) != std::string::npos,
        what + ": expected an error containing '" + needle + "', got '" + message + "'");
}

// Runs `body` and checks that every rank throws an error containing `needle`,
// and the very same message on every rank.
inline void expect_same_error(const std::string& needle, const std::function<void()>& body, const std::string& what) {
  std::string message;
  expect_error(
      needle,
      [&] {
        try {
          body();
        } catch (const std::exception& e) {
          message = e.what();
          throw;
        }
      },
      what);
  int length = static_cast<int>(message.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string first(static_cast<std::size_t>(length), '\0');
  if (world_rank() == 0) first = message;
  MPI_Bcast(first.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
  check(first == message, what + ": rank 0 says '" + first + "', this rank '" + message + "'");
}

// Sums failures over all ranks; rank 0 prints the verdict. Returns the exit code.
inline int finish(const char* name) {
  int local = failures(), total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (world_rank() == 0) std::printf("%s: %s (%d failed checks)\n", name, total ? "FAILED" : "passed", total);
  return total ? 1 : 0;
}

}  // namespace hympi::test
