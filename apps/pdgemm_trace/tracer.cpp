// libhympi_pdgemm_tracer.so: LD_PRELOAD it into any program that calls ScaLAPACK's
// pdgemm_ (a real MPI; built for Open MPI or MPICH). Between entry and exit of every
// pdgemm_ call it records, per rank and in program order, each point-to-point message
// (peer as an MPI_COMM_WORLD rank, bytes actually moved, blocking or not; tags are
// ignored), each collective (which one, communicator size, root, bytes) and each
// dgemm_ (transa, transb, m, n, k). Outside pdgemm_ it only counts communicator
// creations (BLACS builds its grid there). At MPI_Finalize rank 0 gathers every rank's
// lines and writes one trace (format: trace_format.md) to $HYMPI_PDGEMM_TRACE.
//
// Why PMPI and dgemm_ interposition: PBLAS calls BLACS, which calls MPI from inside
// libscalapack, and the local products go through the Fortran dgemm_ symbol; a preload
// sees both without touching the library.
#include <dlfcn.h>
#include <mpi.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

int g_depth = 0;                 // > 0 inside pdgemm_
std::string g_lines;             // this rank's recorded lines
int g_calls = 0;                 // pdgemm_ calls seen
long g_splits = 0, g_creates = 0, g_dups = 0;  // communicator creations outside pdgemm_

bool inside() { return g_depth > 0; }

void add(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
void add(const char* fmt, ...) {
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  g_lines += buf;
  g_lines += '\n';
}

// A communicator rank as a world rank (MPI_PROC_NULL and wildcards kept as negatives).
int world_rank(MPI_Comm comm, int rank) {
  if (rank < 0) return rank;
  MPI_Group group, world;
  PMPI_Comm_group(comm, &group);
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  int out = -1;
  PMPI_Group_translate_ranks(group, 1, &rank, world, &out);
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
  return out;
}

long bytes_of(int count, MPI_Datatype type) {
  int size = 0;
  PMPI_Type_size(type, &size);
  return static_cast<long>(count) * size;
}

long received_bytes(const MPI_Status* status) {
  int n = 0;
  PMPI_Get_count(status, MPI_BYTE, &n);
  return n;
}

int comm_size(MPI_Comm comm) {
  int n = 0;
  PMPI_Comm_size(comm, &n);
  return n;
}

void send_line(const char* kind, int dest, int count, MPI_Datatype type, MPI_Comm comm) {
  if (inside() && dest != MPI_PROC_NULL) add("send %d %ld %s", world_rank(comm, dest), bytes_of(count, type), kind);
}

void coll_line(const char* name, MPI_Comm comm, int root, long bytes) {
  if (inside()) add("coll %s size %d root %d bytes %ld", name, comm_size(comm), world_rank(comm, root), bytes);
}

using DgemmFn = void (*)(const char*, const char*, const int*, const int*, const int*, const double*, const double*,
                         const int*, const double*, const int*, const double*, double*, const int*, std::size_t,
                         std::size_t);
using PdgemmFn = void (*)(const char*, const char*, const int*, const int*, const int*, const double*, const double*,
                          const int*, const int*, const int*, const double*, const int*, const int*, const int*,
                          const double*, double*, const int*, const int*, const int*, std::size_t, std::size_t);

template <class Fn>
Fn next_symbol(const char* name) {
  void* sym = dlsym(RTLD_NEXT, name);
  if (!sym) {
    std::fprintf(stderr, "hympi pdgemm tracer: error: %s not found after the tracer (%s)\n", name, dlerror());
    std::abort();
  }
  return reinterpret_cast<Fn>(sym);
}

}  // namespace

extern "C" {

void dgemm_(const char* ta, const char* tb, const int* m, const int* n, const int* k, const double* alpha,
            const double* a, const int* lda, const double* b, const int* ldb, const double* beta, double* c,
            const int* ldc, std::size_t lta, std::size_t ltb) {
  static const DgemmFn real = next_symbol<DgemmFn>("dgemm_");
  if (inside()) add("dgemm %c %c %d %d %d", ta[0], tb[0], *m, *n, *k);
  real(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, lta, ltb);
}

void pdgemm_(const char* ta, const char* tb, const int* m, const int* n, const int* k, const double* alpha,
             const double* a, const int* ia, const int* ja, const int* desca, const double* b, const int* ib,
             const int* jb, const int* descb, const double* beta, double* c, const int* ic, const int* jc,
             const int* descc, std::size_t lta, std::size_t ltb) {
  static const PdgemmFn real = next_symbol<PdgemmFn>("pdgemm_");
  ++g_calls;
  add("pdgemm %c %c %d %d %d", ta[0], tb[0], *m, *n, *k);
  ++g_depth;
  real(ta, tb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, beta, c, ic, jc, descc, lta, ltb);
  --g_depth;
  add("end");
}

// Point-to-point. A receive is recorded when it completes (its source and size known).
int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  send_line("blocking", dest, count, type, comm);
  return PMPI_Send(buf, count, type, dest, tag, comm);
}
int MPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  send_line("blocking", dest, count, type, comm);
  return PMPI_Ssend(buf, count, type, dest, tag, comm);
}
int MPI_Rsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  send_line("blocking", dest, count, type, comm);
  return PMPI_Rsend(buf, count, type, dest, tag, comm);
}
int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) {
  send_line("nonblocking", dest, count, type, comm);
  return PMPI_Isend(buf, count, type, dest, tag, comm, req);
}
int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status) {
  MPI_Status local;
  MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
  const int rc = PMPI_Recv(buf, count, type, source, tag, comm, st);
  if (inside() && source != MPI_PROC_NULL)
    add("recv %d %ld blocking", world_rank(comm, st->MPI_SOURCE), received_bytes(st));
  return rc;
}
// Nonblocking receives: BLACS posts them only in topologies PBLAS does not pick for
// pdgemm; recorded at posting with the posted source and capacity, marked as such.
int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* req) {
  if (inside() && source != MPI_PROC_NULL)
    add("recv %d %ld nonblocking-posted", world_rank(comm, source), bytes_of(count, type));
  return PMPI_Irecv(buf, count, type, source, tag, comm, req);
}
int MPI_Sendrecv(const void* sbuf, int scount, MPI_Datatype stype, int dest, int stag, void* rbuf, int rcount,
                 MPI_Datatype rtype, int source, int rtag, MPI_Comm comm, MPI_Status* status) {
  MPI_Status local;
  MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
  send_line("sendrecv", dest, scount, stype, comm);
  const int rc = PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, st);
  if (inside() && source != MPI_PROC_NULL)
    add("recv %d %ld sendrecv", world_rank(comm, st->MPI_SOURCE), received_bytes(st));
  return rc;
}

// Every collective libscalapack imports (nm -D): recorded, so a trace shows whether pdgemm used one.
int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  coll_line("bcast", comm, root, bytes_of(count, type));
  return PMPI_Bcast(buf, count, type, root, comm);
}
int MPI_Reduce(const void* s, void* r, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm) {
  coll_line("reduce", comm, root, bytes_of(count, type));
  return PMPI_Reduce(s, r, count, type, op, root, comm);
}
int MPI_Allreduce(const void* s, void* r, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  coll_line("allreduce", comm, -1, bytes_of(count, type));
  return PMPI_Allreduce(s, r, count, type, op, comm);
}
int MPI_Barrier(MPI_Comm comm) {
  coll_line("barrier", comm, -1, 0);
  return PMPI_Barrier(comm);
}
int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* out) {
  if (inside()) coll_line("comm_split", comm, -1, 0);
  else ++g_splits;
  return PMPI_Comm_split(comm, color, key, out);
}
int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* out) {
  if (inside()) coll_line("comm_create", comm, -1, 0);
  else ++g_creates;
  return PMPI_Comm_create(comm, group, out);
}
int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* out) {
  if (inside()) coll_line("comm_dup", comm, -1, 0);
  else ++g_dups;
  return PMPI_Comm_dup(comm, out);
}

// Rank 0 writes every rank's lines, rank by rank: "r<rank> <event>", then comments.
int MPI_Finalize(void) {
  int rank = 0, size = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  int len = static_cast<int>(g_lines.size());
  std::vector<int> lens(size), offs(size);
  PMPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  for (int i = 0; i < size; ++i) offs[i] = total, total += lens[i];
  std::vector<char> all(static_cast<std::size_t>(total) + 1);
  PMPI_Gatherv(g_lines.data(), len, MPI_CHAR, all.data(), lens.data(), offs.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
  long setup[4] = {g_splits, g_creates, g_dups, g_calls}, setup_max[4] = {0, 0, 0, 0};
  PMPI_Reduce(setup, setup_max, 4, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
  const char* path = std::getenv("HYMPI_PDGEMM_TRACE");
  if (rank == 0 && path && *path) {
    FILE* f = std::fopen(path, "w");
    if (!f) {
      std::fprintf(stderr, "hympi pdgemm tracer: error: cannot write %s: %s\n", path, std::strerror(errno));
    } else {
      for (int r = 0; r < size; ++r) {
        const char* p = all.data() + offs[r];
        const char* end = p + lens[r];
        while (p < end) {
          const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
          std::fprintf(f, "r%d %.*s\n", r, static_cast<int>(nl - p), p);
          p = nl + 1;
        }
      }
      std::fprintf(f, "# outside pdgemm_ (max over ranks): comm_split %ld comm_create %ld comm_dup %ld; pdgemm_ calls %ld\n",
                   setup_max[0], setup_max[1], setup_max[2], setup_max[3]);
      std::fclose(f);
    }
  }
  return PMPI_Finalize();
}

}  // extern "C"
