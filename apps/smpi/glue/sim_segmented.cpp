// The layer's segmented Open MPI reduce, allreduce and gather (sim_segmented.hpp), written after
// the schedules of Open MPI's tuned component as SimGrid 3.32 keeps them (src/smpi/colls/
// reduce-ompi.cpp's generic reduce on a fanout-1 chain, allreduce-ompi-ring-segmented.cpp,
// gather-ompi.cpp's linear_sync; read, not copied), with the segment size a parameter. Every
// message is the layer's (sim_p2p.hpp), so the fidelity settings charge it as the broadcasts'.
// Reductions are real (MPI_Reduce_local); with simulate-computation off they cost no time, as in
// SimGrid's versions.
#include "sim_segmented.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "sim_p2p.hpp"

namespace hympi_sim {
namespace {

constexpr int tag_pipeline = tag_base + 6, tag_segring = tag_base + 7, tag_linsync = tag_base + 8;

// Open MPI's COLL_TUNED_COMPUTED_SEGCOUNT: elements per segment (the whole count when the segment
// is not smaller than the message or smaller than one element; 0 = whole).
int segment_count(long long segment, int type_size, int count) {
  if (segment <= 0 || segment < type_size || segment >= static_cast<long long>(type_size) * count) return count;
  return static_cast<int>(segment / type_size);
}

MPI_Aint extent_of(MPI_Datatype type) {
  MPI_Aint lb = 0, extent = 0;
  MPI_Type_get_extent(type, &lb, &extent);
  return extent;
}

bool commutative(MPI_Op op) {
  int yes = 0;
  MPI_Op_commutative(op, &yes);
  return yes != 0;
}

// No gaps between or inside elements: the algorithms copy whole segments with memcpy.
bool dense(MPI_Datatype type) {
  int size = 0;
  MPI_Type_size(type, &size);
  return extent_of(type) == size;
}

// A fanout-1 chain rooted at `root` (Open MPI's pipeline, reduce-ompi.cpp): relative rank i's parent
// is i - 1, its child i + 1. The leaf sends its segments (blocking sends); every other rank posts
// the receive of its child's segment s, then waits for segment s - 1, combines it with its own and
// sends it up (blocking): two receives in flight, as Open MPI's generic reduce has them.
int pipeline_bytes(const char* send, char* recv, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
                   long long segment) {
  int rank = 0, size = 0, type_size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Type_size(type, &type_size);
  const MPI_Aint extent = extent_of(type);
  const int rel = (rank - root + size) % size;
  const int parent = rel == 0 ? -1 : (rank - 1 + size) % size, child = rel == size - 1 ? -1 : (rank + 1) % size;
  const int per = segment_count(segment, type_size, count), segments = (count + per - 1) / per;
  auto at = [&](const char* base, int s) { return base + static_cast<MPI_Aint>(s) * per * extent; };
  auto n = [&](int s) { return std::min(per, count - s * per); };
  if (child < 0) {  // the leaf: segment after segment
    for (int s = 0; s < segments; ++s) {
      const int rc = hympi_sim::send(at(send, s), n(s), type, parent, tag_pipeline, comm);
      if (rc != MPI_SUCCESS) return rc;
    }
    return MPI_SUCCESS;
  }
  const auto seg_bytes = static_cast<std::size_t>(per * extent);
  std::vector<char> in(2 * seg_bytes), out(parent < 0 ? 0 : seg_bytes);
  MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  for (int s = 0; s <= segments; ++s) {
    const int b = s % 2;
    int rc = MPI_SUCCESS;
    if (s < segments) rc = irecv(in.data() + b * seg_bytes, n(s), type, child, tag_pipeline, comm, &req[b]);
    if (rc != MPI_SUCCESS || s == 0) continue;
    rc = wait(&req[1 - b], comm);
    char* partial = parent < 0 ? recv + static_cast<MPI_Aint>(s - 1) * per * extent : out.data();  // own op child's
    std::memcpy(partial, at(send, s - 1), static_cast<std::size_t>(n(s - 1) * extent));
    if (rc == MPI_SUCCESS) rc = MPI_Reduce_local(in.data() + (1 - b) * seg_bytes, partial, n(s - 1), type, op);
    if (rc == MPI_SUCCESS && parent >= 0) rc = hympi_sim::send(partial, n(s - 1), type, parent, tag_pipeline, comm);
    if (rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

// Open MPI's block split: `blocks` blocks, the first `split` of them one element longer.
struct Blocks {
  int early = 0, late = 0, split = 0;
  Blocks(int count, int blocks) : early(count / blocks), late(count / blocks), split(count % blocks) {
    if (split) ++early;
  }
  int offset(int b) const { return b < split ? b * early : b * late + split; }
  int size(int b) const { return b < split ? early : late; }
};

// The segmented ring (allreduce-ompi-ring-segmented.cpp): `phases` rounds of the ring
// reduce-scatter, each on one segment of every block (step k: send the partial of block
// rank - k + 1, receive block rank - k and combine), then the ring allgather of whole blocks.
int ring_bytes(char* buf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, long long segment) {
  int rank = 0, size = 0, type_size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Type_size(type, &type_size);
  const MPI_Aint extent = extent_of(type);
  const int per = segment_count(segment, type_size, count);
  int phases = 1;  // fewer than size x per elements: Open MPI's plain ring, one phase
  if (count >= static_cast<long long>(size) * per) {
    phases = count / (size * per);
    const int rest = count % (size * per);
    if (rest >= size && rest > size * per / 2) ++phases;
  }
  const Blocks blocks(count, size);
  const Blocks in_first(blocks.early, phases);  // the largest segment
  std::vector<char> in(static_cast<std::size_t>(std::max(in_first.early, 1) * extent));
  const int right = (rank + 1) % size, left = (rank - 1 + size) % size;
  auto seg = [&](int b, int phase, int* n) {  // block b's segment of this phase: its start, *n elements
    const Blocks parts(blocks.size(b), phases);
    *n = parts.size(phase);
    return buf + static_cast<MPI_Aint>(blocks.offset(b) + parts.offset(phase)) * extent;
  };
  for (int phase = 0; phase < phases; ++phase) {
    for (int k = 1; k < size; ++k) {
      int n_out = 0, n_in = 0;
      char* out = seg((rank - k + 1 + size) % size, phase, &n_out);
      char* mine = seg((rank - k + size) % size, phase, &n_in);
      int rc = sendrecv(out, n_out, type, right, tag_segring, in.data(), n_in, type, left, tag_segring, comm);
      if (rc == MPI_SUCCESS) rc = MPI_Reduce_local(in.data(), mine, n_in, type, op);
      if (rc != MPI_SUCCESS) return rc;
    }
  }
  for (int k = 0; k < size - 1; ++k) {
    const int out = (rank + 1 - k + size) % size, into = (rank - k + size) % size;
    const int rc = sendrecv(buf + static_cast<MPI_Aint>(blocks.offset(out)) * extent, blocks.size(out), type, right,
                            tag_segring, buf + static_cast<MPI_Aint>(blocks.offset(into)) * extent, blocks.size(into),
                            type, left, tag_segring, comm);
    if (rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

}  // namespace

bool segmented_of(const char* name, const char* base, long long* segment) {
  const std::size_t len = std::strlen(base);
  if (std::strncmp(name, base, len) != 0 || (name[len] != ':' && name[len] != '\0')) return false;
  char tail = 0;
  if (name[len] != ':' || std::sscanf(name + len, ":%lld%c", segment, &tail) != 1 || *segment < 0) {
    std::fprintf(stderr, "hympi sim layer: error: '%s' is not %s:SEGMENT_BYTES (SEGMENT >= 0, 0 = one segment)\n",
                 name, base);
    std::exit(2);
  }
  return true;
}

int reduce_pipeline(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
                    long long segment) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  if (!commutative(op) || !dense(type) || count == 0 || size == 1 || send == MPI_IN_PLACE)
    return PMPI_Reduce(send, recv, count, type, op, root, comm);
  return pipeline_bytes(static_cast<const char*>(send), static_cast<char*>(recv), count, type, op, root, comm,
                        segment);
}

int allreduce_ring_segmented(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                             long long segment) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  if (!commutative(op) || !dense(type) || count < size || size == 1 || send == MPI_IN_PLACE)
    return PMPI_Allreduce(send, recv, count, type, op, comm);
  std::memcpy(recv, send, static_cast<std::size_t>(count * extent_of(type)));
  return ring_bytes(static_cast<char*>(recv), count, type, op, comm, segment);
}

// gather-ompi.cpp's linear_sync: each non-root rank waits for the root's 0-byte sync, sends its
// first segment, then the rest; the root posts the first segment's receive, sends the sync, posts
// the rest's receive and waits for the first segment before the next rank.
int gather_linear_sync(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount, MPI_Datatype rtype,
                       int root, MPI_Comm comm, long long segment) {
  int rank = 0, size = 0, type_size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (rank != root) {
    MPI_Type_size(stype, &type_size);
    const int first = segment_count(segment, type_size, scount);
    int rc = hympi_sim::recv(nullptr, 0, MPI_BYTE, root, tag_linsync, comm);
    if (rc == MPI_SUCCESS) rc = hympi_sim::send(send, first, stype, root, tag_linsync, comm);
    if (rc == MPI_SUCCESS)
      rc = hympi_sim::send(static_cast<const char*>(send) + first * extent_of(stype), scount - first, stype, root,
                           tag_linsync, comm);
    return rc;
  }
  MPI_Type_size(rtype, &type_size);
  const MPI_Aint extent = extent_of(rtype);
  const int first = segment_count(segment, type_size, rcount);
  char* base = static_cast<char*>(recv);
  std::vector<MPI_Request> rest;
  rest.reserve(static_cast<std::size_t>(size));
  for (int i = 0; i < size; ++i) {
    if (i == rank) continue;
    char* block = base + static_cast<MPI_Aint>(i) * rcount * extent;
    MPI_Request head = MPI_REQUEST_NULL, tail = MPI_REQUEST_NULL;
    int rc = irecv(block, first, rtype, i, tag_linsync, comm, &head);
    if (rc == MPI_SUCCESS) rc = hympi_sim::send(nullptr, 0, MPI_BYTE, i, tag_linsync, comm);
    if (rc == MPI_SUCCESS) rc = irecv(block + first * extent, rcount - first, rtype, i, tag_linsync, comm, &tail);
    if (rc == MPI_SUCCESS) rc = wait(&head, comm);
    if (rc != MPI_SUCCESS) return rc;
    rest.push_back(tail);
  }
  char* own = base + static_cast<MPI_Aint>(rank) * rcount * extent;  // the root's block: a copy, no message
  if (extent == type_size && extent_of(stype) == extent)
    std::memcpy(own, send, static_cast<std::size_t>(rcount * extent));
  else
    PMPI_Sendrecv(send, scount, stype, rank, tag_linsync, own, rcount, rtype, rank, tag_linsync, comm, MPI_STATUS_IGNORE);
  for (MPI_Request& r : rest) {
    const int rc = wait(&r, comm);
    if (rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

}  // namespace hympi_sim
