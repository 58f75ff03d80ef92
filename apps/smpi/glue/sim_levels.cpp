// Per-level algorithms for the grouped collectives (SMPI builds only): SimGrid's smpi/<coll>
// setting is one function pointer per run (colls::set_collectives at start-up), so the thesis'
// "algorithm X between the group leaders, Y inside the groups" cannot be set through it. The
// layer's MPI_Bcast/Reduce/Allreduce/Gather/Scatter (and Gatherv/Scatterv with equal blocks, the
// core's leader level) look at the communicator they are called on and, when the run names an
// algorithm for that level, call SimGrid's registered collective of that name (its table of
// algorithms, the one smpi/<coll> itself is set from); otherwise SMPI's PMPI_* (its setting).
//   HYMPI_SIM_<OP>_BETWEEN / HYMPI_SIM_<OP>_INSIDE   OP = BCAST REDUCE ALLREDUCE GATHER SCATTER
//   HYMPI_SIM_<OP>_FLAT   the same for a communicator of every world rank (else smpi/<op>): for a
//                         broadcast the layer's hympi_chain:F:SEG, which smpi/bcast cannot name
// Besides SimGrid's names, the layer's own segmented algorithms (sim_segmented.hpp), at any level:
// reduce hympi_pipeline:SEG, allreduce hympi_ring_segmented:SEG, gather hympi_linear_sync:SEG.
// Levels: a communicator of every world rank is the flat collective (SMPI's setting); a proper
// subset of consecutive world ranks is a group (the core groups consecutive ranks,
// lib/src/grouped/groups.cpp); any other subset is the leaders. HYMPI_SIM_LEVEL_LOG=1: the
// root (rank 0 for allreduce) of each call with a named algorithm prints it (tests read it).
// SimGrid's segment sizes are its algorithms' own (no setting exists in 3.32): the layer's own
// algorithms above take theirs from the name.
#include <mpi.h>
#include <smpi/smpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "sim_bcast_algorithms.hpp"
#include "sim_levels.hpp"
#include "sim_segmented.hpp"

namespace simgrid::smpi {
// SimGrid 3.32's table of registered collectives (src/smpi/include/smpi_coll.hpp, exported):
// declared here with its layout, as SimGrid's headers for it are not installed.
struct s_mpi_coll_description_t {
  std::string name;
  std::string description;
  void* coll;
};
namespace colls {
std::vector<s_mpi_coll_description_t>* get_smpi_coll_descriptions(const std::string& name);
}
}  // namespace simgrid::smpi

namespace hympi_sim {

namespace {

enum class Level { flat, between, inside };

Level level_of(MPI_Comm comm) {
  int size = 0, world = 0;
  PMPI_Comm_size(comm, &size);
  PMPI_Comm_size(MPI_COMM_WORLD, &world);
  if (size >= world) return Level::flat;
  MPI_Group mine = MPI_GROUP_NULL, all = MPI_GROUP_NULL;
  PMPI_Comm_group(comm, &mine);
  PMPI_Comm_group(MPI_COMM_WORLD, &all);
  std::vector<int> ranks(static_cast<std::size_t>(size)), in_world(ranks.size());
  for (int i = 0; i < size; ++i) ranks[static_cast<std::size_t>(i)] = i;
  PMPI_Group_translate_ranks(mine, size, ranks.data(), all, in_world.data());
  PMPI_Group_free(&mine);
  PMPI_Group_free(&all);
  for (std::size_t i = 1; i < in_world.size(); ++i)
    if (in_world[i] != in_world[i - 1] + 1) return Level::between;
  return Level::inside;
}

std::string upper_of(const char* op) {
  std::string upper(op);
  for (char& c : upper) c = static_cast<char>(c - ('a' <= c && c <= 'z' ? 'a' - 'A' : 0));
  return upper;
}

// The algorithm named for the communicator's level, or nullptr (none, or the flat level).
const char* level_name(const char* op, MPI_Comm comm, Level* level_out) {
  if (comm == MPI_COMM_NULL) return nullptr;
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter) return nullptr;
  const std::string upper = upper_of(op);
  const char* between = std::getenv(("HYMPI_SIM_" + upper + "_BETWEEN").c_str());
  const char* inside = std::getenv(("HYMPI_SIM_" + upper + "_INSIDE").c_str());
  const char* flat = std::getenv(("HYMPI_SIM_" + upper + "_FLAT").c_str());
  if ((!between || !*between) && (!inside || !*inside) && (!flat || !*flat)) return nullptr;  // the common case
  const Level level = level_of(comm);
  *level_out = level;
  const char* name = level == Level::between ? between : level == Level::inside ? inside : flat;
  return name && *name ? name : nullptr;
}

// The layer's own segmented algorithm for OP (sim_segmented.hpp), or "".
const char* own_base(const char* op) {
  if (std::strcmp(op, "reduce") == 0) return "hympi_pipeline";
  if (std::strcmp(op, "allreduce") == 0) return "hympi_ring_segmented";
  if (std::strcmp(op, "gather") == 0) return "hympi_linear_sync";
  return "";
}

// SimGrid's registered OP algorithm `name` (named for `level`); a name it lacks stops the run.
void* registered_algorithm(const char* op, const char* name, Level level) {
  const std::string upper = upper_of(op);
  auto* table = simgrid::smpi::colls::get_smpi_coll_descriptions(op);
  for (auto& desc : *table)
    if (desc.name == name) return desc.coll;
  std::string known;
  for (auto& desc : *table) known += " " + desc.name;
  std::fprintf(stderr, "hympi sim layer: error: HYMPI_SIM_%s_%s=%s is not a SimGrid %s algorithm (known:%s%s)\n",
               upper.c_str(), level == Level::between ? "BETWEEN" : level == Level::inside ? "INSIDE" : "FLAT", name, op,
               known.c_str(), *own_base(op) ? (std::string("; the layer's ") + own_base(op) + ":SEG").c_str() : "");
  std::exit(2);
}

// The algorithm named for comm's level: SimGrid's (fn) or the layer's own (segment >= 0); neither
// when the level has none. A bad name stops the run.
struct Named {
  void* fn = nullptr;
  long long segment = -1;
  std::string name;
  explicit operator bool() const { return fn || segment >= 0; }
};

Named level_algorithm(const char* op, MPI_Comm comm) {
  Named named;
  Level level = Level::flat;
  const char* name = level_name(op, comm, &level);
  if (!name) return named;
  named.name = name;
  if (!*own_base(op) || !segmented_of(name, own_base(op), &named.segment))
    named.fn = registered_algorithm(op, name, level);
  return named;
}

void log_level(const char* op, MPI_Comm comm, const std::string& name, int root, long long bytes) {
  static const bool on = [] {
    const char* v = std::getenv("HYMPI_SIM_LEVEL_LOG");
    return v && *v == '1';
  }();
  if (!on) return;
  int rank = 0, size = 0;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  if (rank == root)
    std::fprintf(stderr, "hympi sim level: %s %s %s ranks=%d bytes=%lld\n", op,
                 [&] {
                   const Level level = level_of(comm);
                   return level == Level::between ? "between" : level == Level::inside ? "inside" : "flat";
                 }(),
                 name.c_str(), size, bytes);
}

long long bytes_of(int count, MPI_Datatype type) {
  int size = 0;
  PMPI_Type_size(type, &size);
  return static_cast<long long>(size) * count;
}

// As PMPI_* around SimGrid's collective: host time inside it is not simulated computation.
template <class Call>
int benched(Call call) {
  smpi_bench_end();
  const int rc = call();
  smpi_bench_begin();
  return rc;
}

// Equal blocks back to back (the core's leader level with balanced groups): a Gather/Scatter.
bool equal_blocks(const int* counts, const int* displs, int size) {
  for (int i = 0; i < size; ++i)
    if (counts[i] != counts[0] || displs[i] != i * counts[0]) return false;
  return true;
}

using BcastFn = int (*)(void*, int, MPI_Datatype, int, MPI_Comm);
using ReduceFn = int (*)(const void*, void*, int, MPI_Datatype, MPI_Op, int, MPI_Comm);
using AllreduceFn = int (*)(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm);
using RootedFn = int (*)(const void*, int, MPI_Datatype, void*, int, MPI_Datatype, int, MPI_Comm);

// A gather by the named algorithm: SimGrid's or the layer's linear_sync.
int rooted_gather(const Named& named, const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                  MPI_Datatype rtype, int root, MPI_Comm comm) {
  if (!named.fn) return gather_linear_sync(send, scount, stype, recv, rcount, rtype, root, comm, named.segment);
  auto fn = reinterpret_cast<RootedFn>(named.fn);
  return benched([&] { return fn(send, scount, stype, recv, rcount, rtype, root, comm); });
}

}  // namespace

// "hympi_chain:F:SEG": Open MPI's chain broadcast, which SimGrid 3.32 lacks (the layer's own,
// sim_bcast_algorithms.hpp): F chains, SEG-byte segments (0: unsegmented). A bad spelling stops the run.
bool chain_of(const char* name, int* fanout, long long* segment) {
  if (std::strncmp(name, "hympi_chain", 11) != 0) return false;
  char tail = 0;
  if (std::sscanf(name, "hympi_chain:%d:%lld%c", fanout, segment, &tail) != 2 || *fanout < 1 || *segment < 0) {
    std::fprintf(stderr,
                 "hympi sim layer: error: '%s' is not hympi_chain:FANOUT:SEGMENT_BYTES (FANOUT >= 1, SEGMENT >= 0)\n",
                 name);
    std::exit(2);
  }
  return true;
}

bool level_bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, int* rc) {
  Level level = Level::flat;
  const char* name = level_name("bcast", comm, &level);  // looked up once: level_of is O(size)
  if (!name) return false;
  log_level("bcast", comm, name, root, bytes_of(count, type));
  int fanout = 0;
  long long segment = 0;
  if (chain_of(name, &fanout, &segment)) {
    *rc = bcast_chain(buf, count, type, root, comm, fanout, segment);
    return true;
  }
  auto fn = reinterpret_cast<BcastFn>(registered_algorithm("bcast", name, level));
  *rc = benched([&] { return fn(buf, count, type, root, comm); });
  return true;
}

}  // namespace hympi_sim

using namespace hympi_sim;

extern "C" int hympi_sim_reduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op, int root,
                                MPI_Comm comm) {
  const Named named = send == MPI_IN_PLACE ? Named{} : level_algorithm("reduce", comm);
  if (!named) return PMPI_Reduce(send, recv, count, type, op, root, comm);
  log_level("reduce", comm, named.name, root, bytes_of(count, type));
  if (!named.fn) return reduce_pipeline(send, recv, count, type, op, root, comm, named.segment);
  auto fn = reinterpret_cast<ReduceFn>(named.fn);
  return benched([&] { return fn(send, recv, count, type, op, root, comm); });
}

extern "C" int hympi_sim_allreduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                                   MPI_Comm comm) {
  const Named named = send == MPI_IN_PLACE ? Named{} : level_algorithm("allreduce", comm);
  if (!named) return PMPI_Allreduce(send, recv, count, type, op, comm);
  log_level("allreduce", comm, named.name, 0, bytes_of(count, type));
  if (!named.fn) return allreduce_ring_segmented(send, recv, count, type, op, comm, named.segment);
  auto fn = reinterpret_cast<AllreduceFn>(named.fn);
  return benched([&] { return fn(send, recv, count, type, op, comm); });
}

extern "C" int hympi_sim_gather(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                                MPI_Datatype rtype, int root, MPI_Comm comm) {
  const Named named = send == MPI_IN_PLACE ? Named{} : level_algorithm("gather", comm);
  if (!named) return PMPI_Gather(send, scount, stype, recv, rcount, rtype, root, comm);
  log_level("gather", comm, named.name, root, bytes_of(scount, stype));
  return rooted_gather(named, send, scount, stype, recv, rcount, rtype, root, comm);
}

extern "C" int hympi_sim_scatter(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                                 MPI_Datatype rtype, int root, MPI_Comm comm) {
  const Named named = recv == MPI_IN_PLACE ? Named{} : level_algorithm("scatter", comm);
  auto fn = reinterpret_cast<RootedFn>(named.fn);
  if (!fn) return PMPI_Scatter(send, scount, stype, recv, rcount, rtype, root, comm);
  log_level("scatter", comm, named.name, root, bytes_of(rcount, rtype));
  return benched([&] { return fn(send, scount, stype, recv, rcount, rtype, root, comm); });
}

// Gatherv/Scatterv: the root's counts decide, but every rank must take the same path: the
// equal-blocks test is agreed on with one allreduce, only when an algorithm is named.
extern "C" int hympi_sim_gatherv(const void* send, int scount, MPI_Datatype stype, void* recv, const int* rcounts,
                                 const int* displs, MPI_Datatype rtype, int root, MPI_Comm comm) {
  const Named named = send == MPI_IN_PLACE ? Named{} : level_algorithm("gather", comm);
  bool named_ok = static_cast<bool>(named);
  int size = 0, rank = 0;
  if (named_ok) {
    PMPI_Comm_size(comm, &size);
    PMPI_Comm_rank(comm, &rank);
    int ok = rank != root || equal_blocks(rcounts, displs, size), all = 0;
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
    if (!all) named_ok = false;
  }
  if (!named_ok) return PMPI_Gatherv(send, scount, stype, recv, rcounts, displs, rtype, root, comm);
  log_level("gather", comm, named.name, root, bytes_of(scount, stype));
  return rooted_gather(named, send, scount, stype, recv, scount, rtype, root, comm);
}

extern "C" int hympi_sim_scatterv(const void* send, const int* scounts, const int* displs, MPI_Datatype stype,
                                  void* recv, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm) {
  const Named named = recv == MPI_IN_PLACE ? Named{} : level_algorithm("scatter", comm);
  auto fn = reinterpret_cast<RootedFn>(named.fn);
  int size = 0, rank = 0;
  if (fn) {
    PMPI_Comm_size(comm, &size);
    PMPI_Comm_rank(comm, &rank);
    int ok = rank != root || equal_blocks(scounts, displs, size), all = 0;
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
    if (!all) fn = nullptr;
  }
  if (!fn) return PMPI_Scatterv(send, scounts, displs, stype, recv, rcount, rtype, root, comm);
  log_level("scatter", comm, named.name, root, bytes_of(rcount, rtype));
  return benched([&] { return fn(send, rcount, stype, recv, rcount, rtype, root, comm); });
}

// For a preloaded layer (an unprivatized program, sim_entry_points.cpp says why).
extern "C" {
#include "sim_level_forwarders.inc"
}
