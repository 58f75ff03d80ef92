#!/usr/bin/env python3
"""apps/smpi/step_slope.py: a linear step cost with a fill is extrapolated exactly
from 2 and 4 steps; a 1-step scaling that carries the fill is flagged beyond 3%
(and --check fails), one without it is accepted; bad --steps is refused."""
import csv
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
SLOPE = os.path.join(HERE, "..", "..", "apps", "smpi", "step_slope.py")
KEY = {"machine": "bgp-torus", "smpi_bcast": "binomial_tree", "ranks": "64", "policy": "pure", "sync": "barrier",
       "m": "4096", "n": "4096", "k": "4096", "P": "8", "Q": "8", "b": "256", "M": "256"}


def run(*args):
    return subprocess.run([sys.executable, SLOPE, *args], capture_output=True, text=True)


class StepSlope(unittest.TestCase):
    def setUp(self):
        work = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, work)
        self.src, self.out = (os.path.join(work, name) for name in ("in.csv", "out.csv"))

    def write(self, fill):
        """SUMMA (G = 1) and HSUMMA G = 4: time = fill + 0.01 s per step of b columns (16 steps in all)."""
        rows = []
        for alg, i in (("summa", 1), ("hsumma", 2)):
            for steps in (1, 2, 4):
                t = fill + 0.01 * steps
                rows.append(dict(KEY, algorithm=alg, I=i, J=i, max_steps=steps, k_run=256 * steps,
                                 time_s=t, bcast_s=t / 2, dgemm_s=0.004 * steps))
        self.write_rows(rows)
        return rows

    def write_rows(self, rows):
        with open(self.src, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)

    def result(self):
        with open(self.out) as f:
            return list(csv.DictReader(f))

    def test_exact_for_a_linear_cost(self):
        self.write(fill=0.05)
        p = run(self.src, "--out", self.out)
        self.assertEqual(p.returncode, 0, p.stderr)
        rows = self.result()
        self.assertEqual(len(rows), 2)
        for r in rows:
            self.assertAlmostEqual(float(r["time_s_scaled"]), 0.05 + 0.16, places=9)
            self.assertAlmostEqual(float(r["dgemm_s_scaled"]), 0.064, places=9)
            self.assertEqual(r["steps_fit"], "2,4")
            # 1 step scaled: (0.05 + 0.01) * 16 = 0.96 s, far from 0.21 s
            self.assertAlmostEqual(float(r["one_step_scaled_s"]), 0.96, places=9)
            self.assertEqual(r["one_step_accepted"], "0")

    def test_check_fails_only_beyond_tolerance(self):
        self.write(fill=0.05)
        self.assertEqual(run(self.src, "--out", self.out, "--check").returncode, 1)
        self.write(fill=0.0)  # no fill: 1 step scales exactly
        p = run(self.src, "--out", self.out, "--check")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertTrue(all(r["one_step_accepted"] == "1" for r in self.result()))

    def test_eager_settings_not_mixed(self):
        """Runs with another --eager-bytes are another configuration: no slope across them."""
        rows = self.write(fill=0.0)
        for r in rows:
            r["eager_bytes"] = "0" if r["max_steps"] == 2 else ""
        self.write_rows(rows)
        p = run(self.src, "--out", self.out)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("no configuration", p.stderr)
        for r in rows:
            r["eager_bytes"] = "0"
        self.write_rows(rows)
        p = run(self.src, "--out", self.out)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertTrue(all(r["eager_bytes"] == "0" for r in self.result()))

    def test_skeleton_marks_one_run(self):
        """run-skeleton.sh's rows of a 2-step and a 4-step run: per run a barrier row (its time has
        the closing barrier) and its step marks. The barrier rows give the two-run slope, the
        4-step run's marks (a fill + 0.01 s per step) their own, exact; the 2-step run's marks
        (another fill: no step 3 follows) join neither."""
        rows = []
        for alg, i in (("summa", 1), ("hsumma", 2)):
            for run_steps, fill in ((4, 0.05), (2, 0.03)):  # the shorter run last: it must not win
                rows.append(dict(KEY, algorithm=alg, I=i, J=i, max_steps=run_steps, k_run=256 * run_steps,
                                 time_s=0.02 + 0.01 * run_steps + 0.5, bcast_s=0.5, dgemm_s=0.004 * run_steps,
                                 app="skeleton", step_basis="barrier", k_simulated=256 * run_steps))
                for steps in range(1, run_steps + 1):
                    t = fill + 0.01 * steps
                    rows.append(dict(KEY, algorithm=alg, I=i, J=i, max_steps=steps, k_run=256 * steps, time_s=t,
                                     bcast_s=t / 2, dgemm_s=0.004 * steps, app="skeleton", step_basis="mark",
                                     k_simulated=256 * run_steps))
        self.write_rows(rows)
        p = run(self.src, "--out", self.out)
        self.assertEqual(p.returncode, 0, p.stderr)
        out = {(r["algorithm"], r["step_basis"]): r for r in self.result()}
        self.assertEqual(len(self.result()), 4)
        for alg in ("summa", "hsumma"):
            self.assertAlmostEqual(float(out[alg, "barrier"]["time_s_scaled"]), 0.52 + 0.16, places=9)
            mark = out[alg, "mark"]
            self.assertAlmostEqual(float(mark["time_s_scaled"]), 0.05 + 0.16, places=9)
            self.assertEqual(mark["k_simulated"], "1024")
            self.assertEqual(mark["one_step_accepted"], "0")  # the 1-step mark carries the fill

    def test_bad_steps_refused(self):
        self.write(fill=0.0)
        for bad in ("4", "4,4", "x,2"):
            p = run(self.src, "--out", self.out, "--steps", bad)
            self.assertEqual(p.returncode, 2, bad)
            self.assertIn("--steps", p.stderr)
        p = run(self.src, "--out", self.out, "--steps", "2,8")
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("no configuration", p.stderr)


if __name__ == "__main__":
    unittest.main()
