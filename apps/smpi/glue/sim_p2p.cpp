// The simulated MPI layer's charged point-to-point messages (sim_p2p.hpp).
#include "sim_p2p.hpp"

#include <simgrid/actor.h>
#include <simgrid/host.h>

#include <cstdio>

#include "sim_comm.hpp"
#include "sim_settings.hpp"
#include "sim_state.hpp"

namespace hympi_sim {
namespace {

void sleep_s(double seconds) {
  if (seconds > 0) sg_actor_sleep_for(seconds);
}

// SMPI's op-cost callbacks are suppressed while the calling rank is in a message the layer
// charges itself (or in an uncharged notify).
class Suppress {
 public:
  explicit Suppress(bool on) : on_(on) {
    if (on_) state::set_layer_charged(true);
  }
  ~Suppress() {
    if (on_) state::set_layer_charged(false);
  }
  Suppress(const Suppress&) = delete;
  Suppress& operator=(const Suppress&) = delete;

 private:
  bool on_;
};

void charge_send(MPI_Comm comm, int dst) {
  if (!settings().all_overheads || dst == MPI_PROC_NULL) return;
  const sg_host_t self = sg_host_self();
  const state::HostCosts& c = state::costs_of(self);
  sleep_s(host_of(comm, dst) == self ? c.shm_send_s : c.net_send_s);
}

// The hop latency of a route under fair sharing (0 otherwise or on-node).
double hop_delay(sg_host_t from, sg_host_t to) {
  if (!settings().fair_sharing || from == to) return 0;
  const state::HostCosts& c = state::costs_of(to);
  if (!c.has_hop_latency) {
    std::fprintf(stderr, "hympi sim layer: HYMPI_SIM_SHARING=fair but the platform has no hympi_hop_latency_us "
                         "(write it with make_platform.py --sharing fair)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return state::route(from, to).hops * c.hop_latency_s;
}

// After a message from comm rank `src` arrived: the hop latency (fair) and the receive overhead (all).
void charge_recv(MPI_Comm comm, int src, bool overheads) {
  if (src == MPI_PROC_NULL || src < 0) return;
  const Settings& s = settings();
  if (!s.fair_sharing && !(overheads && s.all_overheads)) return;
  const sg_host_t self = sg_host_self();
  const sg_host_t from = host_of(comm, src);
  double delay = hop_delay(from, self);
  if (overheads && s.all_overheads && from != self) delay += state::costs_of(self).net_recv_s;
  sleep_s(delay);
}

}  // namespace

int send(const void* buf, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm) {
  charge_send(comm, dst);
  Suppress quiet(settings().all_overheads);
  return PMPI_Send(buf, count, type, dst, tag, comm);
}

int recv(void* buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm) {
  MPI_Status status;
  int rc;
  {
    Suppress quiet(settings().all_overheads);
    rc = PMPI_Recv(buf, count, type, src, tag, comm, &status);
  }
  if (rc == MPI_SUCCESS) charge_recv(comm, status.MPI_SOURCE, true);
  return rc;
}

int sendrecv(const void* sbuf, int scount, MPI_Datatype stype, int dst, int stag, void* rbuf, int rcount,
             MPI_Datatype rtype, int src, int rtag, MPI_Comm comm) {
  charge_send(comm, dst);
  MPI_Status status;
  int rc;
  {
    Suppress quiet(settings().all_overheads);
    rc = PMPI_Sendrecv(sbuf, scount, stype, dst, stag, rbuf, rcount, rtype, src, rtag, comm, &status);
  }
  if (rc == MPI_SUCCESS) charge_recv(comm, status.MPI_SOURCE, true);
  return rc;
}

int irecv(void* buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm, MPI_Request* request) {
  Suppress quiet(settings().all_overheads);
  return PMPI_Irecv(buf, count, type, src, tag, comm, request);
}

int wait(MPI_Request* request, MPI_Comm comm) {
  MPI_Status status;
  int rc;
  {
    Suppress quiet(settings().all_overheads);
    rc = PMPI_Wait(request, &status);
  }
  if (rc == MPI_SUCCESS) charge_recv(comm, status.MPI_SOURCE, true);
  return rc;
}

int notify(int dst, int tag, MPI_Comm comm, std::uint64_t payload) {
  if (dst == MPI_PROC_NULL) return MPI_SUCCESS;
  int self = 0;
  MPI_Comm_rank(comm, &self);
  state::push_payload(world_rank_of(comm, self), world_rank_of(comm, dst), tag, payload);
  Suppress quiet(true);
  return PMPI_Send(nullptr, 0, MPI_BYTE, dst, tag, comm);
}

int wait_notify(int src, int tag, MPI_Comm comm, std::uint64_t* payload) {
  if (src == MPI_PROC_NULL) return MPI_SUCCESS;
  MPI_Status status;
  int rc;
  {
    Suppress quiet(true);
    rc = PMPI_Recv(nullptr, 0, MPI_BYTE, src, tag, comm, &status);
  }
  if (rc != MPI_SUCCESS) return rc;
  int self = 0;
  MPI_Comm_rank(comm, &self);
  const std::uint64_t value =
      state::pop_payload(world_rank_of(comm, status.MPI_SOURCE), world_rank_of(comm, self), tag);
  if (payload) *payload = value;
  charge_recv(comm, status.MPI_SOURCE, false);
  return rc;
}

}  // namespace hympi_sim
