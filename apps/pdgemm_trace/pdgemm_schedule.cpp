#include "pdgemm_schedule.hpp"

#include <algorithm>
#include <vector>

namespace hympi::pdgemm_skel {
namespace {

constexpr long kDouble = 8;

// Local extent of n entries in blocks of nb on process `proc` of `procs` (source 0).
long local_extent(long n, long nb, int proc, int procs) {
  const long blocks = n / nb, extra = n % nb;
  long mine = (blocks / procs) * nb;
  const long rest = blocks % procs;
  if (proc < rest) mine += nb;
  else if (proc == rest) mine += extra;
  return mine;
}

// The per-process volume PBLAS uses in its estimate: whole blocks, rounded up.
double rounded_extent(long n, long nb, int procs) {
  const long blocks = (n + nb - 1) / nb;
  return static_cast<double>((blocks + procs - 1) / procs) * static_cast<double>(nb);
}

// pdgemm_'s choice among its three algorithms, for NN: AB (A and B panels move) wins
// unless moving C with one operand is estimated cheaper by more than 30%.
bool chooses_ab(const Case& c) {
  const double ratio = 1.3;
  const double mp = rounded_extent(c.M, c.nb, c.P), nq = rounded_extent(c.N, c.nb, c.Q);
  const double kp = rounded_extent(c.K, c.nb, c.P), kq = rounded_extent(c.K, c.nb, c.Q);
  const double ab = static_cast<double>(c.K) * ((c.Q == 1 ? 0 : mp) + (c.P == 1 ? 0 : nq));
  const double ac = static_cast<double>(c.M) * ((c.Q == 1 ? 0 : kp) + std::max(kp, kq) + ratio * (c.P == 1 ? 0 : nq));
  const double bc = static_cast<double>(c.N) * (ratio * (c.Q == 1 ? 0 : mp) + (c.P == 1 ? 0 : kq) + std::max(kq, kp));
  return ab <= ratio * bc && ab <= ratio * ac;
}

// One BLACS ring broadcast over a scope of `size` ranks (my place `me`, root `root`):
// `world(i)` maps a scope index to a world rank.
template <class World>
void ring_bcast(Sink& sink, int size, int me, int root, long bytes, bool blocking, bool up, World world) {
  if (size < 2) return;
  const int step = up ? 1 : -1;
  const int next = (me + step + size) % size, prev = (me - step + size) % size;
  if (me == root) {
    sink.send(world(next), bytes, blocking);
    return;
  }
  sink.recv(world(prev), bytes);
  if (next != root) sink.send(world(next), bytes, blocking);
}

}  // namespace

void check(const Case& c) {
  if (c.P < 1 || c.Q < 1) throw std::invalid_argument("the grid must be P x Q with P, Q >= 1");
  if (c.M < 1 || c.N < 1 || c.K < 1) throw std::invalid_argument("M, N and K must be >= 1");
  if (c.nb < 1 || c.kb < 1) throw std::invalid_argument("nb and kb must be >= 1");
  for (char t : {c.transa, c.transb})
    if (t != 'N' && t != 'T') throw std::invalid_argument("transposes must be N or T");
  if (c.transa != 'N' || c.transb != 'N')
    throw NotModeled("transposed operands: PBLAS redistributes them (a transpose path not modelled yet)");
  const long floor = std::max<long>(c.nb, c.kb);
  if (c.M <= floor || c.N <= floor || c.K <= floor)
    throw NotModeled("M, N, K <= max(nb, 32): PBLAS keeps BLACS' default topology (MPI_Bcast) or a single block");
  if (c.P == 1 && c.Q == 1) throw NotModeled("a 1 x 1 grid: PBLAS' non-spanning path");
  if (!chooses_ab(c)) throw NotModeled("PBLAS' volume estimate picks its AC or BC algorithm (C moves)");
}

void run(const Case& c, int rank, Sink& sink) {
  check(c);
  const int myrow = rank / c.Q, mycol = rank % c.Q;
  const long cmp = local_extent(c.M, c.nb, myrow, c.P), cnq = local_extent(c.N, c.nb, mycol, c.Q);
  // K's owners: A's columns over the process columns, B's rows over the process rows;
  // a dimension of one process is replicated (every pair holds it).
  const bool a_repl = c.Q == 1, b_repl = c.P == 1;
  const int maxp = b_repl ? 1 : c.P, maxq = a_repl ? 1 : c.Q;
  // The K indices of owner pair (p, q), p fastest: counts per pair, in pair order.
  std::vector<long> held(static_cast<std::size_t>(maxp) * maxq, 0);
  for (long blk = 0; blk * c.nb < c.K; ++blk) {
    const long width = std::min<long>(c.nb, c.K - blk * c.nb);
    const int p = b_repl ? 0 : static_cast<int>(blk % c.P), q = a_repl ? 0 : static_cast<int>(blk % c.Q);
    held[static_cast<std::size_t>(q) * maxp + p] += width;
  }
  const auto row_world = [&](int col) { return myrow * c.Q + col; };
  const auto col_world = [&](int row) { return row * c.Q + mycol; };
  std::size_t pair = 0;
  long left = held[0];
  for (long k0 = 0; k0 < c.K; k0 += c.kb) {
    const long chunk = std::min<long>(c.kb, c.K - k0);
    for (long filled = 0; filled < chunk;) {
      while (left == 0) left = held[++pair];
      const long piece = std::min(left, chunk - filled);
      const int p = static_cast<int>(pair % maxp), q = static_cast<int>(pair / maxp);
      // A's piece along my process row from column q.
      if (!a_repl && cmp > 0)
        ring_bcast(sink, c.Q, mycol, q, cmp * piece * kDouble, true, c.ring_up, row_world);
      // B's piece down my process column from row p (a strided piece of a kb-row buffer
      // when narrower than kb: Debian's BLACS still sends it blocking, as an MPI datatype).
      if (!b_repl && cnq > 0) ring_bcast(sink, c.P, myrow, p, piece * cnq * kDouble, true, c.ring_up, col_world);
      left -= piece;
      filled += piece;
    }
    if (cmp > 0 && cnq > 0) sink.dgemm('N', 'N', cmp, cnq, chunk);
  }
}

}  // namespace hympi::pdgemm_skel
