#include "operation.hpp"

#include <cstring>

#ifdef HYMPI_SMPI_COSTS
extern "C" void hympi_smpi_charge_copy(std::size_t bytes);  // the SimGrid build's glue
#endif

namespace hympi::bench {

void Operation::resize(std::int64_t size) {
  collective_ = &data_->bind(size);
  source_.resize(data_->contribution_bytes());
  prepare(0);
}

void Operation::write() {
  if (source_.empty()) return;
  std::memcpy(collective_->slot(), source_.data(), source_.size());
#ifdef HYMPI_SMPI_COSTS  // the simulator charges the copy, for every variant (apps/smpi/glue/onnode_cost.cpp)
  hympi_smpi_charge_copy(source_.size());
#endif
}

}  // namespace hympi::bench
