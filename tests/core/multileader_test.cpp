// Multi-leader bridges and nonblocking collectives, checked bit-exactly against
// plain MPI (and so against leaders = 1) with data that changes every iteration
// and jittered readers:
//  * allgather(v) and bcast with leaders = 1..4 over both node syncs, and a bcast
//    with automatic leaders whose calls use one or two of its bridges;
//  * Allgatherv start/test/wait (both policies) and Bcast start/test/wait,
//    overlapped with compute and with the application's own point-to-point
//    traffic posted between start and wait;
//  * leaders < 0, or different on some ranks, fails on every rank.
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "collective_values.hpp"
#include "hympi/hympi.hpp"
#include "mpi_check.hpp"

using hympi::test::check;
using hympi::test::jitter;
using hympi::test::value;

namespace {

// Dawdling steps of jitter() in this test.
constexpr int kJitterUs = 40;

std::string name(const hympi::CollectiveOptions& o) {
  return std::string(to_string(o.policy)) + "/" + to_string(o.sync) + " leaders=" + std::to_string(o.leaders);
}

std::vector<double> reference_allgatherv(const hympi::Topology& topo, const std::vector<std::int64_t>& counts, int it) {
  const int rank = topo.rank(), p = topo.size();
  const auto displs = hympi::displacements(counts);
  std::vector<int> icounts(counts.begin(), counts.end()), idispls(displs.begin(), displs.end());
  std::vector<double> own(counts[rank]), all(displs[p - 1] + counts[p - 1]);
  for (std::int64_t i = 0; i < counts[rank]; ++i) own[i] = value(rank, i, it);
  MPI_Allgatherv(own.data(), icounts[rank], MPI_DOUBLE, all.data(), icounts.data(), idispls.data(), MPI_DOUBLE,
                 topo.comm());
  return all;
}

// How one exchange is driven: blocking run(), or start() then polling test()
// while computing, or start() with the application's own messages in flight.
enum class Drive { run, test_loop, p2p };

// The application's ring traffic between start() and wait(): large enough to be a
// rendezvous send, so it moves only if the collective's waits drive progress.
struct Ring {
  std::vector<double> out, in;
  MPI_Request req[2];
  void post(const hympi::Topology& topo, int it) {
    const int p = topo.size(), r = topo.rank();
    out.assign(20000, r + it);
    in.assign(out.size(), -1);
    MPI_Irecv(in.data(), static_cast<int>(in.size()), MPI_DOUBLE, (r + p - 1) % p, 7, topo.comm(), &req[0]);
    MPI_Isend(out.data(), static_cast<int>(out.size()), MPI_DOUBLE, (r + 1) % p, 7, topo.comm(), &req[1]);
  }
  bool complete(const hympi::Topology& topo, int it) {
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    const int left = (topo.rank() + topo.size() - 1) % topo.size();
    return in.front() == left + it && in.back() == left + it;
  }
};

template <class Start, class Test, class Wait>
bool drive(Drive how, const hympi::Topology& topo, int it, Start start, Test test, Wait wait) {
  start();
  if (how == Drive::test_loop) {
    volatile double sink = 0;  // compute between polls
    while (!test())
      for (int i = 0; i < 2000; ++i) sink = sink + i * 1e-9;
    wait();  // free after test() said done
    return true;
  }
  if (how == Drive::p2p) {
    Ring ring;
    ring.post(topo, it);
    jitter(topo.rank(), it, kJitterUs);
    // Odd iterations finish the application's messages first, even ones the collective.
    bool ok = true;
    if (it % 2) ok = ring.complete(topo, it);
    wait();
    if (it % 2 == 0) ok = ring.complete(topo, it);
    return ok;
  }
  wait();
  return true;
}

void test_allgatherv(const hympi::Topology& topo, const std::vector<std::int64_t>& counts,
                     const hympi::CollectiveOptions& opt, Drive how, const std::string& label) {
  const int rank = topo.rank();
  auto coll = hympi::Allgatherv::create(topo, counts, sizeof(double), opt);
  const int iterations = 5;
  int bad = 0, p2p_bad = 0;
  for (int it = 0; it < iterations; ++it) {
    double* mine = coll->slot_as<double>();
    for (std::int64_t i = 0; i < counts[rank]; ++i) mine[i] = value(rank, i, it);
    if (how == Drive::run)
      coll->run();
    else if (!drive(
                 how, topo, it, [&] { coll->start(); }, [&] { return coll->test(); }, [&] { coll->wait(); }))
      ++p2p_bad;
    const auto expected = reference_allgatherv(topo, counts, it);
    jitter(rank, it, kJitterUs);
    if (!expected.empty() && std::memcmp(coll->result(), expected.data(), expected.size() * sizeof(double)) != 0) ++bad;
  }
  check(bad == 0 && p2p_bad == 0, label + " " + name(opt) + ": " + std::to_string(bad) + " of " +
                                      std::to_string(iterations) + " results differ from MPI_Allgatherv, " +
                                      std::to_string(p2p_bad) + " application messages wrong");
}

// Roots 0 .. roots-1 in turn (every rank by default); odd roots send count
// elements, even ones count / 2 + 1.
void test_bcast(const hympi::Topology& topo, std::int64_t count, const hympi::CollectiveOptions& opt, Drive how,
                int roots = 0) {
  const int rank = topo.rank(), p = roots > 0 ? std::min(roots, topo.size()) : topo.size();
  auto coll = hympi::Bcast::create(topo, count, sizeof(double), opt);
  std::vector<double> expected(count);
  int bad = 0, runs = 0;
  for (int root = 0; root < p; ++root, ++runs) {
    const std::int64_t n = root % 2 ? count : count / 2 + 1;  // partial broadcasts too
    if (rank == root)
      for (std::int64_t i = 0; i < n; ++i) coll->buffer_as<double>()[i] = value(root, i, runs);
    if (how == Drive::run)
      coll->run(root, n);
    else if (!drive(
                 how, topo, runs, [&] { coll->start(root, n); }, [&] { return coll->test(); }, [&] { coll->wait(); }))
      ++bad;
    if (rank == root)
      for (std::int64_t i = 0; i < n; ++i) expected[i] = value(root, i, runs);
    MPI_Bcast(expected.data(), static_cast<int>(n), MPI_DOUBLE, root, topo.comm());
    jitter(rank, runs, kJitterUs);
    if (std::memcmp(coll->result(), expected.data(), n * sizeof(double)) != 0) ++bad;
  }
  check(bad == 0, "bcast count " + std::to_string(count) + " " + name(opt) + ": " + std::to_string(bad) + " of " +
                      std::to_string(runs) + " broadcasts wrong");
}

// Bcast with overlap: result k stays readable while k+1 flies (polled by test())
// and after it lands, until this rank's start(k+2).
void test_bcast_overlap_test(const hympi::Topology& topo, std::int64_t count, hympi::CollectiveOptions opt) {
  opt.overlap = true;
  const int rank = topo.rank(), p = topo.size();
  auto coll = hympi::Bcast::create(topo, count, sizeof(double), opt);
  auto root_of = [&](int k) { return (k * 5 + 1) % p; };
  auto correct = [&](const double* got, int k) {
    for (std::int64_t i = 0; i < count; i += 7)
      if (got[i] != value(root_of(k), i, k)) return false;
    return got[count - 1] == value(root_of(k), count - 1, k);
  };
  int bad = 0;
  const double* previous = nullptr;
  for (int k = 0; k < 2 * p + 4; ++k) {
    if (rank == root_of(k))
      for (std::int64_t i = 0; i < count; ++i) coll->buffer_as<double>()[i] = value(root_of(k), i, k);
    coll->start(root_of(k), count);
    while (!coll->test()) {
      if (previous && !correct(previous, k - 1)) ++bad;  // in flight
      jitter(rank, k, kJitterUs);
    }
    coll->wait();
    if (previous && !correct(previous, k - 1)) ++bad;  // landed
    previous = coll->result_as<double>();
    if (!correct(previous, k)) ++bad;
  }
  check(bad == 0, "bcast overlap start/test/wait " + name(opt) + ": " + std::to_string(bad) + " stale or wrong reads");
}

void test_bad_leaders(const hympi::Topology& topo) {
  for (auto policy : {hympi::Policy::pure, hympi::Policy::hybrid}) {
    hympi::CollectiveOptions opt{policy, hympi::SyncKind::flags};
    opt.leaders = -1;
    hympi::test::expect_error(
        "leaders must be >= 0", [&] { hympi::Allgatherv::create_allgather(topo, 4, 8, opt); },
        "allgather leaders = -1");
    hympi::test::expect_error(
        "leaders must be >= 0", [&] { hympi::Bcast::create(topo, 4, 8, opt); }, "bcast leaders = -1");
    if (topo.size() > 1) {
      opt.leaders = topo.rank() == topo.size() - 1 ? 2 : 1;
      hympi::test::expect_error(
          "leaders differs between ranks", [&] { hympi::Allgatherv::create_allgather(topo, 4, 8, opt); },
          "allgather leaders differing");
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    const auto& topo = hympi::Topology::of(MPI_COMM_WORLD);
    const std::vector<std::int64_t> irregular = hympi::test::irregular_counts(topo.size());
    const int p = topo.size();
    const hympi::SyncKind syncs[] = {hympi::SyncKind::flags, hympi::SyncKind::barrier};

    // Multi-leader, blocking: every k against MPI (bit-exact, so equal to k = 1);
    // the barrier sync once, with two leaders.
    for (int k = 1; k <= 4; ++k)
      for (auto sync : syncs) {
        if (sync == hympi::SyncKind::barrier && k != 2) continue;
        hympi::CollectiveOptions opt{hympi::Policy::hybrid, sync};
        opt.leaders = k;
        for (std::int64_t count : {0, 1, 1000})
          test_allgatherv(topo, std::vector<std::int64_t>(p, count), opt, Drive::run,
                          "allgather count " + std::to_string(count));
        test_allgatherv(topo, irregular, opt, Drive::run, "allgatherv irregular");
        for (std::int64_t count : {13, 4096}) test_bcast(topo, count, opt, Drive::run);
      }

    // Automatic leaders: a bcast object built for 512 KiB gets two bridges on
    // multi-rank nodes; its half-size calls (256 KiB + 8 B) earn one leader and
    // take the single-leader path, its full-size calls both slices.
    for (Drive how : {Drive::run, Drive::test_loop}) {
      hympi::CollectiveOptions opt{hympi::Policy::hybrid, hympi::SyncKind::flags};
      opt.leaders = 0;
      test_bcast(topo, 65536, opt, how, 2);
    }

    // Nonblocking: pure, hybrid with one leader, hybrid with two (both syncs);
    // polled while computing, and with the application's traffic in flight.
    for (auto policy : {hympi::Policy::pure, hympi::Policy::hybrid})
      for (int k : {1, 2})
        for (auto sync : syncs) {
          if (policy == hympi::Policy::pure && (k > 1 || sync == hympi::SyncKind::barrier)) continue;
          if (k == 1 && sync == hympi::SyncKind::barrier) continue;
          hympi::CollectiveOptions opt{policy, sync};
          opt.leaders = k;
          for (Drive how : {Drive::test_loop, Drive::p2p}) {
            const std::string drive_name = how == Drive::p2p ? "start/p2p/wait" : "start/test/wait";
            test_allgatherv(topo, std::vector<std::int64_t>(p, 500), opt, how, "allgather " + drive_name);
            test_allgatherv(topo, irregular, opt, how, "allgatherv irregular " + drive_name);
            test_bcast(topo, 3000, opt, how);
          }
          test_bcast_overlap_test(topo, 5000, opt);
        }

    test_bad_leaders(topo);
  }
  const int rc = hympi::test::finish("multileader_test");
  MPI_Finalize();
  return rc;
}
