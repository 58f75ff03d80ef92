#!/usr/bin/env python3
"""Issue #54 (cases 7, 8, 10): experiment files built to break the harness are refused with
exit 2 and one line naming the file, the line and the key: values nested thousands deep (a
RecursionError traceback before), rank counts beyond MPI's int (--dry-run looped up to
sqrt(10^18) before), a NUL character in a text (a ValueError traceback, or accepted by --dry-run)."""
import os
import sys
import unittest

from harness_testing import FAKE_APP, HARNESS, TempDirCase, run

MAX_RANKS = 2 ** 31 - 1  # the documented maximum (apps/README.md, `hympi-harness keys`)


class Case(TempDirCase):
    prefix = "hympi-hostile-"

    def experiment(self, axes="ranks = [1]\n", extra="", head=""):
        """Lines: 1 [experiment], 2 app, 3 output, then `head`, [axes], `axes`, `extra`."""
        path = os.path.join(self.dir, "exp.toml")
        with open(path, "w") as f:
            f.write(f'[experiment]\napp = "{FAKE_APP}"\noutput = "fam/e.csv"\n{head}[axes]\n{axes}{extra}')
        return path

    def harness(self, *args):
        # A bound well below "without end": the refusals below take a fraction of a second.
        return run([sys.executable, HARNESS, "--results-dir", os.path.join(self.dir, "results"), *args], timeout=60)

    def refused(self, proc, *words):
        """Exit 2, no traceback, one line naming every word."""
        self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
        self.assertNotIn("Traceback", proc.stderr)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
        self.assertTrue(proc.stderr.startswith("hympi-harness: error: "), proc.stderr)
        for word in words:
            self.assertIn(word, proc.stderr)
        return proc.stderr


class DeepNesting(Case):
    """Case 7."""

    def test_array_3000_deep(self):
        path = self.experiment(axes="ranks = [1]\nx = " + "[" * 3000 + "]" * 3000 + "\n")
        self.refused(self.harness("--dry-run", path), f"{path}:6", "[axes] x", "nested too deeply")

    def test_inline_tables_3000_deep(self):
        path = self.experiment(extra="[env]\nX = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n")
        self.refused(self.harness("--dry-run", path), f"{path}:7", "[env] X", "nested too deeply")

    def test_derived_expression_thousands_deep(self):
        for expression in ("+".join(["1"] * 5000), "-" * 5000 + "1", "(" * 5000 + "1" + ")" * 5000):
            with self.subTest(expression=expression[:10]):
                path = self.experiment(extra=f'[derive]\nm = "{expression}"\n')
                err = self.refused(self.harness("--dry-run", path), f"{path}:7", "[derive] m")
                self.assertLess(len(err), 400, "the message shows the expression shortened")


class RankCounts(Case):
    """Case 8: at most MAX_RANKS ranks, however they are given."""

    def test_ranks_beyond_an_int_with_a_derived_grid(self):
        path = self.experiment(axes="ranks = [1000000000000000000]\n", extra='[derive]\nm = "_grid_p * 2"\n')
        self.refused(self.harness("--dry-run", path), f"{path}:5", "ranks", str(MAX_RANKS))
        self.refused(self.harness("--dry-run", "--set", f"ranks={MAX_RANKS + 1}", self.experiment()), "--set",
                     "ranks", str(MAX_RANKS))

    def test_nodes_times_ranks_per_node_beyond_an_int(self):
        path = self.experiment(axes="nodes = [100000]\nranks_per_node = [100000]\n",
                               extra='[derive]\nm = "_grid_q * 2"\n')
        self.refused(self.harness("--dry-run", path), f"{path}:5", "[axes] nodes", "ranks_per_node", str(MAX_RANKS))

    def test_derived_rank_count_beyond_an_int(self):
        path = self.experiment(axes="_n = [1000000]\n", extra='[derive]\nranks = "_n * 1000000"\n')
        self.refused(self.harness("--dry-run", path), f"{path}:7", "[derive] ranks", str(MAX_RANKS))

    def test_node_sizes_beyond_an_int(self):
        path = self.experiment(axes=f'node_sizes = ["{MAX_RANKS},{MAX_RANKS}", "1,{MAX_RANKS + 1}"]\n')
        self.refused(self.harness("--dry-run", path), f"{path}:5", "node_sizes", str(MAX_RANKS))
        path = self.experiment(axes=f'node_sizes = ["{MAX_RANKS},{MAX_RANKS}"]\n')
        self.refused(self.harness("--dry-run", path), f"{path}:5", "node_sizes", "sum")

    def test_the_maximum_itself_is_quick(self):
        # 2^31 - 1 is prime: the grid search walks all the way down from sqrt(ranks) to 1.
        path = self.experiment(axes=f"ranks = [{MAX_RANKS}]\n", extra='[derive]\nm = "_grid_p * _grid_q"\n')
        proc = self.harness("--dry-run", path)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        # The launcher's rank flag: Open MPI's mpiexec -np, MPICH's -n.
        self.assertRegex(proc.stdout, rf" -np? {MAX_RANKS} ")
        self.assertIn(f"--m {MAX_RANKS} ", proc.stdout)


class NulCharacters(Case):
    """Case 10: refused when the file is read, by --dry-run too, naming the key."""

    def test_nul_in_output(self):
        path = self.experiment()
        with open(path) as f:
            text = f.read().replace('"fam/e.csv"', '"fam/e\\u0000x.csv"')
        with open(path, "w") as f:
            f.write(text)
        for dry in (["--dry-run"], ["--mpiexec", sys.executable]):
            with self.subTest(args=dry):
                self.refused(self.harness(*dry, path), f"{path}:3", "[experiment] output", "NUL")

    def test_nul_in_args(self):
        path = self.experiment(head='args = ["--size", "x\\u0000y"]\n')
        for dry in (["--dry-run"], ["--mpiexec", sys.executable]):
            with self.subTest(args=dry):
                self.refused(self.harness(*dry, path), f"{path}:4", "[experiment] args", "NUL")

    def test_nul_elsewhere(self):
        cases = {  # (axes, extra) -> the line and key the message names
            ('ranks = [1]\nmode = ["a\\u0000"]\n', ""): (6, "[axes] mode"),
            ("ranks = [1]\n", '[env]\nX = "a\\u0000b"\n'): (7, "[env] X"),
            ("ranks = [1]\n", '[env]\n"X\\u0000" = "1"\n'): (6, "[env]"),
            ('layout = [{ ranks = 1, placement = "\\u0000" }]\n', ""): (5, "[axes] layout (placement)"),
        }
        for (axes, extra), (line, key) in cases.items():
            with self.subTest(key=key):
                path = self.experiment(axes=axes, extra=extra)
                self.refused(self.harness("--dry-run", path), f"{path}:{line}", key, "NUL")


if __name__ == "__main__":
    unittest.main(verbosity=2)
