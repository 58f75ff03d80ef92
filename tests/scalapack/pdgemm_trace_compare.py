#!/usr/bin/env python3
"""Run ScaLAPACK's pdgemm_ under the tracer and the skeleton on one case; the traces must be equal.

Usage (ctest's hympi_add_mpi_test WRAPPER form):
  pdgemm_trace_compare.py --tracer LIB --skeleton EXE --out DIR [--skeleton-arg=--kb=64 --expect-differ]
                          -- MPIEXEC ... hympi-pdgemm-trace-run CASE-OPTIONS
The case options after the run tool are passed to the skeleton unchanged. Lines starting with
'#' (the tracer's notes on grid creation) are not compared. Exit 0 on the expected outcome.
"""
import argparse
import os
import subprocess
import sys


def events(path):
    with open(path) as f:
        return [line.rstrip("\n") for line in f if line.strip() and not line.startswith("#")]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tracer", required=True, help="libhympi_pdgemm_tracer.so")
    ap.add_argument("--skeleton", required=True, help="hympi-pdgemm-skel")
    ap.add_argument("--out", required=True, help="directory for the two traces")
    ap.add_argument("--skeleton-arg", action="append", default=[], help="extra skeleton option (mutations)")
    ap.add_argument("--expect-differ", action="store_true", help="pass iff the traces differ (a mutation)")
    ap.add_argument("command", nargs=argparse.REMAINDER, help="-- the MPI launch of hympi-pdgemm-trace-run")
    args = ap.parse_args()
    cmd = args.command[1:] if args.command[:1] == ["--"] else args.command
    runs = [i for i, word in enumerate(cmd) if os.path.basename(word) == "hympi-pdgemm-trace-run"]
    if not runs:
        print("pdgemm_trace_compare: error: no hympi-pdgemm-trace-run in the command", file=sys.stderr)
        return 2
    case = cmd[runs[0] + 1:]
    name = "_".join(w.lstrip("-") for w in case).replace("/", "_") or "case"
    os.makedirs(args.out, exist_ok=True)
    real = os.path.join(args.out, name + ".real.txt")
    skel = os.path.join(args.out, name + ".skel.txt")
    # The tracer first; a preload the tests already use (MPICH's yield) stays beside it.
    preload = ":".join(p for p in (args.tracer, os.environ.get("LD_PRELOAD", "")) if p)
    env = dict(os.environ, LD_PRELOAD=preload, HYMPI_PDGEMM_TRACE=real)
    if os.path.exists(real):
        os.remove(real)
    run = subprocess.run(cmd, env=env, timeout=120)
    if run.returncode != 0 or not os.path.exists(real):
        print(f"pdgemm_trace_compare: error: the traced run failed (exit {run.returncode})", file=sys.stderr)
        return 1
    s = subprocess.run([args.skeleton, *case, *args.skeleton_arg, "--out", skel], timeout=60)
    if s.returncode != 0:
        print(f"pdgemm_trace_compare: error: the skeleton failed (exit {s.returncode})", file=sys.stderr)
        return 1
    a, b = events(real), events(skel)
    first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    same = a == b
    sends = sum(1 for line in a if " send " in line)
    dgemms = sum(1 for line in a if " dgemm " in line)
    print(f"pdgemm trace {' '.join(case)}: real {len(a)} events ({sends} sends, {dgemms} dgemms), "
          f"skeleton {len(b)}: {'equal' if same else 'DIFFER'}")
    if not same:
        print(f"  first difference at event {first}: real {a[first] if first < len(a) else '<end>'!r}, "
              f"skeleton {b[first] if first < len(b) else '<end>'!r}")
    if args.expect_differ:
        print("mutation caught" if not same else "FAIL: the mutation left the trace unchanged")
        return 0 if not same else 1
    print("traces equal" if same else "FAIL")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
