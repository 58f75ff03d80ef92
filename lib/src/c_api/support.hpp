// Internal: what every file of the C face shares: exceptions become error codes
// and a per-thread message; a NULL handle is named.
#pragma once
#include <string>

#include "hympi/collectives.hpp"
#include "hympi/error.hpp"
#include "hympi/hympi.h"
#include "hympi/topology.hpp"

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

inline void require_handle(const void* p, const char* what) {
  if (p == nullptr) hympi::require(false, std::string(what) + " is NULL");
}

}  // namespace hympi::c_api
