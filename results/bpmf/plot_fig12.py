#!/usr/bin/python3
"""Laptop analogue of Zhou et al. Fig 12: Ori_BPMF / Hy_BPMF time ratio vs ranks.

Reads the summary CSV written by hympi-bpmf (run-fig12.sh appends to fig12.csv),
takes the median time per iteration of each (ranks, policy) over the repeats, and
plots the pure/hybrid ratio (> 1 means the hybrid exchange is faster) next to the
per-iteration time split of both policies.

    /usr/bin/python3 results/bpmf/plot_fig12.py [fig12.csv] [fig12-bpmf.png]
"""
import csv
import io
import statistics
import sys
from collections import defaultdict
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(path):
    # Some MPI version strings end in a NUL byte; csv refuses NULs.
    text = Path(path).read_text(errors="replace").replace("\0", "")
    return list(csv.DictReader(io.StringIO(text)))


def main():
    here = Path(__file__).resolve().parent
    src = Path(sys.argv[1]) if len(sys.argv) > 1 else here / "fig12.csv"
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else here / "fig12-bpmf.png"
    rows = load(src)
    if not rows:
        sys.exit(f"plot_fig12.py: no rows in {src}")
    cols = ["seconds_per_iteration", "sampling_per_iteration", "exchange_per_iteration", "sync_per_iteration"]
    runs = defaultdict(lambda: defaultdict(list))
    for r in rows:
        for c in cols:
            runs[(int(r["ranks"]), r["policy"])][c].append(float(r[c]))
    med = {k: {c: statistics.median(v[c]) for c in cols} for k, v in runs.items()}
    ranks = sorted({k[0] for k in med if (k[0], "pure") in med and (k[0], "hybrid") in med})
    if not ranks:
        sys.exit("plot_fig12.py: need both policies for at least one rank count")
    ratio = [med[(n, "pure")]["seconds_per_iteration"] / med[(n, "hybrid")]["seconds_per_iteration"] for n in ranks]
    exch = [med[(n, "pure")]["exchange_per_iteration"] / max(med[(n, "hybrid")]["exchange_per_iteration"], 1e-12)
            for n in ranks]

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    ax1.plot(ranks, ratio, "o-", label="whole iteration")
    ax1.plot(ranks, exch, "s--", label="exchange only")
    ax1.axhline(1.0, color="grey", lw=0.8)
    ax1.set_xlabel("MPI ranks (one machine, 2 cores)")
    ax1.set_ylabel("Ori_BPMF / Hy_BPMF time")
    ax1.set_xticks(ranks)
    ax1.set_title("BPMF on ChEMBL-346, K=32: pure / hybrid")
    ax1.legend()
    if ranks[0] == 1:
        ax1.text(0.02, 0.02, "1 rank: identical work in both policies,\nso its ratio is the measurement noise",
                 transform=ax1.transAxes, fontsize=7, color="grey")
    for n, r in zip(ranks, ratio):
        ax1.annotate(f"{r:.3f}", (n, r), textcoords="offset points", xytext=(0, 6), ha="center", fontsize=8)

    width = 0.38
    parts = [("sampling_per_iteration", "sampling"), ("exchange_per_iteration", "exchange"),
             ("sync_per_iteration", "sync")]
    for i, policy in enumerate(["pure", "hybrid"]):
        bottom = [0.0] * len(ranks)
        xs = [n + (i - 0.5) * width for n in ranks]
        for j, (c, name) in enumerate(parts):
            vals = [med[(n, policy)][c] for n in ranks]
            ax2.bar(xs, vals, width, bottom=bottom, color=f"C{j}", alpha=1.0 if policy == "pure" else 0.55,
                    label=f"{name} ({policy})")
            bottom = [b + v for b, v in zip(bottom, vals)]
    ax2.set_xlabel("MPI ranks (left bar pure, right bar hybrid)")
    ax2.set_ylabel("seconds per iteration (max over ranks)")
    ax2.set_xticks(ranks)
    ax2.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(f"wrote {out}")
    for n, r, e in zip(ranks, ratio, exch):
        print(f"ranks {n}: Ori/Hy time ratio {r:.4f} (exchange only {e:.3f}), "
              f"pure {med[(n, 'pure')]['seconds_per_iteration']:.4f} s/it, "
              f"hybrid {med[(n, 'hybrid')]['seconds_per_iteration']:.4f} s/it")


if __name__ == "__main__":
    main()
