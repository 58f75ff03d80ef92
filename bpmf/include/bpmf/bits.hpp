// Which bits a build of the sampler promises (CMake HYMPI_BPMF_BITS): "portable" - the
// same on every CPU target and host (SSE2 packets on x86-64, no contraction, the
// portable elementary functions, fixed blocking); "target" - the same for any rank
// count, layout and policy on builds for one CPU target, other bits on another.
#pragma once

namespace bpmf {

#if defined(HYMPI_BPMF_BITS_PORTABLE)
inline constexpr const char* kBits = "portable";
#else
inline constexpr const char* kBits = "target";
#endif

}  // namespace bpmf
