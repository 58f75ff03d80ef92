// The synthetic data set the predictive and calibration tests share: 500 x 400, true
// rank 3, density 0.2, offset 2, generator seed 5, Gaussian noise of std `noise`.
#pragma once
#include "bpmf/synthetic.hpp"

namespace bpmf::test {

inline SyntheticData shared_synthetic(double noise) {
  SyntheticSpec spec;
  spec.rows = 500;
  spec.cols = 400;
  spec.rank = 3;
  spec.density = 0.2;
  spec.noise = noise;
  spec.offset = 2.0;
  spec.seed = 5;
  return generate_synthetic(spec);
}

}  // namespace bpmf::test
