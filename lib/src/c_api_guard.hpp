// Internal to the C faces (c_api.cpp, c_api_persistent.cpp): exceptions become
// error codes plus a per-thread message that hympi_last_error() returns.
#pragma once
#include <new>
#include <string>

#include "hympi.h"
#include "hympi/error.hpp"

namespace hympi::capi {

// This thread's last error message ("" after a success): one per thread, shared
// by every C entry point of the library.
inline std::string& last_error() {
  thread_local std::string message;
  return message;
}

template <class F>
int guarded(F&& body) {
  try {
    body();
    last_error().clear();
    return HYMPI_SUCCESS;
  } catch (const hympi::Error& e) {
    last_error() = e.what();
    return static_cast<int>(e.code());
  } catch (const std::bad_alloc&) {
    last_error() = "hympi: out of memory";
    return HYMPI_ERR_NOMEM;
  } catch (const std::exception& e) {
    last_error() = e.what();
    return HYMPI_ERR_INTERNAL;
  }
}

inline void require_handle(const void* p, const char* what) {
  if (p == nullptr) hympi::require(false, std::string(what) + " is NULL");
}

}  // namespace hympi::capi
