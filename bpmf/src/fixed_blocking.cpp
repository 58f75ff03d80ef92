#include "bpmf/fixed_blocking.hpp"

#include <Eigen/Core>

#include "bpmf/bits.hpp"

#if defined(HYMPI_BPMF_BITS_PORTABLE) && defined(__x86_64__)
// Eigen's packet of doubles sets the order of its sums: SSE2's two on every x86-64.
static_assert(Eigen::internal::packet_traits<double>::size == 2, "portable bits need Eigen's SSE2 packets");
#endif

namespace bpmf {

void fix_eigen_blocking() {
  // A common x86-64 server core (32 KiB L1d, 1 MiB L2, 32 MiB L3); only speed depends on
  // them. Set on every call (three stores), so a caller's own setCpuCacheSizes between
  // two iterations cannot change the sampler's bits.
  Eigen::setCpuCacheSizes(32 * 1024, 1024 * 1024, 32 * 1024 * 1024);
}

}  // namespace bpmf
