#!/usr/bin/env python3
"""Checks the simulator's on-node costs (apps/smpi/glue/onnode_cost.cpp) on one
simulated XC40 node against the committed results and the paper's shape.

usage: check_onnode.py FIG11.csv FIG7.csv FIG8X1.csv COMMITTED_FIG11.csv COMMITTED_FIG7.csv
  FIG11  one node, 8 x 8 ranks, Ori_SUMMA (pure) vs Hy_SUMMA (hybrid, barrier sync) at s = 8 and 256
  FIG7   one node, 24 ranks, allgather pure, hybrid-barrier and node-barrier
  FIG8X1 8 XC40 nodes x 1 rank, allgather pure, hybrid-barrier and hybrid-flags
Simulated times are deterministic: every row must equal its committed twin (1e-6).
Shape (Zhou et al.): Ori/Hy within +-25% of "as much as five times" at s = 8 and
near 1 (< 1.3) at s = 256; Hy_Allgather = the node barrier + its charged write into
the window + 2 fences (MPI_Win_sync) at every size, while pure grows more than 4x from 1 to
1024 doubles, to over 3x the hybrid. One rank per node (Zhou Fig 8): hybrid behind pure
by exactly its fences (barrier sync 4, flags 7 per call; the write is charged to both).
"""
import csv
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../apps/smpi/platforms"))
from make_platform import FENCE_US, SHM  # noqa: E402  (the platform's own constants)

FENCE = FENCE_US["xc40-dragonfly"]
CACHE_BYTES, CACHE_GBPS = SHM["xc40-dragonfly"][5:7]
FENCES_PER_CALL = {"hybrid-barrier": 4, "hybrid-flags": 7}  # arrive + release, one rank per node


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def fig11_times(path):
    t = {}
    for r in rows(path):
        if r["sync"] in ("barrier", "") or r["policy"] == "pure":
            t.setdefault((int(r["block_per_core"]), r["policy"]), []).append(float(r["time_s"]))
    return {k: min(v) for k, v in t.items()}


def fig7_times(path):
    return {(r["variant"], int(r["size_doubles"])): float(r["avg_us"]) for r in rows(path)}


def same(live, committed, what):
    # 1e-3, not exact: a variant's time depends on the skew the setup before it leaves, and the
    # core's creation agreement (one round since 2026-11-27) moved pure allgather at 2 doubles by -0.01%;
    # the on-node charges this checks are percents.
    bad = [k for k in live if k not in committed or abs(live[k] / committed[k] - 1) > 1e-3]
    assert not bad, f"{what}: simulated times differ from the committed CSV at {bad[:4]}"


def write_us(doubles):
    """The charged write of one rank's contribution (in cache: not shared by the node's ranks)."""
    assert 8 * doubles <= CACHE_BYTES
    return 8 * doubles / (CACHE_GBPS * 1e3)


def check_one_rank_per_node(t8):
    """Hybrid pays its fences on top of pure, nothing else (the write costs both the same)."""
    sizes = sorted({s for _, s in t8})
    for variant, fences in FENCES_PER_CALL.items():
        for s in sizes:
            extra, want = t8[(variant, s)] - t8[("pure", s)], fences * FENCE
            assert abs(extra - want) <= 0.1 * want, (
                f"one rank per node, {s} doubles: {variant} is {extra:.4f} us behind pure, not its {fences} "
                f"fences ({want:.4f} us)")
    first = sizes[0]
    print(f"fig8 one rank per node: hybrid-barrier {t8[('hybrid-barrier', first)]:.3f} us vs pure "
          f"{t8[('pure', first)]:.3f} us at {first} doubles (+{4 * FENCE * 1e3:.0f} ns of fences)")


def main():
    fig11, fig7, fig8x1, fig11_ref, fig7_ref = sys.argv[1:6]
    t11, t7 = fig11_times(fig11), fig7_times(fig7)
    check_one_rank_per_node(fig7_times(fig8x1))
    small, large = t11[(8, "pure")] / t11[(8, "hybrid")], t11[(256, "pure")] / t11[(256, "hybrid")]
    print(f"fig11 Ori/Hy: s=8 {small:.2f}, s=256 {large:.2f}")
    assert 3.75 <= small <= 6.25, f"Ori/Hy at s=8 is {small:.2f}, not within 25% of 5"
    assert large < 1.3, f"Ori/Hy at s=256 is {large:.2f}, not near 1"
    sizes = sorted({s for _, s in t7})
    for s in sizes:
        hy, floor = t7[("hybrid-barrier", s)], t7[("node-barrier", s)]
        want = floor + write_us(s) + 2 * FENCE
        assert abs(hy - want) <= 0.02 * floor, (
            f"hybrid allgather {hy} us is not the node barrier {floor} us + write {write_us(s):.4f} us + 2 fences "
            f"at {s} doubles")
    growth = t7[("pure", sizes[-1])] / t7[("pure", sizes[0])]
    print(f"fig7: pure allgather grows {growth:.1f}x from {sizes[0]} to {sizes[-1]} doubles; hybrid = node barrier "
          f"+ write + 2 fences ({t7[('hybrid-barrier', sizes[-1])] / t7[('node-barrier', sizes[-1])]:.2f}x the "
          f"barrier at {sizes[-1]})")
    assert growth > 4, f"pure allgather grows only {growth:.1f}x"
    over = t7[("pure", sizes[-1])] / t7[("hybrid-barrier", sizes[-1])]
    assert over > 3, f"pure allgather is only {over:.1f}x the hybrid at {sizes[-1]} doubles"
    same(t11, fig11_times(fig11_ref), "fig11")  # last: the checks above say which charge is missing
    same(t7, fig7_times(fig7_ref), "fig7")


if __name__ == "__main__":
    main()
