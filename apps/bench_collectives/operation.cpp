#include "operation.hpp"

#include <cstring>

namespace hympi::bench {

void Operation::resize(std::int64_t size) {
  collective_ = &data_->bind(size);
  source_.resize(data_->contribution_bytes());
  prepare(0);
}

void Operation::write() {
  if (!source_.empty()) std::memcpy(collective_->slot(), source_.data(), source_.size());
}

}  // namespace hympi::bench
