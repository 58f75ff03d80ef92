#!/usr/bin/env python3
"""apps/smpi/label_csv.py: labels, k/k_run scaling, a cut-short last row (a killed
simulation) dropped, and an output with other columns left untouched, the rows kept beside it (exit 3)."""
import csv
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
LABEL = os.path.join(HERE, "..", "..", "apps", "smpi", "label_csv.py")
HEADER = "alg,k,k_run,time_s,bcast_s,dgemm_s\n"


def run(*args):
    return subprocess.run([sys.executable, LABEL, *args], capture_output=True, text=True)


class LabelCsv(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.src = os.path.join(self.dir.name, "run.csv")
        self.out = os.path.join(self.dir.name, "out.csv")

    def tearDown(self):
        self.dir.cleanup()

    def write_src(self, text):
        with open(self.src, "w") as f:
            f.write(text)

    def read_out(self):
        with open(self.out, newline="") as f:
            return list(csv.DictReader(f))

    def test_labels_and_scales_each_row_by_k_over_k_run(self):
        self.write_src(HEADER + "summa,1024,256,2.0,1.5,0.5\nhsumma,1024,512,1.0,0.5,0.25\n")
        r = run(self.src, self.out, "kind=simulated", "machine=m", "--scale", "auto")
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = self.read_out()
        self.assertEqual([x["kind"] for x in rows], ["simulated", "simulated"])
        self.assertEqual(float(rows[0]["time_s_scaled"]), 8.0)
        self.assertEqual(float(rows[0]["bcast_s_scaled"]), 6.0)
        self.assertEqual(float(rows[1]["time_s_scaled"]), 2.0)
        self.assertEqual(float(rows[1]["dgemm_s_scaled"]), 0.5)

    def test_cut_short_last_row_is_dropped(self):
        self.write_src(HEADER + "summa,1024,256,2.0,1.5,0.5\nhsumma,1024,51")
        r = run(self.src, self.out, "kind=simulated", "--scale", "auto")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("dropped 1 incomplete row", r.stderr)
        rows = self.read_out()
        self.assertEqual([x["alg"] for x in rows], ["summa"])

    def test_appends_to_same_columns_and_refuses_others(self):
        self.write_src(HEADER + "summa,1024,256,2.0,1.5,0.5\n")
        self.assertEqual(run(self.src, self.out, "kind=simulated").returncode, 0)
        self.assertEqual(run(self.src, self.out, "kind=simulated").returncode, 0)
        self.assertEqual(len(self.read_out()), 2)
        with open(self.out) as f:
            before = f.read()
        r = run(self.src, self.out, "kind=simulated", "machine=other")
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertIn("other columns", r.stderr)
        with open(self.out) as f:
            self.assertEqual(f.read(), before)
        # The refused rows are kept beside it, and a second refusal appends to the same side file;
        # a third label set gets a side file of its own.
        side = os.path.join(self.dir.name, "out.new-columns.csv")
        self.assertIn(side, r.stderr)
        self.assertEqual(run(self.src, self.out, "kind=simulated", "machine=other").returncode, 3)
        with open(side, newline="") as f:
            kept = list(csv.DictReader(f))
        self.assertEqual([x["machine"] for x in kept], ["other", "other"])
        r = run(self.src, self.out, "kind=simulated", "platform=p")
        self.assertEqual(r.returncode, 3)
        self.assertIn("out.new-columns-2.csv", r.stderr)
        with open(self.out) as f:
            self.assertEqual(f.read(), before)


if __name__ == "__main__":
    unittest.main()
