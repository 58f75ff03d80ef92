// The persistent C API (hympi.h, "Persistent collectives"): MPI-4 style inits
// returning a request over the core's one request model (PersistentCollective);
// start/test/wait forward to it, so overlap comes with whatever the core implements.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "agreement.hpp"
#include "bridges.hpp"
#include "creates.hpp"
#include "c_api/info.hpp"
#include "c_api/support.hpp"
#include "datatype.hpp"
#include "hympi/hympi.h"
#include "hympi/collectives.hpp"
#include "hympi/error.hpp"
#include "hympi/reduce.hpp"
#include "hympi/topology.hpp"
#include "options.hpp"
#include "requests.hpp"
#include "rooted.hpp"

namespace hympi::c_api {

namespace {

using detail::Agreement;
using detail::analyse_datatype;
using detail::ElementType;
using detail::Padding;

// What every init starts with: the topology (collective the first time for a
// communicator: no rank may refuse before it), then an agreement holding this
// call's own checks (the datatype, the info, `local_checks`) and the element's
// sizes, which the core's create continues and runs: one round per init.
struct Checked {
  const Topology* topo = nullptr;
  CollectiveOptions options;
  ElementType element;
  Agreement agreement;
  const void* request;  // the caller's output pointer: a NULL one is refused in the agreement
  Checked(const char* call, const void* request_out)
      : agreement(std::string(call) + ": ", /*info_names=*/true), request(request_out) {}
};

// padding: allowed for the reductions (MPI reads their elements, as MPI_DOUBLE_INT).
template <class LocalChecks>
void check_init(Checked& c, MPI_Comm comm, MPI_Datatype type, MPI_Info info, const char* call,
                LocalChecks&& local_checks, Padding padding = Padding::refused) {
  c.topo = &Topology::of(comm);
  c.agreement.check([&] {
    require(c.request != nullptr, std::string(call) + ": request is NULL");
    c.element = analyse_datatype(type, call, padding);
    c.options = options_from_info(info, call);
    local_checks(*c.topo);
  });
  c.agreement.same("datatype size", static_cast<std::int64_t>(c.element.size));
  c.agreement.same("datatype extent", static_cast<std::int64_t>(c.element.extent));
}

void require_count(std::int64_t count, const char* call) {
  require(count >= 0, std::string(call) + ": count must be >= 0, got " + std::to_string(count));
}

}  // namespace
}  // namespace hympi::c_api

struct hympi_request_s {
  std::unique_ptr<hympi::PersistentCollective> op;
  std::size_t elem_size = 0;
  std::int64_t slot_count = 0, result_count = 0;
  bool active = false;
  int groups = 1;  // the effective G (hympi::effective_groups)
};

namespace {

using hympi::c_api::guarded;
using hympi::c_api::require_handle;

// bytes: what one call moves, for the effective number of groups (root: bcast's and reduce's).
void publish(hympi_request_t* out, std::unique_ptr<hympi::PersistentCollective> op, std::size_t elem_size,
             std::int64_t slot_count, std::int64_t result_count, const hympi::c_api::Checked& c, std::int64_t bytes,
             int root = 0) {
  *out = new hympi_request_s{std::move(op), elem_size, slot_count, result_count, false,
                             hympi::effective_groups(*c.topo, c.options, bytes, root)};
}

// Every init: errors to codes, *request NULL until success. A NULL request pointer is
// refused inside the init's agreement (check_init), so on every rank, not by this rank alone.
template <class Body>
int init(const char* call, hympi_request_t* request, Body&& body) {
  return guarded([&] {
    if (request) *request = nullptr;
    body(call);
  });
}

// ncounts: how many counts the caller holds (-1: one per rank, unchecked, as in C).
int allgatherv_init(const int64_t* counts, std::int64_t ncounts, MPI_Datatype type, MPI_Comm comm, MPI_Info info,
                    hympi_request_t* request) {
  return init("hympi_allgatherv_init", request, [&](const char* call) {
    hympi::c_api::Checked c(call, request);
    std::vector<std::int64_t> v;
    hympi::c_api::check_init(c, comm, type, info, call, [&](const hympi::Topology& topo) {
      require_handle(counts, "hympi_allgatherv_init: counts");
      hympi::require(ncounts < 0 || ncounts == topo.size(), std::string(call) + ": counts has " +
                                                                std::to_string(ncounts) + " entries for a communicator of " +
                                                                std::to_string(topo.size()) + " ranks");
      v.assign(counts, counts + topo.size());
    });
    const std::int64_t mine = v.empty() ? 0 : v[static_cast<std::size_t>(c.topo->rank())];
    std::int64_t total = 0;
    for (auto n : v) total += n;
    auto impl = hympi::detail::create_allgatherv(*c.topo, std::move(v), c.element.size, c.options, c.agreement);
    publish(request, std::move(impl), c.element.size, mine, total, c,
            total * static_cast<std::int64_t>(c.element.size));
  });
}

// Every rooted collective's init (rooted.hpp: one row of HYMPI_ROOTED_COLLECTIVES).
int rooted_init(hympi::detail::RootedKind kind, const char* call, int64_t count, MPI_Datatype type, int root,
                MPI_Comm comm, MPI_Info info, hympi_request_t* request) {
  return init(call, request, [&](const char* name) {
    hympi::c_api::Checked c(name, request);
    hympi::c_api::check_init(c, comm, type, info, name, [&](const hympi::Topology& topo) {
      hympi::c_api::require_count(count, name);
      hympi::require(root >= 0 && root < topo.size(), std::string(name) + ": root " + std::to_string(root) +
                                                          " is not a rank of the communicator (size " +
                                                          std::to_string(topo.size()) + ")");
    });
    c.agreement.same("count", count);
    c.agreement.same("root", root);
    const bool is_root = c.topo->rank() == root;
    const int size = c.topo->size();
    auto impl = hympi::detail::create_rooted(kind, *c.topo, root, count, c.element.size, c.options, c.agreement);
    publish(request, std::move(impl), c.element.size, hympi::detail::rooted_slot_count(kind, is_root, size, count),
            hympi::detail::rooted_result_count(kind, is_root, size, count), c,
            count * size * static_cast<std::int64_t>(c.element.size), root);
  });
}

}  // namespace

extern "C" {

// hympi_<name>_init and its Fortran bridge hympi_<name>_init_f, per row.
#define HYMPI_ROOTED_C_INIT(name, Class, Kind, shape) \
  int hympi_##name##_init(int64_t count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Info info,            \
                          hympi_request_t* request) {                                                           \
    return rooted_init(hympi::detail::RootedKind::Kind, "hympi_" #name "_init", count, type, root, comm, info,  \
                       request);                                                                                \
  }                                                                                                             \
  int hympi_##name##_init_f(int64_t count, MPI_Fint type, int root, MPI_Fint comm, MPI_Fint info,              \
                            hympi_request_t* request) {                                                         \
    return hympi_##name##_init(count, MPI_Type_f2c(type), root, MPI_Comm_f2c(comm), MPI_Info_f2c(info),         \
                               request);                                                                        \
  }
HYMPI_ROOTED_COLLECTIVES(HYMPI_ROOTED_C_INIT)
#undef HYMPI_ROOTED_C_INIT

int hympi_allgather_init(int64_t count, MPI_Datatype type, MPI_Comm comm, MPI_Info info, hympi_request_t* request) {
  return init("hympi_allgather_init", request, [&](const char* call) {
    hympi::c_api::Checked c(call, request);
    hympi::c_api::check_init(c, comm, type, info, call,
                             [&](const hympi::Topology&) { hympi::c_api::require_count(count, call); });
    c.agreement.same("count", count);
    auto impl = hympi::detail::create_allgatherv(*c.topo, std::vector<std::int64_t>(c.topo->size(), count),
                                                 c.element.size, c.options, c.agreement);
    publish(request, std::move(impl), c.element.size, count, count * c.topo->size(), c,
            count * c.topo->size() * static_cast<std::int64_t>(c.element.size));
  });
}

int hympi_allgatherv_init(const int64_t* counts, MPI_Datatype type, MPI_Comm comm, MPI_Info info,
                          hympi_request_t* request) {
  return allgatherv_init(counts, -1, type, comm, info, request);
}

int hympi_bcast_init(int64_t count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Info info,
                     hympi_request_t* request) {
  return init("hympi_bcast_init", request, [&](const char* call) {
    hympi::c_api::Checked c(call, request);
    hympi::c_api::check_init(c, comm, type, info, call, [&](const hympi::Topology& topo) {
      hympi::c_api::require_count(count, call);
      hympi::require(root >= 0 && root < topo.size(), std::string(call) + ": root " + std::to_string(root) +
                                                          " is not a rank of the communicator (size " +
                                                          std::to_string(topo.size()) + ")");
    });
    c.agreement.same("count", count);
    c.agreement.same("root", root);
    const bool is_root = c.topo->rank() == root;
    auto impl = hympi::detail::create_fixed_bcast(*c.topo, root, count, c.element.size, c.options, c.agreement);
    publish(request, std::move(impl), c.element.size, is_root ? count : 0, count, c,
            count * static_cast<std::int64_t>(c.element.size), root);
  });
}

int hympi_allreduce_init(int64_t count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Info info,
                         hympi_request_t* request) {
  return init("hympi_allreduce_init", request, [&](const char* call) {
    hympi::c_api::Checked c(call, request);
    hympi::c_api::check_init(
        c, comm, type, info, call,
        [&](const hympi::Topology&) {
          hympi::c_api::require_count(count, call);
          hympi::require(op != MPI_OP_NULL, std::string(call) + ": op is MPI_OP_NULL");
        },
        hympi::detail::Padding::allowed);
    // The caller's type and count: a user op gets them as MPI would give them (the
    // core reduces a predefined op's contiguous type in basic elements itself).
    auto impl = hympi::detail::create_allreduce(*c.topo, count, type, op, c.options, c.agreement);
    publish(request, std::move(impl), c.element.extent, count, count, c,
            count * static_cast<std::int64_t>(c.element.extent));
  });
}

int hympi_reduce_init(int64_t count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm, MPI_Info info,
                      hympi_request_t* request) {
  return init("hympi_reduce_init", request, [&](const char* call) {
    hympi::c_api::Checked c(call, request);
    hympi::c_api::check_init(
        c, comm, type, info, call,
        [&](const hympi::Topology& topo) {
          hympi::c_api::require_count(count, call);
          hympi::require(op != MPI_OP_NULL, std::string(call) + ": op is MPI_OP_NULL");
          hympi::require(root >= 0 && root < topo.size(), std::string(call) + ": root " + std::to_string(root) +
                                                              " is not a rank of the communicator (size " +
                                                              std::to_string(topo.size()) + ")");
        },
        hympi::detail::Padding::allowed);
    auto impl = hympi::detail::create_reduce(*c.topo, count, type, op, root, c.options, c.agreement);
    const bool is_root = c.topo->rank() == root;
    publish(request, std::move(impl), c.element.extent, count, is_root ? count : 0, c,
            count * static_cast<std::int64_t>(c.element.extent), root);
  });
}

int hympi_start(hympi_request_t request) {
  return guarded([&] {
    require_handle(request, "hympi_start: request");
    hympi::detail::require_idle(request->active, "hympi_start", "(request)");
    request->op->start();
    request->active = true;
  });
}

int hympi_test(hympi_request_t request, int* flag) {
  return guarded([&] {
    require_handle(request, "hympi_test: request");
    require_handle(flag, "hympi_test: flag");
    *flag = 0;
    if (request->active && !request->op->test()) return;
    request->active = false;
    *flag = 1;
  });
}

int hympi_wait(hympi_request_t request) {
  return guarded([&] {
    require_handle(request, "hympi_wait: request");
    if (!request->active) return;
    request->op->wait();
    request->active = false;
  });
}

int hympi_request_free(hympi_request_t* request) {
  return guarded([&] {
    if (!request || !*request) return;
    std::unique_ptr<hympi_request_s> owned(*request);
    *request = nullptr;
    if (owned->active) owned->op->wait();
  });
}

void* hympi_request_slot(hympi_request_t request) {
  return request ? request->op->slot() : nullptr;
}
const void* hympi_request_result(hympi_request_t request) {
  return request ? request->op->result() : nullptr;
}
int64_t hympi_request_slot_count(hympi_request_t request) {
  return request ? request->slot_count : 0;
}
int64_t hympi_request_result_count(hympi_request_t request) {
  return request ? request->result_count : 0;
}
size_t hympi_request_elem_size(hympi_request_t request) {
  return request ? request->elem_size : 0;
}
int hympi_request_groups(hympi_request_t request) {
  return request ? request->groups : 0;
}

int hympi_allgather_init_f(int64_t count, MPI_Fint type, MPI_Fint comm, MPI_Fint info, hympi_request_t* request) {
  return hympi_allgather_init(count, MPI_Type_f2c(type), MPI_Comm_f2c(comm), MPI_Info_f2c(info), request);
}
int hympi_allgatherv_init_f(const int64_t* counts, int64_t ncounts, MPI_Fint type, MPI_Fint comm, MPI_Fint info,
                            hympi_request_t* request) {
  return allgatherv_init(counts, ncounts, MPI_Type_f2c(type), MPI_Comm_f2c(comm), MPI_Info_f2c(info), request);
}
int hympi_bcast_init_f(int64_t count, MPI_Fint type, int root, MPI_Fint comm, MPI_Fint info, hympi_request_t* request) {
  return hympi_bcast_init(count, MPI_Type_f2c(type), root, MPI_Comm_f2c(comm), MPI_Info_f2c(info), request);
}

int hympi_allreduce_init_f(int64_t count, MPI_Fint type, MPI_Fint op, MPI_Fint comm, MPI_Fint info,
                           hympi_request_t* request) {
  return hympi_allreduce_init(count, MPI_Type_f2c(type), MPI_Op_f2c(op), MPI_Comm_f2c(comm), MPI_Info_f2c(info),
                              request);
}

int hympi_reduce_init_f(int64_t count, MPI_Fint type, MPI_Fint op, int root, MPI_Fint comm, MPI_Fint info,
                        hympi_request_t* request) {
  return hympi_reduce_init(count, MPI_Type_f2c(type), MPI_Op_f2c(op), root, MPI_Comm_f2c(comm), MPI_Info_f2c(info),
                           request);
}

}  // extern "C"
