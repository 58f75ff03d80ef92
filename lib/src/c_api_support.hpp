// Internal: what every file of the C face shares: exceptions become error codes
// and a per-thread message, and C policy/sync enums become CollectiveOptions.
#pragma once
#include <string>

#include "hympi.h"
#include "hympi/collectives.hpp"
#include "hympi/error.hpp"

namespace hympi::c_api {

inline thread_local std::string last_error;

template <class F>
int guarded(F&& body) {
  try {
    body();
    last_error.clear();
    return HYMPI_SUCCESS;
  } catch (const hympi::Error& e) {
    last_error = e.what();
    return static_cast<int>(e.code());
  } catch (const std::bad_alloc&) {
    last_error = "hympi: out of memory";
    return HYMPI_ERR_NOMEM;
  } catch (const std::exception& e) {
    last_error = e.what();
    return HYMPI_ERR_INTERNAL;
  }
}

inline hympi::CollectiveOptions options(int policy, int sync) {
  hympi::require(policy == HYMPI_POLICY_PURE || policy == HYMPI_POLICY_HYBRID,
                 "policy must be HYMPI_POLICY_PURE or HYMPI_POLICY_HYBRID, got " + std::to_string(policy));
  hympi::require(sync == HYMPI_SYNC_BARRIER || sync == HYMPI_SYNC_FLAGS,
                 "sync must be HYMPI_SYNC_BARRIER or HYMPI_SYNC_FLAGS, got " + std::to_string(sync));
  hympi::CollectiveOptions o;
  o.policy = policy == HYMPI_POLICY_PURE ? hympi::Policy::pure : hympi::Policy::hybrid;
  o.sync = sync == HYMPI_SYNC_BARRIER ? hympi::SyncKind::barrier : hympi::SyncKind::flags;
  return o;
}

inline void require_handle(const void* p, const char* what) {
  if (p == nullptr) hympi::require(false, std::string(what) + " is NULL");
}

}  // namespace hympi::c_api
