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

enum class Algorithm { ab, ac, bc };

// pdgemm_'s choice among its algorithms (AB: A and B panels move; AC: A moves and C is
// summed; BC: B moves and C is summed) from its per-process volume estimates, for NN
// TN and NT: AB unless moving C is estimated cheaper by more than 30%.
Algorithm choose(const Case& c) {
  const double ratio = 1.3;
  const auto ext = [&](long n, int procs) { return rounded_extent(n, c.nb, procs); };
  const auto off_q = [&](double v) { return c.Q == 1 ? 0.0 : v; };  // nothing moves along a 1-wide row
  const auto off_p = [&](double v) { return c.P == 1 ? 0.0 : v; };
  double ab = 0, ac = 0, bc = 0;
  if (c.transa == 'N' && c.transb == 'T') {
    ab = c.K * (off_q(ext(c.M, c.P)) + off_p(ext(c.N, c.Q)) + std::max(ext(c.N, c.Q), ext(c.N, c.P)));
    ac = c.M * (ratio * off_q(ext(c.N, c.P)) + std::max(ext(c.N, c.P), ext(c.N, c.Q)) + off_p(ext(c.K, c.Q)));
    bc = c.N * (ratio * off_q(ext(c.M, c.P)) + off_p(ext(c.K, c.Q)));
  } else if (c.transa == 'N') {
    ab = c.K * (off_q(ext(c.M, c.P)) + off_p(ext(c.N, c.Q)));
    ac = c.M * (off_q(ext(c.K, c.P)) + std::max(ext(c.K, c.P), ext(c.K, c.Q)) + ratio * off_p(ext(c.N, c.Q)));
    bc = c.N * (ratio * off_q(ext(c.M, c.P)) + off_p(ext(c.K, c.Q)) + std::max(ext(c.K, c.Q), ext(c.K, c.P)));
  } else {
    ab = c.K * (off_q(ext(c.M, c.P)) + std::max(ext(c.M, c.P), ext(c.M, c.Q)) + off_p(ext(c.N, c.Q)));
    ac = c.M * (off_q(ext(c.K, c.P)) + ratio * off_p(ext(c.N, c.Q)));
    bc = c.N * (off_q(ext(c.K, c.P)) + ratio * off_p(ext(c.M, c.Q)) + std::max(ext(c.M, c.Q), ext(c.M, c.P)));
  }
  if (ab <= ratio * bc && ab <= ratio * ac) return Algorithm::ab;
  if (bc <= ac && ratio * bc <= ab) return Algorithm::bc;
  return Algorithm::ac;
}

// How many entries of a dimension of `extent` (blocks of nb) each owner pair holds:
// pair (p, q) = process p of `np` (rows of one operand) and q of `nq` (columns of
// another), p fastest; a dimension over one process is replicated (np or nq = 1).
std::vector<long> pair_counts(long extent, long nb, int np, int nq) {
  std::vector<long> held(static_cast<std::size_t>(np) * nq, 0);
  for (long blk = 0; blk * nb < extent; ++blk) {
    const long width = std::min<long>(nb, extent - blk * nb);
    held[static_cast<std::size_t>(blk % nq) * np + static_cast<std::size_t>(blk % np)] += width;
  }
  return held;
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
  if (c.transa == 'T' && c.transb == 'T') throw NotModeled("TT: not modelled (NN, TN and NT are)");
  const long floor = std::max<long>(c.nb, c.kb);
  if (c.M <= floor || c.N <= floor || c.K <= floor)
    throw NotModeled("M, N, K <= max(nb, 32): PBLAS keeps BLACS' default topology (MPI_Bcast) or a single block");
  if (c.P == 1 && c.Q == 1) throw NotModeled("a 1 x 1 grid: PBLAS' non-spanning path");
  const Algorithm alg = choose(c);
  if (c.transa == 'N' && c.transb == 'N' && alg != Algorithm::ab)
    throw NotModeled("PBLAS' volume estimate picks its AC or BC algorithm (C moves) for this NN case");
  if (c.transb == 'T' && alg != Algorithm::bc)
    throw NotModeled("PBLAS' volume estimate picks its AB or AC algorithm for this NT case");
  if (c.transa == 'T' && alg != Algorithm::ac)
    throw NotModeled("PBLAS' volume estimate picks its AB or BC algorithm for this TN case");
}

namespace {

// AB (NN): K walked in chunks of kb, grouped by owner pair (B's row p, A's column q);
// A's piece along the process row, B's down the column, one DGEMM per chunk.
void run_ab(const Case& c, int rank, Sink& sink) {
  const int myrow = rank / c.Q, mycol = rank % c.Q;
  const long cmp = local_extent(c.M, c.nb, myrow, c.P), cnq = local_extent(c.N, c.nb, mycol, c.Q);
  // K's owners: A's columns over the process columns, B's rows over the process rows;
  // a dimension over one process is replicated (every pair holds it).
  const bool a_repl = c.Q == 1, b_repl = c.P == 1;
  const int maxp = b_repl ? 1 : c.P;
  const std::vector<long> held = pair_counts(c.K, c.nb, maxp, a_repl ? 1 : c.Q);
  const auto row_world = [&](int col) { return myrow * c.Q + col; };
  const auto col_world = [&](int row) { return row * c.Q + mycol; };
  std::size_t pair = 0;
  long left = held[0];
  for (long k0 = 0, n = 0; k0 < c.K && (c.chunk_limit == 0 || n < c.chunk_limit); k0 += c.kb, ++n) {
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

// AC (TN) and BC (NT), one the other's mirror. TN: M walked by owner pair (C's row p
// fastest, A's column q), each pair's rows in equal chunks of at most kb; per chunk A's
// columns (local K x chunk) go along the process row by the ring, every rank multiplies
// them with its B, and the partial C rows are summed down the process column onto row p
// by MPI_Reduce (BLACS' default combine topology, which PBLAS keeps for combines). NT:
// the same with N, B's rows down the process column and C's columns summed along the row.
void run_summed(const Case& c, int rank, Sink& sink) {
  const bool tn = c.transa == 'T';
  const int myrow = rank / c.Q, mycol = rank % c.Q;
  const int ring_n = tn ? c.Q : c.P, ring_me = tn ? mycol : myrow;  // who passes the moving operand
  const int sum_n = tn ? c.P : c.Q;                                  // who sums C
  const long kloc = tn ? local_extent(c.K, c.nb, myrow, c.P) : local_extent(c.K, c.nb, mycol, c.Q);
  const long other = tn ? local_extent(c.N, c.nb, mycol, c.Q) : local_extent(c.M, c.nb, myrow, c.P);
  const bool ring_repl = ring_n == 1, sum_repl = sum_n == 1;
  const int maxp = sum_repl ? 1 : sum_n;
  const std::vector<long> held = pair_counts(tn ? c.M : c.N, c.nb, maxp, ring_repl ? 1 : ring_n);
  const auto world = [&](int i) { return tn ? myrow * c.Q + i : i * c.Q + mycol; };
  long left_total = tn ? c.M : c.N, done = 0;
  for (std::size_t pair = 0; left_total > 0 && (c.chunk_limit == 0 || done < c.chunk_limit); ++pair) {
    long npq = held[pair];
    left_total -= npq;
    const int p = static_cast<int>(pair % maxp), q = static_cast<int>(pair / maxp);
    long chunk = npq > 0 ? npq / ((npq - 1) / c.kb + 1) : 0;
    while (npq > 0 && (c.chunk_limit == 0 || done < c.chunk_limit)) {
      ++done;
      chunk = std::min(chunk, npq);
      if (!ring_repl && kloc > 0) ring_bcast(sink, ring_n, ring_me, q, kloc * chunk * kDouble, true, c.ring_up, world);
      if (kloc > 0 && other > 0) {
        if (tn) sink.dgemm('T', 'N', chunk, other, kloc);
        else sink.dgemm('N', 'T', other, chunk, kloc);
      }
      if (!sum_repl && other > 0)
        sink.reduce(tn ? p * c.Q + mycol : myrow * c.Q + p, sum_n, chunk * other * kDouble);
      npq -= chunk;
    }
  }
}

}  // namespace

long chunk_count(const Case& c) {
  if (c.transa == 'N' && c.transb == 'N') return (c.K + c.kb - 1) / c.kb;
  // TN / NT: every pair's rows / columns in equal chunks, as run_summed walks them.
  const std::vector<long> held = c.transa == 'T' ? pair_counts(c.M, c.nb, c.P == 1 ? 1 : c.P, c.Q == 1 ? 1 : c.Q)
                                                 : pair_counts(c.N, c.nb, c.Q == 1 ? 1 : c.Q, c.P == 1 ? 1 : c.P);
  long chunks = 0;
  for (long npq : held) {
    if (npq == 0) continue;
    const long chunk = npq / ((npq - 1) / c.kb + 1);
    chunks += (npq + chunk - 1) / chunk;
  }
  return chunks;
}

void run(const Case& c, int rank, Sink& sink) {
  check(c);
  if (c.transa == 'N' && c.transb == 'N') run_ab(c, rank, sink);
  else run_summed(c, rank, sink);
}

}  // namespace hympi::pdgemm_skel
