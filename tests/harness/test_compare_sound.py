#!/usr/bin/env python3
"""Issue #42 (item 12): `hympi-harness compare` is sound: a CSV compared with itself is within
(exit 0) whatever its numbers (NaN, negative, zero) and line endings; bad tolerances, damaged
files and too short `quiet` samples are refused with exit 2, never a traceback."""
import csv
import os
import random
import sys
import unittest

from harness_testing import HARNESS, TempDirCase, run
from hympi_harness.repetitions import summarize  # noqa: E402  (on the path through harness_testing)
COLUMNS = ["operation", "variant", "size_doubles", "median_us", "repetition", "row", "point_id"]


class Case(TempDirCase):
    prefix = "hympi-compare-"

    def write(self, value, name="fig.csv", newline="\n"):
        """288 rows: 3 operations x 6 sizes x 2 variants (pure, hybrid: one ratio each) x 8 launches;
        value(rng, operation, size, variant) gives each launch's median_us."""
        rng = random.Random(42)
        path = os.path.join(self.dir, name)
        with open(path, "w", newline="") as f:
            w = csv.writer(f, lineterminator=newline)
            w.writerow(COLUMNS)
            for rep in range(8):
                for p, (op, size) in enumerate((op, s) for op in ("allgather", "bcast", "allreduce")
                                               for s in (1, 8, 64, 512, 4096, 32768)):
                    for row, variant in enumerate(("pure", "hybrid-flags")):
                        w.writerow([op, variant, size, value(rng, op, size, variant), rep, row, f"p{p}"])
        return path

    def compare(self, path, *args, reference=None):
        return run([sys.executable, HARNESS, "compare", path, reference or path, *args])

    def within(self, path, *args):
        proc = self.compare(path, *args)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertNotIn("Traceback", proc.stderr)
        self.assertIn(" 0 outside", proc.stdout)
        return proc.stdout

    def refused(self, proc, *words):
        self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
        self.assertNotIn("Traceback", proc.stdout + proc.stderr)
        for word in words:
            self.assertIn(word, proc.stdout + proc.stderr)


class SelfComparison(Case):
    def test_plain_numbers_are_within(self):
        self.assertIn("54 of 54 within", self.within(self.write(lambda r, *_: 10 + r.random())))

    def test_one_nan_median(self):
        def value(r, op, size, variant):
            return "nan" if (op, size, variant) == ("bcast", 64, "pure") else 10 + r.random()
        path = self.write(value)
        self.assertIn("n/a", self.within(path))
        # Against a reference that has a number there, the nan is outside.
        proc = self.compare(path, reference=self.write(lambda r, *_: 10 + r.random(), name="ref.csv"))
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertRegex(proc.stdout, r"NAN +fig.csv p8#0")

    def test_one_nan_launch_among_numbers(self):
        def value(r, op, size, variant):
            return "nan" if (op, size, variant) == ("bcast", 64, "pure") and r.random() < 0.5 else 10 + r.random()
        self.within(self.write(value))

    def test_negative_times_with_a_tolerance(self):
        path = self.write(lambda r, op, size, variant: -size / 1000.0 + r.uniform(-1, 1))
        self.within(path, "--tolerance", "10")
        self.within(path)
        shifted = self.write(lambda r, op, size, variant: -size / 1000.0 + r.uniform(-1, 1) - 3, name="shifted.csv")
        proc = self.compare(shifted, "--tolerance", "10", reference=path)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("BELOW", proc.stdout)

    def test_a_median_of_zero(self):
        self.within(self.write(lambda r, op, size, variant: 0.0 if variant != "pure" else 5 + r.random()))
        self.within(self.write(lambda r, *_: 0.0, name="zeros.csv"))

    def test_nan_launches_stay_out_of_the_order_statistics(self):
        rows = [{"point_id": "p", "row": "0", "time_s": v} for v in ("6", "nan", "1", "5", "2", "4", "3", "nan")]
        rows += [{"point_id": "q", "row": "0", "time_s": "nan"}] * 2
        p, q = summarize(rows)
        self.assertEqual((p["median"], p["ci_low"], p["ci_high"], p["launches"]), ("3.5", "1", "6", "6"))
        self.assertEqual((q["median"], q["launches"]), ("nan", "2"))

    def test_cr_only_line_endings(self):
        self.within(self.write(lambda r, *_: 10 + r.random(), newline="\r"))


class Refused(Case):
    def test_bad_tolerances(self):
        path = self.write(lambda r, *_: 10 + r.random())
        for bad in ("-50", "nan", "inf", "ten"):
            with self.subTest(tolerance=bad):
                self.refused(self.compare(path, "--tolerance", bad), "--tolerance")

    def test_truncated_last_row(self):
        path = self.write(lambda r, *_: 10 + r.random())
        with open(path, "rb+") as f:
            f.truncate(os.path.getsize(path) - 8)  # the last row loses its repetition, row and point_id
        self.refused(self.compare(path), f"{path}:289", "fields")

    def test_last_row_cut_inside_its_last_field(self):
        # "p17\n" cut to "p1": every field is there, and the launch joined point p1.
        path = self.write(lambda r, *_: 10 + r.random())
        with open(path, "rb+") as f:
            f.truncate(os.path.getsize(path) - 2)
        self.refused(self.compare(path), f"{path}:289", "truncated")

    def test_run_and_reference_measured_in_other_columns(self):
        # The run has median_us and time_s, the reference time_s only: the run's median_us
        # (microseconds) was compared with the reference's time_s (seconds), "outside".
        run_path, ref_path = (os.path.join(self.dir, n) for n in ("run.csv", "ref.csv"))
        with open(run_path, "w") as f:
            f.write("point_id,row,repetition,median_us,time_s\n" +
                    "".join(f"p,0,{i},{100 + i},{(100 + i) / 1e6}\n" for i in range(5)))
        with open(ref_path, "w") as f:
            f.write("point_id,row,repetition,time_s\n" + "".join(f"p,0,{i},{(100 + i) / 1e6}\n" for i in range(5)))
        proc = self.compare(run_path, reference=ref_path)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)  # both in time_s, the reference's
        self.assertIn("1 of 1 within", proc.stdout)
        self.refused(self.compare(ref_path, reference=run_path), "median_us", ref_path)  # the run lacks it
        nothing = os.path.join(self.dir, "nothing.csv")
        with open(nothing, "w") as f:
            f.write("a,b\n1,2\n")
        self.refused(self.compare(nothing), "no metric column", "time_s")

    def test_quiet_sample_must_measure_something(self):
        for bad in ("0", "-1", "nan"):
            with self.subTest(sample=bad):
                self.refused(run([sys.executable, HARNESS, "quiet", "--sample", bad]), "--sample")
        self.refused(run([sys.executable, HARNESS, "quiet", "--wait", "-5"]), "--wait")


if __name__ == "__main__":
    unittest.main(verbosity=2)
