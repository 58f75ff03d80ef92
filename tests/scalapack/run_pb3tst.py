#!/usr/bin/env python3
"""Runs ScaLAPACK's level-3 PBLAS tester of one precision (spb3tst, dpb3tst,
cpb3tst, zpb3tst) with hympi's drop-in p?gemm preloaded and checks its verdict:
every P?GEMM case run passes (input-only parameter check and computational
check), none fails, the error-exit tests complete, and at least --min-run of
the valid P?GEMM calls ran in hympi (the library's counters of that precision,
printed at MPI_Finalize with HYMPI_PDGEMM_STATS=1). Argument-error calls from
the error-exit tests must go to ScaLAPACK and are reported apart.
An input in dpb3tst's format (PDBLAS3TST.dat) is converted for the other
precisions: its summary file name, ALPHA and BETA (complex ones get imaginary
parts) and the routine list (the tester's shipped P?BLAS3TST.dat's, found
beside it). Exit 0 when all holds, 1 otherwise (with the reason)."""
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
    p.add_argument("--precision", choices="sdcz", default="d", help="s, d, c or z (default d)")
    p.add_argument("--tester", required=True, help="path of ?pb3tst of that precision")
    p.add_argument("--input", required=True, help="P?BLAS3TST.dat to use (dpb3tst's format is converted)")
    p.add_argument("--grids", help="replace the input's process grids, e.g. '1x2,2x1,2x2'")
    p.add_argument("--preload", required=True, help="libhympi_scalapack.so")
    p.add_argument("--env", action="append", default=[], help="VAR=value for the ranks (repeatable)")
    p.add_argument("--gemm-only", action="store_true", help="test only P?GEMM of the input's routines (cheaper)")
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


ROUTINE_LINE = "put F for no test in the same column"


def convert_precision(text, precision, shipped):
    """dpb3tst's input for the tester of `precision`: the routine lines of its own
    shipped input (those the input tests, like P?GEMM from PDGEMM, on; those it
    lacks, like PZHEMM, off), its summary name, alpha and beta of its type."""
    if precision == "d" or "PDBLAS3TST" not in text:
        return text
    P = precision.upper()
    exponent = "E0" if precision in "sc" else "D0"
    tested = {line.split()[0][2:] for line in text.splitlines()
              if line.rstrip().endswith(ROUTINE_LINE) and line.split()[1] == "T"}
    routines = []
    for line in open(shipped).read().splitlines():
        if line.rstrip().endswith(ROUTINE_LINE):
            name = line.split()[0]
            routines.append(f"{name:<8}{'T' if name[2:] in tested else 'F'}\t{ROUTINE_LINE}")
    out, inserted = [], False
    for line in text.splitlines():
        if line.rstrip().endswith(ROUTINE_LINE):
            if not inserted:
                out.extend(routines)
                inserted = True
            continue
        line = line.replace("PDBLAS3TST", f"P{P}BLAS3TST")
        for what, imag in (("ALPHA", "0.75"), ("BETA", "-1.25")):
            m = re.match(r"\s*(-?[0-9.]+)D0(\s+value of " + what + ")", line)
            if m:
                real = m.group(1) + exponent
                line = (f"({real}, {imag}{exponent})" if precision in "cz" else real) + m.group(2)
        out.append(line)
    return "\n".join(out) + "\n"


def gemm_only(text):
    """The input with every routine but P?GEMM switched off."""
    out = []
    for line in text.splitlines():
        if line.rstrip().endswith(ROUTINE_LINE) and not line.split()[0].endswith("GEMM"):
            line = f"{line.split()[0]:<8}F\t{ROUTINE_LINE}"
        out.append(line)
    return "\n".join(out) + "\n"


def main():
    a = parse_args()
    P = a.precision.upper()
    work = tempfile.mkdtemp(prefix=f"hympi-{a.precision}pb3tst-")
    try:
        text = open(a.input).read()
        if a.grids:
            text = rewrite_grids(text, a.grids)
        shipped = os.path.join(os.path.dirname(a.tester), f"P{P}BLAS3TST.dat")
        text = convert_precision(text, a.precision, shipped)
        if a.gemm_only:
            text = gemm_only(text)
        open(os.path.join(work, f"P{P}BLAS3TST.dat"), "w").write(text)
        # env(1) sets the preload in the ranks only, not in the launcher; a preload the
        # test environment already has (MPICH's yield, tests/support) stays.
        preload = ":".join(p for p in (a.preload, os.environ.get("LD_PRELOAD", "")) if p)
        cmd = [a.launcher, "-n", str(a.np), *a.launch_flag, "env", "LD_PRELOAD=" + preload,
               "HYMPI_PDGEMM_STATS=1", *a.env, a.tester]
        run = subprocess.run(cmd, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             timeout=a.timeout)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    out = run.stdout
    problems = []
    if run.returncode != 0:
        problems.append(f"tester exit code {run.returncode}")
    row = re.search(rf"\|\s+P{P}GEMM\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)", out)
    if not row:
        problems.append(f"no P{P}GEMM line in the testing summary")
        total = passed = failed = skipped = 0
    else:
        total, passed, failed, skipped = map(int, row.groups())
        if failed or passed == 0 or passed + skipped != total:
            problems.append(f"P{P}GEMM: {total} tests, {passed} passed, {failed} failed, {skipped} skipped")
    for check in ("Input-only parameter check", "Computational check"):
        verdicts = re.findall(check + rf": P{P}GEMM\s+(\w+)", out)
        if len(verdicts) != passed or any(v != "PASSED" for v in verdicts):
            problems.append(f"{check}: {len(verdicts)} verdicts, not all PASSED: {sorted(set(verdicts))}")
    if "Test for error exits flag :      T" in out and "Error-exit tests completed" not in out:
        problems.append("the error-exit tests did not complete")
    stats = re.search(rf"hympi p{a.precision}gemm stats: (\d+) calls run by hympi, (\d+) valid calls passed on to ScaLAPACK, "
                      r"(\d+) calls with argument errors", out)
    if not stats:
        problems.append(f"no hympi p{a.precision}gemm stats line (was the library preloaded?)")
        ran = passed_on = errors = 0
    else:
        ran, passed_on, errors = map(int, stats.groups())
        share = ran / (ran + passed_on) if ran + passed_on else 0.0
        if ran == 0 or share < a.min_run:
            problems.append(f"only {ran} of {ran + passed_on} valid calls ran in hympi (need {a.min_run:.0%})")
    direct = re.search(rf"hympi p{a.precision}gemm stats: [^\n]*; (\d+) of the calls run by hympi on the caller's "
                       r"block-cyclic layout", out)
    share = f"{int(direct.group(1)) / ran:.0%}" if direct and ran else "?"
    if "HYMPI_PDGEMM_GEMM3M=1" in a.env:  # every call hympi ran multiplied with the 3M kernel
        by_3m = re.search(rf"hympi p{a.precision}gemm stats: [^\n]*; (\d+) with the 3M kernel", out)
        if not by_3m or int(by_3m.group(1)) != ran:
            problems.append(f"{by_3m.group(1) if by_3m else 0} of {ran} calls ran with the 3M kernel")
    print(f"{a.precision}pb3tst np={a.np} {os.path.basename(a.input)}{' grids ' + a.grids if a.grids else ''} "
          f"{' '.join(a.env)}: P{P}GEMM {total} tests, {passed} passed, {failed} failed, {skipped} skipped; "
          f"rank-calls: {ran} run by hympi ({direct.group(1) if direct else '?'} = {share} by the direct engine), "
          f"{passed_on} valid passed on, {errors} argument errors left to ScaLAPACK")
    if problems:
        print(out[-4000:])
        print("FAIL: " + "; ".join(problems))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
