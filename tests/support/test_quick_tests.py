#!/usr/bin/env python3
"""The quick suite's selection (quick_tests.py) on made-up ctest listings."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import quick_tests  # noqa: E402


def listing(*tests):
    """ctest --show-only=json-v1 entries from (name, labels) pairs."""
    return [{"name": name, "properties": [{"name": "LABELS", "value": labels}]} for name, labels in tests]


EVERY_RULE = [
    ("LayoutTest.Blocks", ["core", "unit"]),
    ("harness.experiment-files", ["harness", "unit"]),
    ("core.collectives.np2.2nodes", ["core", "mpi"]),
] + [(name, ["mpi"]) for name in quick_tests.NAMED]


class QuickSelection(unittest.TestCase):
    def test_every_rule_and_name_selected(self):
        names, problems = quick_tests.select(listing(*EVERY_RULE))
        self.assertEqual(problems, [])
        self.assertEqual(sorted(names), sorted(name for name, _ in EVERY_RULE))

    def test_larger_jobs_install_and_other_kernels_left_out(self):
        left_out = [("core.collectives.np3.irregular21", ["core", "mpi"]),
                    ("robust.p2p.np4.2nodes", ["robust", "mpi"]),
                    ("install.cxx", ["core", "install", "mpi"]),
                    ("summa.engine.np4.onenode", ["summa", "mpi"]),
                    ("api.c_persistent.np12.many", ["api", "core", "mpi"])]
        names, problems = quick_tests.select(listing(*(EVERY_RULE + left_out)))
        self.assertEqual(problems, [])
        for name, _ in left_out:
            self.assertNotIn(name, names)

    def test_api_and_robust_on_one_and_two_ranks_selected(self):
        extra = [("api.f_persistent.np1.onenode", ["api", "core", "mpi"]),
                 ("robust.shm.np2.onenode", ["robust", "mpi"])]
        names, _ = quick_tests.select(listing(*(EVERY_RULE + extra)))
        for name, _ in extra:
            self.assertIn(name, names)

    def test_rule_matching_nothing_reported(self):
        _, problems = quick_tests.select(listing(*[t for t in EVERY_RULE if "harness" not in t[1]]))
        self.assertEqual(len(problems), 1)
        self.assertIn("harness unit tests", problems[0])

    def test_missing_named_test_reported(self):
        _, problems = quick_tests.select(listing(*EVERY_RULE[:-1]))
        self.assertEqual(problems, [f"named test not found: {quick_tests.NAMED[-1]}"])


if __name__ == "__main__":
    unittest.main()
