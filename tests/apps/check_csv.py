#!/usr/bin/env python3
"""Checks a CSV written by hympi-bench-collectives: exactly one row per
operation x variant x size, every collective validated (Pass, 0 errors), the
run-info and size columns consistent with what was asked, timings sane; the
reductions' type/op and the --baseline the MPI reports using; the grouped
variants' (VARIANT@G) groups column."""
import argparse
import csv
import re
import sys


def sizes(lo, hi):
    s = lo
    while s <= hi:
        yield s
        s *= 2


def expected_result_doubles(op, variant, size, ranks):
    if variant == "node-barrier":
        return 0
    if op == "allgather":
        return size * ranks
    if op == "allgatherv":
        return size * sum(1 + r % 3 for r in range(ranks))
    if op == "gather":
        return size * ranks  # the root's whole vector
    return size  # bcast, allreduce, reduce, scatter (one rank's part)


ELEMENT_BYTES = {"double": 8, "float": 4, "int32": 4, "int64": 8}
REDUCTIONS = ("allreduce", "reduce")
ROOTED = ("bcast", "reduce", "gather", "scatter")


def hierarchical_setting(mpi):
    """What the MPI must report using under --baseline hierarchical (baseline.hpp), as a regex:
    MPICH 4.0 gives its enum variables as codes, so only their presence is checked."""
    if mpi.startswith("Open MPI"):
        return r"coll_han_priority=100"
    return ";".join(f"MPIR_CVAR_{name}=\\w+" for name in ("DEVICE_COLLECTIVES", "ALLREDUCE_INTRA_ALGORITHM",
                                                         "REDUCE_INTRA_ALGORITHM", "BCAST_INTRA_ALGORITHM"))


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--csv", required=True)
    p.add_argument("--ranks", type=int, required=True)
    p.add_argument("--nodes", type=int, required=True)
    p.add_argument("--root", type=int, default=0)
    p.add_argument("--min-size", type=int, default=1)
    p.add_argument("--max-size", type=int, required=True)
    p.add_argument("--iterations", type=int, required=True)
    p.add_argument("--warmup", type=int, required=True)
    p.add_argument("--timed-write", type=int, default=1)
    p.add_argument("--ops", default="allgather,allgatherv,bcast")
    p.add_argument("--variants", default="pure,hybrid-barrier,hybrid-flags,node-barrier")
    p.add_argument("--type", default="double", help="--type of the reductions")
    p.add_argument("--reduce-op", default="sum", help="--op of the reductions")
    p.add_argument("--baseline", default="default")
    p.add_argument("--cache", choices=("warm", "cold"), default="warm")
    a = p.parse_args()

    with open(a.csv, newline="") as f:
        rows = list(csv.DictReader(f))
    problems = []
    seen = {}
    for row in rows:
        key = (row["operation"], row["variant"], int(row["size_doubles"]))
        seen[key] = seen.get(key, 0) + 1
    want = {(o, v, s) for o in a.ops.split(",") for v in a.variants.split(",")
            for s in sizes(a.min_size, a.max_size)}
    for key in sorted(want - set(seen)):
        problems.append(f"missing row {key}")
    for key in sorted(set(seen) - want):
        problems.append(f"unexpected row {key}")
    for key, n in seen.items():
        if n > 1:
            problems.append(f"{n} rows for {key}")

    for row in rows:
        op, variant, size = row["operation"], row["variant"], int(row["size_doubles"])
        where = f"{op}/{variant}@{size}"

        def expect(column, value):
            if row[column] != str(value):
                problems.append(f"{where}: {column} = {row[column]!r}, expected {value!r}")

        expect("ranks", a.ranks)
        expect("nodes", a.nodes)
        reduces = op in REDUCTIONS
        element = ELEMENT_BYTES[a.type] if reduces else 8
        expect("size_bytes", element * size)
        expect("type", a.type if reduces else "double")
        expect("reduce_op", a.reduce_op if reduces else "")
        expect("baseline", a.baseline)
        if a.baseline == "hierarchical":
            if not re.fullmatch(hierarchical_setting(row["mpi"]), row["baseline_setting"]):
                problems.append(f"{where}: baseline_setting = {row['baseline_setting']!r}, expected "
                                f"{hierarchical_setting(row['mpi'])!r}")
        expect("iterations", a.iterations)
        expect("warmup", a.warmup)
        expect("timed_write", a.timed_write)
        expect("cache", a.cache)
        if a.cache == "cold":
            # One eviction pass per iteration, and the ranks (all on this host) together went
            # through twice the last-level cache.
            expect("evictions", a.iterations + a.warmup)
            llc, share = int(row["llc_bytes"]), int(row["evict_bytes"])
            if llc <= 0 or share * a.ranks < 2 * llc:
                problems.append(f"{where}: {a.ranks} ranks x {share} evicted bytes < 2 x LLC {llc}")
        else:
            expect("evictions", 0)
            expect("evict_bytes", 0)
        expect("root", a.root if op in ROOTED else "")
        expect("result_doubles", expected_result_doubles(op, variant, size, a.ranks))
        base, _, g = variant.partition("@")
        policy, sync = {"pure": ("pure", ""), "hybrid-barrier": ("hybrid", "barrier"),
                        "hybrid-flags": ("hybrid", "flags"), "node-barrier": ("none", "barrier")}[base]
        expect("policy", policy)
        expect("sync", sync)
        # Grouped: the G used is at least 1 and at most the G asked (fewer units: reduced); flat otherwise.
        groups = int(row["groups"])
        if not g:
            expect("groups", 1)
        elif groups < 1 or (g != "auto" and groups > int(g)) or not row["groups_model"]:
            problems.append(f"{where}: groups = {groups}, groups_model = {row['groups_model']!r} for {variant}")
        if variant == "node-barrier":
            expect("validation", "-")
        else:
            expect("validation", "Pass")
            expect("errors", 0)
        lo, avg, hi = float(row["min_us"]), float(row["avg_us"]), float(row["max_us"])
        if not (0 <= lo <= avg * (1 + 1e-9) and avg <= hi * (1 + 1e-9)):
            problems.append(f"{where}: min/avg/max not ordered: {lo} {avg} {hi}")
        if not float(row["median_us"]) >= 0:
            problems.append(f"{where}: median_us = {row['median_us']}")
        result_bytes = element * int(row["result_doubles"])
        held = int(row["bytes_per_node"])
        rpn = int(row["ranks_per_node"])
        if op == "reduce":
            continue  # the result lives on the root only: no per-node lower bound
        if op in ("gather", "scatter"):
            # The root's node holds the whole vector: 2 copies under flat hybrid, one buffer under pure.
            whole = element * size * a.ranks
            copies = 2 if variant.startswith("hybrid") and not g else 1
            if variant != "node-barrier" and held < copies * whole:
                problems.append(f"{where}: {held} bytes per node, less than {copies} x the whole {whole}")
            continue
        if variant == "pure" and held < result_bytes * rpn:
            problems.append(f"{where}: pure holds {held} bytes per node, less than {rpn} copies of {result_bytes}")
        if variant.startswith("hybrid") and held < result_bytes:
            problems.append(f"{where}: hybrid holds {held} bytes per node, less than one copy of {result_bytes}")

    for line in problems:
        print("check_csv:", line)
    print(f"check_csv: {len(rows)} rows, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
