#!/usr/bin/env python3
"""Unit tests of the harness's statistics (issue #32): median, quartiles and the
order-statistic 95% interval of the median on known samples, its coverage on synthetic
data, the adaptive stopping rule, the stats lines of a CSV and the busy flag's threshold."""
import math
import os
import random
import sys
import unittest

HARNESS = os.environ.get("HYMPI_HARNESS") or os.path.join(os.path.dirname(__file__), "../../apps/harness/hympi-harness")
sys.path.insert(0, os.path.dirname(os.path.abspath(HARNESS)))

from hympi_harness import stats  # noqa: E402
from hympi_harness.loadguard import is_busy, Probe  # noqa: E402
from hympi_harness.repetitions import Plan, summarize  # noqa: E402


class KnownSamples(unittest.TestCase):
    def test_median_and_quartiles(self):
        xs = [7, 1, 10, 3, 5, 2, 9, 4, 8, 6]
        self.assertEqual(stats.median(xs), 5.5)
        self.assertEqual(stats.median([3, 1, 2]), 2)
        self.assertAlmostEqual(stats.quantile(xs, 0.25), 3.25)  # numpy.percentile(xs, 25)
        self.assertAlmostEqual(stats.quantile(xs, 0.75), 7.75)
        self.assertEqual(stats.summary(xs)["iqr"], 4.5)

    def test_interval_ranks_match_the_binomial_tables(self):
        # 95% interval of the median: ranks (k, n+1-k) from the binomial tables (e.g. Conover).
        for n, k in ((6, 1), (8, 1), (9, 2), (10, 2), (12, 3), (15, 4), (20, 6), (30, 10), (50, 18)):
            got, coverage = stats.median_ci_ranks(n)
            self.assertEqual(got, k, f"n={n}")
            self.assertGreaterEqual(coverage, 0.95)
        lo, hi, coverage = stats.median_ci(list(range(1, 11)))
        self.assertEqual((lo, hi), (2, 9))
        self.assertAlmostEqual(coverage, 1 - 2 * 11 / 1024)

    def test_too_few_samples_report_their_real_coverage(self):
        lo, hi, coverage = stats.median_ci([4, 2, 9, 1, 5])
        self.assertEqual((lo, hi), (1, 9))
        self.assertAlmostEqual(coverage, 1 - 2 / 32)  # 0.9375, not a pretended 0.95
        self.assertEqual(stats.median_ci([3.0]), (3.0, 3.0, 0.0))

    def test_width_and_adaptive_stop(self):
        self.assertAlmostEqual(stats.width_pct(9, 11, 10), 20.0)
        tight = [10.0, 10.1, 9.9, 10.05, 9.95, 10.0]
        self.assertTrue(stats.precise_enough(tight, 5))
        self.assertFalse(stats.precise_enough(tight[:5], 5), "5 samples cannot give a 95% interval")
        self.assertFalse(stats.precise_enough(tight + [30, 1, 30, 1], 5))
        plan = Plan(repeat=2, ci_width=5, cap=8)
        self.assertTrue(plan.more_needed(1, [[10.0]]))
        self.assertTrue(plan.more_needed(5, [tight[:5]]))
        self.assertFalse(plan.more_needed(6, [tight]))
        self.assertFalse(plan.more_needed(8, [[1, 30] * 4]), "the cap stops it")
        self.assertFalse(Plan(repeat=3).more_needed(3, [[1, 30, 5]]), "fixed: exactly --repeat launches")


class Coverage(unittest.TestCase):
    def coverage(self, n, draw, true_median, trials=2000):
        rng = random.Random(32)
        hits = 0
        for _ in range(trials):
            lo, hi, _ = stats.median_ci([draw(rng) for _ in range(n)])
            hits += lo <= true_median <= hi
        return hits / trials

    def test_coverage_matches_the_promise(self):
        # Skewed (exponential: median ln 2) and heavy-tailed (log-normal: median 1) timings.
        for n in (15, 20):
            _, promised = stats.median_ci_ranks(n)
            for draw, truth in ((lambda r: r.expovariate(1.0), math.log(2)),
                                (lambda r: r.lognormvariate(0, 1.5), 1.0)):
                got = self.coverage(n, draw, truth)
                # 2000 trials: standard error ~0.004; a rank off by one moves coverage by >= 0.03.
                self.assertGreater(got, promised - 0.015, f"n={n}: interval too narrow")
                self.assertLess(got, promised + 0.015, f"n={n}: interval too wide")


class StatsLines(unittest.TestCase):
    def test_one_line_per_point_and_row(self):
        rows = []
        for rep in range(6):
            for row, base in ((0, 10.0), (1, 20.0)):
                rows.append({"point_id": "p1", "variant": "pure", "median_us": str(base + rep),
                             "repetition": str(rep), "row": str(row), "load1": "0.5", "other_cpu_share": "0.1",
                             "busy": "1" if rep == 3 else "0", "repeat_cap": "6", "target_width_pct": ""})
        lines = summarize(rows)
        self.assertEqual(len(lines), 2)
        self.assertEqual(lines[0]["launches"], "6")
        self.assertEqual(lines[0]["median"], "12.5")
        self.assertEqual((lines[1]["ci_low"], lines[1]["ci_high"]), ("20", "25"))
        self.assertEqual((lines[0]["busy"], lines[0]["busy_reps"]), ("1", "1"))
        self.assertEqual(lines[0]["metric"], "median_us")
        self.assertNotIn("repetition", lines[0])

    def test_an_app_column_named_n_survives(self):
        rows = [{"point_id": "p", "row": "0", "n": "4096", "time_s": str(t)} for t in (1, 2, 3)]
        (line,) = summarize(rows)
        self.assertEqual((line["n"], line["launches"]), ("4096", "3"))

    def test_rows_of_an_older_csv_each_stand_alone(self):
        lines = summarize([{"point_id": "p", "time_s": "1"}, {"point_id": "p", "time_s": "2"}])
        self.assertEqual([line["launches"] for line in lines], ["1", "1"])
        self.assertEqual(summarize([{"point_id": "p", "no_metric": "1"}]), [])


class BusyFlag(unittest.TestCase):
    def test_threshold(self):
        self.assertTrue(is_busy(0.9))
        self.assertFalse(is_busy(0.05))
        self.assertFalse(is_busy(None))
        self.assertTrue(is_busy(0.3, threshold=0.25))
        self.assertFalse(is_busy(0.2, threshold=0.25))

    def test_probe_columns(self):
        result = Probe().result()
        self.assertEqual(set(result), {"load1", "other_cpu_share", "busy"})
        if os.path.exists("/proc/stat"):
            self.assertIn(result["busy"], ("0", "1"))
            self.assertGreaterEqual(float(result["other_cpu_share"]), 0.0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
