// The elementary functions the sampler's random draws need, computed with IEEE-754
// operations only (+ - * / and exact scalings), in a fixed order: the same bits on
// every CPU, compiler target and C library. glibc picks its own log, exp, sin and cos
// at run time by the CPU (FMA or not: different last bits), and may change them
// between releases; a chain resumed on another node type or system would then draw
// other numbers (bpmf/README.md "The same bits on any CPU"). Accurate to a few ulp
// (tests/bpmf/portable_math_test.cpp), which is far below what a sampler can notice.
#pragma once

namespace bpmf::portable {

// Natural logarithm: of a positive x; -inf for 0, NaN for x < 0 or NaN, +inf for +inf.
double log(double x);
// e^x (0 below the smallest subnormal, +inf above the largest double).
double exp(double x);
// sin and cos of 2 pi t, t finite (a fraction of a turn: the argument reduction is exact).
// Accurate to ~2 ulp (1e-15 absolute); the sampler passes t in (0, 1).
void sincos_turns(double t, double& sin, double& cos);

}  // namespace bpmf::portable
