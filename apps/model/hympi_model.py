"""Alpha-beta (Hockney) cost model of SUMMA and hierarchical SUMMA (HSUMMA).

Following Hasanov's thesis (ch. 4): a broadcast of m bytes among p processes costs
    T_bcast(m, p) = L(p) * alpha + m * W(p) * beta
with, per algorithm,
    binomial tree             L = log2 p            W = log2 p
    scatter-allgather (vdG)   L = log2 p + p - 1    W = 2 (p - 1) / p
    pipelined linear, X segs  L = p + X - 2         W = (p + X - 2) / X
(log2 taken continuous, as in the thesis; p = 1 costs nothing).

C = A B with A m x k, B k x n on a P x Q grid split into I x J groups (G = I J).
HSUMMA: k/M outer steps broadcast A panels (m/P x M) among the J groups of a row
and B panels (M x n/Q) among the I groups of a column; k/b inner steps broadcast
(m/P x b) among the Q/J ranks of a group row and (b x n/Q) among the P/I ranks of a
group column. SUMMA is I = J = 1 (no outer level). Row and column broadcasts are
sequential; the local update costs 2 m n k / (P Q gamma).

With the vdG broadcast, M = b, square grid and square groups, HSUMMA beats SUMMA
for every 1 < G < p iff alpha/beta > 2 n b / p (beta per element), best at
G = sqrt(p) (thesis eq. 4.10).
"""
from __future__ import annotations

import math
import os
import sys
from dataclasses import dataclass, asdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "harness"))
from hympi_harness import grid as _grid  # noqa: E402

BCASTS = ("binomial", "vandegeijn", "pipelined")


def bcast_terms(algorithm: str, p: int, segments: int = 16) -> tuple[float, float]:
    """(L(p), W(p)) of one broadcast among p processes."""
    if p < 1:
        raise ValueError(f"broadcast among {p} processes")
    if p == 1:
        return 0.0, 0.0
    if algorithm == "binomial":
        lg = math.log2(p)
        return lg, lg
    if algorithm == "vandegeijn":
        return math.log2(p) + p - 1, 2.0 * (p - 1) / p
    if algorithm == "pipelined":
        if segments < 1:
            raise ValueError(f"pipelined broadcast needs >= 1 segment, got {segments}")
        steps = p + segments - 2
        return float(steps), steps / segments
    raise ValueError(f"unknown broadcast '{algorithm}' (expected one of {', '.join(BCASTS)})")


def bcast_time(algorithm: str, nbytes: float, p: int, alpha: float, beta: float, segments: int = 16) -> float:
    lat, bw = bcast_terms(algorithm, p, segments)
    return lat * alpha + nbytes * bw * beta


@dataclass
class Machine:
    alpha: float  # seconds per message
    beta: float  # seconds per byte
    gamma: float  # flop/s per process
    elem_bytes: int = 8


@dataclass
class Problem:
    m: int
    n: int
    k: int
    b: int
    M: int
    P: int
    Q: int


@dataclass
class Prediction:
    algorithm: str  # summa | hsumma
    bcast: str
    G: int
    I: int
    J: int
    t_outer: float
    t_inner: float
    t_comm: float
    t_comp: float
    t_total: float

    def row(self) -> dict:
        return asdict(self)


def predict(pb: Problem, mc: Machine, bcast: str, I: int = 1, J: int = 1, segments: int = 16) -> Prediction:
    """Time of HSUMMA with I x J groups (SUMMA when I = J = 1)."""
    if pb.P % I or pb.Q % J:
        raise ValueError(f"groups {I}x{J} do not divide the grid {pb.P}x{pb.Q}")
    if pb.M % pb.b:
        raise ValueError(f"outer block M={pb.M} is not a multiple of b={pb.b}")
    e = mc.elem_bytes
    a_rows, b_cols = pb.m / pb.P, pb.n / pb.Q
    grouped = I * J > 1
    t_outer = 0.0
    if grouped:
        outer_steps = pb.k / pb.M
        t_outer = outer_steps * (
            bcast_time(bcast, a_rows * pb.M * e, J, mc.alpha, mc.beta, segments)
            + bcast_time(bcast, pb.M * b_cols * e, I, mc.alpha, mc.beta, segments)
        )
    inner_steps = pb.k / pb.b
    t_inner = inner_steps * (
        bcast_time(bcast, a_rows * pb.b * e, pb.Q // J, mc.alpha, mc.beta, segments)
        + bcast_time(bcast, pb.b * b_cols * e, pb.P // I, mc.alpha, mc.beta, segments)
    )
    t_comp = 2.0 * pb.m * pb.n * pb.k / (pb.P * pb.Q * mc.gamma)
    t_comm = t_outer + t_inner
    return Prediction("hsumma" if grouped else "summa", bcast, I * J, I, J, t_outer, t_inner, t_comm, t_comp,
                      t_comm + t_comp)


def group_shapes(P: int, Q: int) -> list[tuple[int, int]]:
    """One I x J per group count G = I J (I | P, J | Q), the most square one, by G."""
    best: dict[int, tuple[int, int]] = {}
    for I in range(1, P + 1):
        if P % I:
            continue
        for J in range(1, Q + 1):
            if Q % J:
                continue
            G = I * J
            # Prefer groups shaped like the grid (I/J as close to P/Q as possible).
            score = abs(math.log((I / J) / (P / Q)))
            if G not in best or score < best[G][0]:
                best[G] = (score, (I, J))
    return [best[G][1] for G in sorted(best)]


def sweep(pb: Problem, mc: Machine, bcast: str, segments: int = 16) -> list[Prediction]:
    """SUMMA first, then HSUMMA for every group count G (G = 1 and G = p included)."""
    rows = [predict(pb, mc, bcast, 1, 1, segments)]
    for I, J in group_shapes(pb.P, pb.Q):
        p = predict(pb, mc, bcast, I, J, segments)
        p.algorithm = "hsumma"
        rows.append(p)
    return rows


def optimal(rows: list[Prediction]) -> Prediction:
    hs = [r for r in rows if r.algorithm == "hsumma"]
    return min(hs, key=lambda r: (r.t_total, r.G))


# The most square P x Q for p ranks, and "PxQ" text: the harness's rules (one Python
# copy of the library's; tests/model checks them against the C++ one).
square_grid = _grid.square_grid
parse_grid = _grid.parse_grid
