#!/usr/bin/env python3
"""Every chapter-3 simulated CSV row says how many repetitions its time is the minimum of.

The chapter-3 figures (results/simulated/graphene-thesis-fig3_*.csv, bgp-thesis-fig3_6-split*.csv,
written by run-hier-coll.sh and run-split-cost.sh) compare times whose steady state can need several
repetitions (apps/smpi/README.md "The flat reference timed warm"), so a row without `reps` cannot be
judged. Checks the committed CSVs, then that a copy with one `reps` cell blanked, and one without the
column, fail (the check can fail). Then the inventory (results/figures.csv): each chapter-3 row's CSVs
hold only the reps its commands ask for (`--reps N`, else the runner's default), so a figure rerun at
another count without its command changed fails, as does the check on a copy of the inventory whose
first such command is given another --reps.
usage: ch3_reps_check.py [RESULTS_SIMULATED_DIR]"""
import csv
import glob
import os
import re
import shutil
import sys
import tempfile

# Each runner's --reps when its command does not give one (run-hier-bcast.sh writes no reps column).
DEFAULT_REPS = {"run-graphene-hier-fig3.sh": 3, "run-graphene-gather-scatter.sh": 1, "run-hier-coll.sh": 1,
                "run-split-cost.sh": 2}


def ch3_csvs(d):
    """The chapter-3 CSVs of simulated rows (the chain model's CSV is modelled, not simulated)."""
    files = glob.glob(os.path.join(d, "graphene-thesis-fig3_*.csv")) + glob.glob(os.path.join(d, "bgp-thesis-fig3_6-split*.csv"))
    return sorted(f for f in files if not f.endswith("-chain-model.csv"))


def problems(d):
    found = []
    files = ch3_csvs(d)
    if not files:
        return [f"{d}: no chapter-3 CSV"]
    for f in files:
        with open(f, newline="") as fh:
            rows = list(csv.DictReader(fh))
        if not rows:
            found.append(f"{os.path.basename(f)}: no rows")
        elif "reps" not in rows[0]:
            found.append(f"{os.path.basename(f)}: no reps column")
            continue
        for i, r in enumerate(rows, 2):
            v = r.get("reps") or ""
            if not (v.isdigit() and int(v) >= 1):
                found.append(f"{os.path.basename(f)} line {i}: reps '{v}' is not a count >= 1")
    return found


def without_expansions(text):
    """The command text without its "(= ...)" parts: they spell out what a runner does, not another command."""
    out, depth, i = [], 0, 0
    while i < len(text):
        if depth == 0 and text.startswith("(=", i):
            depth, i = 1, i + 2
            continue
        if depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
        else:
            out.append(text[i])
        i += 1
    return "".join(out)


def commanded_reps(command):
    """The set of reps the row's runner commands ask for."""
    reps = set()
    for runner, rest in re.findall(r"(run-[\w-]+\.sh)((?:\s+(?!run-)[^;\s]+)*)", without_expansions(command)):
        if runner in DEFAULT_REPS:
            m = re.search(r"--reps (\d+)", rest)
            reps.add(int(m.group(1)) if m else DEFAULT_REPS[runner])
    return reps


def inventory_problems(inventory, d):
    """Chapter-3 rows whose CSVs hold a reps their commands do not ask for."""
    found = []
    with open(inventory, newline="") as fh:
        rows = list(csv.DictReader(fh))
    for row in rows:
        if not re.match(r"(Fig|Table) 3\.", row["number"]):
            continue
        asked = commanded_reps(row["command"])
        for art in (a.strip() for a in row["artifact"].split(";")):
            f = os.path.join(d, os.path.basename(art))
            if not art.endswith(".csv") or f not in ch3_csvs(d):
                continue
            with open(f, newline="") as fh:
                held = {int(r["reps"]) for r in csv.DictReader(fh) if (r.get("reps") or "").isdigit()}
            if held - asked:
                found.append(f"{row['number']}: {os.path.basename(f)} holds reps {sorted(held)}, its commands ask for "
                             f"{sorted(asked) or 'none'}")
    return found


def main(argv):
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    if len(argv) > 1 or (argv and not os.path.isdir(argv[0])):
        print("ch3_reps_check.py: error: usage ch3_reps_check.py [RESULTS_SIMULATED_DIR] (a directory)", file=sys.stderr)
        return 2
    d = argv[0] if argv else os.path.join(os.path.dirname(__file__), "..", "..", "results", "simulated")
    inventory = os.path.join(d, "..", "figures.csv")
    bad = problems(d) + inventory_problems(inventory, d)
    for b in bad:
        print(f"ch3_reps_check.py: {b}", file=sys.stderr)
    if bad:
        return 1
    n = len(ch3_csvs(d))
    # Mutations: the check must fail on a blanked cell and on a CSV without the column.
    with tempfile.TemporaryDirectory() as t:
        f = ch3_csvs(d)[0]
        lines = open(f).read().splitlines()
        shutil.copy(f, t)
        copy = os.path.join(t, os.path.basename(f))
        open(copy, "w").write("\n".join(lines[:1] + [lines[1].rsplit(",", 1)[0] + ","] + lines[2:]) + "\n")
        assert problems(t), "a blanked reps cell passed"
        open(copy, "w").write("\n".join(l.rsplit(",", 1)[0] for l in lines) + "\n")
        assert any("no reps column" in p for p in problems(t)), "a CSV without reps passed"
        # An inventory whose first hier-fig3 command asks for another count than its CSV holds.
        text = open(inventory).read()
        m = re.search(r"run-graphene-hier-fig3\.sh (fig3_21)( --reps \d+)?", text)
        assert m, "Fig 3.21's command not found in the inventory"
        wrong = os.path.join(t, "figures.csv")
        open(wrong, "w").write(text[:m.start()] + f"run-graphene-hier-fig3.sh fig3_21 --reps 7" + text[m.end():])
        assert any("3.21" in p for p in inventory_problems(wrong, d)), "a command's --reps unlike its CSV passed"
    print(f"ch3 reps: ok, {n} CSVs, every row has reps, each figure's CSVs the reps its commands ask for; "
          "a blanked cell, a missing column and a command's other --reps fail")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
