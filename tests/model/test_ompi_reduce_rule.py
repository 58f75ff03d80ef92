#!/usr/bin/env python3
"""Open MPI 1.4's fixed reduce rule (apps/model/ompi_reduce_rule.py) at its thresholds, against
the thesis' Table 3.1 (16 MB over 512 ranks, the entries the thesis gives) and the committed
CSV; the CLI's errors (< 1 s)."""
import csv
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "apps", "model"))
import ompi_reduce_rule as rule  # noqa: E402

MB = 1 << 20
TOOL = os.path.join(ROOT, "apps", "model", "ompi_reduce_rule.py")
TABLE = os.path.join(ROOT, "results", "model", "thesis-table3_1-reduce-decision.csv")


class Thresholds(unittest.TestCase):
    def test_small_messages(self):
        self.assertEqual(rule.reduce_choice(19, 511), ("linear", 0))
        self.assertEqual(rule.reduce_choice(20, 511), ("binary", 0))
        self.assertEqual(rule.reduce_choice(9, 1024), ("linear", 0))
        self.assertEqual(rule.reduce_choice(7, 20479), ("binomial", 0))
        self.assertEqual(rule.reduce_choice(8, 1025), ("binary", 0))

    def test_16mb_pipeline_segment_switches_between_55_and_56_ranks(self):
        # 0.0033/1024 * 16 MiB + 1.6761 = 55.74
        self.assertEqual(rule.reduce_choice(55, 16 * MB), ("pipeline", 64 * 1024))
        self.assertEqual(rule.reduce_choice(56, 16 * MB), ("pipeline", 32 * 1024))
        # 0.0410/1024 * 16 MiB + 9.7128 = 681.5: above it 1 KiB segments
        self.assertEqual(rule.reduce_choice(681, 16 * MB), ("pipeline", 32 * 1024))
        self.assertEqual(rule.reduce_choice(682, 16 * MB), ("pipeline", 1024))

    def test_one_rank_does_nothing(self):
        self.assertEqual(rule.reduce_choice(1, 16 * MB), ("none", 0))


class Table31(unittest.TestCase):
    # The thesis' Table 3.1 entries quoted in ../shared/notes/paper-figures.md (16 MB, p = 512).
    THESIS = {1: ("pipeline 32 KB", None), 2: ("pipeline 32 KB", "pipeline 64 KB"),
              4: ("pipeline 32 KB", "pipeline 64 KB"), 8: ("pipeline 32 KB", "pipeline 64 KB"),
              64: ("pipeline 64 KB", "pipeline 32 KB"), 128: ("pipeline 64 KB", "pipeline 32 KB"),
              256: ("pipeline 64 KB", "pipeline 32 KB")}

    def test_thesis_entries(self):
        for g, (inside, between) in self.THESIS.items():
            row = rule.levels(512, 16 * MB, g)
            self.assertEqual(row["inside"], inside, f"G = {g}")
            if between:
                self.assertEqual(row["between"], between, f"G = {g}")

    def test_committed_csv_is_current(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "t.csv")
            subprocess.run([sys.executable, TOOL, "--ranks", "512", "--bytes", str(16 * MB), "--csv", out],
                           check=True)
            with open(out) as f, open(TABLE) as g:
                self.assertEqual(f.read(), g.read(), f"{TABLE} is not what the rule gives today")


class Cli(unittest.TestCase):
    def run_tool(self, *args):
        return subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)

    def test_errors_exit_2(self):
        for args in (["--ranks", "0", "--bytes", "8"], ["--ranks", "512", "--bytes", "8", "--groups", "3"],
                     ["--ranks", "512", "--bytes", "-1"]):
            r = self.run_tool(*args)
            self.assertEqual(r.returncode, 2, args)
            self.assertIn("ompi_reduce_rule.py: error:", r.stderr)

    def test_help(self):
        self.assertEqual(self.run_tool("--help").returncode, 0)


if __name__ == "__main__":
    unittest.main()
