#!/usr/bin/env python3
"""fig49_rows.py PREFIX [--check-band F]: thesis Fig 4.9's rows from run-fig49.sh's raw rows.

Reads PREFIX-pdgemm.csv (hympi-smpi-pdgemm-skeleton --marks: a mark per K chunk of 32),
PREFIX-summa.csv (hympi-smpi-summa-skeleton: a mark per outer step of M, = b unless --outer) and
PREFIX-dropin.csv (hympi-smpi-dropin-pdgemm: calls of k = S/4, S/2, S panels of b, each a mark),
writes PREFIX.csv: one row per (algorithm, ranks, G, b, M, settings, DGEMM model), the latest run
of each. The drop-in's rows are algorithm 'dropin' with its groups and its settings.

A step-limited run of S units (steps or chunks) is extrapolated from the slope of its marks
at S/2 and S (apps/smpi/step_slope.py's rule, on the marks of one run):
    T = T(S) + (U - S) * (T(S) - T(S/2)) / (S/2),   U = the call's units.
The slope check: the same rule from the marks at S/4 and S/2 predicts T(S); check_rel is
that prediction / T(S) - 1 (S = 4: marks 1, 2 -> 4; S = 8: 2, 4 -> 8); half_fit_rel is the
whole call extrapolated from S/4 and S/2 over the one from S/2 and S - 1 (what a run of half
the units would have reported). A run of every
unit is taken as is (fit 'all'). comm_s = time_s - dgemm_s (the thesis' communication).
--check-band F: exit 1 if any |check_rel| > F (the runs' own acceptance, default none).
--import CSV KEY=VALUE...: also take run-skeleton.sh's rows (app=skeleton, same marks) from
CSV, with the labels they lack given here (figure, privatization, dgemm_model, gflops_per_core,
host_*; command defaults to 'imported from CSV'): committed runs of the same platform and
settings enter the figure without being simulated again, and say so.
"""
import csv
import sys

SETTINGS = ["kind", "figure", "machine", "platform", "placement", "fidelity", "sharing", "overheads",
            "eager_bytes", "bcast", "ring_merge", "privatization", "dgemm_model", "gflops_per_core"]
OUT = SETTINGS + ["algorithm", "dropin_settings", "ranks", "P", "Q", "I", "J", "G", "n", "b", "M", "kb", "unit",
                  "units_run",
                  "units_total", "fit", "time_s", "comm_s", "dgemm_s", "time_run_s", "check", "check_rel",
                  "half_fit_rel",
                  "host_wall_s", "host_cpu_s", "host_max_rss_kb", "date", "git", "command"]


def read(path):
    try:
        return list(csv.DictReader(open(path)))
    except FileNotFoundError:
        return []


def extrapolate(marks, units):
    """marks: {s: (time, dgemm)} for s = 1..S; returns time, dgemm, fit, check, check_rel."""
    S = max(marks)
    if S >= units:
        t, d = marks[units]
        return t, d, "all", "", "", ""
    if S < 2 or S % 2:
        raise SystemExit(f"fig49_rows.py: a step-limited run needs an even number of units >= 2, got {S}")
    h = S // 2
    slope = [(marks[S][i] - marks[h][i]) / h for i in (0, 1)]
    t, d = (marks[S][i] + (units - S) * slope[i] for i in (0, 1))
    check = rel = half = ""
    if S % 4 == 0:
        q = S // 4
        step = (marks[h][0] - marks[q][0]) / (h - q)
        pred = marks[h][0] + (S - h) * step
        check, rel = f"{q},{h}->{S}", f"{pred / marks[S][0] - 1:+.4f}"
        half = f"{(marks[h][0] + (units - h) * step) / t - 1:+.4f}"
    return t, d, f"{h},{S}", check, rel, half


def rows_pdgemm(raw):
    runs = {}
    for r in raw:  # one run = one (settings, ranks, date): its marks and its end row
        runs.setdefault(tuple(r[k] for k in SETTINGS + ["ranks", "M", "nb", "date"]), []).append(r)
    out = []
    for run in runs.values():
        marks = {int(r["chunks"]): (float(r["time_s"]), float(r["max_dgemm_s"])) for r in run
                 if r["step_basis"] == "mark"}
        end = [r for r in run if r["step_basis"] == "end"][-1]
        units = int(end["chunks_total"])
        if not marks:  # no marks: only a whole run counts
            if int(end["chunks"]) != units:
                continue
            marks = {units: (float(end["time_s"]), float(end["max_dgemm_s"]))}
        t, d, fit, check, rel, half = extrapolate(marks, units)
        row = {k: end[k] for k in SETTINGS}
        row.update(algorithm="pdgemm", dropin_settings="-", ranks=end["ranks"], P=end["P"], Q=end["Q"], I="-", J="-",
                   G="-", n=end["M"], b=end["nb"], M=end["nb"], kb=end["kb"], unit="chunk", units_run=max(marks), units_total=units,
                   fit=fit, time_s=f"{t:.6g}", comm_s=f"{t - d:.6g}", dgemm_s=f"{d:.6g}",
                   time_run_s=f"{marks[max(marks)][0]:.9g}", check=check, check_rel=rel,
                   half_fit_rel=half)
        row.update({k: end[k] for k in ["host_wall_s", "host_cpu_s", "host_max_rss_kb", "date", "git", "command"]})
        out.append(row)
    return out


def rows_summa(raw):
    runs = {}
    for r in raw:
        runs.setdefault(tuple(r.get(k, "") for k in SETTINGS + ["ranks", "n", "b", "M", "algorithm", "I", "J", "date"]),
                        []).append(r)
    out = []
    for run in runs.values():
        marks = {int(r["max_steps"]): (float(r["time_s"]), float(r["dgemm_s"])) for r in run
                 if r["step_basis"] == "mark"}
        end = [r for r in run if r["step_basis"] == "barrier"][-1]
        outer = int(end.get("M") or end["b"])  # rows before --outer have M = b
        units = int(end["n"]) // outer
        t, d, fit, check, rel, half = extrapolate(marks, units)
        G = int(end["I"]) * int(end["J"])
        row = {k: end[k] for k in SETTINGS}
        row.update(algorithm=end["algorithm"] if G > 1 else "summa", dropin_settings="-", ranks=end["ranks"],
                   P=end["P"], Q=end["Q"], I=end["I"], J=end["J"], G=G, n=end["n"], b=end["b"], M=outer, kb="-",
                   unit="step" if outer == int(end["b"]) else "outer step",
                   units_run=max(marks), units_total=units, fit=fit, time_s=f"{t:.6g}", comm_s=f"{t - d:.6g}",
                   dgemm_s=f"{d:.6g}", time_run_s=f"{marks[max(marks)][0]:.9g}", check=check, check_rel=rel,
                   half_fit_rel=half)
        row.update({k: end[k] for k in ["host_wall_s", "host_cpu_s", "host_max_rss_kb", "date", "git", "command"]})
        out.append(row)
    return out


def rows_dropin(raw):
    """The drop-in's calls of k = S/4, S/2, S panels (a run: settings, groups, date) as marks."""
    runs = {}
    for r in raw:
        runs.setdefault(tuple(r[k] for k in SETTINGS + ["ranks", "N", "nb", "groups", "dropin_settings", "date"]),
                        []).append(r)
    out = []
    for run in runs.values():
        marks = {int(r["steps"]): (float(r["time_s"]), float(r["dgemm_s"])) for r in run}
        end = max(run, key=lambda r: int(r["steps"]))
        t, d, fit, check, rel, half = extrapolate(marks, int(end["steps_total"]))
        I, J = (int(x) for x in end["groups"].split("x"))
        row = {k: end[k] for k in SETTINGS}
        row.update(algorithm="dropin", dropin_settings=end["dropin_settings"], ranks=end["ranks"], P=end["P"],
                   Q=end["Q"], I=I, J=J, G=I * J, n=end["N"], b=end["nb"], M=end["nb"], kb="-", unit="call of k panels",
                   units_run=max(marks), units_total=end["steps_total"], fit=fit, time_s=f"{t:.6g}",
                   comm_s=f"{t - d:.6g}", dgemm_s=f"{d:.6g}", time_run_s=f"{marks[max(marks)][0]:.9g}", check=check,
                   check_rel=rel, half_fit_rel=half)
        row.update({k: end[k] for k in ["host_wall_s", "host_cpu_s", "host_max_rss_kb", "date", "git", "command"]})
        out.append(row)
    return out


def main():
    args = sys.argv[1:]
    band = None
    if "--check-band" in args:
        i = args.index("--check-band")
        band = float(args[i + 1])
        del args[i:i + 2]
    imported = []
    while "--import" in args:
        i = args.index("--import")
        j = i + 2
        while j < len(args) and "=" in args[j] and not args[j].startswith("-"):
            j += 1
        path, labels = args[i + 1], dict(a.split("=", 1) for a in args[i + 2:j])
        labels.setdefault("command", f"imported from {path}")
        for r in read(path):
            if r.get("app") == "skeleton":
                r.update(labels)
                for k in SETTINGS + ["host_wall_s", "host_cpu_s", "host_max_rss_kb"]:
                    r.setdefault(k, "")
                imported.append(r)
        del args[i:j]
    if args in (["-h"], ["--help"]):
        print(__doc__)
        sys.exit(0)
    if len(args) != 1 or args[0].startswith("-"):
        print(f"fig49_rows.py: error: expected one PREFIX, got {args!r} (--help)", file=sys.stderr)
        sys.exit(2)
    prefix = args[0].removesuffix(".csv")
    rows = (rows_pdgemm(read(prefix + "-pdgemm.csv")) + rows_summa(read(prefix + "-summa.csv") + imported) +
            rows_dropin(read(prefix + "-dropin.csv")))
    if not rows:
        print(f"fig49_rows.py: error: no rows in {prefix}-pdgemm.csv or {prefix}-summa.csv", file=sys.stderr)
        sys.exit(2)
    latest = {}
    for r in sorted(rows, key=lambda r: r["date"]):  # the latest run of each point wins
        latest[tuple(str(r[k]) for k in SETTINGS + ["algorithm", "dropin_settings", "ranks", "I", "J", "n", "b", "M"])] = r
    rows = sorted(latest.values(), key=lambda r: (r["dgemm_model"], r["fidelity"], int(r["ranks"]),
                                                 int(r["b"]), r["algorithm"] != "pdgemm", r["algorithm"] != "summa",
                                                 r["algorithm"] == "dropin",
                                                 int(r["G"]) if r["G"] != "-" else 0))
    with open(prefix + ".csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=OUT)
        w.writeheader()
        w.writerows(rows)
    bad = [r for r in rows if band is not None and r["check_rel"] and abs(float(r["check_rel"])) > band]
    for r in rows:
        print(f"{r['ranks']:>6} {r['algorithm']:7} G={r['G']:>5} b={r['b']:>4} M={r['M']:>4} {r['dgemm_model'][:12]:12} time {r['time_s']:>9} s "
              f"comm {r['comm_s']:>9} s  fit {r['fit']:6} check {r['check_rel'] or '-'} half-run fit {r['half_fit_rel'] or '-'}")
    if bad:
        sys.exit(f"fig49_rows.py: {len(bad)} row(s) outside the slope check band {band}")


if __name__ == "__main__":
    main()
