// Which bits a build of the sampler promises (CMake HYMPI_BPMF_BITS): "portable" - the
// same on every CPU target and host (SSE2 packets on x86-64, no contraction, the
// portable elementary functions, fixed blocking); "target" - the same for any rank
// count, layout and policy on builds for one CPU target, other bits on another.
#pragma once

// What would break the promise without a word: a compiler wrapper or flag that turns
// AVX/FMA back on after the build's -mno-avx (an explicit -mavx2 or -mfma wins over
// it), or fast-math's reassociation.
#if defined(HYMPI_BPMF_BITS_PORTABLE) && defined(__x86_64__) && \
    (defined(__AVX__) || defined(__FMA__) || defined(__FAST_MATH__))
#error "HYMPI_BPMF_BITS=portable: this translation unit is compiled with AVX, FMA or -ffast-math (a flag after -mno-avx?); remove it or configure HYMPI_BPMF_BITS=target"
#endif

namespace bpmf {

#if defined(HYMPI_BPMF_BITS_PORTABLE)
inline constexpr const char* kBits = "portable";
#else
inline constexpr const char* kBits = "target";
#endif

}  // namespace bpmf
