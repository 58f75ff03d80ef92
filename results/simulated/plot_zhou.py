#!/usr/bin/python3
"""Zhou et al. (ICPP'19) analogues on a simulated XC40 (apps/smpi/run-xc40.sh):
Fig 11, Ori_SUMMA (pure) / Hy_SUMMA (hybrid) time vs per-core block size; Fig 8 (one
rank per node) and its 24-ranks-per-node end point (Zhou's Fig 9), pure / hybrid latency
of allgather and bcast vs message size; Fig 7 (one node), the latencies themselves.
Each title says the layout the CSV ran on. Simulated (SimGrid SMPI).

usage: plot_zhou.py [--out-dir DIR]   (reads zhou-fig{7,8,9,11}-*.csv here)
"""
import argparse
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # results/plotlib.py
from plotlib import median_by, plt, read_rows as read  # noqa: E402

HERE = os.path.dirname(os.path.realpath(__file__))


def save(fig, ax_list, path, out_dir, ratio=True):
    """The figure beside its CSV; ratio plots get the line of 1 (pure = hybrid)."""
    for ax in ax_list:
        if ratio:
            ax.axhline(1, color="grey", lw=0.8)
        ax.legend(fontsize=8)
    out = os.path.join(out_dir, os.path.basename(path).replace(".csv", ".png"))
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)
    print("wrote", out)


def layout(row):
    """What the run was: Zhou's figures differ by layout, not only by size."""
    nodes, per_node = int(row["nodes"]), int(row["ranks_per_node"])
    if nodes == 1:
        return f"one node, {per_node} ranks"
    return f"{nodes} nodes x {per_node} rank" + ("" if per_node == 1 else "s")


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
    ax.set_title(f"SIMULATED XC40, {layout(read(path)[0])}: Zhou Fig 11 analogue", fontsize=9)
    save(fig, [ax], path, out_dir)


def fig8(path, out_dir):
    rows = read(path)
    lat = {(r["operation"], r["variant"], int(r["size_bytes"])): float(r["avg_us"]) for r in rows}
    ops = sorted({o for (o, _, _) in lat})
    variants = [v for v in ("hybrid-barrier", "hybrid-flags") if any(k[1] == v for k in lat)]
    fig, axes = plt.subplots(1, len(ops), figsize=(5 * len(ops), 4), squeeze=False)
    for ax, op in zip(axes[0], ops):
        sizes = sorted({s for (o, v, s) in lat if o == op and v == "pure"})
        spread = []
        for v in variants:
            ratio = [lat[(op, "pure", s)] / lat[(op, v, s)] for s in sizes if (op, v, s) in lat]
            ax.plot(sizes[: len(ratio)], ratio, "o-", label=f"pure / {v}")
            spread.extend(ratio)
            print(f"fig8 {op} {v}: pure/hybrid " + ", ".join(f"{s}B:{q:.3f}" for s, q in zip(sizes, ratio)))
        ax.set_xscale("log", base=2)
        if max(spread) / min(spread) > 3:  # a linear axis reads the one-rank-per-node percent better
            ax.set_yscale("log")
        ax.set_xlabel("message size per rank [bytes]")
        ax.set_ylabel("latency ratio pure / hybrid")
        which = "Zhou Fig 8" if int(rows[0]["ranks_per_node"]) == 1 else "end point of Zhou Fig 9"
        ax.set_title(f"{op}: SIMULATED XC40, {layout(rows[0])} ({which})", fontsize=9)
    save(fig, axes[0], path, out_dir)


def fig7(path, out_dir):
    """Absolute latencies: Zhou's Fig 7 shows Hy near the node barrier, pure growing with size."""
    rows = read(path)
    lat = {(r["variant"], int(r["size_bytes"])): float(r["avg_us"]) for r in rows if r["operation"] == "allgather"}
    fig, ax = plt.subplots(figsize=(6, 4))
    for v in sorted({v for (v, _) in lat}):
        sizes = sorted(s for (w, s) in lat if w == v)
        ax.plot(sizes, [lat[(v, s)] for s in sizes], "o-", label=v)
        print(f"fig7 {v}: " + ", ".join(f"{s}B:{lat[(v, s)]:.2f}us" for s in sizes))
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("message size per rank [bytes]")
    ax.set_ylabel("allgather latency [us]")
    ax.set_title(f"SIMULATED XC40, {layout(rows[0])}: Zhou Fig 7 analogue", fontsize=9)
    save(fig, [ax], path, out_dir, ratio=False)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out-dir", default=HERE)
    a = ap.parse_args()
    for path in sorted(glob.glob(os.path.join(HERE, "zhou-fig11-*.csv"))):
        fig11(path, a.out_dir)
    # Fig 9's end point (24 ranks per node) is the same benchmark as Fig 8, named by Zhou's figure.
    for path in sorted(glob.glob(os.path.join(HERE, "zhou-fig8-*.csv")) + glob.glob(os.path.join(HERE, "zhou-fig9-*.csv"))):
        fig8(path, a.out_dir)
    for path in sorted(glob.glob(os.path.join(HERE, "zhou-fig7-*.csv"))):
        fig7(path, a.out_dir)


if __name__ == "__main__":
    main()
