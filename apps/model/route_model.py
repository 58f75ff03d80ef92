"""Placement- and route-aware cost model of SUMMA/HSUMMA on the simulated BG/P-like torus.

Plain alpha-beta (hympi_model.py) charges every broadcast message alpha + m beta, as if
it had the network to itself: a LOWER BOUND. On the torus of apps/smpi/platforms/
make_platform.py the simulated broadcasts take up to 3x that, because
- block placement puts `cores` consecutive ranks on one node, so a grid column's
  broadcast shares every link with the `cores` columns on the same nodes, and
- all P row (or Q column) broadcasts run at once and their routes cross.
This model replays each broadcast round by round: every concurrent flow of the round
(all rows' or all columns' communicators) is routed on the torus as SimGrid routes it
(dimension order, first dimension first, the shorter way round, one link per direction),
flows are counted per link, and a flow moves at the link bandwidth divided by the count
on its busiest link. A round lasts as long as its slowest flow; the broadcast is the
sum of its rounds. Flows between ranks of one node use the loopback (no sharing).

Overlap between phases (the model, dataflow_time): every rank runs on its own clock
through the engine's phase order (outer A, outer B, inner A, inner B, then the update;
SUMMA: A, B, update). A message starts when both ends are free. Sends of 64 KiB or more
are rendezvous in SMPI (both ends wait for the end); smaller ones are detached (eager):
the sender goes on at once, so a binomial root's sends pipeline and a rank runs into the
next broadcast while its sends are still in flight. Links are re-shared as SimGrid's
max-min does: a flow's share of a link is 1 / (1 + the time-averaged number of other
flows on it during its life), counting every flow in flight from any round, phase or
step, so ranks that finish a broadcast early and go on share less. The run's time is the
last rank's (the closing barrier), scaled like the simulated rows (scaled_time).
predict() is the static form (all communicators in lockstep; a step costs the longer of
the row and column phases): cheaper, for comparison. Plain alpha-beta (hympi_model.py)
is the lower bound.

Fidelity settings (2026-11-27; Settings, platform()): the simulation's four settings with
the same meaning - link sharing fair | route (SimGrid's latency-weighted max-min) |
unweighted (the model before them), overheads all | smpi, the eager limit, the broadcast
(SMPI's binomial / van de Geijn, the layer's MPICH rule with its ring merge, or BG/P's DCMF
rule by communicator shape: rectangles for filled boxes, dcmf_rule.py) - on the
bgp-torus platform or the thesis' bgp (apps/smpi/README.md, "The model's fidelity
settings"). The legacy preset gives the numbers of the model before them, exactly.
"""
from __future__ import annotations

import bisect
import dataclasses
import functools
import math
import os
import sys
from dataclasses import dataclass

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "smpi", "platforms"))
import make_platform as mp  # noqa: E402
from make_platform import torus_dims, mean_torus_hops  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import dcmf_rule as dcmf  # noqa: E402

# binomial / vandegeijn: SMPI's binomial_tree / scatter_LR_allgather (smpi:<alg>, the legacy rows);
# mpich / dcmf: the simulated MPI layer's selections (apps/smpi/glue/sim_bcast_algorithms.hpp)
BCASTS = ("binomial", "vandegeijn", "mpich", "dcmf")
SMPI_BCAST_NAMES = {"binomial": "smpi:binomial_tree", "vandegeijn": "smpi:scatter_LR_allgather"}
MACHINES = ("bgp-torus", "bgp")
GAMMA = 3.4e9  # flop/s per core of bgp-torus (make_platform.py)
SHARINGS = ("fair", "route", "unweighted")
OVERHEADS = ("all", "smpi")


@dataclass(frozen=True)
class Settings:
    """The fidelity settings (/work/fidelity-spec.md, apps/smpi/README.md "Fidelity settings"),
    the broadcast apart (Case.bcast).
    sharing  fair: every flow on a link counts 1; the route's hop latency is charged to the
                   receiver after the data arrived (zero-latency links + the layer's sleep).
             route: SimGrid's max-min weighted by route latency: a k-hop flow counts k times
                   a 1-hop flow on a common link (gets 1/k of its share); latency on the wire.
             unweighted: latency on the wire, every flow counts 1 - the model before
                   2026-11-27, an approximation of `route` (kept so its numbers regenerate).
    overheads all: the platform's send overhead before and receive overhead after every
                   off-node message (on-node: the shm overhead at the sender); smpi: SMPI's
                   op-cost callbacks - the send side only on eager or nonblocking (sendrecv)
                   sends, the receive side only when the sender was eager.
    eager_bytes  sends below it are eager (the sender goes on after its overhead).
    ring_merge   S: the layer's ring allgather sends S ring steps as one message, plus
                 (S - 1) x the per-step latency charge (hop latency + overheads).
    layer        the broadcast is the simulated MPI layer's (mpich, dcmf), which charges the above;
                 False: SMPI's own algorithm (binomial, vandegeijn), whose messages only SMPI's
                 op-cost callbacks charge (overheads as smpi) and, under fair sharing, pay no hop
                 latency (apps/smpi/README.md, "Fidelity settings"). dataflow_times sets it."""
    sharing: str = "unweighted"
    overheads: str = "smpi"
    eager_bytes: int = 65536
    ring_merge: int = 1
    layer: bool = True


LEGACY = Settings()  # the model's numbers before the fidelity settings, exactly
FAITHFUL = Settings("fair", "all", 1200, 1)
FAITHFUL_BCAST, LEGACY_BCAST = "dcmf", "vandegeijn"


@dataclass(frozen=True)
class Torus:
    """A platform of make_platform.py: by default bgp-torus (--shm-costs off); platform()
    builds the others."""
    nodes: int
    cores: int = 4
    link_Bps: float = 425e6
    loop_Bps: float = 1.5e9
    loop_lat: float = 1e-6
    hop_latency: float = 0.0  # s per hop; 0: bgp-torus's rule (3 us end to end at the mean distance)
    mesh: bool = False        # no wrap-around (bgp up to 256 nodes): X, then Y, then Z, straight
    net_send: float = 0.0     # software overhead per off-node message, s (hympi_net_send_overhead_us)
    net_recv: float = 0.0
    # on-node costs (onnode_cost.cpp): (overhead s, core B/s, node B/s, cache bytes, cache B/s)
    shm: tuple | None = None
    gamma: float = GAMMA

    @functools.cached_property
    def dims(self) -> tuple[int, int, int]:
        return torus_dims(self.nodes)

    @functools.cached_property
    def hop_lat(self) -> float:
        return self.hop_latency or 3e-6 / max(1.0, mean_torus_hops(self.dims))

    @functools.cached_property
    def _routes(self) -> dict:
        return {}

    def route(self, a: int, b: int) -> list[tuple[int, int, int]]:
        """Directed links (node, dimension, +1/-1) from node a to node b (cached: the caller must not
        change the list)."""
        key = (a, b)
        r = self._routes.get(key)
        if r is None:
            r = self._routes[key] = self._route(a, b)
        return r

    def _route(self, a: int, b: int) -> list[tuple[int, int, int]]:
        links, cur, stride = [], a, 1
        for d in self.dims:
            ca, cb = (cur // stride) % d, (b // stride) % d
            up = (cb - ca) % d
            if self.mesh:
                step = 1 if cb > ca else -1
            else:
                step = 1 if up <= d // 2 else -1
            while ca != cb:
                links.append((cur, stride, step))
                nxt = (ca + step) % d
                cur += (nxt - ca) * stride
                ca = nxt
            stride *= d
        return links


def binomial_rounds(members: list[int], root: int, nbytes: float) -> list[list[tuple[int, int, float]]]:
    """SMPI's binomial_tree broadcast: in round t every rank that has the data sends to
    relative rank + p / 2^(t+1) (largest distance first)."""
    p = len(members)
    rounds, mask = [], 1 << max(0, math.ceil(math.log2(p)) - 1) if p > 1 else 0
    while mask:
        flows = []
        for rel in range(0, p, 2 * mask):
            if rel + mask < p:
                flows.append((members[(rel + root) % p], members[(rel + mask + root) % p], nbytes))
        rounds.append(flows)
        mask >>= 1
    return rounds


def vandegeijn_rounds(members: list[int], root: int, nbytes: float) -> list[list[tuple[int, int, float]]]:
    """SMPI's scatter_LR_allgather: binomial scatter (halving pieces), then p - 1 ring steps
    of nbytes / p to the right neighbour."""
    p = len(members)
    if p == 1:
        return []
    rounds = []
    for t, flows in enumerate(binomial_rounds(members, root, nbytes)):
        rounds.append([(s, d, nbytes / (2 ** (t + 1))) for s, d, _ in flows])
    ring = [(members[i], members[(i + 1) % p], nbytes / p) for i in range(p)]
    rounds.extend([ring] * (p - 1))
    return rounds


def platform(machine: str, ranks: int, shm_costs: bool | None = None) -> Torus:
    """The platform make_platform.py writes for `machine` and `ranks` (block placement, the
    machine's cores per node); shm_costs None: the machine's usual (bgp-torus off, as its
    committed sweeps; bgp on, make_platform's default)."""
    if machine not in MACHINES:
        raise ValueError(f"machine {machine!r}: the model knows {', '.join(MACHINES)}")
    cores, gflops = mp.DEFAULTS[machine]
    nodes = -(-ranks // cores)
    shm_on = (machine == "bgp") if shm_costs is None else shm_costs
    loop = {}
    shm = None
    if shm_on:  # the loopback at one core's copy rate, the rest from onnode_cost.cpp's properties
        ovh, core, node, _poll, lat, cache, cache_rate = mp.SHM[machine]
        shm = (ovh * 1e-6, core * 1e9, node * 1e9, cache, cache_rate * 1e9)
        loop = dict(loop_Bps=core * 1e9, loop_lat=lat * 1e-6)
    if machine == "bgp-torus":
        return Torus(nodes, cores, shm=shm, **loop)
    return Torus(nodes, cores, hop_latency=mp.BGP_HOP_US * 1e-6, mesh=nodes <= mp.BGP_MESH_MAX_NODES,
                 net_send=mp.BGP_SEND_US * 1e-6, net_recv=mp.BGP_RECV_US * 1e-6, shm=shm, gamma=gflops * 1e9, **loop)


# The layer's algorithms (MPICH's: src/mpi/coll/bcast), pieces of ceil(nbytes / p).
def scatter_rounds(members: list[int], root: int, nbytes: float) -> list[list[tuple[int, int, float]]]:
    """MPICH's binomial scatter for a broadcast: the largest subtree first; a child gets its
    subtree's pieces (the last ones clipped to the message)."""
    p = len(members)
    piece = math.ceil(nbytes / p)
    rounds, mask = [], 1 << max(0, math.ceil(math.log2(p)) - 1) if p > 1 else 0
    while mask:
        flows = []
        for rel in range(0, p, 2 * mask):
            c = rel + mask
            if c < p and nbytes - c * piece > 0:
                flows.append((members[(rel + root) % p], members[(c + root) % p],
                              min(mask * piece, nbytes - c * piece)))
        rounds.append(flows)
        mask >>= 1
    return rounds


def _block_bytes(nbytes: float, piece: float, first: int, count: int) -> float:
    """Bytes of pieces first .. first + count - 1 (relative ranks) of a scattered message."""
    return max(0.0, min(count * piece, nbytes - first * piece))


def rdb_allgather_rounds(members: list[int], root: int, nbytes: float) -> list[list[tuple[int, int, float]]]:
    """Recursive-doubling allgather (p a power of two): in step t every rank swaps its 2^t
    pieces with relative rank ^ 2^t."""
    p = len(members)
    piece = math.ceil(nbytes / p)
    rounds, mask = [], 1
    while mask < p:
        rounds.append([(members[(rel + root) % p], members[((rel ^ mask) + root) % p],
                        _block_bytes(nbytes, piece, rel & ~(mask - 1), mask)) for rel in range(p)])
        mask <<= 1
    return rounds


def ring_allgather_rounds(members: list[int], root: int, nbytes: float, merge: int = 1):
    """Ring allgather: p - 1 steps, every rank sends the piece it got last to its right
    neighbour; merged S steps at a time: ceil((p - 1) / S) messages of up to S pieces.
    Returns [(flows, merged steps - 1)]."""
    p = len(members)
    piece = math.ceil(nbytes / p)
    pairs = [(members[(rel + root) % p], members[(rel + 1 + root) % p]) for rel in range(p)]
    out = []
    for t0 in range(0, p - 1, merge):
        steps = range(t0, min(t0 + merge, p - 1))
        if piece * p == nbytes:  # equal pieces (the usual case: quick)
            size = float(piece * len(steps))
            flows = [(s, d, size) for s, d in pairs]
        else:
            flows = [(s, d, sum(_block_bytes(nbytes, piece, (rel - t) % p, 1) for t in steps))
                     for rel, (s, d) in enumerate(pairs)]
        out.append((flows, len(steps) - 1))
    return out


MPICH_SHORT, MPICH_LONG, MPICH_MIN_PROCS = 12 * 1024, 512 * 1024, 8


def mpich_algorithm(p: int, nbytes: float) -> str:
    """The thesis' MPICH rule: binomial below 12 KiB or on fewer than 8 ranks, scatter +
    recursive doubling below 512 KiB on a power of two, else scatter + ring."""
    if nbytes < MPICH_SHORT or p < MPICH_MIN_PROCS:
        return "binomial"
    if nbytes < MPICH_LONG and p & (p - 1) == 0:
        return "scatter_rdb"
    return "scatter_ring"


DCMF = "dcmf"  # bcast_plan's mark of a rectangle round: its third element is the flows' Deposits


@functools.lru_cache(maxsize=4096)
def _rect_rounds(members: tuple, root: int, nbytes: float, box, net: Torus, one_color: bool):
    return dcmf.rect_rounds(list(members), members[root], nbytes, box, net, one_color, ENVELOPE_BYTES)


def bcast_plan(bcast: str, members: list[int], root: int, nbytes: float, ring_merge: int = 1,
               net: Torus | None = None) -> list[tuple[list, bool, int]]:
    """Rounds [(flows, nonblocking, merged)] of one broadcast: flows (src, dst, bytes);
    nonblocking: sent by sendrecv (SMPI charges its send overhead); merged: ring steps merged
    into each message beyond the first. DCMF's rectangle rounds are (flows, DCMF, [Deposit per
    flow]) (dcmf_rule.py)."""
    p = len(members)
    if p <= 1:
        return []
    if bcast == "mpich":
        bcast = mpich_algorithm(p, nbytes)
    elif bcast == "dcmf":  # BG/P's rule by the communicator's shape (dcmf_rule.py)
        if net is None:
            raise ValueError("the DCMF rule needs the platform (net) for the communicator's shape")
        box, filled, _ = dcmf.classify(members, net, net.nodes * net.cores)
        alg = dcmf.select(filled, nbytes, p)
        if alg == "binomial":  # IRREG (or <= 3 ranks): the layer's binomial tree
            bcast = "binomial"
        else:
            return [(flows, DCMF, deps) for flows, deps in
                    _rect_rounds(tuple(members), root, nbytes, box, net, alg == "rect_async")]
    if bcast == "binomial":
        return [(f, False, 0) for f in binomial_rounds(members, root, nbytes)]
    if bcast == "vandegeijn":  # SMPI's scatter_LR_allgather: its ring is sendrecv
        rounds = vandegeijn_rounds(members, root, nbytes)
        scatter = len(rounds) - (p - 1)
        return [(f, t >= scatter, 0) for t, f in enumerate(rounds)]
    out = [(f, False, 0) for f in scatter_rounds(members, root, nbytes)]
    if bcast == "scatter_rdb":
        return out + [(f, True, 0) for f in rdb_allgather_rounds(members, root, nbytes)]
    if bcast == "scatter_ring":
        return out + [(f, True, m) for f, m in ring_allgather_rounds(members, root, nbytes, ring_merge)]
    raise ValueError(f"unknown broadcast {bcast!r}")


def flow_times(net: Torus, flows: list[tuple[int, int, float]], share: bool = True) -> list[float]:
    """Seconds of each flow of one round: all start together and share the links they cross;
    a flow moves at the bandwidth of its busiest link divided by the flows on it."""
    load: dict = {}
    routes = []
    for s, d, nb in flows:
        a, b = s // net.cores, d // net.cores
        r = net.route(a, b) if a != b else []
        routes.append((r, nb))
        for link in r:
            load[link] = load.get(link, 0) + 1
    return [_seconds(net, r, nb, max(load[link] for link in r) if share and r else 1) for r, nb in routes]


def round_time(net: Torus, flows: list[tuple[int, int, float]], share: bool = True) -> float:
    """Slowest flow of one round."""
    return max(flow_times(net, flows, share), default=0.0)


def concurrent_bcast(net: Torus, comms: list[tuple[list[int], int]], nbytes: float, bcast: str,
                     share: bool = True) -> float:
    """Time of broadcasts over disjoint communicators that start together, round by round."""
    per = [[f for f, _, _ in bcast_plan(bcast, m, root, nbytes, net=net)] for m, root in comms]
    total = 0.0
    for t in range(max((len(r) for r in per), default=0)):
        flows = [f for r in per if t < len(r) for f in r[t]]
        total += round_time(net, flows, share)
    return total


@dataclass(frozen=True)
class Case:
    """One simulated multiply: n x n x n, block b = M, P x Q grid, I x J groups, on `machine`
    (shm_costs None: the machine's usual, platform())."""
    n: int
    b: int
    P: int
    Q: int
    I: int = 1
    J: int = 1
    bcast: str = "binomial"
    elem_bytes: int = 8
    machine: str = "bgp-torus"
    shm_costs: bool | None = None

    @property
    def net(self) -> Torus:
        return platform(self.machine, self.P * self.Q, self.shm_costs)


def _levels(case: Case, row: bool, step: int):
    """[(communicators, bytes)] for one direction of one step: the outer level (among
    groups, from the owner's column/row only), then the inner level (inside groups)."""
    P, Q = case.P, case.Q
    span, lines, groups = (Q, P, case.J) if row else (P, Q, case.I)
    width = span // groups
    owner = (step * case.b) // (case.n // span)
    nbytes = (case.n / lines) * case.b * case.elem_bytes

    def rank(line, pos):
        return line * Q + pos if row else pos * Q + line

    out = []
    if groups > 1:
        out.append(([([rank(i, g * width + owner % width) for g in range(groups)], owner // width)
                     for i in range(lines)], nbytes))
    out.append(([([rank(i, g * width + l) for l in range(width)], owner % width)
                 for i in range(lines) for g in range(groups)], nbytes))
    return out


def direction_time(net: Torus, case: Case, row: bool, step: int, share: bool = True) -> float:
    return sum(concurrent_bcast(net, comms, nb, case.bcast, share) for comms, nb in _levels(case, row, step))


def predict(case: Case, share: bool = True, sample_steps: int = 2) -> dict:
    """Route-aware time of the whole multiply (n/b steps), averaging the first steps' routes.
    Overlap: in steady state the row and column phases of neighbouring steps run at once
    (ranks that have forwarded go on), so a step costs the longer of the two, not the sum.
    No overheads, eager sends or settings: the static form, for comparison."""
    net = case.net
    steps = case.n // case.b
    sample = range(min(sample_steps, steps))
    row = sum(direction_time(net, case, True, s, share) for s in sample) / len(sample)
    col = sum(direction_time(net, case, False, s, share) for s in sample) / len(sample)
    comp = 2.0 * case.n ** 3 / (case.P * case.Q * net.gamma)
    return {"t_row": row * steps, "t_col": col * steps, "t_comm": max(row, col) * steps,
            "t_comm_no_overlap": (row + col) * steps, "t_comp": comp,
            "t_total": max(row, col) * steps + comp}


def _step_rounds(net: Torus, case: Case, step: int, ring_merge: int = 1):
    """The step's phases in the engine's order (outer A, outer B, inner A, inner B; SUMMA:
    A, B), each a generator of rounds (flows (src, dst, bytes, route), kinds (nonblocking,
    merged) per flow), all concurrent communicators merged."""
    rows, cols = _levels(case, True, step), _levels(case, False, step)
    order = [rows[0], cols[0], rows[1], cols[1]] if len(rows) == 2 else [rows[0], cols[0]]

    def rounds(comms, nb):
        per = [bcast_plan(case.bcast, m, root, nb, ring_merge, net) for m, root in comms]
        for t in range(max((len(r) for r in per), default=0)):
            flows, kinds = [], []
            for plan in per:
                if t < len(plan):
                    fl, nonblocking, merged = plan[t]
                    if nonblocking == DCMF:  # a rectangle round: each flow's own charges
                        kinds.extend(merged)
                    else:
                        kinds.extend([(nonblocking, merged)] * len(fl))
                    flows.extend((s, d, b, net.route(s // net.cores, d // net.cores) if s // net.cores != d // net.cores
                                  else []) for s, d, b in fl)
            yield flows, kinds

    return [rounds(comms, nb) for comms, nb in order]


ENVELOPE_BYTES = 16  # SMPI sends every message as its payload + a 16-byte MPI envelope


def _seconds(net: Torus, route: list, nbytes: float, k: float, wire_lat: bool = True, rate: float = 0.0) -> float:
    """One flow alone on the loopback (at `rate` if given), or over `route` at 1/k of the link
    bandwidth (with the route's latency on the wire unless not `wire_lat`: fair sharing)."""
    nbytes += ENVELOPE_BYTES
    if not route:
        return net.loop_lat + nbytes / (rate or net.loop_Bps)
    if not wire_lat:
        return nbytes * k / net.link_Bps
    return len(route) * net.hop_lat + nbytes * k / net.link_Bps


EAGER_BYTES = LEGACY.eager_bytes  # SMPI's smpi/send-is-detached-thresh: smaller sends are detached (eager)


def _overlap_load(i_start: float, i_end: float, intervals, hops: int = 0) -> float:
    """Time-averaged number of other flows on a link during [i_start, i_end]: max-min shares a
    link among the flows there at each instant, re-sharing as flows start and end. `hops`
    (route sharing): each other flow of h hops counts hops / h (SimGrid weights a flow by its
    route latency)."""
    dur = i_end - i_start
    if dur <= 0:
        return 0.0
    if hops:
        return sum((min(i_end, iv[1]) - max(i_start, iv[0])) * hops / iv[2]
                   for iv in intervals if iv[1] > i_start and iv[0] < i_end) / dur
    return sum(min(i_end, iv[1]) - max(i_start, iv[0]) for iv in intervals if iv[1] > i_start and iv[0] < i_end) / dur


def _live(ledger: dict, link, floor: float) -> list:
    """The link's placed intervals that end after `floor` (older ones can overlap nothing)."""
    live = [iv for iv in ledger.get(link, ()) if iv[1] > floor]
    ledger[link] = live
    return live


def _onnode_rate(net: Torus, node: int, nbytes: float, start: float, copies: dict) -> float:
    """onnode_cost.cpp's copy rate, fixed at the flow's start: the cache rate up to the cache
    share, else min(core, node / (copies in progress + 1)); 0: the plain loopback."""
    if net.shm is None:
        return 0.0
    _, core, node_Bps, cache, cache_Bps = net.shm
    if nbytes <= cache:
        return cache_Bps
    ends = copies.setdefault(("copy", node), [])
    ends[:] = [e for e in ends if e > start]
    rate = min(core, node_Bps / (len(ends) + 1))
    ends.append(start + (nbytes + ENVELOPE_BYTES) / rate)
    return rate


def _charges(net: Torus, st: Settings, flows, kinds, eager: bool):
    """Per flow, as the simulated MPI layer charges it (apps/smpi/glue/sim_p2p.cpp): (the sender's
    overhead before the message, the receiver's charge after the data arrived, eager).
    all: every message's overheads (off-node send + receive, on-node the shm overhead at the
    sender); smpi: SMPI's op-cost callbacks (the send side on eager or nonblocking sends, the
    receive side when the sender was eager). fair: the receiver then sleeps hops x hop latency.
    A merged ring message of 1 + m steps: the receiver then sleeps m x the step charge (the
    route's latency + the overheads a piece would have been charged)."""
    out = []
    fair = st.sharing == "fair"
    shm = net.shm[0] if net.shm else 0.0
    for i, (s, d, nb, r) in enumerate(flows):
        if kinds and isinstance(kinds[i], dcmf.Deposit):  # a rectangle flow: _deposit_charges
            out.append(None)
            continue
        nonblocking, merged = kinds[i] if kinds else (False, 0)
        detached = eager and nb < st.eager_bytes
        o_s, o_r = (net.net_send, net.net_recv) if r else (shm, 0.0)
        if st.overheads != "all" or not st.layer:
            o_s = o_s if (detached or nonblocking) else 0.0
            o_r = o_r if detached else 0.0
        hop = len(r) * net.hop_lat
        after = o_r + (hop if fair and st.layer else 0.0)
        if merged:
            step_o = ((net.net_send + net.net_recv) if r else shm) if (
                st.overheads == "all" or (eager and nb / (1 + merged) < st.eager_bytes)) else 0.0
            after += merged * (hop + step_o)
        out.append((o_s, after, detached))
    return out


def _deposit_starts(net: Torus, free: list[float], flows, kinds, starts: list, clocks: dict) -> None:
    """Starts of the round's rectangle flows (in place), on the broadcast's clocks (`clocks`, kept
    across its rounds): ('s', src, dst, color) the stream's last chunk landed, ('r', rank, color)
    the rank has the color's next chunk (the root: from its start), ('a', rank) its actor is free.
    A stream sends when the first two are past, after the rank's send overhead (the shm overhead
    on node; none for a relayed stretch), without the receiver (a DMA deposit)."""
    shm = net.shm[0] if net.shm else 0.0
    for i, (s, d, _, _) in enumerate(flows):
        dep = kinds[i]
        if isinstance(dep, dcmf.Deposit):
            t = max(clocks.get(("s", s, d, dep.color), 0.0), clocks.setdefault(("r", s, dep.color), free[s]))
            if dep.posted:
                o = shm if dep.onnode else net.net_send
                t = _actor_slot(clocks.setdefault(("a", s), [(free[s], free[s])]), t, o) + o
            starts[i] = t


def _actor_slot(busy: list, t: float, length: float) -> float:
    """Start of the first gap of `length` at or after t in a rank's busy intervals (sorted, kept
    short), which it then holds: the rank's one actor posts and takes one thing at a time, in
    whatever order they become possible."""
    at = max(0, bisect.bisect_left(busy, (t,)) - 1)  # the last interval starting before t may cover it
    n = len(busy)
    while at < n:
        b0, b1 = busy[at]
        if b1 > t:
            if b0 >= t + length:
                break
            t = b1
        at += 1
    busy.insert(at, (t, t + length))
    if n >= 16:  # the oldest intervals are long past
        del busy[:8]
    return t


def _actor_free_at(busy: list, t: float) -> float:
    """The first time at or after t when a rank's actor is not busy (busy: _actor_slot's list)."""
    for b0, b1 in busy:
        if b0 <= t < b1:
            t = b1
    return t


def _deposit_arrivals(net: Torus, st: Settings, dep, d: int, route, end: float, seen: float, arrived: dict) -> None:
    """A rectangle flow's arrivals (time, the receiver's charge after it): at its receiver (the
    receive overhead on a line's last stretch when overheads are all; hops x hop latency when
    fair) and at every node its line passed (the deposit bit: a 0-byte message at the landing,
    sent when the sender's actor has seen the landing (`seen`), on the wire's latency unless
    fair, then their hops x hop latency when fair)."""
    fair = st.sharing == "fair"
    after = (net.net_recv if dep.charged and route and st.overheads == "all" else 0.0) + (
        dep.hops * net.hop_lat if fair else 0.0)
    arrived.setdefault(d, []).append((end, after, dep.color))
    for p, h in dep.passed:
        lat = h * net.hop_lat
        arrived.setdefault(p, []).append((seen, lat, dep.color) if fair else (seen + lat, 0.0, dep.color))


def _timed_round(net: Torus, free: list[float], flows, share: bool, ledger=None, eager: bool = True,
                 settings: Settings = LEGACY, kinds=None, clocks: dict | None = None) -> dict:
    """End times of one round's flows; a flow starts when both ends are free. Its share of a
    link is first the lockstep count (all the round's flows on it), then recounted once:
    - re-sharing (`ledger` given: per link, the intervals of every flow placed so far, any
      round, phase or step): 1 + the time-averaged number of other flows on the link during
      the flow's life, as SimGrid's max-min re-shares whenever a flow starts or ends;
    - else the round's flows whose intervals overlap it at all, each counted in full.
    With route sharing a k-hop flow counts k / h for each h-hop flow (1 for itself).
    Eager sends (< settings.eager_bytes; `eager`): SMPI detaches them, so the sender goes on
    after its overhead and only the receiver waits for the end; a rank's sends of successive
    rounds and phases are then in flight together (and share links by the ledger). Larger
    sends are rendezvous: both ends wait. The sender's overhead delays the message; the
    receiver's overhead (and, fair, the hop latency) follows the data (`kinds`: per flow
    (nonblocking, merged ring steps), settings: _charges)."""
    weighted = settings.sharing == "route"
    wire_lat = settings.sharing != "fair"
    deposits = kinds is not None and any(isinstance(k, dcmf.Deposit) for k in kinds)
    charged = bool(net.net_send or net.net_recv or net.shm or not wire_lat or settings.ring_merge > 1 or deposits)
    charges = _charges(net, settings, flows, kinds, eager) if charged else None
    if charges:  # the sender's overhead first; a sendrecv posts its receive after its own send's
        pre = {s: c[0] for (s, _, _, _), c in zip(flows, charges) if c and c[0]}
        starts = [max(free[s] + c[0], free[d] + pre.get(d, 0.0)) if c else 0.0
                  for (s, d, _, _), c in zip(flows, charges)]
        got: dict = {}
        post: dict = {}
        if deposits:
            clocks = {} if clocks is None else clocks
            _deposit_starts(net, free, flows, kinds, starts, clocks)
            arrived: dict = {}
    else:
        starts = [max(free[s], free[d]) for s, d, _, _ in flows]
    floor = min(free) if ledger is not None else 0.0  # no later flow starts before it
    on: dict = {}
    for i, (_, _, _, route) in enumerate(flows):
        for link in route:
            on.setdefault(link, []).append(i)
    copies = ledger if ledger is not None else {}
    rates = ([_onnode_rate(net, s // net.cores, nb, st, copies) if not r else 0.0
              for (s, _, nb, r), st in zip(flows, starts)] if net.shm else None)
    if weighted:
        inv = {link: sum(1.0 / len(flows[j][3]) for j in idx) for link, idx in on.items()}
        k0 = [max((len(r) * inv[link] for link in r), default=1) if share else 1 for _, _, _, r in flows]
    else:
        k0 = [max((len(on[link]) for link in r), default=1) if share else 1 for _, _, _, r in flows]
    if rates:
        ends = [st + _seconds(net, r, nb, k, wire_lat, rt)
                for st, (_, _, nb, r), k, rt in zip(starts, flows, k0, rates)]
    else:
        ends = [st + _seconds(net, r, nb, k, wire_lat) for st, (_, _, nb, r), k in zip(starts, flows, k0)]
    new: dict = {}
    placed = []
    if share and ledger is not None:  # every flow of the round on the link, then the earlier ones
        there = {link: [(starts[j], ends[j], len(flows[j][3])) for j in on[link]] + _live(ledger, link, floor)
                 for link in on}
    for i, (s, d, nb, r) in enumerate(flows):
        k = 1
        if share and ledger is not None and r:  # the flow itself is in `there`: its full overlap is the 1
            # _overlap_load for each link, inlined (the replay's inner loop): the busiest link's load
            si, ei = starts[i], ends[i]
            dur = ei - si
            if dur <= 0:
                k = 0.0
            else:
                h = len(r)
                best = -1.0
                for link in r:
                    acc = 0.0
                    for iv in there[link]:
                        b0, b1 = iv[0], iv[1]
                        if b1 > si and b0 < ei:
                            if weighted:
                                acc += ((ei if ei < b1 else b1) - (si if si > b0 else b0)) * h / iv[2]
                            else:
                                acc += (ei if ei < b1 else b1) - (si if si > b0 else b0)
                    if acc > best:
                        best = acc
                k = best / dur
        elif share and ledger is not None:
            k = 1
        elif share:
            for link in r:
                if weighted:
                    k = max(k, sum(len(r) / len(flows[j][3]) for j in on[link]
                                   if starts[j] < ends[i] and starts[i] < ends[j]))
                else:
                    k = max(k, sum(1 for j in on[link] if starts[j] < ends[i] and starts[i] < ends[j]))
        end = starts[i] + _seconds(net, r, nb, k, wire_lat, rates[i] if rates else 0.0)
        placed.append((r, starts[i], end))
        if charges and charges[i] is None:  # a rectangle flow: its stream is free when it landed
            new[s] = max(new.get(s, 0.0), end)
            clocks[("s", s, d, kinds[i].color)] = end
            # the sender's actor sees the landing (and notifies the passed nodes) when it is free
            seen = _actor_free_at(clocks[("a", s)], end) if kinds[i].passed else end
            _deposit_arrivals(net, settings, kinds[i], d, r, end, seen, arrived)
            continue
        if charges:  # a rank's charges after its messages of the round (a sendrecv: after both)
            o_s, after, detached = charges[i]
            got[d] = max(got.get(d, 0.0), end)
            post[d] = max(post.get(d, 0.0), after)
            sent = free[s] + o_s if detached else end
            new[s] = max(new.get(s, 0.0), sent)
            continue
        new[d] = max(new.get(d, 0.0), end)
        if not (eager and nb < settings.eager_bytes):
            new[s] = max(new.get(s, 0.0), end)
    if charges:
        for d, t in got.items():
            new[d] = max(new.get(d, 0.0), t) + post[d]
        if deposits:  # a rank's actor takes each arrival in its first free slot, then charged
            for d, got_d in arrived.items():
                busy = clocks.setdefault(("a", d), [(free[d], free[d])])
                t = 0.0
                for at, after, color in sorted(got_d):
                    t = _actor_slot(busy, at, after) + after
                    clocks[("r", d, color)] = t
                new[d] = max(new.get(d, 0.0), t)
    if ledger is not None:
        for r, st, end in placed:
            h = len(r)
            for link in r:
                ledger.setdefault(link, []).append((st, end, h))
    return new


def dataflow_times(case: Case, marks: tuple[int, ...], share: bool = True, eager: bool = True,
                   reshare: bool = True, settings: Settings = LEGACY) -> dict[int, float]:
    """Time of the first s steps, for every s in `marks`, from ONE replay of max(marks) steps
    (the first s steps of a longer replay are the s-step replay), with every rank on its own
    clock (the overlap between phases and steps): a message starts when both ends are free,
    eager ones free the sender at once, and flows share links with the flows there at the
    same time (`reshare`: time-averaged over every flow in flight; else the round's
    overlapping flows); a rank that has its panels updates and goes on to the next step.
    Each time ends with the closing barrier (max)."""
    net = case.net
    free = [0.0] * (case.P * case.Q)
    update = 2.0 * (case.n / case.P) * (case.n / case.Q) * case.b / net.gamma
    ledger = {} if reshare else None
    if case.bcast in SMPI_BCAST_NAMES and settings.layer:  # SMPI's own broadcast: only its callbacks charge
        settings = dataclasses.replace(settings, layer=False)
    times = {}
    for step in range(max(marks)):
        for rounds in _step_rounds(net, case, step, settings.ring_merge):
            clocks: dict = {}  # the phase's rectangle streams (_deposit_starts)
            for flows, kinds in rounds:
                for r, t in _timed_round(net, free, flows, share, ledger, eager, settings, kinds, clocks).items():
                    free[r] = max(free[r], t)
        free = [t + update for t in free]
        if step + 1 in marks:
            times[step + 1] = max(free)
    return times


def dataflow_time(case: Case, steps: int, share: bool = True, eager: bool = True, reshare: bool = True,
                  settings: Settings = LEGACY) -> float:
    """Time of the first `steps` steps (dataflow_times)."""
    return dataflow_times(case, (steps,), share, eager, reshare, settings)[steps]


def scaled_time(case: Case, steps_fit: tuple[int, ...], share: bool = True, eager: bool = True,
                reshare: bool = True, settings: Settings = LEGACY) -> float:
    """The whole multiply from the first steps, scaled as the simulation's rows are
    (step_slope.py: from the slope of two step counts; else one count times n/b / steps)."""
    k = case.n // case.b
    if len(steps_fit) == 2:
        s1, s2 = steps_fit
        times = dataflow_times(case, (s1, s2), share, eager, reshare, settings)
        t1, t2 = times[s1], times[s2]
        return t2 + (k - s2) * (t2 - t1) / (s2 - s1)
    (s,) = steps_fit
    return dataflow_time(case, s, share, eager, reshare, settings) * k / s


def compute_time(case: Case) -> float:
    """The local updates of the whole multiply: 2 n^3 / (P Q gamma) (the thesis' compute)."""
    return 2.0 * case.n ** 3 / (case.P * case.Q * case.net.gamma)


def alpha_beta_lower_bound(case: Case) -> float:
    """Plain alpha-beta (hympi_model.py) with the platform's end-to-end alpha (bgp-torus 3 us;
    bgp: the overheads + the mean distance's hop latency), link bandwidth and core rate: no
    routes, no sharing, so a lower bound. The layer's selections count as van de Geijn."""
    import hympi_model as hm
    net = case.net
    alpha = (3e-6 if case.machine == "bgp-torus"
             else net.net_send + net.net_recv + mean_torus_hops(net.dims) * net.hop_lat)
    pb = hm.Problem(case.n, case.n, case.n, case.b, case.b, case.P, case.Q)
    mc = hm.Machine(alpha, 1 / net.link_Bps, net.gamma, case.elem_bytes)
    bcast = case.bcast if case.bcast in ("binomial", "vandegeijn") else "vandegeijn"
    return hm.predict(pb, mc, bcast, case.I, case.J).t_total


def bcast_name(bcast: str) -> str:
    """The broadcast as the simulated rows' `bcast` column names it."""
    return SMPI_BCAST_NAMES.get(bcast, bcast)


def fidelity_label(st: Settings, bcast: str) -> str:
    """The rows' `fidelity` column: faithful, legacy, or faithful;<the settings that differ>."""
    if st == FAITHFUL and bcast == FAITHFUL_BCAST:
        return "faithful"
    if st == LEGACY and bcast in SMPI_BCAST_NAMES:
        return "legacy"
    mine = dict(sharing=st.sharing, overheads=st.overheads, eager_bytes=st.eager_bytes, bcast=bcast_name(bcast),
                ring_merge=st.ring_merge)
    ref = dict(sharing=FAITHFUL.sharing, overheads=FAITHFUL.overheads, eager_bytes=FAITHFUL.eager_bytes,
               bcast=FAITHFUL_BCAST, ring_merge=FAITHFUL.ring_merge)
    return ";".join(["faithful"] + [f"{k}={v}" for k, v in mine.items() if v != ref[k]])


def settings_from_args(a, ap) -> tuple[Settings, str]:
    """The preset (--fidelity; default faithful on bgp, legacy on bgp-torus), overridden by
    the individual options."""
    fidelity = a.fidelity or ("faithful" if a.machine == "bgp" else "legacy")
    base, bcast = (FAITHFUL, FAITHFUL_BCAST) if fidelity == "faithful" else (LEGACY, LEGACY_BCAST)
    st = Settings(a.sharing or base.sharing, a.overheads or base.overheads,
                  base.eager_bytes if a.eager_bytes is None else a.eager_bytes,
                  base.ring_merge if a.ring_merge is None else a.ring_merge)
    bcast = a.bcast or bcast
    if st.eager_bytes < 0 or st.ring_merge < 1:
        ap.error(f"--eager-bytes {st.eager_bytes} must be >= 0 and --ring-merge {st.ring_merge} >= 1")
    if st.ring_merge > 1 and bcast not in ("mpich", "dcmf"):
        ap.error(f"--ring-merge {st.ring_merge} merges the layer's ring (--bcast mpich or dcmf), not SMPI's {bcast}")
    return st, bcast


def add_settings_options(ap) -> None:
    ap.add_argument("--fidelity", choices=("faithful", "legacy"),
                    help="preset: faithful (fair, all, 1200, dcmf, 1) or legacy (unweighted, smpi, 65536, "
                         "vandegeijn, 1: the model's numbers before 2026-11-27); default faithful on bgp, legacy "
                         "on bgp-torus; the options below override it")
    ap.add_argument("--sharing", choices=SHARINGS, help="link sharing (fair | route: SimGrid's latency-weighted | "
                                                         "unweighted: route latency, equal weights)")
    ap.add_argument("--overheads", choices=OVERHEADS, help="all: every message; smpi: SMPI's op-cost rule")
    ap.add_argument("--eager-bytes", type=int, help="eager limit in bytes (faithful 1200, legacy 65536)")
    ap.add_argument("--bcast", choices=BCASTS, help="broadcast: binomial / vandegeijn (SMPI's), mpich / dcmf "
                                                     "(the layer's selections)")
    ap.add_argument("--ring-merge", type=int, help="S ring steps per message (mpich/dcmf rings; default 1)")


def main(argv=None) -> int:
    import argparse
    import csv
    import resource
    import time
    from hympi_model import group_shapes, parse_grid, square_grid
    ap = argparse.ArgumentParser(description="Route-aware SUMMA/HSUMMA time on a bgp platform of make_platform.py "
                                 "(block placement, 4 ranks per node); one CSV row per G.")
    ap.add_argument("-n", type=int, required=True, help="matrix order")
    ap.add_argument("-b", type=int, required=True, help="block (b = M)")
    ap.add_argument("-p", type=int, required=True, help="ranks (a multiple of 4; most square grid)")
    ap.add_argument("--groups", default="1x1", help="comma list of I x J or G (hympi-model's shape of G), e.g. "
                    "1x1,8x8 or 1,64 (default SUMMA)")
    ap.add_argument("--machine", choices=MACHINES, default="bgp-torus",
                    help="bgp-torus (--shm-costs off, the committed torus sweeps; default) or bgp (the thesis' "
                         "BG/P, on-node costs on)")
    add_settings_options(ap)
    ap.add_argument("--steps", default="2,4", help="steps replayed: two counts (slope) or one (scaled); default 2,4")
    ap.add_argument("--static", action="store_true", help="also the static form's columns (predict())")
    a = ap.parse_args(argv)
    st, bcast = settings_from_args(a, ap)
    if min(a.n, a.b, a.p) < 1:
        ap.error(f"-n {a.n}, -b {a.b} and -p {a.p} must be positive")
    P, Q = square_grid(a.p)
    if a.p % Torus.cores or a.n % P or a.n % Q or a.n % a.b:
        ap.error(f"-p {a.p} must be a multiple of {Torus.cores} and n={a.n} divisible by the grid "
                 f"{P}x{Q} and by b={a.b}")
    try:
        steps = tuple(int(x) for x in a.steps.split(","))
    except ValueError:
        ap.error(f"--steps {a.steps!r}: expected one or two integers")
    if len(steps) not in (1, 2) or min(steps) < 1 or (len(steps) == 2 and steps[0] >= steps[1]):
        ap.error(f"--steps {a.steps!r}: one count >= 1 or two increasing counts")
    cases = []
    shapes = {I * J: (I, J) for I, J in group_shapes(P, Q)}
    for g in a.groups.split(","):
        try:
            I, J = shapes[int(g)] if g.isdigit() else parse_grid(g)
        except KeyError:
            ap.error(f"--groups {g}: no I x J shape of G = {g} divides the grid {P}x{Q}")
        except ValueError:
            ap.error(f"--groups {g!r}: expected I x J (e.g. 8x8) or a number G (hympi-model's shape of G)")
        if P % I or Q % J:
            ap.error(f"groups {g} do not divide the grid {P}x{Q}")
        cases.append(Case(a.n, a.b, P, Q, I, J, bcast, machine=a.machine))
    out = csv.writer(sys.stdout)
    out.writerow(["kind", "machine", "p", "n", "b", "bcast", "I", "J", "G", "steps", "fidelity", "sharing", "overheads",
                  "eager_bytes", "ring_merge", "t_model", "t_comm", "t_comp", "t_alpha_beta_lower_bound", "host_s",
                  "host_max_rss_mb"] + (["t_comm_static_overlap", "t_comm_static_sum"] if a.static else []))
    for case in cases:
        t0 = time.process_time()
        try:
            total = scaled_time(case, steps, settings=st)
        except NotImplementedError as e:
            ap.error(str(e))
        host = time.process_time() - t0
        comp = compute_time(case)
        extra = []
        if a.static:
            static = predict(case)
            extra = [static["t_comm"], static["t_comm_no_overlap"]]
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        out.writerow(["route-model", a.machine, a.p, a.n, a.b, bcast_name(bcast), case.I, case.J, case.I * case.J,
                      a.steps, fidelity_label(st, bcast), st.sharing, st.overheads, st.eager_bytes, st.ring_merge] +
                     [f"{x:.6g}" for x in (total, total - comp, comp, alpha_beta_lower_bound(case))] +
                     [f"{host:.1f}", f"{rss:.0f}"] + [f"{x:.6g}" for x in extra])
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
