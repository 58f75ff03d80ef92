// BG/P's rectangle broadcast simulated on the bgp platform (SMPI builds only): the
// schedule of dcmf_shape.cpp (CCMI's OneColorRectBcastSched, one per color) run as
// SimGrid messages. Why SimGrid messages and not the layer's charged MPI messages: a BG/P
// node's DMA injects a chunk on several links at once (one per color and line direction)
// while its ranks compute; the layer's messages are blocking, one at a time, so the colors
// would be serialized at every node and their gain lost. Here each rank runs one event loop
// over its colors' streams, each stream one chunk in flight (the pipeline), and charges the
// platform's costs itself: the sender's overhead per chunk and line (posting a descriptor),
// the final receiver's overhead per chunk, hop latency under fair sharing. Model and source:
// apps/smpi/README.md, "BG/P's broadcast (DCMF)".
//
// Data: the root snapshots its bytes once per broadcast (shared_ptr; none from an SMPI
// shared-malloc buffer, which holds no data); every message carries that snapshot, a receiver
// copies its chunk out of it, and the last holder frees it. Ranks
// are cooperative threads of one process, so no locking; packets of a later broadcast that
// arrive early are kept (per rank) until the rank gets there.
#include "dcmf_rect.hpp"

#include "sim_settings.hpp"
#include "sim_state.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Mailbox.hpp>
#include <smpi/smpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace hympi_sim::dcmf {
namespace {

namespace s4u = simgrid::s4u;
using Bytes = std::shared_ptr<const std::vector<char>>;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "hympi DCMF broadcast: %s\n", what.c_str());
  MPI_Abort(MPI_COMM_WORLD, 2);
  std::abort();
}

void parse3(const s4u::Host* h, const char* name, int out[kAxes]) {
  const char* v = h->get_property(name);
  if (!v || std::sscanf(v, "%d,%d,%d", &out[0], &out[1], &out[2]) != 3)
    fail("host " + h->get_name() + " has no " + name +
         " property: the DCMF broadcast needs a platform written by make_platform.py bgp");
}

int world_rank_of(const s4u::ActorPtr& a) {
  const char* r = a->get_property("rank");  // smpirun's deployment gives every rank's actor its world rank
  return r ? std::atoi(r) : -1;
}

// A node's world ranks in increasing order: t is a rank's place in it (block placement:
// rank % cores; BG/P's XYZT: rank / nodes). Cached per rank (the list is fixed once running).
const std::vector<int>& ranks_on(const s4u::Host* h) {
  static std::map<const s4u::Host*, std::vector<int>> cache;
  auto [it, added] = cache.try_emplace(h);
  if (added) {
    for (const s4u::ActorPtr& a : h->get_all_actors())
      if (int r = world_rank_of(a); r >= 0) it->second.push_back(r);
    std::sort(it->second.begin(), it->second.end());
  }
  return it->second;
}

Coords node_of(const s4u::Host* h, const int dims[kAxes]) {
  Coords c;
  if (h->get_property("hympi_bgp_coords")) {
    parse3(h, "hympi_bgp_coords", c.c);
    return c;
  }
  const std::string& name = h->get_name();  // a torus cluster: node-<i>, X fastest
  const int i = std::atoi(name.substr(name.rfind('-') + 1).c_str());
  c[0] = i % dims[0];
  c[1] = i / dims[0] % dims[1];
  c[2] = i / (dims[0] * dims[1]);
  return c;
}

Coords coords_of_world(int w, const int dims[kAxes]) {
  const s4u::Host* h = state::host_of(w);  // registered by the layer's MPI_Init
  Coords c = node_of(h, dims);
  const std::vector<int>& on = ranks_on(h);
  c[3] = static_cast<int>(std::find(on.begin(), on.end(), w) - on.begin());
  return c;
}

int world_at(const Coords& p, const int dims[kAxes]) {
  const int i = p[0] + dims[0] * (p[1] + dims[1] * p[2]);
  const s4u::Host* h = s4u::Host::by_name_or_null("node-" + std::to_string(i));
  if (!h) fail("no host node-" + std::to_string(i) + " for coordinates " + p.str());
  const std::vector<int>& on = ranks_on(h);
  if (p[3] < 0 || p[3] >= static_cast<int>(on.size())) fail("no rank at " + p.str());
  return on[p[3]];
}

// One stretch of a line's deposit-bit packet: SimGrid routes a torus flow the shorter way
// round, so a line longer than half the ring is cut into stretches relayed by their end nodes
// (uncharged, as the hardware forwards); a mesh line is one stretch.
struct Stretch {
  int far = -1;  // world ranks
  std::vector<int> passed;
  std::vector<int> passed_hops;
  int hops = 0;
};

struct Packet {
  std::uint64_t key = 0, seq = 0;
  int color = 0, chunk = 0;
  Bytes data;
  long long offset = 0, len = 0;
  int hops = 0;                 // links from the stretch's start (hop latency under fair sharing)
  bool charged = false;         // the line's final node or a local peer: pays the receive overhead
  std::vector<Stretch> relay;   // stretches the receiver forwards
};

struct Stream {
  int color = 0, dst = -1;
  bool onnode = false, charged = true;  // charged: the sender pays an overhead per chunk
  Stretch first;
  std::vector<Stretch> rest;
  std::deque<int> ready;
  s4u::CommPtr inflight;
  int inflight_chunk = -1;
};

s4u::Mailbox* mailbox(int world, int color) {
  return s4u::Mailbox::by_name("hympi-dcmf/" + std::to_string(world) + "/" + std::to_string(color));
}

// A packet of `simulated` bytes to a world rank's mailbox of a color, deposited without the
// receiver's help (a permanent receiver: BG/P's DMA). Only the pointer is copied: SMPI's
// default copy callback would copy `simulated` bytes from it.
s4u::CommPtr put(int world, int color, Packet* p, std::uint64_t simulated) {
  s4u::Mailbox* mb = mailbox(world, color);
  s4u::ActorPtr to = s4u::Actor::by_pid(world + 1);  // smpirun: rank r is actor r + 1
  if (!to || world_rank_of(to) != world) fail("world rank " + std::to_string(world) + " is not SimGrid actor " +
                                              std::to_string(world + 1));
  mb->set_receiver(to);
  return mb->put_init(p, simulated)->set_copy_data_callback(s4u::Comm::copy_pointer_callback)->start();
}

s4u::CommPtr get(int world, int color, Packet** slot) {
  return mailbox(world, color)
      ->get_init()
      ->set_dst_data(reinterpret_cast<void**>(slot), sizeof(void*))
      ->set_copy_data_callback(s4u::Comm::copy_pointer_callback)
      ->start();
}

// Per-rank state, keyed by the rank's actor: the layer is a shared library, one copy for
// every rank (privatized or not).
struct RankState {
  std::vector<Packet*> stash;  // packets of broadcasts this rank has not reached yet
  int described = 0;           // communicators described so far (their keys)
};
RankState& rank_state() {
  static std::map<aid_t, RankState> table;
  return table[s4u::this_actor::get_pid()];
}

std::vector<Packet*>& stash() { return rank_state().stash; }

}  // namespace

void describe(MPI_Comm comm, CommInfo& info) {
  int& counter = rank_state().described;
  PMPI_Comm_rank(comm, &info.rank);
  PMPI_Comm_size(comm, &info.size);
  PMPI_Comm_size(MPI_COMM_WORLD, &info.world_size);
  int world;
  PMPI_Comm_rank(MPI_COMM_WORLD, &world);
  const s4u::Host* h = s4u::this_actor::get_host();
  int wrap[kAxes];
  parse3(h, "hympi_bgp_dims", info.dims);
  parse3(h, "hympi_bgp_wrap", wrap);
  for (int a = 0; a < kAxes; ++a) info.partition_wraps[a] = wrap[a] != 0;
  info.me = coords_of_world(world, info.dims);
  // The source's MPIR_Allreduce of the coordinates' min and max, plus a key: one above every
  // member's last, so two communicators sharing a rank never share a key.
  int v[9] = {-info.me[0], -info.me[1], -info.me[2], -info.me[3], info.me[0], info.me[1], info.me[2], info.me[3],
              counter + 1};
  PMPI_Allreduce(MPI_IN_PLACE, v, 9, MPI_INT, MPI_MAX, comm);
  Box box;
  for (int a = 0; a < 4; ++a) {
    box.lo[a] = -v[a];
    box.hi[a] = v[4 + a];
  }
  counter = v[8];
  info.key = static_cast<std::uint64_t>(v[8]);
  info.shape = classify(box, info.size, info.world_size);
  for (int a = 0; a < kAxes; ++a) info.wraps[a] = info.partition_wraps[a] && box.extent(a) == info.dims[a];
  PMPI_Comm_group(comm, &info.group);
  PMPI_Comm_group(MPI_COMM_WORLD, &info.world_group);
}

void bcast_rectangle(char* buf, long long bytes, int root, CommInfo& info, bool one_color) {
  if (!info.shape.filled) fail("the rectangle broadcast on a communicator whose box is not filled");
  const std::uint64_t seq = info.seq++;
  const ColorPlan plan = plan_colors(info.shape.box, bytes, one_color);
  const int ncolors = static_cast<int>(plan.colors.size());
  int root_world, me_world;
  PMPI_Group_translate_ranks(info.group, 1, &root, info.world_group, &root_world);
  PMPI_Group_translate_ranks(info.group, 1, &info.rank, info.world_group, &me_world);
  const Coords root_at = coords_of_world(root_world, info.dims);
  const bool is_root = info.rank == root;
  // Charges as the layer's messages (sim_p2p.hpp), per chunk: overheads = all, the sender's
  // per line or local peer (posting a descriptor) and the final receiver's; overheads = smpi,
  // the sender's only (what SMPI's callbacks charge a nonblocking send); sharing = fair, the
  // receiver's hops x hop latency.
  const state::HostCosts& cost = state::costs_of(s4u::this_actor::get_host());
  const double send_net = cost.net_send_s, send_shm = cost.shm_send_s,
               recv_net = settings().all_overheads ? cost.net_recv_s : 0.0,
               hop_lat = settings().fair_sharing ? cost.hop_latency_s : 0.0;

  std::vector<long long> nchunks(ncolors);
  for (int c = 0; c < ncolors; ++c) nchunks[c] = (plan.bytes[c] + plan.pipeline_width - 1) / plan.pipeline_width;
  auto chunk_at = [&](int c, int k, long long& off, long long& len) {
    off = plan.offset[c] + k * plan.pipeline_width;
    len = std::min(plan.pipeline_width, plan.bytes[c] - k * plan.pipeline_width);
  };

  // This rank's streams: its lines (cut into stretches) and its node's other ranks.
  std::vector<Stream> streams;
  auto stretches = [&](const Line& l) {
    std::vector<Coords> nodes = l.passed;
    nodes.push_back(l.far);
    const std::size_t most =
        info.partition_wraps[l.axis] ? std::max<std::size_t>(1, (info.dims[l.axis] - 1) / 2) : nodes.size();
    std::vector<Stretch> out;
    for (std::size_t at = 0; at < nodes.size(); at += most) {
      Stretch s;
      const std::size_t end = std::min(nodes.size(), at + most);
      for (std::size_t i = at; i + 1 < end; ++i) {
        s.passed.push_back(world_at(nodes[i], info.dims));
        s.passed_hops.push_back(static_cast<int>(i - at + 1));
      }
      s.far = world_at(nodes[end - 1], info.dims);
      s.hops = static_cast<int>(end - at);
      out.push_back(s);
    }
    return out;
  };
  for (int c = 0; c < ncolors; ++c) {
    const Role role = rect_role(info.shape.box, info.wraps, root_at, info.me, plan.colors[c]);
    for (const Line& l : role.lines) {
      std::vector<Stretch> s = stretches(l);
      Stream st;
      st.color = c;
      st.first = s[0];
      st.dst = s[0].far;
      st.rest.assign(s.begin() + 1, s.end());
      streams.push_back(st);
    }
    for (const Coords& p : role.local) {
      Stream st;
      st.color = c;
      st.onnode = true;
      st.first.far = st.dst = world_at(p, info.dims);
      streams.push_back(st);
    }
  }

  Bytes data;
  if (is_root) {  // an SMPI shared-malloc buffer holds no data (timing runs): an empty snapshot, no copies
    std::vector<std::pair<std::size_t, std::size_t>> private_blocks;
    std::size_t offset = 0;
    data = smpi_is_shared(buf, private_blocks, &offset) ? std::make_shared<const std::vector<char>>()
                                                         : std::make_shared<const std::vector<char>>(buf, buf + bytes);
  }
  std::vector<long long> got(ncolors, 0);
  std::vector<s4u::CommPtr> gets(ncolors), notes;
  std::vector<Packet*> slots(ncolors, nullptr);

  auto post = [&](Stream& s) {
    if (s.inflight || s.ready.empty()) return;
    const int k = s.ready.front();
    s.ready.pop_front();
    if (s.charged) s4u::this_actor::sleep_for(s.onnode ? send_shm : send_net);
    auto* p = new Packet;
    p->key = info.key;
    p->seq = seq;
    p->color = s.color;
    p->chunk = k;
    p->data = data;
    chunk_at(s.color, k, p->offset, p->len);
    p->hops = s.first.hops;
    p->charged = s.rest.empty();
    p->relay = s.rest;
    s.inflight = put(s.dst, s.color, p, static_cast<std::uint64_t>(p->len));
    s.inflight_chunk = k;
  };
  auto landed = [&](Stream& s) {  // the chunk reached the stretch's end: it passed the others
    for (std::size_t i = 0; i < s.first.passed.size(); ++i) {
      auto* p = new Packet;
      p->key = info.key;
      p->seq = seq;
      p->color = s.color;
      p->chunk = s.inflight_chunk;
      p->data = data;
      chunk_at(s.color, s.inflight_chunk, p->offset, p->len);
      p->hops = s.first.passed_hops[i];
      notes.push_back(put(s.first.passed[i], s.color, p, 0));
    }
    s.inflight = nullptr;
    s.inflight_chunk = -1;
  };
  auto have = [&](int c, int k) {
    for (Stream& s : streams)
      if (s.color == c) s.ready.push_back(k);
  };
  auto take = [&](Packet* p) {
    if (p->charged && p->hops > 0) s4u::this_actor::sleep_for(recv_net);  // off-node final receiver
    if (hop_lat > 0 && p->hops > 0) s4u::this_actor::sleep_for(p->hops * hop_lat);
    if (!p->data->empty()) std::memcpy(buf + p->offset, p->data->data() + p->offset, static_cast<std::size_t>(p->len));
    if (!data) data = p->data;
    if (!p->relay.empty()) {  // relay the line's next stretch, uncharged
      auto it = std::find_if(streams.begin(), streams.end(),
                             [&](const Stream& s) { return !s.charged && s.color == p->color; });
      if (it == streams.end()) {
        Stream st;
        st.color = p->color;
        st.charged = false;
        st.first = p->relay[0];
        st.dst = st.first.far;
        st.rest.assign(p->relay.begin() + 1, p->relay.end());
        streams.push_back(st);
      }
    }
    ++got[p->color];
    have(p->color, p->chunk);
    delete p;
  };

  if (is_root) {
    for (int c = 0; c < ncolors; ++c)
      for (int k = 0; k < nchunks[c]; ++k) have(c, k);
  } else {
    std::vector<Packet*>& kept = stash();
    for (auto it = kept.begin(); it != kept.end();) {
      if ((*it)->key == info.key && (*it)->seq == seq) {
        take(*it);
        it = kept.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (;;) {
    std::vector<s4u::CommPtr> active;
    std::vector<int> what;  // >= 0: a stream; -1 - c: color c's receive; < -ncolors: a notify
    for (int c = 0; c < ncolors; ++c) {
      if (!is_root && got[c] < nchunks[c] && !gets[c]) gets[c] = get(me_world, c, &slots[c]);
      if (gets[c]) {
        active.push_back(gets[c]);
        what.push_back(-1 - c);
      }
    }
    for (std::size_t i = 0; i < streams.size(); ++i) {
      post(streams[i]);
      if (streams[i].inflight) {
        active.push_back(streams[i].inflight);
        what.push_back(static_cast<int>(i));
      }
    }
    for (std::size_t i = 0; i < notes.size(); ++i) {
      active.push_back(notes[i]);
      what.push_back(-1 - ncolors - static_cast<int>(i));
    }
    if (active.empty()) break;
    const int w = what[static_cast<std::size_t>(s4u::Comm::wait_any(active))];
    if (w >= 0) {
      landed(streams[static_cast<std::size_t>(w)]);
    } else if (w >= -ncolors) {
      const int c = -1 - w;
      gets[c] = nullptr;
      Packet* p = slots[c];
      if (p->key == info.key && p->seq == seq && p->color == c)
        take(p);
      else
        stash().push_back(p);
    } else {
      notes.erase(notes.begin() + (-1 - ncolors - w));
    }
  }
}

}  // namespace hympi_sim::dcmf
