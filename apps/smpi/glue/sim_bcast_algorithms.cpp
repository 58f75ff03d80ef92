// The simulated MPI layer's broadcast algorithms (sim_bcast_algorithms.hpp), written after
// MPICH's descriptions (binomial tree; van de Geijn's binomial scatter followed by a ring or
// a recursive-doubling allgather) over hympi_sim's charged messages. They move bytes: a
// contiguous datatype is broadcast in place, any other one packed at the root and unpacked
// elsewhere (packing costs no simulated time).
#include "sim_bcast_algorithms.hpp"

#include <simgrid/actor.h>
#include <simgrid/host.h>
#include <smpi/smpi.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <string>
#include <vector>
#include <xbt/config.hpp>

#include "fold_blocks.hpp"
#include "sim_comm.hpp"
#include "sim_p2p.hpp"
#include "sim_settings.hpp"
#include "sim_state.hpp"

namespace hympi_sim {
namespace {

constexpr int tag_binomial = tag_base + 1, tag_scatter = tag_base + 2, tag_ring = tag_base + 3,
              tag_rdb = tag_base + 4, tag_chain = tag_base + 5;

struct Ranks {
  int rank, size, root, rel;  // rel: the rank relative to the root
  int abs(int relative) const { return (relative + root) % size; }
};

Ranks ranks_of(MPI_Comm comm, int root) {
  Ranks r{};
  MPI_Comm_rank(comm, &r.rank);
  MPI_Comm_size(comm, &r.size);
  r.root = root;
  r.rel = (r.rank - root + r.size) % r.size;
  return r;
}

// Runs alg(bytes, nbytes) on the broadcast's bytes: the buffer itself for a contiguous
// datatype, else a packed copy. Larger than INT_MAX bytes: SMPI's own broadcast.
template <class Alg>
int on_bytes(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, Alg alg) {
  int type_size = 0;
  MPI_Type_size(type, &type_size);
  const long long n = static_cast<long long>(type_size) * count;
  if (n == 0) return MPI_SUCCESS;
  if (n > INT_MAX) return PMPI_Bcast(buf, count, type, root, comm);
  MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  MPI_Type_get_extent(type, &lb, &extent);
  MPI_Type_get_true_extent(type, &true_lb, &true_extent);
  if (true_extent == type_size && (count == 1 || extent == type_size))
    return alg(static_cast<char*>(buf) + true_lb, static_cast<int>(n));
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::vector<char> packed(static_cast<std::size_t>(n));
  if (rank == root) {
    int position = 0;
    MPI_Pack(buf, count, type, packed.data(), static_cast<int>(n), &position, comm);
  }
  const int rc = alg(packed.data(), static_cast<int>(n));
  if (rc == MPI_SUCCESS && rank != root) {
    int position = 0;
    MPI_Unpack(packed.data(), static_cast<int>(n), &position, buf, count, type, comm);
  }
  return rc;
}

int binomial_bytes(char* b, int n, const Ranks& r, MPI_Comm comm) {
  int mask = 1;
  for (; mask < r.size; mask <<= 1) {
    if (r.rel & mask) {
      const int rc = recv(b, n, MPI_BYTE, r.abs(r.rel - mask), tag_binomial, comm);
      if (rc != MPI_SUCCESS) return rc;
      break;
    }
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (r.rel + mask < r.size) {
      const int rc = send(b, n, MPI_BYTE, r.abs(r.rel + mask), tag_binomial, comm);
      if (rc != MPI_SUCCESS) return rc;
    }
  }
  return MPI_SUCCESS;
}

// Piece i of a scatter: bytes [i * piece, min((i + 1) * piece, n)), possibly empty.
int piece_bytes(int i, int n, int piece) {
  return std::clamp(n - static_cast<int>(std::min<long long>(static_cast<long long>(i) * piece, n)), 0, piece);
}

// Bytes [from * piece, (from + pieces) * piece) clipped to n.
int span_bytes(int from, int pieces, int n, int piece) {
  const long long lo = std::min<long long>(static_cast<long long>(from) * piece, n);
  const long long hi = std::min<long long>(static_cast<long long>(from + pieces) * piece, n);
  return static_cast<int>(hi - lo);
}

// Binomial scatter: relative rank i ends with piece i and, on the way, forwards its subtree's pieces.
int scatter_bytes(char* b, int n, int piece, const Ranks& r, MPI_Comm comm) {
  int mask = 1;
  int have = r.rel == 0 ? n : 0;  // bytes from my piece on
  for (; mask < r.size; mask <<= 1) {
    if (r.rel & mask) {
      have = span_bytes(r.rel, mask, n, piece);
      if (have > 0) {
        const int rc = recv(b + static_cast<long long>(r.rel) * piece, have, MPI_BYTE, r.abs(r.rel - mask),
                            tag_scatter, comm);
        if (rc != MPI_SUCCESS) return rc;
      }
      break;
    }
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (r.rel + mask < r.size) {
      const int out = have - span_bytes(r.rel, mask, n, piece);
      if (out > 0) {
        const int rc = send(b + static_cast<long long>(r.rel + mask) * piece, out, MPI_BYTE, r.abs(r.rel + mask),
                            tag_scatter, comm);
        if (rc != MPI_SUCCESS) return rc;
        have -= out;
      }
    }
  }
  return MPI_SUCCESS;
}

// What one more ring step would have cost beyond its bytes, for a merged ring: the route's
// latency (fair: hops x hop latency; route: the links' latency) and the overheads the settings
// charge (all: the layer's, both sides; smpi: SMPI's callbacks, which charge a step's send
// (sendrecv's send is nonblocking) and its receive only when that send was eager).
double ring_step_charge(sg_host_t from, sg_host_t to, int piece) {
  const Settings& s = settings();
  const state::Route& route = state::route(from, to);
  const state::HostCosts& sender = state::costs_of(from);
  const state::HostCosts& receiver = state::costs_of(to);
  double t = 0;
  if (from == to) return sender.shm_send_s;  // on-node: the sender's overhead only, either way
  t += s.fair_sharing ? route.hops * receiver.hop_latency_s : route.latency_s;
  t += sender.net_send_s;
  if (s.all_overheads || piece < simgrid::config::get_value<int>("smpi/send-is-detached-thresh"))
    t += receiver.net_recv_s;
  return t;
}

// The ring allgather after the scatter: p - 1 steps, each sending the piece last received to
// the right. Merged (S > 1): S steps in one message of their S pieces plus (S - 1) step charges;
// the merged messages cannot carry the right bytes (a piece would be forwarded before it
// arrived), so they land in scratch memory and each rank copies the root's bytes from a
// snapshot the root left in the process-wide table (sim_state.hpp) at the start. A buffer
// holding no data (SMPI shared malloc: timing runs) gets shared scratch, not its own: at 16384
// ranks one scratch per rank and broadcast in flight was more host memory than the machine has.
int ring_bytes(char* b, int n, int piece, const Ranks& r, MPI_Comm comm, const std::string& key, bool no_data) {
  const int left = (r.rank - 1 + r.size) % r.size, right = (r.rank + 1) % r.size;
  const int merge = settings().ring_merge;
  int j = r.rank, jnext = left;
  if (merge <= 1) {
    for (int step = 1; step < r.size; ++step) {
      const int rel_j = (j - r.root + r.size) % r.size, rel_next = (jnext - r.root + r.size) % r.size;
      const int rc = sendrecv(b + static_cast<long long>(rel_j) * piece, piece_bytes(rel_j, n, piece), MPI_BYTE, right,
                              tag_ring, b + static_cast<long long>(rel_next) * piece, piece_bytes(rel_next, n, piece),
                              MPI_BYTE, left, tag_ring, comm);
      if (rc != MPI_SUCCESS) return rc;
      j = jnext;
      jnext = (jnext - 1 + r.size) % r.size;
    }
    return MPI_SUCCESS;
  }
  const auto scratch_bytes = static_cast<std::size_t>(std::min<long long>(n, static_cast<long long>(merge) * piece));
  std::vector<char> own(no_data ? 0 : scratch_bytes);
  char* scratch = no_data ? static_cast<char*>(hympi_smpi_fold_block_for(scratch_bytes)) : own.data();
  const sg_host_t self = sg_host_self(), from = host_of(comm, left);
  for (int step = 1; step < r.size; step += merge) {
    const int steps = std::min(merge, r.size - step);
    int out = 0, in = 0;
    for (int s = 0; s < steps; ++s) {
      out += piece_bytes((j - s - r.root + 2 * r.size) % r.size, n, piece);
      in += piece_bytes((jnext - s - r.root + 2 * r.size) % r.size, n, piece);
    }
    const int rc = sendrecv(b, out, MPI_BYTE, right, tag_ring, scratch, in, MPI_BYTE, left, tag_ring, comm);
    if (rc != MPI_SUCCESS) return rc;
    if (steps > 1) sg_actor_sleep_for((steps - 1) * ring_step_charge(from, self, piece));
    j = (j - steps + r.size) % r.size;
    jnext = (jnext - steps + r.size) % r.size;
  }
  if (r.rank != r.root) state::take_snapshot(key, b, static_cast<std::size_t>(n));
  return MPI_SUCCESS;
}

// Recursive doubling (a power-of-two size): at distance mask, exchange the pieces of my
// subtree of mask ranks for the partner's.
int rdb_bytes(char* b, int n, int piece, const Ranks& r, MPI_Comm comm) {
  for (int mask = 1, i = 0; mask < r.size; mask <<= 1, ++i) {
    const int rel_dst = r.rel ^ mask;
    const int mine = (r.rel >> i) << i, theirs = (rel_dst >> i) << i;
    const int rc = sendrecv(b + std::min<long long>(static_cast<long long>(mine) * piece, n),
                            span_bytes(mine, mask, n, piece), MPI_BYTE, r.abs(rel_dst), tag_rdb,
                            b + std::min<long long>(static_cast<long long>(theirs) * piece, n),
                            span_bytes(theirs, mask, n, piece), MPI_BYTE, r.abs(rel_dst), tag_rdb, comm);
    if (rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

bool power_of_two(int p) { return p > 0 && (p & (p - 1)) == 0; }

// Scatter + ring; the root of a merged ring leaves its snapshot before anything moves.
int scatter_ring_bytes(char* b, int n, const Ranks& r, MPI_Comm comm) {
  const int piece = static_cast<int>((static_cast<long long>(n) + r.size - 1) / r.size);
  std::string key;
  bool shared = false;  // an SMPI shared-malloc buffer: no data
  if (settings().ring_merge > 1) {
    key = next_bcast_key(comm, r.root);
    std::vector<std::pair<std::size_t, std::size_t>> private_blocks;
    std::size_t offset = 0;
    // Wholly shared only: a partly shared buffer's private blocks hold data.
    shared = smpi_is_shared(b, private_blocks, &offset) != 0 && private_blocks.empty();
    if (r.rank == r.root) state::put_snapshot(key, shared ? nullptr : b, static_cast<std::size_t>(n), r.size - 1);
  }
  const int rc = scatter_bytes(b, n, piece, r, comm);
  if (rc != MPI_SUCCESS) return rc;
  return ring_bytes(b, n, piece, r, comm, key, shared);
}

// The chain's neighbours of relative rank `rel` (-1: none): the first `long_chains` of the
// `chains` chains hold `length` + 1 ranks, the others `length`; chain k starts after the ones before it.
struct ChainPlace {
  int parent = -1, child = -1;
};

ChainPlace chain_place(int rel, int size, int fanout) {
  ChainPlace p;
  const int others = size - 1, chains = std::min(fanout, others);
  if (rel == 0 || chains < 1) return p;
  const int length = others / chains, long_chains = others % chains;
  int first = 1;
  for (int k = 0; k < chains; ++k) {
    const int len = length + (k < long_chains ? 1 : 0);
    if (rel < first + len) {
      p.parent = rel == first ? 0 : rel - 1;
      p.child = rel + 1 < first + len ? rel + 1 : -1;
      return p;
    }
    first += len;
  }
  return p;
}

int chain_bytes(char* b, int n, long long segment, int fanout, const Ranks& r, MPI_Comm comm) {
  const int seg = segment <= 0 || segment >= n ? n : static_cast<int>(segment);
  const int segments = (n + seg - 1) / seg;
  auto part = [&](int s) { return b + static_cast<long long>(s) * seg; };
  auto bytes = [&](int s) { return std::min(seg, n - s * seg); };
  if (r.rel == 0) {  // each segment to every chain head in turn
    const int others = r.size - 1, chains = std::min(fanout, others);
    for (int s = 0; s < segments; ++s) {
      int head = 1;
      for (int k = 0; k < chains; ++k) {
        const int rc = send(part(s), bytes(s), MPI_BYTE, r.abs(head), tag_chain, comm);
        if (rc != MPI_SUCCESS) return rc;
        head += others / chains + (k < others % chains ? 1 : 0);
      }
    }
    return MPI_SUCCESS;
  }
  const ChainPlace p = chain_place(r.rel, r.size, fanout);
  int rc = recv(part(0), bytes(0), MPI_BYTE, r.abs(p.parent), tag_chain, comm);
  for (int s = 0; rc == MPI_SUCCESS && s < segments; ++s) {
    const bool next = s + 1 < segments;
    if (p.child >= 0 && next)  // forward segment s while segment s + 1 comes in
      rc = sendrecv(part(s), bytes(s), MPI_BYTE, r.abs(p.child), tag_chain, part(s + 1), bytes(s + 1), MPI_BYTE,
                    r.abs(p.parent), tag_chain, comm);
    else if (p.child >= 0)
      rc = send(part(s), bytes(s), MPI_BYTE, r.abs(p.child), tag_chain, comm);
    else if (next)
      rc = recv(part(s + 1), bytes(s + 1), MPI_BYTE, r.abs(p.parent), tag_chain, comm);
  }
  return rc;
}

}  // namespace

int bcast_chain(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, int fanout, long long segment) {
  const Ranks r = ranks_of(comm, root);
  return on_bytes(buf, count, type, root, comm,
                  [&](char* b, int n) { return chain_bytes(b, n, segment, fanout, r, comm); });
}

int bcast_binomial(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  const Ranks r = ranks_of(comm, root);
  return on_bytes(buf, count, type, root, comm, [&](char* b, int n) { return binomial_bytes(b, n, r, comm); });
}

int bcast_scatter_ring(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  const Ranks r = ranks_of(comm, root);
  return on_bytes(buf, count, type, root, comm, [&](char* b, int n) { return scatter_ring_bytes(b, n, r, comm); });
}

int bcast_scatter_rdb(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  const Ranks r = ranks_of(comm, root);
  if (!power_of_two(r.size)) return bcast_scatter_ring(buf, count, type, root, comm);  // as documented
  return on_bytes(buf, count, type, root, comm, [&](char* b, int n) {
    const int piece = static_cast<int>((static_cast<long long>(n) + r.size - 1) / r.size);
    const int rc = scatter_bytes(b, n, piece, r, comm);
    return rc != MPI_SUCCESS ? rc : rdb_bytes(b, n, piece, r, comm);
  });
}

}  // namespace hympi_sim
