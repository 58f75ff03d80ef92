// ScaLAPACK's PDGEMM schedule (PBLAS 2.x, reference BLACS) as a skeleton: for one
// rank of a P x Q row-major BLACS grid, the messages and local DGEMMs the real
// pdgemm_ performs, in its order, without ScaLAPACK. Written here from the traces
// (apps/pdgemm_trace/README.md) and a reading of the reference PBLAS/BLACS for the
// rules behind them (algorithm choice, chunking); none of their code is copied.
//
// What the real routine does for the cases modelled (every operand block-cyclic
// with one square block nb, sources 0, whole matrices, M, N, K > max(nb, kb); NN
// when it picks its AB algorithm, TN when it picks AC, NT when it picks BC (both
// what it picks for square problems); check() refuses the rest):
//  - NN: its "AB" algorithm (panels of A and B move, C stays), picked from a volume
//    estimate (choose() in the .cpp);
//  - it walks K in chunks of kb = 32 (pilaenv), but grouped by owner: all of K held by
//    B's process row p and A's process column q (p fastest), then the next pair; a
//    chunk that crosses from one owner pair to the next is two broadcasts;
//  - each piece's A panel (local rows x piece) goes along the process row and its B panel
//    (piece x local columns) down the process column by BLACS' increasing ring: the
//    root sends to the next rank of the scope, everyone else receives from the previous
//    one and forwards unless the next is the root; whole messages, no pipelining;
//  - every message is a blocking MPI_Send / MPI_Recv (Debian's BLACS sends strided
//    pieces as MPI datatypes, no packing);
//  - one DGEMM(N, N, local M, local N, chunk) per chunk where the rank holds C;
//  - TN (its "AC" algorithm) and NT ("BC"), mirrors: see run_summed in the .cpp.
#ifndef HYMPI_PDGEMM_SCHEDULE_HPP
#define HYMPI_PDGEMM_SCHEDULE_HPP

#include <stdexcept>
#include <string>

namespace hympi::pdgemm_skel {

struct Case {
  int P = 1, Q = 1;          // BLACS grid, row-major: world rank = row * Q + column
  long M = 0, N = 0, K = 0;  // C is M x N, op(A) M x K, op(B) K x N
  int nb = 64;               // distribution block of A, B and C (square)
  char transa = 'N', transb = 'N';
  int kb = 32;               // PBLAS' K chunk (pilaenv); a knob for mutation tests only
  bool ring_up = true;       // increasing ring; false = decreasing (mutation tests only)
  long chunk_limit = 0;      // > 0: stop after this many chunks (step-limited scale runs)
};

// How many chunks (NN: of K; TN: of M) the whole call has: the scale of a step-limited run.
long chunk_count(const Case& c);

// Where a case lies outside what the skeleton reproduces (another PBLAS algorithm,
// MPI_Bcast topology for small problems, a transpose path not modelled).
struct NotModeled : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What a rank does, in order. Peers are world ranks; bytes are the bytes moved.
class Sink {
 public:
  virtual ~Sink() = default;
  virtual void send(int peer, long bytes, bool blocking) = 0;
  virtual void recv(int peer, long bytes) = 0;
  virtual void dgemm(char transa, char transb, long m, long n, long k) = 0;
  // MPI_Reduce (sum) onto world rank `root` over a communicator of `size` ranks.
  virtual void reduce(int root, int size, long bytes) = 0;
};

// Throws NotModeled when the case is out of scope, std::invalid_argument when it is invalid.
void check(const Case& c);
// The schedule of world rank `rank` (0 <= rank < P * Q), fed to `sink`.
void run(const Case& c, int rank, Sink& sink);

}  // namespace hympi::pdgemm_skel

#endif
