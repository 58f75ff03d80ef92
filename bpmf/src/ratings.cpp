#include "bpmf/ratings.hpp"

namespace bpmf {

double mean_value(const Ratings& ratings) {
  if (ratings.entries.empty()) return 0.0;
  double sum = 0.0;
  for (const auto& e : ratings.entries) sum += e.value;
  return sum / static_cast<double>(ratings.entries.size());
}

}  // namespace bpmf
