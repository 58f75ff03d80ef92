#!/usr/bin/python3
"""Laptop analogue of Zhou et al. Fig 12: Ori_BPMF / Hy_BPMF time ratio vs ranks.

Reads the summary CSV written by hympi-bpmf (experiment zhou-fig12.toml appends to fig12.csv),
plots the pure/hybrid time ratio (> 1 means the hybrid exchange is faster; the
median over back-to-back pure/hybrid pairs, which see about the same machine load)
next to the median per-iteration time split of both policies. The whole-iteration ratio comes from
plain runs (barrier_timing = 0); the exchange-only ratio and the split from runs
with --barrier-timing (exchange = the collective alone) when there are any.

    /usr/bin/python3 results/bpmf/plot_fig12.py [fig12.csv | FOLDER] [fig12-bpmf.png]
"""
import os
import sys
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # results/plotlib.py
from plotlib import median_by, median_interval, plt, read_rows  # noqa: E402


def paired_ratio(rows, ranks, column):
    """(median, low, high) over back-to-back (pure, hybrid) run pairs of pure/hybrid, with the
    median's 95% interval: the machine is shared, and a pair run one after the other sees about
    the same load. Rows of the harness's repeated launches (a repetition column; pure and hybrid
    take turns) pair by repetition."""
    if rows and "repetition" in rows[0]:
        pure = {r["repetition"]: r for r in rows if int(r["ranks"]) == ranks and r["policy"] == "pure"}
        pairs = [(pure[r["repetition"]], r) for r in rows
                 if int(r["ranks"]) == ranks and r["policy"] == "hybrid" and r["repetition"] in pure]
    else:
        pairs = list(zip(rows, rows[1:]))
    ratios = []
    for a, b in pairs:
        if (int(a["ranks"]), a["policy"], int(b["ranks"]), b["policy"]) == (ranks, "pure", ranks, "hybrid"):
            if float(b[column]) > 0:
                ratios.append(float(a[column]) / float(b[column]))
    return median_interval(ratios) if ratios else (float("nan"),) * 3


def main():
    here = Path(__file__).resolve().parent
    src = Path(sys.argv[1]) if len(sys.argv) > 1 else here / "fig12.csv"
    if src.is_dir():  # a folder (a run directory's bpmf/): its fig12.csv, the PNG beside it
        here, src = src, src / "fig12.csv"
        if not src.exists():
            print(f"plot_fig12.py: no {src}, nothing to plot")
            return
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else here / "fig12-bpmf.png"
    rows = read_rows(src)
    if not rows:
        sys.exit(f"plot_fig12.py: no rows in {src}")
    cols = ["items_per_s", "seconds_per_iteration", "sampling_per_iteration", "exchange_per_iteration", "sync_per_iteration"]

    def run_of(r):
        return int(r["ranks"]), r["policy"]

    def medians(subset):
        by_column = {c: median_by(subset, run_of, c) for c in cols}
        return {k: {c: by_column[c][k] for c in cols} for k in by_column[cols[0]]}

    plain = [r for r in rows if r.get("barrier_timing", "0") != "1"] or rows
    timed = [r for r in rows if r.get("barrier_timing", "0") == "1"] or plain
    med = medians(plain)
    split = medians(timed)
    ranks = sorted({k[0] for k in med if (k[0], "pure") in med and (k[0], "hybrid") in med})
    if not ranks:
        sys.exit("plot_fig12.py: need both policies for at least one rank count")
    ratio = [paired_ratio(plain, n, "seconds_per_iteration") for n in ranks]
    # One rank exchanges nothing: its exchange "ratio" is a ratio of microseconds, not shown.
    exch = [paired_ratio(timed, n, "exchange_per_iteration") if n > 1 else (float("nan"),) * 3 for n in ranks]

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    for points, style, label in ((ratio, "o-", "whole iteration"), (exch, "s--", "exchange only (--barrier-timing runs)")):
        mid = [m for m, _, _ in points]
        err = [[m - lo for m, lo, _ in points], [hi - m for m, _, hi in points]]
        ax1.errorbar(ranks, mid, yerr=err, fmt=style, capsize=3, label=label + " (median, 95% CI)")
    ax1.axhline(1.0, color="grey", lw=0.8)
    ax1.set_xlabel("MPI ranks (one machine, 2 cores)")
    ax1.set_ylabel("Ori_BPMF / Hy_BPMF time")
    ax1.set_xticks(ranks)
    ax1.set_title("BPMF on ChEMBL-346, K=32: pure / hybrid")
    ax1.legend(loc="upper left", fontsize=8)
    if ranks[0] == 1:
        ax1.text(0.98, 0.55, "1 rank: identical work in both policies,\nso its ratio is the measurement noise",
                 transform=ax1.transAxes, fontsize=7, color="grey", ha="right")
    for n, (r, _, _) in zip(ranks, ratio):
        ax1.annotate(f"{r:.3f}", (n, r), textcoords="offset points", xytext=(0, 6), ha="center", fontsize=8)

    width = 0.38
    parts = [("sampling_per_iteration", "sampling"), ("exchange_per_iteration", "exchange"),
             ("sync_per_iteration", "sync")]
    for i, policy in enumerate(["pure", "hybrid"]):
        bottom = [0.0] * len(ranks)
        xs = [n + (i - 0.5) * width for n in ranks]
        for j, (c, name) in enumerate(parts):
            vals = [split.get((n, policy), {}).get(c, 0.0) for n in ranks]
            ax2.bar(xs, vals, width, bottom=bottom, color=f"C{j}", alpha=1.0 if policy == "pure" else 0.55,
                    label=f"{name} ({policy})")
            bottom = [b + v for b, v in zip(bottom, vals)]
    ax2.set_xlabel("MPI ranks (left bar pure, right bar hybrid)")
    ax2.set_ylabel("seconds per iteration (median, max over ranks)")
    ax2.set_title("time split" + (" (--barrier-timing runs)" if timed is not plain else ""))
    ax2.set_xticks(ranks)
    ax2.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(f"wrote {out}")
    for n, (r, lo, hi), (e, _, _) in zip(ranks, ratio, exch):
        reps = min(sum(1 for r in plain if run_of(r) == (n, p)) for p in ("pure", "hybrid"))
        print(f"ranks {n}: Ori/Hy time ratio {r:.4f} [{lo:.4f}, {hi:.4f}] (exchange only {e:.3f}; {reps} repeats), "
              f"median pure {med[(n, 'pure')]['seconds_per_iteration']:.4f} s/it, "
              f"hybrid {med[(n, 'hybrid')]['seconds_per_iteration']:.4f} s/it, "
              f"items/s pure {med[(n, 'pure')]['items_per_s']:.4g}, hybrid {med[(n, 'hybrid')]['items_per_s']:.4g}")


if __name__ == "__main__":
    main()
