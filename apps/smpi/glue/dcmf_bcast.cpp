// hympi_sim::bcast_dcmf: BG/P's MPI_Bcast (mpich2 dcmfd MPIDO_Bcast) on the simulated
// bgp platform. The communicator's shape (dcmf_shape.hpp) is computed at its first
// broadcast and kept as an MPI attribute; the source's choice for the message size then
// runs either the rectangle broadcast (dcmf_rect.cpp) or a binomial tree (the layer's
// bcast_binomial: the source's torus binomial protocols, and MPICH's own rule on <= 3 ranks,
// where it is binomial too). The collective network (tree) is not in the platform: the
// source's next choice is taken. apps/smpi/README.md, "BG/P's broadcast (DCMF)".
#include <mpi.h>

#include <cstdlib>
#include <vector>

#include "dcmf_rect.hpp"
#include "sim_bcast_algorithms.hpp"
#include "sim_comm.hpp"

namespace hympi_sim {
namespace {

int info_delete(MPI_Comm, int, void* value, void*) {
  auto* info = static_cast<dcmf::CommInfo*>(value);
  PMPI_Group_free(&info->group);
  PMPI_Group_free(&info->world_group);
  delete info;
  return MPI_SUCCESS;
}

dcmf::CommInfo& info_of(MPI_Comm comm) {
  const int keyval = rank_keyval(info_delete);
  void* value = nullptr;
  int found = 0;
  PMPI_Comm_get_attr(comm, keyval, &value, &found);
  if (found) return *static_cast<dcmf::CommInfo*>(value);
  auto* info = new dcmf::CommInfo;
  dcmf::describe(comm, *info);
  PMPI_Comm_set_attr(comm, keyval, info);
  return *info;
}

}  // namespace

int bcast_dcmf(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  int size = 0;
  PMPI_Comm_size(comm, &size);
  const long long bytes = message_bytes(count, type);
  if (size == 1 || bytes == 0) return MPI_SUCCESS;  // MPIDO_Bcast: count 0 returns at once
  dcmf::CommInfo& info = info_of(comm);
  const dcmf::Algorithm a = dcmf::select(info.shape, bytes, size);
  if (!dcmf::is_rectangle(a)) return bcast_binomial(buf, count, type, root, comm);
  MPI_Aint lb = 0, extent = 0;
  PMPI_Type_get_true_extent(type, &lb, &extent);
  if (lb == 0 && extent * count == bytes) {  // contiguous (one element's true extent is its size): the bytes themselves
    dcmf::bcast_rectangle(static_cast<char*>(buf), bytes, root, info, a == dcmf::Algorithm::rect_async);
    return MPI_SUCCESS;
  }
  // MPIDO_Bcast packs a non-contiguous type on the root and unpacks it elsewhere.
  std::vector<char> packed(static_cast<std::size_t>(bytes));
  int pos = 0;
  if (info.rank == root) PMPI_Pack(buf, count, type, packed.data(), static_cast<int>(bytes), &pos, comm);
  dcmf::bcast_rectangle(packed.data(), bytes, root, info, a == dcmf::Algorithm::rect_async);
  pos = 0;
  if (info.rank != root) PMPI_Unpack(packed.data(), static_cast<int>(bytes), &pos, buf, count, type, comm);
  return MPI_SUCCESS;
}

}  // namespace hympi_sim
