#!/usr/bin/env python3
"""Every experiment file in results/experiments/ must load and expand, at full size (with
24-core "full" nodes, as on Hazel Hen) and in its [tiny] form, which must fit the 2-rank,
1-node allocation the Slurm tests give the jobscripts."""
import glob
import os
import unittest

from harness_testing import SOURCE as ROOT
from hympi_harness.experiment import Experiment  # noqa: E402  (on the path through harness_testing)

APPS = {"hympi-bench-collectives", "hympi-summa", "hympi-bpmf"}
NAMES = {"source_dir": ROOT, "results_dir": "/tmp/results"}
CLUSTER_ONLY = "thesis-fig3_"  # the thesis' chapter-3 figures on Graphene (issue 50 item 5)


class ExperimentFilesTest(unittest.TestCase):
    def files(self, kind):
        found = sorted(glob.glob(os.path.join(ROOT, "results", "experiments", kind, "*.toml")))
        self.assertTrue(found, f"no {kind} experiment files")
        return found

    def check(self, path, tiny):
        exp = Experiment(path, tiny=tiny, template_vars=NAMES)
        self.assertIn(exp.app, APPS, path)
        points = exp.points(cores_per_node=24)
        self.assertTrue(points, f"{path}: no points")
        for p in points:
            args = p.app_args(emulate=True)
            self.assertNotIn("{", " ".join(args), f"{path}: unfilled template in {args}")
        return exp, points

    def test_laptop_files(self):
        for path in self.files("laptop"):
            with self.subTest(path=os.path.basename(path)):
                _, points = self.check(path, tiny=False)
                self.assertLessEqual(max(p.ranks for p in points), 6, "laptop runs stay within 6 ranks (the test layouts)")
                self.check(path, tiny=True)

    def test_cluster_files_and_their_tiny_form(self):
        outputs = set()
        for path in self.files("cluster"):
            with self.subTest(path=os.path.basename(path)):
                exp, points = self.check(path, tiny=False)
                self.assertGreater(max(p.ranks for p in points), 4, "cluster files are cluster-sized")
                self.assertNotIn(exp.output, outputs)
                outputs.add(exp.output)
                tiny, tiny_points = self.check(path, tiny=True)
                self.assertLessEqual(max(p.ranks for p in tiny_points), 2, "tiny must fit 2 tasks on 1 node")
                self.assertLessEqual(len(tiny_points), 3, "tiny stays a handful of points")
                self.assertLessEqual(tiny.timeout, 300)

    def test_families_have_laptop_and_cluster_variants(self):
        """Every laptop file has its cluster form; only the thesis' Graphene figures (their sizes
        and Open MPI's forced algorithms mean nothing on one machine) are cluster files alone."""
        laptop = {os.path.basename(p) for p in self.files("laptop")}
        cluster = {os.path.basename(p) for p in self.files("cluster")}
        self.assertEqual(laptop, {c for c in cluster if not c.startswith(CLUSTER_ONLY)})

    def test_env_is_filled_in_per_point(self):
        """A "{name}" in [env] names a parameter of every point (full and tiny)."""
        for path in self.files("cluster"):
            for tiny in (False, True):
                for p in Experiment(path, tiny=tiny, template_vars=NAMES).points(cores_per_node=24):
                    env = " ".join(f"{k}={v}" for k, v in p.environment().items())
                    self.assertNotIn("{", env, f"{path}: unfilled template in [env]")


if __name__ == "__main__":
    unittest.main(verbosity=2)
