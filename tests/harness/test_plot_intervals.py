#!/usr/bin/python3
"""The summa and BPMF plots draw the median of paired pure/hybrid ratios with its 95%
interval (issue #32): the pairing, the interval (plotlib.median_interval = the harness's
statistics) and a figure written from CSVs with repeated launches."""
import csv
import importlib.util
import os
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "results"))
import plotlib  # noqa: E402


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


class PlotIntervals(unittest.TestCase):
    def test_median_interval_is_the_harness_interval(self):
        xs = [5.0, 1.0, 4.0, 2.0, 3.0, 9.0, 7.0, 8.0, 6.0, 10.0]
        mid, lo, hi = plotlib.median_interval(xs)
        self.assertEqual(mid, 5.5)
        self.assertEqual((lo, hi), (2.0, 9.0))  # ranks 2 and 9 of 10: 97.9% coverage
        self.assertEqual(plotlib.median_interval([3.0, 1.0, 2.0]), (2.0, 1.0, 3.0))  # small n: [min, max]

    def test_fig11_pairs_the_nth_pure_with_the_nth_hybrid(self):
        summa = load("results/summa/plot_summa.py", "plot_summa")
        rows = [{"ranks": "2", "P": "1", "Q": "2", "layout": "real", "sync": "flags", "b": "8", "policy": p,
                 "time_s": str(t)} for p, t in (("pure", 4.0), ("hybrid", 2.0), ("pure", 9.0), ("hybrid", 3.0))]
        self.assertEqual(summa.fig11_paired_ratios(rows), {("2", "1x2", "real", "flags", 8): [2.0, 3.0]})

    def test_fig12_ratio_interval_and_figure(self):
        bpmf = load("results/bpmf/plot_fig12.py", "plot_fig12")
        rows = []
        for rep in range(8):
            for policy, t in (("pure", 1.0 + rep / 10), ("hybrid", 1.0)):
                rows.append({"ranks": "2", "policy": policy, "repetition": str(rep), "barrier_timing": "0",
                             "seconds_per_iteration": str(t), "items_per_s": "1", "sampling_per_iteration": str(t),
                             "exchange_per_iteration": "0.1", "sync_per_iteration": "0"})
        mid, lo, hi = bpmf.paired_ratio(rows, 2, "seconds_per_iteration")
        self.assertAlmostEqual(mid, 1.35)
        self.assertAlmostEqual(lo, 1.0)  # n = 8: ranks 1 and 8 (99.2%; ranks 2 and 7 cover only 93%)
        self.assertAlmostEqual(hi, 1.7)
        with tempfile.TemporaryDirectory() as d:
            write_csv(os.path.join(d, "fig12.csv"), rows)
            sys.argv = ["plot_fig12.py", d]
            bpmf.main()
            self.assertTrue(os.path.getsize(os.path.join(d, "fig12-bpmf.png")) > 0)


if __name__ == "__main__":
    unittest.main()
