#!/usr/bin/env python3
"""ompi_reduce_rule.py: which reduce algorithm and segment size Open MPI 1.4's fixed decision
picks at each level of a hierarchical reduce (thesis Table 3.1). Open MPI's `tuned` component
(coll_tuned_decision_fixed.c, ompi_coll_tuned_reduce_intra_dec_fixed, the 1.2-1.6 series the
thesis' 1.4.5 belongs to) picks by communicator size p and message size m in bytes, for a
commutative operation (the thesis' MPI_MAX):
    p < 20 and m < 512, or p < 10 and m <= 1024     linear
    p < 8 and m < 20480                              binomial, unsegmented
    m < 2048                                         binary, unsegmented
    p > 0.6016/1024 m + 1.3496                       binary, 1 KiB segments
    p > 0.0410/1024 m + 9.7128                       pipeline, 1 KiB
    p > 0.0422/1024 m + 1.1614                       pipeline, 32 KiB (the source names it Binary_32K
                                                     but calls the pipeline)
    p > 0.0033/1024 m + 1.6761                       pipeline, 32 KiB
    otherwise                                        pipeline, 64 KiB
(the rule's thresholds, written again here from its published form). A hierarchical reduce of
m bytes over p ranks in G groups reduces inside groups of p/G ranks, then between G leaders,
each with the whole message; a level of one rank does nothing.

usage: ompi_reduce_rule.py --ranks P --bytes M [--groups all|G[,G...]] [--csv FILE|-]
"""
from __future__ import annotations

import argparse
import csv
import sys

KIB = 1024


def reduce_choice(p: int, m: int) -> tuple[str, int]:
    """(algorithm, segment bytes; 0 = unsegmented) Open MPI 1.4's fixed rule picks."""
    if p < 1 or m < 0:
        raise ValueError(f"reduce of {m} bytes over {p} ranks")
    if p == 1:
        return "none", 0
    if (p < 20 and m < 512) or (p < 10 and m <= 1024):
        return "linear", 0
    if p < 8 and m < 20480:
        return "binomial", 0
    if m < 2048:
        return "binary", 0
    if p > 0.6016 / KIB * m + 1.3496:
        return "binary", 1 * KIB
    if p > 0.0410 / KIB * m + 9.7128:
        return "pipeline", 1 * KIB
    if p > 0.0422 / KIB * m + 1.1614:
        return "pipeline", 32 * KIB
    if p > 0.0033 / KIB * m + 1.6761:
        return "pipeline", 32 * KIB
    return "pipeline", 64 * KIB


def describe(choice: tuple[str, int]) -> str:
    name, seg = choice
    return name if seg == 0 else f"{name} {seg // KIB} KB"


def levels(p: int, m: int, groups: int) -> dict:
    """One row: what each level of the hierarchical reduce runs."""
    if groups < 1 or p % groups:
        raise ValueError(f"{groups} groups do not divide {p} ranks")
    inside, between = reduce_choice(p // groups, m), reduce_choice(groups, m)
    return {"ranks": p, "bytes": m, "groups": groups, "group_size": p // groups,
            "inside": describe(inside), "inside_segment": inside[1],
            "between": describe(between), "between_segment": between[1]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="ompi_reduce_rule.py",
                                 description="Open MPI 1.4's fixed reduce decision at each level of a hierarchical "
                                             "reduce (thesis Table 3.1)")
    ap.add_argument("--ranks", type=int, required=True, help="processes p")
    ap.add_argument("--bytes", type=int, required=True, help="message size m in bytes")
    ap.add_argument("--groups", default="all", help="'all' (every G dividing p) or a comma list")
    ap.add_argument("--csv", help="write the rows to FILE ('-' = stdout) instead of a table")
    a = ap.parse_args(argv)
    try:
        if a.ranks < 1 or a.bytes < 0:
            raise ValueError(f"--ranks must be >= 1 and --bytes >= 0 (got {a.ranks}, {a.bytes})")
        gs = ([g for g in range(1, a.ranks + 1) if a.ranks % g == 0] if a.groups == "all"
              else [int(g) for g in a.groups.split(",")])
        rows = [levels(a.ranks, a.bytes, g) for g in gs]
    except ValueError as e:
        print(f"ompi_reduce_rule.py: error: {e}", file=sys.stderr)
        return 2
    if a.csv:
        out = sys.stdout if a.csv == "-" else open(a.csv, "w", newline="")
        w = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
        if out is not sys.stdout:
            out.close()
    else:
        print(f"{'G':>5} {'p/G':>5}  {'inside groups':<16} {'between groups':<16}")
        for r in rows:
            print(f"{r['groups']:>5} {r['group_size']:>5}  {r['inside']:<16} {r['between']:<16}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
