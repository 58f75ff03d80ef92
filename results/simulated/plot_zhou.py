#!/usr/bin/python3
"""Zhou et al. (ICPP'19) analogues on a simulated XC40 (apps/smpi/run-xc40.sh):
Fig 11, Ori_SUMMA (pure) / Hy_SUMMA (hybrid) time vs per-core block size, and Fig 8,
pure / hybrid latency of allgather and bcast vs message size. Simulated (SimGrid SMPI).

usage: plot_zhou.py [--out-dir DIR]   (reads zhou-fig11-*.csv and zhou-fig8-*.csv here)
"""
import argparse
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # results/plotlib.py
from plotlib import median_by, plt, read_rows as read  # noqa: E402

HERE = os.path.dirname(os.path.realpath(__file__))


def save(fig, ax_list, path, out_dir):
    for ax in ax_list:
        ax.axhline(1, color="grey", lw=0.8)
        ax.legend(fontsize=8)
    out = os.path.join(out_dir, os.path.basename(path).replace(".csv", ".png"))
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)
    print("wrote", out)


def fig11(path, out_dir):
    """Median over reps >= 1 (rep 0 of the first policy is the process's first multiply)."""
    times = median_by([r for r in read(path) if int(r["rep"]) >= 1],
                      lambda r: (int(r["block_per_core"]), r["policy"], r["sync"]))
    syncs = sorted({s for (_, p, s) in times if p == "hybrid"})
    blocks = sorted({b for (b, _, _) in times})
    fig, ax = plt.subplots(figsize=(6, 4))
    for sync in syncs:
        ratio = [times[(b, "pure", sync)] / times[(b, "hybrid", sync)] for b in blocks]
        ax.plot(blocks, ratio, "o-", label=f"Ori_SUMMA / Hy_SUMMA (node sync {sync})")
        for b, q in zip(blocks, ratio):
            print(f"fig11 {os.path.basename(path)} s={b} sync={sync}: pure/hybrid = {q:.3f}")
    ax.set_xscale("log", base=2)
    ax.set_xticks(blocks, [str(b) for b in blocks])
    ax.set_xlabel("block per core s (local C is s x s, b = s)")
    ax.set_ylabel("time ratio pure / hybrid")
    nodes = read(path)[0]["nodes"]
    ax.set_title(f"SIMULATED XC40 dragonfly, {nodes} x 24 cores: Zhou Fig 11 analogue", fontsize=9)
    save(fig, [ax], path, out_dir)


def fig8(path, out_dir):
    rows = read(path)
    lat = {(r["operation"], r["variant"], int(r["size_bytes"])): float(r["avg_us"]) for r in rows}
    ops = sorted({o for (o, _, _) in lat})
    variants = [v for v in ("hybrid-barrier", "hybrid-flags") if any(k[1] == v for k in lat)]
    fig, axes = plt.subplots(1, len(ops), figsize=(5 * len(ops), 4), squeeze=False)
    for ax, op in zip(axes[0], ops):
        sizes = sorted({s for (o, v, s) in lat if o == op and v == "pure"})
        for v in variants:
            ratio = [lat[(op, "pure", s)] / lat[(op, v, s)] for s in sizes if (op, v, s) in lat]
            ax.plot(sizes[: len(ratio)], ratio, "o-", label=f"pure / {v}")
            print(f"fig8 {op} {v}: pure/hybrid " + ", ".join(f"{s}B:{q:.2f}" for s, q in zip(sizes, ratio)))
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("message size per rank [bytes]")
        ax.set_ylabel("latency ratio pure / hybrid")
        ax.set_title(f"{op}: SIMULATED XC40, {rows[0]['nodes']} x 24 cores (Zhou Fig 8 analogue)", fontsize=9)
    save(fig, axes[0], path, out_dir)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out-dir", default=HERE)
    a = ap.parse_args()
    for path in sorted(glob.glob(os.path.join(HERE, "zhou-fig11-*.csv"))):
        fig11(path, a.out_dir)
    for path in sorted(glob.glob(os.path.join(HERE, "zhou-fig8-*.csv"))):
        fig8(path, a.out_dir)


if __name__ == "__main__":
    main()
