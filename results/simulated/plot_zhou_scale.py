#!/usr/bin/python3
"""Zhou et al. (ICPP'19): the allgather figures at the paper's node counts, simulated on the XC40
platform (apps/smpi/run-xc40.sh fig8 with --fold-scope all; apps/smpi/README.md "Zhou at the
paper's scale"). Hy_Allgather is the hybrid policy, Allgather the pure one (MPI_Allgather).

usage: plot_zhou_scale.py [--out-dir DIR]
  zhou-scale-fig8-xc40.csv   one rank per node, 4/16/64 nodes: Allgather / Hy_Allgather vs size
  zhou-scale-fig9-xc40.csv   64 nodes, 3-24 ranks per node, 512 and 16384 doubles: latencies
  zhou-scale-fig10-xc40.csv  42 nodes x 24 + 1 x 16 = 1024 ranks: latencies and their ratio vs size
Each title says SIMULATED, the layout and the figure. A missing CSV is skipped.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # results/plotlib.py
from plotlib import plt, read_rows as read  # noqa: E402

HERE = os.path.dirname(os.path.realpath(__file__))
LABEL = {"pure": "Allgather (pure: MPI_Allgather)", "hybrid-barrier": "Hy_Allgather (barrier sync)",
         "hybrid-flags": "Hy_Allgather (flags sync)"}


def save(fig, path, out_dir):
    out = os.path.join(out_dir, os.path.basename(path).replace(".csv", ".png"))
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)
    print("wrote", out)


def latencies(rows):
    """(nodes, ranks per node, ranks, variant, doubles) -> avg us (the OSU-style average)."""
    return {(int(r["nodes"]), int(r["ranks_per_node"]), int(r["ranks"]), r["variant"], int(r["size_doubles"])):
            float(r["avg_us"]) for r in rows if r["operation"] == "allgather"}


def fig8(out_dir):
    path = os.path.join(HERE, "zhou-scale-fig8-xc40.csv")
    if not os.path.exists(path):
        return
    lat = latencies(read(path))
    fig, ax = plt.subplots(figsize=(6, 4))
    for nodes in sorted({k[0] for k in lat}):
        for v in ("hybrid-barrier", "hybrid-flags"):
            sizes = sorted(k[4] for k in lat if k[0] == nodes and k[3] == v)
            if not sizes:
                continue
            ratio = [lat[(nodes, 1, nodes, "pure", s)] / lat[(nodes, 1, nodes, v, s)] for s in sizes]
            ax.plot(sizes, ratio, "o-" if v == "hybrid-barrier" else "x--", label=f"{nodes} nodes, {v}")
            print(f"fig8 {nodes} nodes {v}: pure/hybrid " + ", ".join(f"{s}:{q:.4f}" for s, q in zip(sizes, ratio)))
    ax.axhline(1, color="grey", lw=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("doubles per rank")
    ax.set_ylabel("latency ratio Allgather / Hy_Allgather")
    ax.set_title("SIMULATED XC40, 4/16/64 nodes x 1 rank: Zhou Fig 8 (8b, Hazel Hen)", fontsize=9)
    ax.legend(fontsize=7)
    save(fig, path, out_dir)


def fig9(out_dir):
    path = os.path.join(HERE, "zhou-scale-fig9-xc40.csv")
    if not os.path.exists(path):
        return
    lat = latencies(read(path))
    sizes = sorted({k[4] for k in lat})
    fig, axes = plt.subplots(1, len(sizes), figsize=(5 * len(sizes), 4), squeeze=False)
    for ax, size in zip(axes[0], sizes):
        for v in ("pure", "hybrid-barrier", "hybrid-flags"):
            per_node = sorted(k[1] for k in lat if k[4] == size and k[3] == v)
            if per_node:
                y = [lat[(64, c, 64 * c, v, size)] for c in per_node]
                ax.plot(per_node, y, "o-", label=LABEL[v])
                print(f"fig9 {size} doubles {v}: " + ", ".join(f"{c}/node:{t:.1f}us" for c, t in zip(per_node, y)))
        ax.set_xticks([3, 6, 12, 24])
        ax.set_yscale("log")
        ax.set_xlabel("ranks per node (64 nodes)")
        ax.set_ylabel("allgather latency [us]")
        ax.set_title(f"SIMULATED XC40, 64 nodes, {size} doubles: Zhou Fig 9{'a' if size == 512 else 'b'}",
                     fontsize=9)
        ax.legend(fontsize=7)
    save(fig, path, out_dir)


def fig10(out_dir):
    path = os.path.join(HERE, "zhou-scale-fig10-xc40.csv")
    if not os.path.exists(path):
        return
    lat = {(r["variant"], int(r["size_doubles"])): float(r["avg_us"]) for r in read(path) if r["operation"] == "allgather"}
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(10, 4))
    for v in ("pure", "hybrid-barrier", "hybrid-flags"):
        sizes = sorted(k[1] for k in lat if k[0] == v)
        if sizes:
            ax.plot(sizes, [lat[(v, s)] for s in sizes], "o-", label=LABEL[v])
        if sizes and v != "pure":
            both = [s for s in sizes if ("pure", s) in lat]
            ratio = [lat[("pure", s)] / lat[(v, s)] for s in both]
            bx.plot(both, ratio, "o-", label=f"Allgather / {LABEL[v]}")
            print(f"fig10 {v}: pure/hybrid " + ", ".join(f"{s}:{q:.3f}" for s, q in zip(both, ratio)))
    for a_ in (ax, bx):
        a_.set_xscale("log", base=2)
        a_.set_xlabel("doubles per rank")
        a_.legend(fontsize=7)
    ax.set_yscale("log")
    ax.set_ylabel("allgather latency [us]")
    bx.axhline(1, color="grey", lw=0.8)
    bx.set_ylabel("latency ratio")
    ax.set_title("SIMULATED XC40, 42 nodes x 24 + 1 x 16 = 1024 ranks: Zhou Fig 10", fontsize=9)
    bx.set_title("Zhou Fig 10: Allgather / Hy_Allgather", fontsize=9)
    save(fig, path, out_dir)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out-dir", default=HERE)
    a = ap.parse_args()
    fig8(a.out_dir)
    fig9(a.out_dir)
    fig10(a.out_dir)


if __name__ == "__main__":
    main()
