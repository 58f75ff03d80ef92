#!/usr/bin/env python3
"""The quick suite of tests/run-all.sh: which tests of a configured build it runs and
which build targets those tests need.

  quick_tests.py <build-dir> names     the selected test names, one a line
  quick_tests.py <build-dir> numbers   the same as ctest's -I argument (0,0,0,n1,n2,...)
  quick_tests.py <build-dir> targets   the build targets they need, one a line

The selection is by ctest label, plus a short list of named tests (one per kernel).
Every rule must match at least one test and every named test must exist: a rename
or a dropped label then fails the quick suite loudly instead of shrinking it.
"""
import json
import os
import re
import subprocess
import sys

# (what the rule selects, predicate over (name, labels)).
RULES = [
    ("unit tests (label unit)", lambda name, labels: "unit" in labels),
    ("harness unit tests (labels harness + unit)", lambda name, labels: {"harness", "unit"} <= labels),
    # Label core includes the api folder's tests; the install consumers are packaging checks.
    ("core, api and robust tests on 1 or 2 ranks (labels core|robust, not install; name .np1./.np2.)",
     lambda name, labels: bool(labels & {"core", "robust"}) and "install" not in labels
     and re.search(r"\.np[12]\.", name) is not None),
]

# One MPI test per kernel, on 2 ranks over 2 emulated nodes (the hybrid paths).
NAMED = [
    "summa.engine.np2.2nodes",  # SUMMA/HSUMMA engine: every grid, group split and policy
    "scalapack.dropin.np2.2nodes",  # the drop-in pdgemm against a serial reference
    "bpmf.reproducible.np2.2nodes",  # BPMF: bitwise the 1-rank trace
]

# gtest_discover_tests registers a placeholder "<target>_NOT_BUILT" until its
# executable exists; the unit tests appear once that target is built.
NOT_BUILT = "_NOT_BUILT"


def ctest_tests(build):
    out = subprocess.run(["ctest", "--test-dir", build, "--show-only=json-v1"], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)["tests"]


def labels_of(test):
    for prop in test.get("properties", []):
        if prop["name"] == "LABELS":
            return set(prop["value"])
    return set()


def select(tests):
    by_name = {t["name"]: labels_of(t) for t in tests}
    chosen, problems = [], []
    for what, rule in RULES:
        matched = [name for name, labels in by_name.items() if rule(name, labels)]
        if not matched:
            problems.append(f"no test matches the rule: {what}")
        chosen += [name for name in matched if name not in chosen]
    for name in NAMED:
        if name not in by_name:
            problems.append(f"named test not found: {name}")
        elif name not in chosen:
            chosen.append(name)
    return chosen, problems


def build_outputs(build):
    """Every file ninja can build, relative to the build directory."""
    out = subprocess.run(["ninja", "-C", build, "-t", "targets", "all"], check=True,
                         capture_output=True, text=True).stdout
    return {line.rsplit(": ", 1)[0] for line in out.splitlines() if ": " in line}


def targets(build, tests, names):
    """Build outputs named by the selected tests' commands and environments, the
    folders of those not built yet, and the targets of unit tests not yet discovered."""
    build = os.path.realpath(build)
    outputs = build_outputs(build)
    wanted = set(names)
    needed = set()
    for test in tests:
        if test["name"].endswith(NOT_BUILT):
            needed.add(test["name"][:-len(NOT_BUILT)])
            continue
        if test["name"] not in wanted:
            continue
        words = list(test.get("command", []))
        for prop in test.get("properties", []):
            if prop["name"] == "ENVIRONMENT":
                words += [value.split("=", 1)[-1] for value in prop["value"]]
            # ctest leaves out the command of a test whose executable is not built yet:
            # build its folder (ninja's "<folder>/all").
            if prop["name"] == "WORKING_DIRECTORY" and "command" not in test:
                words.append(os.path.join(prop["value"], "all"))
        for word in words:
            if word.startswith(build + os.sep):
                relative = os.path.relpath(word, build)
                if relative in outputs:
                    needed.add(relative)
    return sorted(needed)


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("names", "numbers", "targets"):
        sys.exit(__doc__)
    build, what = sys.argv[1], sys.argv[2]
    tests = ctest_tests(build)
    names, problems = select(tests)
    if what == "targets":
        print("\n".join(targets(build, tests, names)))
        return
    if problems:
        sys.exit("quick suite: " + "; ".join(problems) + " (update tests/support/quick_tests.py)")
    if what == "names":
        print("\n".join(names))
    else:  # ctest numbers its tests in the order it lists them, from 1
        chosen = set(names)
        print(",".join(["0", "0", "0"] + [str(i + 1) for i, t in enumerate(tests) if t["name"] in chosen]))


if __name__ == "__main__":
    main()
