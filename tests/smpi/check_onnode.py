#!/usr/bin/env python3
"""Checks the simulator's on-node costs (apps/smpi/glue/onnode_cost.cpp) on one
simulated XC40 node against the committed results and the paper's shape.

usage: check_onnode.py FIG11.csv FIG7.csv COMMITTED_FIG11.csv COMMITTED_FIG7.csv
  FIG11  one node, 8 x 8 ranks, Ori_SUMMA (pure) vs Hy_SUMMA (hybrid, barrier sync) at s = 8 and 256
  FIG7   one node, 24 ranks, allgather pure, hybrid-barrier and node-barrier
Simulated times are deterministic: every row must equal its committed twin (1e-6).
Shape (Zhou et al.): Ori/Hy within +-25% of "as much as five times" at s = 8 and
near 1 (< 1.3) at s = 256; Hy_Allgather within 10% of the node barrier at every
size while pure grows more than 4x from 1 to 1024 doubles, to over 3x the hybrid.
"""
import csv
import sys


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
    bad = [k for k in live if k not in committed or abs(live[k] / committed[k] - 1) > 1e-6]
    assert not bad, f"{what}: simulated times differ from the committed CSV at {bad[:4]}"


def main():
    fig11, fig7, fig11_ref, fig7_ref = sys.argv[1:5]
    t11, t7 = fig11_times(fig11), fig7_times(fig7)
    same(t11, fig11_times(fig11_ref), "fig11")
    same(t7, fig7_times(fig7_ref), "fig7")
    small, large = t11[(8, "pure")] / t11[(8, "hybrid")], t11[(256, "pure")] / t11[(256, "hybrid")]
    print(f"fig11 Ori/Hy: s=8 {small:.2f}, s=256 {large:.2f}")
    assert 3.75 <= small <= 6.25, f"Ori/Hy at s=8 is {small:.2f}, not within 25% of 5"
    assert large < 1.3, f"Ori/Hy at s=256 is {large:.2f}, not near 1"
    sizes = sorted({s for _, s in t7})
    for s in sizes:
        hy, floor = t7[("hybrid-barrier", s)], t7[("node-barrier", s)]
        assert abs(hy / floor - 1) <= 0.10, f"hybrid allgather {hy} us is not near the node barrier {floor} us at {s}"
    growth = t7[("pure", sizes[-1])] / t7[("pure", sizes[0])]
    print(f"fig7: pure allgather grows {growth:.1f}x from {sizes[0]} to {sizes[-1]} doubles; hybrid = node barrier")
    assert growth > 4, f"pure allgather grows only {growth:.1f}x"
    over = t7[("pure", sizes[-1])] / t7[("hybrid-barrier", sizes[-1])]
    assert over > 3, f"pure allgather is only {over:.1f}x the hybrid at {sizes[-1]} doubles"


if __name__ == "__main__":
    main()
