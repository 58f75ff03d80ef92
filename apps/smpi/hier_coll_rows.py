#!/usr/bin/env python3
"""Appends hympi-smpi-hier-coll's output as rows of run-hier-coll.sh's CSV (its --help lists the
columns), with the segment SimGrid 3.32's algorithm picks at each level. The segment rules are read
from SimGrid's sources (src/smpi/colls/, tag v3.32); none is settable there: the simulated layer's
own versions (apps/smpi/glue/sim_segmented.cpp) take theirs from the name.
usage: hier_coll_rows.py RUN_OUT OUT MACHINE PLATFORM CORES FLAT BETWEEN INSIDE INSIDE_BCAST HOST_S RSS_KB REPS KEY=VALUE...
       hier_coll_rows.py --segments OP ALGO BYTES P G[,G...]   (CSV: the segment per level, no simulation)"""
import csv
import os
import sys


def segment(op, algo, ranks, nbytes):
    """The segment in bytes SimGrid 3.32's `algo` uses for `nbytes` on `ranks` ranks; '-' for an
    unsegmented algorithm or one whose rule is not known here (a decision function: ompi). The
    layer's own algorithms (hympi_chain:F:SEG, hympi_pipeline:SEG, hympi_ring_segmented:SEG,
    hympi_linear_sync:SEG) use the SEG named, 0 = unsegmented."""
    if algo.startswith("hympi_") and ":" in algo:
        seg = int(algo.rsplit(":", 1)[1])
        return seg if seg > 0 else "-"
    if op == "reduce":
        if algo == "ompi_pipeline":  # reduce-ompi.cpp: by communicator size against the message
            if ranks > 0.0410 / 1024 * nbytes + 9.7128:
                return 1024
            return 32768 if ranks > 0.0033 / 1024 * nbytes + 1.6761 else 65536
        if algo == "ompi_chain":
            return 65536
        if algo in ("ompi_binary", "ompi_in_order_binary"):
            return 32768
        if algo == "ompi_binomial":
            if (ranks < 8 and nbytes < 20480) or nbytes < 8192:
                return "-"
            return 1024 if ranks > 0.6016 / 1024 * nbytes + 1.3496 else "-"
    if op == "bcast" and algo == "ompi_pipeline":  # bcast-ompi-pipeline.cpp
        if ranks < 1.6134e-6 * nbytes + 2.1102:
            return 131072
        if ranks < 2.3679e-6 * nbytes + 1.1787:
            return 65536
        return 16384 if ranks < 3.2118e-6 * nbytes + 8.7936 else 131072  # none matched: the 128 KiB default
    if op == "allreduce" and algo == "ompi_ring_segmented":
        return 1048576
    if op == "gather" and algo == "ompi_linear_sync":  # first segment, by the block size
        return 32768 if nbytes // max(ranks, 1) > 92160 else 1024
    return "-"


def segments_table(op, algo, nbytes, ranks, groups):
    """Each level's segment for G balanced groups (G = 1: the flat collective)."""
    print("op,algo,bytes,ranks,groups,leaders,group_ranks,seg_between,seg_inside")
    for g in groups:
        inside = -(-ranks // g)
        if g == 1:
            print(f"{op},{algo},{nbytes},{ranks},1,-,{ranks},{segment(op, algo, ranks, nbytes)},-")
        else:
            print(f"{op},{algo},{nbytes},{ranks},{g},{g},{inside},{segment(op, algo, g, nbytes)},"
                  f"{segment(op, algo, inside, nbytes) if inside > 1 else '-'}")
    return 0


def main(argv):
    if argv[:1] == ["--segments"]:
        if len(argv) != 6:
            print(__doc__, file=sys.stderr)
            return 2
        return segments_table(argv[1], argv[2], int(argv[3]), int(argv[4]), [int(g) for g in argv[5].split(",")])
    if len(argv) < 12 or not argv[11].isdigit() or int(argv[11]) < 1:
        print(__doc__, file=sys.stderr)
        return 2
    run, out, machine, platform, cores, flat, between, inside, inside_bcast, host_s, rss_kb, reps = argv[:12]
    fidelity = dict(kv.split("=", 1) for kv in argv[12:])
    rows = list(csv.DictReader(line for line in open(run) if not line.startswith("#")))
    if not rows:
        print("hier_coll_rows.py: error: the simulation printed no rows", file=sys.stderr)
        return 1
    flat_t = float(rows[0]["time_s"])
    fields = ["kind", "machine", "platform", "op", "ranks", "ranks_per_node", "bytes", "groups", "time_s", "gain",
              "algo_flat", "algo_between", "algo_inside", "algo_inside_bcast", "seg_between", "seg_inside"]
    # reps: how many timed repetitions each row's time is the minimum of (after one untimed warm-up)
    fields += list(fidelity) + ["host_s", "max_rss_mb", "reps"]
    if os.path.exists(out) and os.path.getsize(out) > 0:
        have = open(out).readline().strip().split(",")
        if have != fields:
            print(f"hier_coll_rows.py: error: {out} has other columns; use another --out", file=sys.stderr)
            return 2
    new = not os.path.exists(out) or os.path.getsize(out) == 0
    with open(out, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        if new:
            w.writeheader()
        for r in rows:
            p, g, b, op = int(r["ranks"]), int(r["groups"]), int(r["bytes"]), r["op"]
            flat_only = g in (1, p)
            inside_op = "reduce" if op == "allreduce" else op
            # The leaders' message: the vector, or (gather/scatter) the G groups' blocks at the root.
            w.writerow(dict(kind="simulated", machine=machine, platform=platform, op=op, ranks=p, ranks_per_node=cores,
                            bytes=b, groups=g, time_s=r["time_s"], gain=f"{flat_t / float(r['time_s']):.4f}",
                            algo_flat=flat, algo_between="-" if flat_only else between,
                            algo_inside="-" if flat_only else inside,
                            algo_inside_bcast="-" if flat_only else inside_bcast,
                            seg_between=segment(op, flat if flat_only else between, p if flat_only else g, b),
                            seg_inside="-" if flat_only else segment(inside_op, inside, -(-p // g),
                                                                      b if op not in ("gather", "scatter") else b // g),
                            host_s=host_s, max_rss_mb=int(rss_kb) // 1024, reps=reps, **fidelity))
            print(f"{op} P={p} {b} B G={g}: {float(r['time_s']) * 1e3:.4f} ms, gain {flat_t / float(r['time_s']):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
