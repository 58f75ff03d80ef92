#!/usr/bin/env python3
"""Runs hympi-bench-collectives --osu (the command after '--') and checks its
output the way tools that read OSU output do: ReFrame's OSU checks take every
line matching ^<bytes>\\s+<latency>. Checks the preamble, the Datatype line, the
header of -f/-c, one row per power of two from --min to --max bytes, positive
latencies, min <= avg <= max, and Pass in every row when validating."""
import argparse
import re
import subprocess
import sys

ROW = re.compile(r"^(\d+)\s+(\d+\.\d+)")  # ReFrame's osu latency pattern


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--min", type=int, required=True, help="smallest size expected, bytes")
    p.add_argument("--max", type=int, required=True, help="largest size expected, bytes")
    p.add_argument("--full", action="store_true", help="-f was given: min, max, iterations columns")
    p.add_argument("--iterations", type=int, help="with --full: the iterations column")
    p.add_argument("--validate", action="store_true", help="-c was given: a Validation column of Pass")
    p.add_argument("--tail", action="store_true", help="-z was given: P50, P90, P99 columns, in that order")
    p.add_argument("--vs-mpi", action="store_true",
                   help="--vs-mpi was given: the variant's and MPI's medians and their ratio, last")
    p.add_argument("command", nargs=argparse.REMAINDER)
    a = p.parse_args()
    command = a.command[1:] if a.command[:1] == ["--"] else a.command
    run = subprocess.run(command, capture_output=True, text=True, timeout=120)
    print(run.stdout)
    print(run.stderr, file=sys.stderr)
    problems = []
    if run.returncode != 0:
        problems.append(f"exit code {run.returncode}")
    lines = run.stdout.splitlines()
    if not any(re.match(r"^# OSU MPI \w+ Latency Test", l) for l in lines):
        problems.append("no '# OSU MPI <Op> Latency Test' preamble")
    if not any(re.match(r"^# Datatype: MPI_\w+\.$", l) for l in lines):
        problems.append("no '# Datatype: MPI_<type>.' line")
    header = [l for l in lines if l.startswith("# Size")]
    want = ["Avg Latency(us)"] + (["Min Latency(us)", "Max Latency(us)", "Iterations"] if a.full else [])
    want += ["Validation"] if a.validate else []
    want += ["P50 Tail Lat(us)", "P90 Tail Lat(us)", "P99 Tail Lat(us)"] if a.tail else []
    want += ["Median(us)", "MPI Median(us)", "Ratio"] if a.vs_mpi else []
    if len(header) != 1 or re.split(r"\s{2,}", header[0].strip())[1:] != want:
        problems.append(f"header {header} does not list {want}")
    rows = [l for l in lines if ROW.match(l)]
    sizes = [int(ROW.match(l).group(1)) for l in rows]
    expected = []
    size = a.min
    while size <= a.max:
        expected.append(size)
        size *= 2
    if sizes != expected:
        problems.append(f"sizes {sizes}, expected {expected}")
    for line in rows:
        fields = line.split()
        avg = float(fields[1])
        if avg <= 0:
            problems.append(f"non-positive latency: {line}")
        if a.full:
            lo, hi, iters = float(fields[2]), float(fields[3]), int(fields[4])
            if not lo <= avg <= hi:
                problems.append(f"not min <= avg <= max: {line}")
            if a.iterations is not None and iters != a.iterations:
                problems.append(f"iterations {iters}, expected {a.iterations}: {line}")
        at = 5 if a.full else 2  # the first column after min/max/iterations
        if a.validate and fields[at] != "Pass":
            problems.append(f"validation failed: {line}")
        if a.tail:
            tail = [float(f) for f in fields[at + a.validate:at + a.validate + 3]]
            if not 0 < tail[0] <= tail[1] <= tail[2]:
                problems.append(f"not 0 < P50 <= P90 <= P99: {line}")
        if a.vs_mpi:
            ours, mpi, ratio = (float(f) for f in fields[-3:])
            if not (ours > 0 and mpi > 0 and abs(ratio - ours / mpi) <= 0.02 * ratio + 2e-3):
                problems.append(f"--vs-mpi columns not positive medians and their ratio: {line}")
    for problem in problems:
        print(f"check_osu: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
