// Eigen splits the sums of its blocked products and triangular solves by the CPU's
// cache sizes, which it reads from the host at run time (CPUID): two hosts with
// different L1 caches would round differently (K x K solves above K ~ 100). The
// sampler pins them to fixed sizes before its first blocked operation, so its bits
// depend on neither the host nor the CPU target (bpmf/README.md "The same bits on
// any CPU"). This sets Eigen's process-wide blocking sizes; they affect speed only.
#pragma once

namespace bpmf {

// Every entry point of the sampler's blocked arithmetic calls it (from the thread that
// runs the sampler: Eigen keeps the sizes in plain process-wide variables).
void fix_eigen_blocking();

}  // namespace bpmf
