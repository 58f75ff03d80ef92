// Internal: what every file of the C face shares: exceptions become error codes
// and a per-thread message, C policy/sync enums become CollectiveOptions, and the
// creates check their arguments together (agreed_topology).
#pragma once
#include <string>

#include "hympi.h"
#include "hympi/collectives.hpp"
#include "hympi/error.hpp"
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

// Throws on a bad policy or sync: call it inside agreed_topology()'s checks, where
// a refusal on one rank becomes the same error on every rank.
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

// Clears *out first, so that a failed create leaves it NULL on every rank.
template <class Handle>
void clear_output(Handle* out) {
  if (out != nullptr) *out = nullptr;
}

// How every create starts: the topology first (collective the first time for a
// communicator: no rank may refuse before it), then this rank's own checks
// (handles, policy, sync) agreed over the communicator. A bad argument on one
// rank is then the same error on every rank, not a return that leaves the
// others waiting in the create.
template <class Checks>
const hympi::Topology& agreed_topology(MPI_Comm comm, Checks&& local_checks) {
  const hympi::Topology& topo = hympi::Topology::of(comm);
  hympi::checked_together(topo.comm(), local_checks);
  return topo;
}

// A handle create of the legacy API: *out cleared, then the output handle, policy,
// sync and `more_checks(options)` (further arguments, option fields) agreed over
// comm, then *out = make(topology, options).
template <class Handle, class Checks, class Make>
int create_handle(MPI_Comm comm, int policy, int sync, Handle* out, Checks&& more_checks, Make&& make) {
  return guarded([&] {
    clear_output(out);
    hympi::CollectiveOptions opts;
    const hympi::Topology& topo = agreed_topology(comm, [&] {
      require_handle(out, "output handle");
      opts = options(policy, sync);
      more_checks(opts);
    });
    *out = make(topo, opts);
  });
}

// Deletes *h and sets it to NULL; NULL or an already freed handle is no error.
template <class Handle>
int free_handle(Handle* h) {
  return guarded([&] {
    if (h && *h) {
      delete *h;
      *h = nullptr;
    }
  });
}

}  // namespace hympi::c_api
