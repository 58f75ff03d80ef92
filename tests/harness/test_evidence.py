#!/usr/bin/env python3
"""Tests of the evidence a run leaves (issue #32), driving the fake app: run directories keep a
fresh copy of the project clean, adaptive repetitions stop at the width or the cap, a busy
machine flags the point, and `compare` flags a shifted run but not an identical one."""
import csv
import os
import shutil
import subprocess
import sys
import textwrap
import unittest

from harness_testing import FAKE_APP, HARNESS, SOURCE, TempDirCase
from harness_testing import run as run_with_timeout


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def run(cmd, **kw):
    return run_with_timeout(cmd, timeout=240, **kw)  # runs with repetitions take longer


class Case(TempDirCase):
    prefix = "hympi-evidence-"

    def experiment(self, output, axes, name="exp"):
        path = os.path.join(self.dir, name + ".toml")
        with open(path, "w") as f:
            f.write(textwrap.dedent(f"""\
                [experiment]
                app = "{FAKE_APP}"
                output = "{output}"
                [axes]
                ranks = [1]
                """) + axes)
        return path

    def harness(self, *args, harness=HARNESS, expect=0):
        proc = run([sys.executable, harness, *args])
        if expect is not None:
            self.assertEqual(proc.returncode, expect, f"{args}\n{proc.stdout}\n{proc.stderr}")
        return proc


class RunDirectories(Case):
    def fresh_copy(self):
        """The project's files as git would check them out (a fresh clone of this working tree)."""
        copy = os.path.join(self.dir, "clone")
        listed = run(["git", "-C", SOURCE, "ls-files", "-co", "--exclude-standard", "--", ".gitignore", "apps/harness",
                      "results", "tests/harness"])
        if listed.returncode != 0:
            self.skipTest("not a git checkout")
        for name in listed.stdout.splitlines():
            src = os.path.join(SOURCE, name)
            if os.path.isfile(src):
                os.makedirs(os.path.dirname(os.path.join(copy, name)), exist_ok=True)
                shutil.copy2(src, os.path.join(copy, name))
        git = ["git", "-C", copy, "-c", "user.name=t", "-c", "user.email=t@t"]
        for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "copy"]):
            self.assertEqual(run(git + cmd).returncode, 0)
        return copy, git

    def test_tiny_run_leaves_the_clone_clean_and_the_reference_untouched(self):
        copy, git = self.fresh_copy()
        harness = os.path.join(copy, "apps", "harness", "hympi-harness")
        exp = self.experiment("collectives/fig7_onenode.csv", "time = [1.0, 2.0]\n")
        out = self.harness("--repeat", "2", exp, harness=harness).stdout
        self.assertEqual(run(git + ["status", "--porcelain"]).stdout, "", "a run must not touch tracked files")
        runs = os.path.join(copy, "results", "runs")
        (name,) = os.listdir(runs)
        self.assertRegex(name, r"^\d{4}-\d\d-\d\d-[^-]+.*-[0-9a-f]{10}$")
        self.assertIn(f"run directory {os.path.join(runs, name)}", out)
        run_dir = os.path.join(runs, name)
        self.assertEqual(len(read_csv(os.path.join(run_dir, "collectives", "fig7_onenode.csv"))), 4)
        self.assertEqual(len(read_csv(os.path.join(run_dir, "collectives", "fig7_onenode.stats.csv"))), 2)
        self.assertTrue(os.listdir(os.path.join(run_dir, "manifests")))
        self.assertEqual(run([sys.executable, harness, "run-dir"]).stdout.strip(), run_dir)
        # Asked for explicitly, the committed reference is replaced.
        self.harness("--update-reference", "--fresh", exp, harness=harness)
        self.assertIn("results/collectives/fig7_onenode.csv", run(git + ["status", "--porcelain"]).stdout)


class Repetitions(Case):
    def test_adaptive_stops_at_the_width_or_the_cap(self):
        exp = self.experiment("fam/e.csv", "spread = [0, 1]\n")
        results = os.path.join(self.dir, "results")
        self.harness("--results-dir", results, "--ci-width", "5", "--max-repeat", "9", exp)
        lines = read_csv(os.path.join(results, "fam", "e.stats.csv"))
        by_spread = {line["options"].split("spread=")[1]: line for line in lines}
        exact, noisy = by_spread["0"], by_spread["1"]
        self.assertEqual(exact["launches"], "6", "constant timings stop at the first 95% interval (6 launches)")
        self.assertEqual(float(exact["ci_width_pct"]), 0.0)
        self.assertEqual(noisy["launches"], "9", "timings spread over 2x reach the cap")
        self.assertGreater(float(noisy["ci_width_pct"]), 5)
        for line in lines:
            self.assertEqual((line["repeat_cap"], line["target_width_pct"], line["metric"]), ("9", "5", "time_s"))
            self.assertLessEqual(float(line["ci_low"]), float(line["median"]))
            self.assertLessEqual(float(line["median"]), float(line["ci_high"]))
        self.assertEqual(len(read_csv(os.path.join(results, "fam", "e.csv"))), 15)

    def test_launches_of_the_last_axis_take_turns(self):
        count = os.path.join(self.dir, "count.txt")
        exp = self.experiment("fam/e.csv", f'size = [1, 2]\npolicy = ["pure", "hybrid"]\ncount = ["{count}"]\n')
        self.harness("--results-dir", os.path.join(self.dir, "results"), "--repeat", "3", exp)
        with open(count) as f:
            launches = [(line.split("--size ")[1].split()[0], line.split("--policy ")[1].split()[0]) for line in f]
        # count is the last axis (one value): it groups nothing; policy before it does not take turns.
        self.assertEqual(launches, [("1", "pure")] * 3 + [("1", "hybrid")] * 3 + [("2", "pure")] * 3
                         + [("2", "hybrid")] * 3)
        os.remove(count)
        exp = self.experiment("fam/f.csv", f'count = ["{count}"]\nsize = [1, 2]\npolicy = ["pure", "hybrid"]\n',
                              name="turns")
        self.harness("--results-dir", os.path.join(self.dir, "results"), "--repeat", "3", exp)
        with open(count) as f:
            launches = [(line.split("--size ")[1].split()[0], line.split("--policy ")[1].split()[0]) for line in f]
        self.assertEqual(launches, [("1", "pure"), ("1", "hybrid")] * 3 + [("2", "pure"), ("2", "hybrid")] * 3)

    def test_bad_values_are_refused(self):
        exp = self.experiment("fam/e.csv", "")
        self.assertIn("--ci-width", self.harness("--ci-width", "0", exp, expect=2).stderr)
        self.assertIn("--repeat", self.harness("--repeat", "0", exp, expect=2).stderr)


class LoadGuard(Case):
    def test_a_busy_loop_marks_the_point(self):
        spin = "import time\nend = time.time() + 20\nwhile time.time() < end: pass\n"
        spinners = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(os.cpu_count() or 1)]
        try:
            exp = self.experiment("fam/e.csv", "sleep = [1.5]\n")
            results = os.path.join(self.dir, "results")
            out = self.harness("--results-dir", results, exp).stdout
        finally:
            for p in spinners:
                p.kill()
                p.wait()
        (row,) = read_csv(os.path.join(results, "fam", "e.csv"))
        self.assertEqual(row["busy"], "1", row)
        self.assertGreater(float(row["other_cpu_share"]), 0.25)
        self.assertIn("busy machine", out)
        (line,) = read_csv(os.path.join(results, "fam", "e.stats.csv"))
        self.assertEqual(line["busy"], "1")


    def test_quiet_says_busy_or_quiet_by_the_threshold(self):
        if not os.path.exists("/proc/stat"):
            self.skipTest("no /proc/stat")
        quiet = self.harness("quiet", "--sample", "0.3", "--busy-threshold", "1.5", expect=0)  # shares are <= 1
        self.assertIn("quiet", quiet.stdout)
        busy = self.harness("quiet", "--wait", "0.5", "--sample", "0.3", "--busy-threshold", "-1", expect=1)
        self.assertIn("BUSY", busy.stdout)
        self.assertIn("waiting up to", busy.stderr)


class Compare(Case):
    def write(self, name, scale=1.0, hybrid_scale=1.0, point_id="p1"):
        path = os.path.join(self.dir, name, "collectives", "fig.csv")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["operation", "variant", "size_doubles", "median_us", "repetition", "row", "point_id"])
            for rep in range(8):
                for row, (variant, base) in enumerate((("pure", 10.0), ("hybrid-flags", 5.0))):
                    s = scale * (hybrid_scale if variant != "pure" else 1.0)
                    w.writerow(["bcast", variant, 64, (base + 0.1 * (rep % 4)) * s, rep, row, point_id])
        return os.path.join(self.dir, name)

    def compare(self, run_dir, ref_dir, expect):
        proc = run([sys.executable, HARNESS, "compare", run_dir, ref_dir])
        self.assertEqual(proc.returncode, expect, proc.stdout + proc.stderr)
        return proc.stdout

    def test_identical_run_is_within(self):
        out = self.compare(self.write("run"), self.write("ref"), 0)
        self.assertIn("3 of 3 within", out)  # two points and one ratio

    def test_shifted_run_is_flagged(self):
        out = self.compare(self.write("run", scale=1.5), self.write("ref"), 1)
        self.assertIn("ABOVE", out)
        self.assertIn("2 outside", out)  # both points; their ratio is unchanged

    def test_reference_with_older_point_ids_pairs_by_what_was_measured(self):
        self.assertIn("3 of 3 within", self.compare(self.write("run"), self.write("ref", point_id="old"), 0))
        self.compare(self.write("run", scale=2.0), self.write("ref", point_id="old"), 1)

    def test_changed_ratio_is_flagged(self):
        out = self.compare(self.write("run", hybrid_scale=0.7), self.write("ref"), 1)
        self.assertRegex(out, r"ABOVE .* ratio pure/hybrid-flags")

    def test_nothing_in_common_is_an_error(self):
        empty = os.path.join(self.dir, "empty")
        os.makedirs(empty)
        self.assertIn("no point", self.compare(self.write("run"), empty, 2))
        self.assertIn("does not exist", self.compare(self.write("run"), os.path.join(self.dir, "nope"), 2))


if __name__ == "__main__":
    unittest.main(verbosity=2)
