#include "overlap_variants.hpp"

#include "hympi/collectives.hpp"
#include "hympi/reduce.hpp"
#include "mpi_collective.hpp"

namespace hympi::overlap {

std::unique_ptr<PersistentCollective> make_collective(const Topology& topo, const std::string& op,
                                                      const std::string& variant, std::int64_t size,
                                                      const OverlapOptions& o) {
  const bool reduce = op == "allreduce";
  if (variant == "mpi")
    return std::make_unique<MpiNonblocking>(
        topo, reduce ? MpiNonblocking::Kind::allreduce_sum : MpiNonblocking::Kind::allgather, size);
  CollectiveOptions options{variant == "pure" ? Policy::pure : Policy::hybrid, SyncKind::flags, false, o.leaders};
  options.progress_thread = o.progress_thread && variant == "hybrid";
  if (reduce) return Allreduce::create(topo, size, MPI_DOUBLE, MPI_SUM, options);
  return Allgatherv::create_allgather(topo, size, sizeof(double), options);
}

}  // namespace hympi::overlap
