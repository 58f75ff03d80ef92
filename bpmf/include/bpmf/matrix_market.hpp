// Matrix Market input/output for rating matrices: "coordinate real general",
// 1-based indices; files ending in .gz are (de)compressed with zlib (plain files
// are read through zlib too, which passes them through unchanged).
#pragma once
#include <string>

#include "bpmf/ratings.hpp"
#include "hympi/error.hpp"

namespace bpmf {

// Every problem with an input file; the message names the file, the line and the
// problem. Bad input for the apps: hympi::Error(invalid_argument).
class InputError : public hympi::Error {
 public:
  explicit InputError(const std::string& what) : hympi::Error(hympi::ErrorCode::invalid_argument, what) {}
};

Ratings read_matrix_market(const std::string& path);

// Throws InputError naming the first entry of `test` that lies outside the shape of
// `train` (the sampler has no latent vector for such a row or column).
void check_test_within_train(const Ratings& train, const Ratings& test, const std::string& test_name);

void write_matrix_market(const std::string& path, const Ratings& ratings, const std::string& comment = "");

}  // namespace bpmf
