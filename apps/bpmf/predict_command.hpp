// `hympi-bpmf predict --model DIR --pairs FILE`: the mean and predictive standard
// deviation of each pair over the samples saved in DIR (saved_samples.hpp), the
// pairs split over the ranks, the samples streamed one at a time. With every sample
// saved (--save-samples-every 1) it reproduces the run's own test predictions bit
// for bit, on any rank count.
#pragma once
#include "bpmf_options.hpp"

namespace bpmf::app {

int run_predict(const Options& o);

}  // namespace bpmf::app
