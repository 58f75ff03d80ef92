#!/usr/bin/env python3
"""Checks that two programs make the same MPI calls per iteration, rank by rank.

usage: compare_ti_iterations.py A_SHORT A_LONG B_SHORT B_LONG ITERATIONS

Each argument is an SMPI time-independent trace (smpirun -trace-ti: NAME and NAME_files/ with
one file per rank) of a run of N and N + ITERATIONS iterations. A program's per-iteration calls
are the multiset of trace lines (call and sizes) the longer run has beyond the shorter one: the
setup and the end of the run cancel. Compute lines are left out (the skeleton charges what the
real run computes). Exits 1, naming the rank and the differing calls, when the programs' calls
differ, or when a program's extra lines are not ITERATIONS times one iteration's.
"""
import collections
import glob
import os
import sys


def rank_files(trace):
    files = sorted(glob.glob(os.path.join(trace + "_files", "*_rank-*.txt")),
                   key=lambda f: int(f.rsplit("-", 1)[1].split(".")[0]))
    if not files:
        sys.exit(f"compare_ti_iterations.py: no rank files in {trace}_files")
    return files


def calls(path):
    out = collections.Counter()
    for line in open(path):
        words = line.split()
        if len(words) >= 2 and words[1] not in ("compute", "init", "finalize"):
            out[" ".join(words[1:])] += 1
    return out


def per_iteration(short, long_, iterations, what):
    a, b = rank_files(short), rank_files(long_)
    if len(a) != len(b):
        sys.exit(f"{what}: {len(a)} ranks in one trace, {len(b)} in the other")
    result = []
    for r, (fa, fb) in enumerate(zip(a, b)):
        extra = calls(fb)
        extra.subtract(calls(fa))
        if any(v < 0 for v in extra.values()):
            sys.exit(f"{what}: rank {r}: the longer run lacks calls of the shorter one")
        one = collections.Counter()
        for k, v in extra.items():
            if v % iterations:
                sys.exit(f"{what}: rank {r}: '{k}' occurs {v} times in {iterations} iterations")
            if v:
                one[k] = v // iterations
        result.append(one)
    return result


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    iterations = int(sys.argv[5])
    real = per_iteration(sys.argv[1], sys.argv[2], iterations, "real")
    skeleton = per_iteration(sys.argv[3], sys.argv[4], iterations, "skeleton")
    if len(real) != len(skeleton):
        sys.exit(f"real run has {len(real)} ranks, the skeleton {len(skeleton)}")
    bad = False
    for r, (x, y) in enumerate(zip(real, skeleton)):
        if x != y:
            bad = True
            only_real, only_skel = x - y, y - x
            print(f"rank {r}: real only {dict(only_real)}; skeleton only {dict(only_skel)}", file=sys.stderr)
    if bad or not any(real):
        sys.exit("per-iteration MPI calls differ" if bad else "no MPI calls per iteration")
    total = sum(sum(c.values()) for c in real)
    print(f"same MPI calls per iteration on {len(real)} ranks ({total} calls per iteration in all)")


main()
