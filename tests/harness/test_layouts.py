#!/usr/bin/env python3
"""Issue #54 (cases 11, 12): a point's layout (ranks, nodes, ranks_per_node, node_sizes) that
cannot be is exit 2 naming the file, the line and the key that gave the value (an axis, an
inline table of one, [tiny.axes], [derive]) or --set - not a bare "bad rank count -2" - and
layouts that disagree with themselves are errors, not a launch that drops one of them."""
import os
import sys
import unittest

from harness_testing import FAKE_APP, HARNESS, TempDirCase, run
from hympi_harness.experiment import LayoutError, derive_layout  # noqa: E402


class Case(TempDirCase):
    prefix = "hympi-layouts-"

    def experiment(self, axes, extra=""):
        """Lines: 1 [experiment], 2 app, 3 output, 4 [axes], 5.. `axes`, then `extra`."""
        path = os.path.join(self.dir, "exp.toml")
        with open(path, "w") as f:
            f.write(f'[experiment]\napp = "{FAKE_APP}"\noutput = "fam/e.csv"\n[axes]\n{axes}{extra}')
        return path

    def dry_run(self, path, *args):
        # No job and no HYMPI_CORES_PER_NODE: "full" means nothing unless --cores-per-node says.
        env = {k: v for k, v in os.environ.items() if not k.startswith(("SLURM_", "HYMPI_"))}
        return run([sys.executable, HARNESS, "--results-dir", os.path.join(self.dir, "results"), "--dry-run", *args,
                    path], timeout=60, env=env)

    def refused(self, proc, *words):
        self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
        self.assertNotIn("Traceback", proc.stderr)
        self.assertNotRegex(proc.stdout, r" -np? \d", "refused before any point is printed")
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
        for word in words:
            self.assertIn(word, proc.stderr)
        return proc.stderr


class NamedLayoutErrors(Case):
    """Case 11: these were exit 2 naming no file, line or key."""

    def test_negative_derived_ranks(self):
        path = self.experiment("size = [1]\n", '[derive]\nranks = "size - 3"\n')
        self.refused(self.dry_run(path), f"{path}:7", "[derive] ranks", "-2", "size=1")

    def test_derived_nodes_zero(self):
        path = self.experiment("ranks = [4]\n_n = [1]\n", '[derive]\nnodes = "_n - 1"\n')
        self.refused(self.dry_run(path), f"{path}:8", "[derive] nodes", "nodes = 0")

    def test_bad_node_sizes(self):
        for sizes in ("2,-2", "2,x", ",", "0", "\\u00b2,1"):  # a superscript 2 passes str.isdigit()
            with self.subTest(node_sizes=sizes):
                path = self.experiment(f'ranks = [4]\nnode_sizes = ["{sizes}"]\n')
                self.refused(self.dry_run(path), f"{path}:6", "node_sizes")
        path = self.experiment("ranks = [4]\n")
        self.refused(self.dry_run(path, "--set", "node_sizes=2,x"), "--set", "node_sizes")

    def test_full_without_cores_per_node(self):
        path = self.experiment('nodes = [2]\nranks_per_node = ["full"]\n')
        self.refused(self.dry_run(path), f"{path}:6", "[axes] ranks_per_node", "--cores-per-node")
        path = self.experiment('node_sizes = ["full,1"]\n')
        self.refused(self.dry_run(path), f"{path}:5", "[axes] node_sizes", "--cores-per-node")
        self.assertEqual(self.dry_run(path, "--cores-per-node", "4").returncode, 0)

    def test_value_of_an_inline_table_tiny_axes_and_set(self):
        path = self.experiment("layout = [{ ranks = 3, nodes = 2 }]\n")
        self.refused(self.dry_run(path), f"{path}:5", "[axes] layout", "nodes = 2")
        path = self.experiment("ranks = [4]\nnodes = [2]\n", "[tiny]\naxes = { nodes = [3] }\n")
        self.refused(self.dry_run(path, "--tiny"), f"{path}:8", "[tiny.axes] nodes", "nodes = 3")
        path = self.experiment("ranks = [4]\n")
        self.refused(self.dry_run(path, "--set", "nodes=3"), f"{path}: --set nodes", "nodes = 3")

    def test_no_rank_count(self):
        path = self.experiment("size = [1]\n")
        self.refused(self.dry_run(path), f"{path}:4", "[axes]", "no rank count")

    def test_layout_derived_from_the_layout(self):
        # Computed after the layout was filled in and checked: nodes = 0 went unchecked to the launch.
        path = self.experiment("ranks = [4]\n", '[derive]\nnodes = "ranks - 4"\n')
        self.refused(self.dry_run(path), f"{path}:7", "[derive] nodes", "layout")


class ConsistentLayouts(Case):
    """Case 12: ranks = 3, nodes = 2, ranks_per_node = 4 ran -np 3 --ranks-per-node 4 (nodes dropped)."""

    def test_three_ranks_on_two_nodes_of_four(self):
        path = self.experiment("ranks = [3]\nnodes = [2]\nranks_per_node = [4]\n")
        self.refused(self.dry_run(path), f"{path}:6", "[axes] nodes", "ranks_per_node = 4", "disagree")

    def test_node_sizes_against_the_others(self):
        for axes, line, key in (('node_sizes = ["4,2"]\nnodes = [3]\n', 6, "[axes] nodes"),
                                ('node_sizes = ["4,2"]\nranks = [5]\n', 6, "[axes] ranks"),
                                ('node_sizes = ["4,2"]\nranks_per_node = [2]\n', 6, "[axes] ranks_per_node"),
                                ('node_sizes = ["2,4"]\nranks_per_node = [4]\n', 6, "[axes] ranks_per_node")):
            with self.subTest(axes=axes):
                path = self.experiment(axes)
                self.refused(self.dry_run(path), f"{path}:{line}", key, "node_sizes")

    def test_agreeing_layouts_run(self):
        # The launcher's rank flag: Open MPI's mpiexec -np, MPICH's -n.
        for axes, words in (("ranks = [6]\nnodes = [2]\nranks_per_node = [4]\n", r" -np? 6 "),
                            ('node_sizes = ["4,4,2"]\nranks_per_node = [4]\nnodes = [3]\nranks = [10]\n',
                             "--node-sizes 4,4,2 ")):
            with self.subTest(axes=axes):
                proc = self.dry_run(self.experiment(axes))
                self.assertEqual(proc.returncode, 0, proc.stderr)
                self.assertRegex(proc.stdout, words)

    def test_the_rule(self):
        """Which key is blamed, and what is filled in."""
        big = 2 ** 30 - 1
        self.assertEqual(derive_layout({"ranks": 6, "ranks_per_node": 4}), {"ranks": 6, "nodes": 2,
                                                                             "ranks_per_node": 4})
        self.assertEqual(derive_layout({"nodes": 2, "ranks_per_node": "full"}, 8)["ranks"], 16)
        self.assertEqual(derive_layout({"node_sizes": "4,4,3", "ranks_per_node": 4})["nodes"], 3)
        # Checked without listing the nodes ranks_per_node would make (2^31 of one rank each):
        self.assertEqual(derive_layout({"node_sizes": [big, big], "ranks_per_node": big})["ranks"], 2 * big)
        for params, key in (({"ranks": 3, "nodes": 2, "ranks_per_node": 4}, "nodes"),
                            ({"ranks": 8, "nodes": 1, "ranks_per_node": 4}, "nodes"),
                            ({"ranks": 3, "nodes": 2}, "nodes"),
                            ({"node_sizes": "4,2", "nodes": 1}, "nodes"),
                            ({"node_sizes": [4, 2], "ranks": 7}, "ranks"),
                            ({"node_sizes": [2, 2], "ranks_per_node": 4}, "ranks_per_node"),
                            ({"node_sizes": [4, 3, 4], "ranks_per_node": 4}, "ranks_per_node"),
                            ({"node_sizes": [2 ** 22, 2 ** 22], "ranks_per_node": 1}, "ranks_per_node"),
                            ({"ranks": 0}, "ranks"),
                            ({"ranks": 4, "nodes": -1}, "nodes"),
                            ({"ranks": True}, "ranks"),
                            ({"ranks_per_node": "full", "nodes": 1}, "ranks_per_node"),
                            ({"size": 1}, None)):
            with self.subTest(params=params):
                with self.assertRaises(LayoutError) as caught:
                    derive_layout(params)
                self.assertEqual(caught.exception.key, key)


if __name__ == "__main__":
    unittest.main(verbosity=2)
