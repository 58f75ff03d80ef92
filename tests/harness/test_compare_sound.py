#!/usr/bin/env python3
"""Issue #42 (item 12): `hympi-harness compare` is sound: a CSV compared with itself is within
(exit 0) whatever its numbers (NaN, negative, zero) and line endings; bad tolerances, damaged
files and too short `quiet` samples are refused with exit 2, never a traceback."""
import csv
import os
import random
import sys
import unittest

from harness_testing import HARNESS, SOURCE, TempDirCase, run
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


class MissingPoints(Case):
    """Issue #54 case 13a: a run holding 1 of the reference's 3 points said "1 of 1 within", exit 0."""

    def three_and_one(self):
        ref, run_path = (os.path.join(self.dir, n) for n in ("ref.csv", "run.csv"))
        rows = ["point_id,row,repetition,median_us\n"] + [f"p{p},0,{i},{10 + i}\n" for p in range(3) for i in range(6)]
        with open(ref, "w") as f:
            f.writelines(rows)
        with open(run_path, "w") as f:
            f.writelines(rows[:7])  # p0 only
        return run_path, ref

    def test_points_missing_from_the_run_fail(self):
        run_path, ref = self.three_and_one()
        proc = self.compare(run_path, reference=ref)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertRegex(proc.stdout, r"MISSING run.csv p1#0 .*reference 12\.5")
        self.assertRegex(proc.stdout, r"MISSING run.csv p2#0 ")
        self.assertIn("1 of 1 within the reference's intervals, 0 outside, 2 of the reference's points missing "
                      "from the run", proc.stdout)

    def test_allowed_when_asked(self):
        run_path, ref = self.three_and_one()
        proc = self.compare(run_path, "--allow-missing", reference=ref)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("MISSING run.csv p1#0", proc.stdout)
        self.assertIn("2 of the reference's points missing from the run (allowed: --allow-missing)", proc.stdout)
        self.assertIn("--allow-missing", run([sys.executable, HARNESS, "compare", "--help"]).stdout)

    def test_a_missing_row_of_a_point(self):
        path = self.write(lambda r, *_: 10 + r.random())
        with open(path) as f:
            lines = f.readlines()
        cut = os.path.join(self.dir, "cut.csv")
        with open(cut, "w") as f:  # every launch of p5's row 1 (hybrid-flags) gone
            f.writelines(line for line in lines if not line.rstrip().endswith(",1,p5"))
        proc = self.compare(cut, reference=path)
        self.assertEqual(proc.returncode, 1, proc.stdout)
        self.assertRegex(proc.stdout, r"MISSING cut.csv p5#1 operation=allgather variant=hybrid-flags")
        self.assertIn("52 of 52 within", proc.stdout)  # 35 points, 17 ratios (p5 has none now)


class UnparsableMetric(Case):
    """Issue #54 case 13b: a metric value that is no number made its point vanish, exit 0."""

    def test_text_and_empty_values_name_file_and_line(self):
        for bad in ("abc", "", "1.5.2"):
            with self.subTest(value=bad):
                path = self.write(lambda r, op, size, variant, bad=bad: bad if (op, size, variant) == (
                    "bcast", 64, "pure") and r.random() < 2 else 10 + r.random())
                with open(path) as f:
                    line = next(i for i, text in enumerate(f, 1) if text.startswith("bcast,pure,64,"))
                self.refused(self.compare(path), f"{path}:{line}", "median_us", f"'{bad}'", "not a number")
                good = self.write(lambda r, *_: 10 + r.random(), name="good.csv")
                self.refused(self.compare(good, reference=path), f"{path}:{line}")  # in the reference too
                self.refused(self.compare(path, reference=good), f"{path}:{line}")


class HugeValues(Case):
    """Issue #54 case 13c: (a + b) / 2 of two values near 1e308 overflowed: ABOVE against itself."""

    def test_near_the_largest_float_is_within(self):
        self.within(self.write(lambda r, *_: 1e308 + r.random() * 7e307))
        self.within(self.write(lambda r, *_: -1e308 - r.random() * 7e307, name="negative.csv"))
        self.within(self.write(lambda r, *_: r.choice((-1.7e308, 1.7e308)), name="both.csv"))

    def test_statistics(self):
        from hympi_harness import stats
        self.assertEqual(stats.median([1e308, 1.5e308]), 1.25e308)
        self.assertEqual(stats.median([-1.7e308, 1.7e308]), 0.0)
        self.assertEqual(stats.quantile([-1.7e308, 1.7e308], 0.5), 0.0)
        self.assertEqual(stats.quantile([-1.7e308, 1.7e308], 0.0), -1.7e308)
        self.assertLess(stats.width_pct(1e308, 1.7e308, 1.35e308), 100)


class CommittedResults(Case):
    """Issue #54 case 17: `compare results/collectives results/collectives` was exit 2 on
    wrapper-cost/wrapper-cost.csv (no metric column): a CSV no run wrote is skipped with a note
    naming it; every committed results directory compared with itself is within."""

    def test_the_committed_tree_against_itself(self):
        results = os.path.join(SOURCE, "results")
        for path in [results] + sorted(os.path.join(results, d) for d in os.listdir(results)
                                       if os.path.isdir(os.path.join(results, d)) and d != "experiments"):
            with self.subTest(path=os.path.relpath(path, SOURCE)):
                proc = run([sys.executable, HARNESS, "compare", path, path], timeout=300)
                self.assertNotIn("Traceback", proc.stderr)
                if "skipped above" in proc.stdout:  # model tables only (overlap/): nothing compared is no pass
                    self.assertEqual(proc.returncode, 2, proc.stdout)
                    self.assertIn("no point of the run has a reference with a number (the CSVs in common, skipped "
                                  "above, are no harness runs')", proc.stdout)
                    continue
                self.assertEqual(proc.returncode, 0, proc.stdout[-3000:] + proc.stderr)
                self.assertRegex(proc.stdout, r"== (\d+) of \1 within the reference's intervals, 0 outside\n")
                self.assertNotIn("MISSING", proc.stdout)
        proc = run([sys.executable, HARNESS, "compare", os.path.join(results, "collectives"),
                    os.path.join(results, "collectives")], timeout=300)
        self.assertRegex(proc.stdout, r"note: skipped, not a harness run's CSV: .*wrapper-cost/wrapper-cost\.csv: "
                                      "no metric column")
        self.assertEqual(proc.returncode, 0, proc.stdout[-3000:])

    def test_named_as_a_file_it_is_still_an_error(self):
        path = os.path.join(SOURCE, "results", "collectives", "wrapper-cost", "wrapper-cost.csv")
        self.refused(self.compare(path), "no metric column")


if __name__ == "__main__":
    unittest.main(verbosity=2)
