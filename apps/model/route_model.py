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
"""
from __future__ import annotations

import functools
import math
import os
import sys
from dataclasses import dataclass

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "smpi", "platforms"))
from make_platform import torus_dims, mean_torus_hops  # noqa: E402

BCASTS = ("binomial", "vandegeijn")
GAMMA = 3.4e9  # flop/s per core of bgp-torus (make_platform.py)


@dataclass(frozen=True)
class Torus:
    """The bgp-torus platform as make_platform.py writes it (--shm-costs off)."""
    nodes: int
    cores: int = 4
    link_Bps: float = 425e6
    loop_Bps: float = 1.5e9
    loop_lat: float = 1e-6

    @functools.cached_property
    def dims(self) -> tuple[int, int, int]:
        return torus_dims(self.nodes)

    @functools.cached_property
    def hop_lat(self) -> float:
        return 3e-6 / max(1.0, mean_torus_hops(self.dims))

    def route(self, a: int, b: int) -> list[tuple[int, int, int]]:
        """Directed links (node, dimension, +1/-1) from node a to node b."""
        links, cur, stride = [], a, 1
        for d in self.dims:
            ca, cb = (cur // stride) % d, (b // stride) % d
            up = (cb - ca) % d
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


ROUNDS = {"binomial": binomial_rounds, "vandegeijn": vandegeijn_rounds}


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
    per = [ROUNDS[bcast](m, root, nbytes) for m, root in comms]
    total = 0.0
    for t in range(max((len(r) for r in per), default=0)):
        flows = [f for r in per if t < len(r) for f in r[t]]
        total += round_time(net, flows, share)
    return total


@dataclass(frozen=True)
class Case:
    """One simulated multiply: n x n x n, block b = M, P x Q grid, I x J groups."""
    n: int
    b: int
    P: int
    Q: int
    I: int = 1
    J: int = 1
    bcast: str = "binomial"
    elem_bytes: int = 8


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
    (ranks that have forwarded go on), so a step costs the longer of the two, not the sum."""
    net = Torus(case.P * case.Q // Torus.cores)
    steps = case.n // case.b
    sample = range(min(sample_steps, steps))
    row = sum(direction_time(net, case, True, s, share) for s in sample) / len(sample)
    col = sum(direction_time(net, case, False, s, share) for s in sample) / len(sample)
    comp = 2.0 * case.n ** 3 / (case.P * case.Q * GAMMA)
    return {"t_row": row * steps, "t_col": col * steps, "t_comm": max(row, col) * steps,
            "t_comm_no_overlap": (row + col) * steps, "t_comp": comp,
            "t_total": max(row, col) * steps + comp}


def _step_rounds(net: Torus, case: Case, step: int):
    """The step's phases in the engine's order (outer A, outer B, inner A, inner B; SUMMA:
    A, B), each a list of rounds of (src, dst, bytes, route), all concurrent communicators merged."""
    rows, cols = _levels(case, True, step), _levels(case, False, step)
    order = [rows[0], cols[0], rows[1], cols[1]] if len(rows) == 2 else [rows[0], cols[0]]
    phases = []
    for comms, nb in order:
        per = [ROUNDS[case.bcast](m, root, nb) for m, root in comms]
        rounds = []
        for t in range(max((len(r) for r in per), default=0)):
            flows = [f for r in per if t < len(r) for f in r[t]]
            rounds.append([(s, d, b, net.route(s // net.cores, d // net.cores) if s // net.cores != d // net.cores
                            else []) for s, d, b in flows])
        phases.append(rounds)
    return phases


ENVELOPE_BYTES = 16  # SMPI sends every message as its payload + a 16-byte MPI envelope


def _seconds(net: Torus, route: list, nbytes: float, k: float) -> float:
    """One flow alone on the loopback, or over `route` at 1/k of the link bandwidth."""
    nbytes += ENVELOPE_BYTES
    if not route:
        return net.loop_lat + nbytes / net.loop_Bps
    return len(route) * net.hop_lat + nbytes * k / net.link_Bps


EAGER_BYTES = 65536  # SMPI's smpi/send-is-detached-thresh: smaller sends are detached (eager)


def _overlap_load(i_start: float, i_end: float, intervals) -> float:
    """Time-averaged number of other flows on a link during [i_start, i_end]: max-min shares a
    link among the flows there at each instant, re-sharing as flows start and end."""
    dur = i_end - i_start
    if dur <= 0:
        return 0.0
    return sum(min(i_end, e) - max(i_start, s) for s, e in intervals if e > i_start and s < i_end) / dur


def _live(ledger: dict, link, floor: float) -> list:
    """The link's placed intervals that end after `floor` (older ones can overlap nothing)."""
    live = [iv for iv in ledger.get(link, ()) if iv[1] > floor]
    ledger[link] = live
    return live


def _timed_round(net: Torus, free: list[float], flows, share: bool, ledger=None, eager: bool = True) -> dict:
    """End times of one round's flows; a flow starts when both ends are free. Its share of a
    link is first the lockstep count (all the round's flows on it), then recounted once:
    - re-sharing (`ledger` given: per link, the intervals of every flow placed so far, any
      round, phase or step): 1 + the time-averaged number of other flows on the link during
      the flow's life, as SimGrid's max-min re-shares whenever a flow starts or ends;
    - else the round's flows whose intervals overlap it at all, each counted in full.
    Eager sends (< EAGER_BYTES; `eager`): SMPI detaches them, so the sender goes on at once
    and only the receiver waits for the end; a rank's sends of successive rounds and phases
    are then in flight together (and share links by the ledger). Larger sends are
    rendezvous: both ends wait."""
    starts = [max(free[s], free[d]) for s, d, _, _ in flows]
    floor = min(free) if ledger is not None else 0.0  # no later flow starts before it
    on: dict = {}
    for i, (_, _, _, route) in enumerate(flows):
        for link in route:
            on.setdefault(link, []).append(i)
    k0 = [max((len(on[link]) for link in r), default=1) if share else 1 for _, _, _, r in flows]
    ends = [st + _seconds(net, r, nb, k) for st, (_, _, nb, r), k in zip(starts, flows, k0)]
    new: dict = {}
    placed = []
    if share and ledger is not None:  # every flow of the round on the link, then the earlier ones
        there = {link: [(starts[j], ends[j]) for j in on[link]] + _live(ledger, link, floor) for link in on}
    for i, (s, d, nb, r) in enumerate(flows):
        k = 1
        if share and ledger is not None:  # the flow itself is in `there`: its full overlap is the 1
            k = max((_overlap_load(starts[i], ends[i], there[link]) for link in r), default=1)
        elif share:
            for link in r:
                k = max(k, sum(1 for j in on[link] if starts[j] < ends[i] and starts[i] < ends[j]))
        end = starts[i] + _seconds(net, r, nb, k)
        placed.append((r, starts[i], end))
        new[d] = max(new.get(d, 0.0), end)
        if not (eager and nb < EAGER_BYTES):
            new[s] = max(new.get(s, 0.0), end)
    if ledger is not None:
        for r, st, end in placed:
            for link in r:
                ledger.setdefault(link, []).append((st, end))
    return new


def dataflow_times(case: Case, marks: tuple[int, ...], share: bool = True, eager: bool = True,
                   reshare: bool = True) -> dict[int, float]:
    """Time of the first s steps, for every s in `marks`, from ONE replay of max(marks) steps
    (the first s steps of a longer replay are the s-step replay), with every rank on its own
    clock (the overlap between phases and steps): a message starts when both ends are free,
    eager ones free the sender at once, and flows share links with the flows there at the
    same time (`reshare`: time-averaged over every flow in flight; else the round's
    overlapping flows); a rank that has its panels updates and goes on to the next step.
    Each time ends with the closing barrier (max)."""
    net = Torus(case.P * case.Q // Torus.cores)
    free = [0.0] * (case.P * case.Q)
    update = 2.0 * (case.n / case.P) * (case.n / case.Q) * case.b / GAMMA
    ledger = {} if reshare else None
    times = {}
    for step in range(max(marks)):
        for rounds in _step_rounds(net, case, step):
            for flows in rounds:
                for r, t in _timed_round(net, free, flows, share, ledger, eager).items():
                    free[r] = max(free[r], t)
        free = [t + update for t in free]
        if step + 1 in marks:
            times[step + 1] = max(free)
    return times


def dataflow_time(case: Case, steps: int, share: bool = True, eager: bool = True, reshare: bool = True) -> float:
    """Time of the first `steps` steps (dataflow_times)."""
    return dataflow_times(case, (steps,), share, eager, reshare)[steps]


def scaled_time(case: Case, steps_fit: tuple[int, ...], share: bool = True, eager: bool = True,
                reshare: bool = True) -> float:
    """The whole multiply from the first steps, scaled as the simulation's rows are
    (step_slope.py: from the slope of two step counts; else one count times n/b / steps)."""
    k = case.n // case.b
    if len(steps_fit) == 2:
        s1, s2 = steps_fit
        times = dataflow_times(case, (s1, s2), share, eager, reshare)
        t1, t2 = times[s1], times[s2]
        return t2 + (k - s2) * (t2 - t1) / (s2 - s1)
    (s,) = steps_fit
    return dataflow_time(case, s, share, eager, reshare) * k / s


def alpha_beta_lower_bound(case: Case) -> float:
    """Plain alpha-beta (hympi_model.py) with the platform's end-to-end alpha (3 us), link
    bandwidth and core rate: no routes, no sharing, so a lower bound."""
    import hympi_model as hm
    pb = hm.Problem(case.n, case.n, case.n, case.b, case.b, case.P, case.Q)
    mc = hm.Machine(3e-6, 1 / Torus.link_Bps, GAMMA, case.elem_bytes)
    return hm.predict(pb, mc, case.bcast, case.I, case.J).t_total


def main(argv=None) -> int:
    import argparse
    import csv
    from hympi_model import parse_grid, square_grid
    ap = argparse.ArgumentParser(description="Route-aware SUMMA/HSUMMA time on the bgp-torus platform "
                                 "(block placement, 4 ranks per node, --shm-costs off); one CSV row per G.")
    ap.add_argument("-n", type=int, required=True, help="matrix order")
    ap.add_argument("-b", type=int, required=True, help="block (b = M)")
    ap.add_argument("-p", type=int, required=True, help="ranks (a multiple of 4; most square grid)")
    ap.add_argument("--groups", default="1x1", help="comma list of I x J, e.g. 1x1,8x8 (default SUMMA)")
    ap.add_argument("--bcast", choices=BCASTS, default="binomial")
    ap.add_argument("--steps", default="2,4", help="steps replayed: two counts (slope) or one (scaled); default 2,4")
    a = ap.parse_args(argv)
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
    out = csv.writer(sys.stdout)
    out.writerow(["kind", "p", "n", "b", "bcast", "I", "J", "G", "steps", "t_model", "t_comm_static_overlap",
                  "t_comm_static_sum", "t_comp", "t_alpha_beta_lower_bound"])
    for g in a.groups.split(","):
        I, J = parse_grid(g)
        if P % I or Q % J:
            ap.error(f"groups {g} do not divide the grid {P}x{Q}")
        case = Case(a.n, a.b, P, Q, I, J, a.bcast)
        static = predict(case)
        lb = alpha_beta_lower_bound(case)
        out.writerow(["route-model", a.p, a.n, a.b, a.bcast, I, J, I * J, a.steps] +
                     [f"{x:.6g}" for x in (scaled_time(case, steps), static["t_comm"], static["t_comm_no_overlap"],
                                           static["t_comp"], lb)])
    return 0


if __name__ == "__main__":
    sys.exit(main())
