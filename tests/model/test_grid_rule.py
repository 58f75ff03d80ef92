"""The Python grid rule (apps/harness/hympi_harness/grid.py, which the model re-exports)
equals the C++ one (hympi::most_square_grid, printed by grid_rule_print) for every rank
count 1..1024, and both parse "PxQ" alike on a table of texts."""
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "apps", "model"))
import hympi_model as hm  # noqa: E402
from hympi_harness import experiment, grid  # noqa: E402

PRINTER = None  # path of grid_rule_print, from the command line


class GridRule(unittest.TestCase):
    def test_python_equals_cpp_for_1_to_1024(self):
        out = subprocess.run([PRINTER, "1024"], check=True, stdout=subprocess.PIPE, universal_newlines=True).stdout
        rows = [tuple(int(x) for x in line.split()) for line in out.splitlines()]
        self.assertEqual([r[0] for r in rows], list(range(1, 1025)))
        for ranks, p, q in rows:
            self.assertEqual(grid.square_grid(ranks), (p, q), ranks)

    def test_one_python_rule(self):
        self.assertIs(hm.square_grid, grid.square_grid)
        self.assertIs(experiment.square_grid, grid.square_grid)

    def test_parse_grid(self):
        self.assertEqual(grid.parse_grid("2x3"), (2, 3))
        self.assertEqual(grid.parse_grid("32X1"), (32, 1))
        for bad in ("", "x", "2x", "x3", "0x2", "2x0", "2by3", "2x3x", " 2x3", "-1x2", "2x+3", "9999999999x1"):
            with self.assertRaises(ValueError, msg=bad):
                grid.parse_grid(bad)
        with self.assertRaises(ValueError) as e:
            grid.parse_grid("3by2", "--grid")
        self.assertEqual(str(e.exception), "--grid must be PxQ with P, Q >= 1 (e.g. 2x3), got '3by2'")


if __name__ == "__main__":
    PRINTER = sys.argv.pop(1)
    unittest.main()
