#!/usr/bin/env python3
"""ScaLAPACK's p?gemm against hympi's drop-in, side by side: the same hympi-pdgemm-bench
binary run plain and with libhympi_scalapack.so preloaded, launches taking turns, several
launches per case; then one rank alone (the drop-in's single ?gemm call; its best launch) for the GEMM rate
of each precision.

Writes every launch's row to --csv and prints per case the median over launches of each
one's best time, the ScaLAPACK / hympi ratio (median of the launch pairs' ratios, with its
interval from the harness's statistics) and hympi's rate as a share of twice the one-rank
rate. A benchmark, not a test: run it on a quiet machine and say what else ran.
"""
import argparse
import csv
import itertools
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "harness"))
from hympi_harness.stats import median, median_ci  # noqa: E402  one implementation of the interval


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", required=True, help="build tree holding apps/pdgemm_bench and hsumma/scalapack")
    p.add_argument("--csv", required=True, help="raw rows of every launch (appended)")
    p.add_argument("--new", action="store_true", help="start --csv afresh (remove an existing file first)")
    p.add_argument("--precisions", default="s,d,c,z")
    p.add_argument("--sizes", default="4096", help="n for real precisions, comma-separated")
    p.add_argument("--complex-sizes", default="2048,4096", help="n for complex precisions")
    p.add_argument("--nbs", default="64,256")
    p.add_argument("--grids", default="1x2,2x1")
    p.add_argument("--launches", type=int, default=3, help="launches per case and implementation")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--mpiexec", default="mpirun")
    p.add_argument("--family", choices=["openmpi", "mpich"], default="openmpi")
    p.add_argument("--setting", action="append", default=[], metavar="KEY=VALUE",
                   help="a drop-in setting for the preloaded launches (HYMPI_PDGEMM_<KEY>), e.g. gemm3m=1; "
                        "repeatable; each row's dropin_settings column records them")
    p.add_argument("--report-only", action="store_true", help="print the report of --csv, run nothing")
    return p.parse_args(argv)


def setting_variable(text):
    """'gemm3m=1' -> ('HYMPI_PDGEMM_GEMM3M', '1'): the drop-in reads its settings from there."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        sys.exit(f"dropin_sweep: --setting wants KEY=VALUE, got '{text}'")
    return "HYMPI_PDGEMM_" + key.upper(), value


def launch(args, ranks, grid, precision, n, nb, preload):
    bench = os.path.join(args.build, "apps", "pdgemm_bench", "hympi-pdgemm-bench")
    lib = os.path.join(os.path.abspath(args.build), "hsumma", "scalapack", "libhympi_scalapack.so")
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    ranks_env = [("LD_PRELOAD", lib)] + [setting_variable(s) for s in args.setting] if preload else []
    if args.family == "openmpi":  # -x: the ranks get the preload, mpirun itself does not
        cmd = [args.mpiexec, "-np", str(ranks), "--bind-to", "core"]
        for var, value in ranks_env:
            cmd += ["-x", f"{var}={value}"]
    else:
        cmd = [args.mpiexec, "-n", str(ranks), "-bind-to", "core"]
        for var, value in ranks_env:
            cmd += ["-genv", var, value]
    cmd += [bench, "-N", str(n), "--nb", str(nb), "--grid", grid, "--precision", precision,
            "--reps", str(args.reps), "--warmup", str(args.warmup), "--csv", os.path.abspath(args.csv)]
    print("$", " ".join(cmd), flush=True)
    out = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sys.stdout.write(out.stdout)
    if out.returncode:
        sys.exit(f"dropin_sweep: launch failed with exit code {out.returncode}")


def cases(args):
    real = [int(x) for x in args.sizes.split(",")]
    cplx = [int(x) for x in args.complex_sizes.split(",")]
    for precision in args.precisions.split(","):
        for n in (cplx if precision in "cz" else real):
            for nb, grid in itertools.product([int(x) for x in args.nbs.split(",")], args.grids.split(",")):
                yield precision, n, nb, grid


def run(args):
    todo = list(cases(args))
    for i, (precision, n, nb, grid) in enumerate(todo, 1):
        print(f"[{i}/{len(todo)}] p{precision}gemm n={n} nb={nb} grid={grid}", flush=True)
        for _ in range(args.launches):  # ScaLAPACK and hympi take turns: the pair shares the noise
            launch(args, 2, grid, precision, n, nb, preload=False)
            launch(args, 2, grid, precision, n, nb, preload=True)
    for precision, n in sorted({(p, n) for p, n, _, _ in todo}):
        for _ in range(args.launches):  # one rank: the drop-in makes one ?gemm call
            launch(args, 1, "1x1", precision, n, 64, preload=True)


def report(path):
    rows = list(csv.DictReader(open(path)))
    by_case = {}  # case -> {"scalapack" | the drop-in's settings ("" = defaults): [rows]}
    for r in rows:
        key = (r["precision"], int(r["n"]), int(r["nb"]), r["grid"], int(r["ranks"]))
        impl = "scalapack" if r["impl"] == "scalapack" else r.get("dropin_settings", "")
        by_case.setdefault(key, {}).setdefault(impl, []).append(r)
    one_rank = {(p, n, impl): max(float(r["gflops"]) for r in found)
                for (p, n, _, _, ranks), impls in by_case.items() if ranks == 1
                for impl, found in impls.items() if impl != "scalapack"}
    print("precision,n,nb,grid,launches,scalapack_s,hympi_s,ratio,ratio_lo,ratio_hi,ratio_coverage,"
          "hympi_gflops,one_rank_gflops,share_of_2x,staging_s,panels_s,gemm_s,dropin_settings")
    printed = 0
    for (p, n, nb, grid, ranks), impls in sorted(by_case.items()):
        if ranks != 2 or "scalapack" not in impls:
            continue
        s = [float(r["best_s"]) for r in impls["scalapack"]]
        for settings, hympi in sorted((k, v) for k, v in impls.items() if k != "scalapack"):
            h = [float(r["best_s"]) for r in hympi]
            ratios = [a / b for a, b in zip(s, h)]  # launch i of each: run back to back
            mid, (lo, hi, cov) = median(ratios), median_ci(ratios)
            med = median
            gf = med([float(r["gflops"]) for r in hympi])  # the bench's rate of each launch's best call
            rate = one_rank.get((p, n, settings))
            share = f"{gf / (2 * rate):.3f}" if rate else ""
            ph = {k: med([float(r[k]) for r in hympi]) for k in ("staging_s", "panels_s", "gemm_s")}
            print(f"{p},{n},{nb},{grid},{len(ratios)},{med(s):.3f},{med(h):.3f},{mid:.3f},{lo:.3f},{hi:.3f},"
                  f"{cov:.2f},{gf:.1f},{rate or 0:.1f},{share},{ph['staging_s']:.3f},{ph['panels_s']:.3f},"
                  f"{ph['gemm_s']:.3f},{settings}")
            printed += 1
    return printed


def main(argv=None):
    args = parse_args(argv)
    if not args.report_only:
        if args.new and os.path.exists(args.csv):
            os.remove(args.csv)
        run(args)
    if not os.path.exists(args.csv):
        sys.exit(f"dropin_sweep: {args.csv} does not exist")
    if report(args.csv) == 0:
        sys.exit(f"dropin_sweep: {args.csv} holds no case run by both ScaLAPACK and hympi")


if __name__ == "__main__":
    main()
