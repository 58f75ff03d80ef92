// groups = auto's torus terms place a communicator's ranks as world ranks by block
// (lib/src/grouped/plan.cpp world_block): on MPI_COMM_WORLD and on a prefix of it in
// order the prediction is the torus one, on a reordered communicator the torus-blind
// one; the same on every rank; a rooted prediction is agreed with the G (the root leads
// its group), and the machine itself is agreed at creation. Checked through the public grouped_model_seconds with a made-up machine
// (DCMF's rule, every rank on one node of a 1 x 1 x 1 torus: the torus prices a level
// on-node, the torus-blind form off-node).
#include <mpi.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "hympi/hympi.hpp"
#include "mpi_check.hpp"

using hympi::test::check;

namespace {

double predict(MPI_Comm comm, int root = 0) {
  hympi::CollectiveOptions o;
  o.policy = hympi::Policy::pure;
  o.groups = 2;
  return hympi::grouped_model_seconds(hympi::Topology::of(comm), o, 1 << 16, root);
}

// The same value on every rank of comm.
bool agreed(MPI_Comm comm, double v) {
  double lo = 0, hi = 0;
  MPI_Allreduce(&v, &lo, 1, MPI_DOUBLE, MPI_MIN, comm);
  MPI_Allreduce(&v, &hi, 1, MPI_DOUBLE, MPI_MAX, comm);
  return lo == hi;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int p = hympi::test::world_size(), rank = hympi::test::world_rank();
  setenv("HYMPI_MODEL_BCAST", "dcmf", 1);
  setenv("HYMPI_MODEL_ALPHA", "3e-6", 1);
  setenv("HYMPI_MODEL_BETA", "1e-9", 1);
  setenv("HYMPI_MODEL_SHM_ALPHA", "1e-7", 1);
  setenv("HYMPI_MODEL_SHM_BETA", "1e-11", 1);
  setenv("HYMPI_MODEL_NODE_RANKS", std::to_string(p).c_str(), 1);
  {
    MPI_Comm reversed = MPI_COMM_NULL, prefix = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, 0, p - rank, &reversed);
    MPI_Comm_split(MPI_COMM_WORLD, rank < p - 1 ? 0 : MPI_UNDEFINED, rank, &prefix);
    unsetenv("HYMPI_MODEL_TORUS");
    const double blind_world = predict(MPI_COMM_WORLD), blind_reversed = predict(reversed);
    const double blind_prefix = prefix != MPI_COMM_NULL ? predict(prefix) : 0;
    setenv("HYMPI_MODEL_TORUS", "1x1x1", 1);
    const double world = predict(MPI_COMM_WORLD), in_reverse = predict(reversed);
    const double in_prefix = prefix != MPI_COMM_NULL ? predict(prefix) : 0;
    check(world > 0 && world < blind_world, "the world's ranks on the torus: on-node, cheaper than torus-blind (" +
                                                std::to_string(world) + " vs " + std::to_string(blind_world) + ")");
    check(in_reverse == blind_reversed, "a reordered communicator is torus-blind (" + std::to_string(in_reverse) +
                                            " vs " + std::to_string(blind_reversed) + ")");
    if (prefix != MPI_COMM_NULL && p - 1 > 2)
      check(in_prefix < blind_prefix, "a prefix of the world in order is placed on the torus");
    check(agreed(MPI_COMM_WORLD, world) && agreed(MPI_COMM_WORLD, in_reverse), "the same prediction on every rank");
    // A root that leads its group: agreed with the G on every rank (any root, both policies).
    for (int root = 0; root < p; ++root) {
      const double v = predict(MPI_COMM_WORLD, root);
      check(agreed(MPI_COMM_WORLD, v), "root " + std::to_string(root) + ": the same prediction on every rank");
    }
    // More ranks than the torus holds (1 x 1 x 1 with 1 rank per node): torus-blind.
    setenv("HYMPI_MODEL_NODE_RANKS", "1", 1);
    const double too_many = predict(MPI_COMM_WORLD);
    unsetenv("HYMPI_MODEL_TORUS");
    check(too_many == predict(MPI_COMM_WORLD), "a torus smaller than the communicator is not used");
    // groups = auto's machine is agreed at creation: HYMPI_MODEL_* that differ on one rank, or that
    // one rank cannot read, are the same error on every rank; then the library is still usable.
    const auto& topo = hympi::Topology::of(MPI_COMM_WORLD);
    hympi::CollectiveOptions automatic;
    automatic.groups = 0;
    if (rank == p - 1) setenv("HYMPI_MODEL_ALPHA", "5e-6", 1);
    hympi::test::expect_same_error("HYMPI_MODEL_* environment", [&] { hympi::Bcast::create_fixed(topo, 0, 64, 8, automatic); },
                                   "HYMPI_MODEL_ALPHA differing on the last rank");
    setenv("HYMPI_MODEL_ALPHA", "3e-6", 1);
    if (rank == 0) setenv("HYMPI_MODEL_TORUS", "8x8", 1);
    hympi::test::expect_same_error("HYMPI_MODEL_TORUS", [&] { hympi::Allreduce::create(topo, 4, MPI_DOUBLE, MPI_SUM, automatic); },
                                   "a bad HYMPI_MODEL_TORUS on rank 0");
    unsetenv("HYMPI_MODEL_TORUS");
    auto bcast = hympi::Bcast::create_fixed(topo, 0, 8, sizeof(std::int64_t), automatic);
    if (rank == 0)
      for (int i = 0; i < 8; ++i) static_cast<std::int64_t*>(bcast->slot())[i] = 1000 + i;
    bcast->run();
    const auto* got = static_cast<const std::int64_t*>(bcast->result());
    bool right = true;
    for (int i = 0; i < 8; ++i) right = right && got[i] == 1000 + i;
    check(right, "groups = auto after the errors: the root's data on every rank");
    if (prefix != MPI_COMM_NULL) MPI_Comm_free(&prefix);
    MPI_Comm_free(&reversed);
  }
  const int rc = hympi::test::finish("grouped_placement_test");
  MPI_Finalize();
  return rc;
}
