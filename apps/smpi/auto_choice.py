#!/usr/bin/env python3
"""auto_choice.py: is groups=auto right in simulation? For every committed SMPI
sweep over the number of groups G (results/simulated/fig4.6-torus-<p>.csv), the
choice groups=auto makes with the platform's alpha, beta and DGEMM rate (taken
from the model CSV next to the sweep, i.e. the platform file's values) is looked
up in the sweep and compared with the best swept G.

Two choosers per (sweep, broadcast). The formula models (model=vandegeijn |
binomial): the drop-in's own C++ model through `hympi-pdgemm-auto --table`
(--tool), or apps/model/hympi_model.py when no tool is given (the two agree
exactly: test scalapack.auto.model_choice); SMPI's broadcast maps to the
model's: scatter_LR_allgather -> vandegeijn, binomial_tree -> binomial. And
model=measured (the default): the pick of the drop-in's probe run in the same
simulation (apps/smpi/run-auto-probe.sh writes auto-probe-<machine>-<ranks>-<n>-
<b>-<bcast>.csv next to the sweeps), rows with model_bcast = measured.

Writes one row per (sweep, broadcast) to --csv; with --check, exits 1 unless
every (sweep, broadcast) whose model is in --require is within --tolerance of
the best swept time (default: the measured ones; a sweep with none fails). Usage:
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
           "gap", "within_tolerance", "chooser", "time_basis"]


def machine_of(sweep, model):
    """alpha, beta, gflops from the model CSV written for this sweep (the platform's values)."""
    stem = sweep[:-len(".csv")]
    for path in sorted(glob.glob(f"{stem}.model-*-{model}.csv")) + sorted(glob.glob(f"{stem}.model-*.csv")):
        with open(path) as f:
            row = next(csv.DictReader(f))
        return float(row["alpha"]), float(row["beta"]), float(row["gflops"])
    raise SystemExit(f"auto_choice.py: no model CSV next to {sweep} (its platform's alpha/beta/rate)")


def slope_times(sweep, bcast):
    """(I, J) -> full-problem time extrapolated from 2 and 4 steps (apps/smpi/step_slope.py), where the
    sweep has a step-slope-torus-<p>.csv beside it: those replace the 1-step scaled times."""
    path = sweep.replace("fig4.6-torus-", "step-slope-torus-")
    if path == sweep or not os.path.exists(path):
        return {}, "scaled"
    with open(path) as f:
        rows = [r for r in csv.DictReader(f) if r["smpi_bcast"] == bcast]
    times = {}
    for r in rows:
        key = (1, 1) if r["algorithm"] == "summa" else (int(r["I"]), int(r["J"]))
        times.setdefault(key, float(r["time_s_scaled"]))
    return times, (f"slope {rows[0]['steps_fit']}" if rows else "scaled")


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


def measured_pick(sweep, pb, bcast, probe_dir=None):
    """(I, J) that model=measured chose in simulation (run-auto-probe.sh's CSV for this sweep), or None."""
    with open(sweep) as f:
        machine = next(csv.DictReader(f))["machine"]
    path = os.path.join(probe_dir or os.path.dirname(sweep), f"auto-probe-{machine}-{pb.P * pb.Q}-{pb.n}-{pb.b}-{bcast}.csv")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        chosen = [r for r in csv.DictReader(f) if r["chosen"] == "1"]
    return (int(chosen[0]["I"]), int(chosen[0]["J"])) if chosen else None


def evaluate(sweeps, tool, tolerance, probe_dir=None):
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
            slope, basis = slope_times(sweep, bcast)
            times.update(slope)
            if (1, 1) in slope and (pb.P, pb.Q) in times:  # G = p is SUMMA: the same basis as the others
                times[(pb.P, pb.Q)] = slope[(1, 1)]
            cases.append((sweep, bcast, model, pb, hm.Machine(alpha, beta, gflops * 1e9), times, basis))
    picks = choose(tool, [(pb, mc, model) for _, _, model, pb, mc, _, _ in cases])
    rows = [(case, pick, "c++" if tool else "python") for case, pick in zip(cases, picks)]
    for case in cases:  # model=measured: the pick of the probe run in simulation, where there is one
        pick = measured_pick(case[0], case[3], case[1], probe_dir)
        if pick:
            rows.append(((case[0], case[1], "measured") + case[3:], pick, "smpi-probe"))
    out = []
    for (sweep, bcast, model, pb, mc, times, basis), (I, J), chooser in rows:
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
                    "chooser": chooser, "time_basis": basis})
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(prog="auto_choice.py", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sweeps", nargs="*", help="sweep CSVs (default: results/simulated/fig4.6-torus-*.csv)")
    ap.add_argument("--tool", help="hympi-pdgemm-auto (the drop-in's C++ chooser); default: the Python model")
    ap.add_argument("--csv", help="write the rows here")
    ap.add_argument("--probe-dir", help="where the auto-probe-*.csv are (default: next to each sweep)")
    ap.add_argument("--tolerance", type=float, default=0.05, help="allowed gap to the best swept time (0.05 = 5%%)")
    ap.add_argument("--check", action="store_true", help="exit 1 unless every --require case is within tolerance")
    ap.add_argument("--require", default="measured",
                    help="models whose cases must pass --check (comma list: measured, vandegeijn, binomial)")
    a = ap.parse_args(argv)
    sweeps = a.sweeps or sorted(p for p in glob.glob(os.path.join(ROOT, "results/simulated/fig4.6-torus-*.csv"))
                                if ".model-" not in p)
    rows = evaluate(sweeps, a.tool, a.tolerance, a.probe_dir)
    for r in rows:
        print(f"{r['sweep']} {r['smpi_bcast']:>20s} model {r['model_bcast']:>10s}: auto G={r['auto_G']} ({r['auto_I']}x{r['auto_J']}) "
              f"{r['auto_time_s'] or 'not swept'} s, best swept G={r['best_G']} {r['best_time_s']:.4g} s, "
              f"gap {r['gap'] or '-'}{'' if r['within_tolerance'] else '  OUTSIDE ' + format(a.tolerance, '.0%')}")
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=COLUMNS)
            w.writeheader()
            w.writerows(rows)
    required = [r for r in rows if r["model_bcast"] in a.require.split(",")]
    failed = [r for r in required if not r["within_tolerance"]]
    missing = []
    # Every (sweep, broadcast) needs a row of each required model (a missing probe CSV fails too).
    for case in sorted({(r["sweep"], r["smpi_bcast"]) for r in rows}):
        for model in a.require.split(","):
            if model in ("measured", "vandegeijn", "binomial") and not any(
                    (r["sweep"], r["smpi_bcast"], r["model_bcast"]) == case + (model,) for r in rows) and (
                    model == "measured" or MODEL_OF[case[1]] == model):
                print(f"{case[0]} {case[1]}: no {model} choice (run apps/smpi/run-auto-probe.sh for it)")
                missing.append(case)
    if a.check:
        print(f"auto choice: {len(required) - len(failed)} of {len(required)} required cases within "
              f"{a.tolerance:.0%} of the best swept G; {len(missing)} without a required choice")
        if not required or failed or missing:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
