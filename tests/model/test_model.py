"""Unit tests of the alpha-beta SUMMA/HSUMMA model (apps/model/hympi_model.py)."""
import math
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
MODEL_DIR = os.path.join(HERE, "..", "..", "apps", "model")
sys.path.insert(0, MODEL_DIR)
import hympi_model as hm  # noqa: E402


def problem(n=8192, b=64, p=1024, M=None):
    P, Q = hm.square_grid(p)
    return hm.Problem(n, n, n, b, M or b, P, Q)


class BroadcastTerms(unittest.TestCase):
    def test_one_process_costs_nothing(self):
        for bc in hm.BCASTS:
            self.assertEqual(hm.bcast_terms(bc, 1), (0.0, 0.0))

    def test_known_values(self):
        self.assertEqual(hm.bcast_terms("binomial", 8), (3.0, 3.0))
        self.assertEqual(hm.bcast_terms("vandegeijn", 8), (3.0 + 7, 2.0 * 7 / 8))
        self.assertEqual(hm.bcast_terms("pipelined", 8, segments=4), (10.0, 2.5))

    def test_bad_input(self):
        with self.assertRaises(ValueError):
            hm.bcast_terms("ring", 4)
        with self.assertRaises(ValueError):
            hm.bcast_terms("binomial", 0)


class SummaLimits(unittest.TestCase):
    def test_g1_and_gp_equal_summa(self):
        pb = problem()
        mc = hm.Machine(alpha=5e-6, beta=1 / 1e9, gamma=3e9)
        for bc in hm.BCASTS:
            summa = hm.predict(pb, mc, bc)
            g1 = hm.predict(pb, mc, bc, 1, 1)
            gp = hm.predict(pb, mc, bc, pb.P, pb.Q)
            self.assertAlmostEqual(g1.t_total, summa.t_total, places=12)
            self.assertAlmostEqual(gp.t_total, summa.t_total, places=12, msg=bc)

    def test_summa_closed_form_binomial(self):
        n, b, p = 4096, 128, 256
        alpha, beta, gamma = 2e-6, 1e-9, 1e9
        pb = problem(n, b, p)
        r = hm.predict(pb, hm.Machine(alpha, beta, gamma), "binomial")
        s = math.sqrt(p)
        comm = 2 * (n / b) * (math.log2(s) * alpha + (n / s) * b * 8 * math.log2(s) * beta)
        self.assertAlmostEqual(r.t_comm, comm, places=12)
        self.assertAlmostEqual(r.t_comp, 2 * n ** 3 / (p * gamma), places=12)


def vdg_sweep(threshold_factor, n=16384, b=64, p=4096):
    """The van de Geijn sweep over G with alpha = threshold_factor * (2nb/p) * beta (elements)."""
    beta_elem = 1e-9
    alpha = threshold_factor * (2 * n * b / p) * beta_elem
    return hm.sweep(problem(n, b, p), hm.Machine(alpha, beta_elem / 8, 3e9), "vandegeijn")


class OptimalGroups(unittest.TestCase):
    def test_vdg_gain_and_optimum_at_sqrt_p_above_threshold(self):
        # alpha/beta (elements) > 2nb/p: HSUMMA wins for every 1 < G < p, best at G = sqrt(p).
        p = 4096
        rows = vdg_sweep(4, p=p)
        summa = rows[0]
        for r in rows[1:]:
            if 1 < r.G < p and r.I == r.J:
                self.assertLess(r.t_total, summa.t_total, msg=f"G={r.G}")
        best = hm.optimal(rows)
        self.assertEqual(best.G, int(math.sqrt(p)))

    def test_vdg_no_gain_below_threshold(self):
        rows = vdg_sweep(0.25)
        for r in rows[1:]:
            self.assertGreaterEqual(r.t_total, rows[0].t_total - 1e-15, msg=f"G={r.G}")

    def test_group_shapes_cover_divisors(self):
        shapes = hm.group_shapes(4, 4)
        self.assertEqual([i * j for i, j in shapes], [1, 2, 4, 8, 16])
        self.assertIn((2, 2), shapes)


class CommandLine(unittest.TestCase):
    def run_cli(self, *args):
        return subprocess.run([sys.executable, os.path.join(MODEL_DIR, "hympi-model"), *args],
                              capture_output=True, text=True)

    def test_help(self):
        r = self.run_cli("--help")
        self.assertEqual(r.returncode, 0)
        self.assertIn("hympi-model", r.stdout)
        self.assertIn("--bcast", r.stdout)

    def test_csv_and_optimum(self):
        r = self.run_cli("-n", "16384", "-b", "64", "-p", "4096", "--alpha", "1e-5", "--beta", "1.25e-10",
                         "--csv", "-", "--quiet")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("optimal G (vandegeijn): 64 (8x8)", r.stdout)
        self.assertIn("kind,algorithm,bcast", r.stdout)

    def test_bad_input(self):
        r = self.run_cli("-b", "64", "-M", "100")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("multiple of -b", r.stderr)
        r = self.run_cli("--grid", "4y4")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("--grid expects PxQ", r.stderr)


if __name__ == "__main__":
    unittest.main()
