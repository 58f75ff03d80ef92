#!/usr/bin/env python3
"""auto_choice.py: is groups=auto right in simulation? For every committed SMPI
sweep over the number of groups G (results/simulated/fig4.6-torus-<p>.csv), the
choice groups=auto makes with the platform's alpha, beta and DGEMM rate (taken
from the model CSV next to the sweep, i.e. the platform file's values) is looked
up in the sweep and compared with the best swept G.

The choice comes from the drop-in's own C++ model through `hympi-pdgemm-auto
--table` (--tool), or from apps/model/hympi_model.py when no tool is given (the
two agree exactly: test scalapack.auto.model_choice). SMPI's broadcast maps to
the model's: scatter_LR_allgather -> vandegeijn, binomial_tree -> binomial.

Writes one row per (sweep, broadcast) to --csv; with --check, exits 1 unless
every (sweep, broadcast) whose model is in --require is within --tolerance of
the best swept time. Usage:
  apps/smpi/auto_choice.py [--tool build/apps/pdgemm_auto/hympi-pdgemm-auto]
      [--csv results/simulated/auto-choice-torus.csv] [--check] [sweep.csv ...]
"""
import argparse
import csv
import glob
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.realpath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "apps", "model"))
import hympi_model as hm  # noqa: E402

MODEL_OF = {"scatter_LR_allgather": "vandegeijn", "binomial_tree": "binomial"}
COLUMNS = ["sweep", "ranks", "smpi_bcast", "model_bcast", "m", "n", "k", "b", "M", "P", "Q", "alpha", "beta", "gflops",
           "auto_I", "auto_J", "auto_G", "auto_time_s", "best_I", "best_J", "best_G", "best_time_s", "summa_time_s",
           "gap", "within_tolerance", "chooser"]


def machine_of(sweep, model):
    """alpha, beta, gflops from the model CSV written for this sweep (the platform's values)."""
    stem = sweep[:-len(".csv")]
    for path in sorted(glob.glob(f"{stem}.model-*-{model}.csv")) + sorted(glob.glob(f"{stem}.model-*.csv")):
        with open(path) as f:
            row = next(csv.DictReader(f))
        return float(row["alpha"]), float(row["beta"]), float(row["gflops"])
    raise SystemExit(f"auto_choice.py: no model CSV next to {sweep} (its platform's alpha/beta/rate)")


def choose(tool, problems):
    """(I, J) per (pb, mc, bcast): the C++ chooser when given, else the Python model."""
    if not tool:
        return [(lambda b: (b.I, b.J))(hm.optimal(hm.sweep(pb, mc, bc))) for pb, mc, bc in problems]
    text = "".join(f"{pb.P} {pb.Q} {pb.m} {pb.n} {pb.k} {pb.b} {pb.M} {mc.alpha!r} {mc.beta!r} {mc.gamma / 1e9!r} {bc}\n"
                   for pb, mc, bc in problems)
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
        f.write(text)
        f.flush()
        out = subprocess.run([tool, "--table", f.name], capture_output=True, text=True, timeout=60, check=True)
    return [tuple(int(x) for x in line.split()[:2]) for line in out.stdout.splitlines() if line.strip()]


def evaluate(sweeps, tool, tolerance):
    cases = []
    for sweep in sweeps:
        with open(sweep) as f:
            rows = [r for r in csv.DictReader(f) if r["smpi_bcast"] in MODEL_OF]
        for bcast in sorted({r["smpi_bcast"] for r in rows}):
            group = [r for r in rows if r["smpi_bcast"] == bcast]
            r0 = group[0]
            model = MODEL_OF[bcast]
            alpha, beta, gflops = machine_of(sweep, model)
            pb = hm.Problem(int(r0["m"]), int(r0["n"]), int(r0["k"]), int(r0["b"]), int(r0["M"]), int(r0["P"]),
                            int(r0["Q"]))
            times = {}  # (I, J) -> full-problem simulated time; SUMMA is (1, 1)
            for r in group:
                key = (1, 1) if r["algorithm"] == "summa" else (int(r["I"]), int(r["J"]))
                times.setdefault(key, float(r["time_s_scaled"]))
            cases.append((sweep, bcast, model, pb, hm.Machine(alpha, beta, gflops * 1e9), times))
    picks = choose(tool, [(pb, mc, model) for _, _, model, pb, mc, _ in cases])
    out = []
    for (sweep, bcast, model, pb, mc, times), (I, J) in zip(cases, picks):
        best = min(times, key=lambda ij: (times[ij], ij[0] * ij[1]))
        auto_t = times.get((I, J))
        gap = auto_t / times[best] - 1 if auto_t is not None else float("nan")
        out.append({"sweep": os.path.relpath(sweep, ROOT), "ranks": pb.P * pb.Q, "smpi_bcast": bcast,
                    "model_bcast": model, "m": pb.m, "n": pb.n, "k": pb.k, "b": pb.b, "M": pb.M, "P": pb.P,
                    "Q": pb.Q, "alpha": mc.alpha, "beta": mc.beta, "gflops": mc.gamma / 1e9, "auto_I": I,
                    "auto_J": J, "auto_G": I * J, "auto_time_s": "" if auto_t is None else auto_t,
                    "best_I": best[0], "best_J": best[1], "best_G": best[0] * best[1],
                    "best_time_s": times[best], "summa_time_s": times.get((1, 1), ""),
                    "gap": "" if auto_t is None else f"{gap:.4f}",
                    "within_tolerance": int(auto_t is not None and gap <= tolerance),
                    "chooser": "c++" if tool else "python"})
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(prog="auto_choice.py", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sweeps", nargs="*", help="sweep CSVs (default: results/simulated/fig4.6-torus-*.csv)")
    ap.add_argument("--tool", help="hympi-pdgemm-auto (the drop-in's C++ chooser); default: the Python model")
    ap.add_argument("--csv", help="write the rows here")
    ap.add_argument("--tolerance", type=float, default=0.05, help="allowed gap to the best swept time (0.05 = 5%%)")
    ap.add_argument("--check", action="store_true", help="exit 1 unless every --require case is within tolerance")
    ap.add_argument("--require", default="vandegeijn", help="models whose cases must pass --check (comma list)")
    a = ap.parse_args(argv)
    sweeps = a.sweeps or sorted(p for p in glob.glob(os.path.join(ROOT, "results/simulated/fig4.6-torus-*.csv"))
                                if ".model-" not in p)
    rows = evaluate(sweeps, a.tool, a.tolerance)
    for r in rows:
        print(f"{r['sweep']} {r['smpi_bcast']:>20s}: auto G={r['auto_G']} ({r['auto_I']}x{r['auto_J']}) "
              f"{r['auto_time_s'] or 'not swept'} s, best swept G={r['best_G']} {r['best_time_s']:.4g} s, "
              f"gap {r['gap'] or '-'}{'' if r['within_tolerance'] else '  OUTSIDE ' + format(a.tolerance, '.0%')}")
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=COLUMNS)
            w.writeheader()
            w.writerows(rows)
    required = [r for r in rows if r["model_bcast"] in a.require.split(",")]
    failed = [r for r in required if not r["within_tolerance"]]
    if a.check:
        print(f"auto choice: {len(required) - len(failed)} of {len(required)} required cases within "
              f"{a.tolerance:.0%} of the best swept G")
        if not required or failed:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
