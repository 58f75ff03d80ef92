#!/usr/bin/env python3
"""Runs ScaLAPACK's PBLAS tester dpb3tst with hympi's drop-in pdgemm preloaded
and checks its verdict: every PDGEMM case run passes (input-only parameter
check and computational check), none fails, the error-exit tests complete, and
at least --min-run of the valid PDGEMM calls ran in hympi (the library's
counters, printed at MPI_Finalize with HYMPI_PDGEMM_STATS=1). Argument-error
calls from the error-exit tests must go to ScaLAPACK and are reported apart.
Exit 0 when all holds, 1 otherwise (with the reason)."""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile


def parse_args():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--launcher", required=True, help="mpiexec of the tester's MPI family")
    p.add_argument("--launch-flag", action="append", default=[], help="extra launcher flag (repeatable)")
    p.add_argument("--np", type=int, required=True)
    p.add_argument("--tester", required=True, help="path of dpb3tst")
    p.add_argument("--input", required=True, help="PDBLAS3TST.dat to use")
    p.add_argument("--grids", help="replace the input's process grids, e.g. '1x2,2x1,2x2'")
    p.add_argument("--preload", required=True, help="libhympi_scalapack.so")
    p.add_argument("--env", action="append", default=[], help="VAR=value for the ranks (repeatable)")
    p.add_argument("--min-run", type=float, default=0.9, help="least share of valid calls run by hympi")
    p.add_argument("--timeout", type=int, default=240)
    return p.parse_args()


def rewrite_grids(text, grids):
    pairs = [g.split("x") for g in grids.split(",")]
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if "number of process grids" in line:
            lines[i] = f"{len(pairs)}\t\tnumber of process grids (ordered pairs of P & Q)"
        elif line.rstrip().endswith("values of P"):
            lines[i] = " ".join(p for p, _ in pairs) + "\tvalues of P"
        elif line.rstrip().endswith("values of Q"):
            lines[i] = " ".join(q for _, q in pairs) + "\tvalues of Q"
    return "\n".join(lines) + "\n"


def main():
    a = parse_args()
    work = tempfile.mkdtemp(prefix="hympi-dpb3tst-")
    try:
        text = open(a.input).read()
        if a.grids:
            text = rewrite_grids(text, a.grids)
        open(os.path.join(work, "PDBLAS3TST.dat"), "w").write(text)
        # env(1) sets the preload in the ranks only, not in the launcher.
        cmd = [a.launcher, "-n", str(a.np), *a.launch_flag, "env", "LD_PRELOAD=" + a.preload,
               "HYMPI_PDGEMM_STATS=1", *a.env, a.tester]
        run = subprocess.run(cmd, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             timeout=a.timeout)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    out = run.stdout
    problems = []
    if run.returncode != 0:
        problems.append(f"tester exit code {run.returncode}")
    row = re.search(r"\|\s+PDGEMM\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)", out)
    if not row:
        problems.append("no PDGEMM line in the testing summary")
        total = passed = failed = skipped = 0
    else:
        total, passed, failed, skipped = map(int, row.groups())
        if failed or passed == 0 or passed + skipped != total:
            problems.append(f"PDGEMM: {total} tests, {passed} passed, {failed} failed, {skipped} skipped")
    for check in ("Input-only parameter check", "Computational check"):
        verdicts = re.findall(check + r": PDGEMM\s+(\w+)", out)
        if len(verdicts) != passed or any(v != "PASSED" for v in verdicts):
            problems.append(f"{check}: {len(verdicts)} verdicts, not all PASSED: {sorted(set(verdicts))}")
    if "Test for error exits flag :      T" in out and "Error-exit tests completed" not in out:
        problems.append("the error-exit tests did not complete")
    stats = re.search(r"hympi pdgemm stats: (\d+) calls run by hympi, (\d+) valid calls passed on to ScaLAPACK, "
                      r"(\d+) calls with argument errors", out)
    if not stats:
        problems.append("no hympi pdgemm stats line (was the library preloaded?)")
        ran = passed_on = errors = 0
    else:
        ran, passed_on, errors = map(int, stats.groups())
        share = ran / (ran + passed_on) if ran + passed_on else 0.0
        if ran == 0 or share < a.min_run:
            problems.append(f"only {ran} of {ran + passed_on} valid calls ran in hympi (need {a.min_run:.0%})")
    direct = re.search(r"; (\d+) of the calls run by hympi on the caller's block-cyclic layout", out)
    print(f"dpb3tst np={a.np} {os.path.basename(a.input)}{' grids ' + a.grids if a.grids else ''} {' '.join(a.env)}: "
          f"PDGEMM {total} tests, {passed} passed, {failed} failed, {skipped} skipped; "
          f"rank-calls: {ran} run by hympi ({direct.group(1) if direct else '?'} by the direct engine), "
          f"{passed_on} valid passed on, {errors} argument errors left to ScaLAPACK")
    if problems:
        print(out[-4000:])
        print("FAIL: " + "; ".join(problems))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
