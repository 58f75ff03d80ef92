"""Unit tests of the route-aware torus model (apps/model/route_model.py)."""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "apps", "model"))
import route_model as rm  # noqa: E402


class Routes(unittest.TestCase):
    def test_shortest_way_round_dimension_order(self):
        net = rm.Torus(64)  # 4 x 4 x 4
        self.assertEqual(net.dims, (4, 4, 4))
        self.assertEqual(net.route(0, 0), [])
        self.assertEqual(net.route(0, 3), [(0, 1, -1)])  # x: 0 -> 3 wraps (1 hop)
        self.assertEqual(net.route(0, 1 + 4), [(0, 1, 1), (1, 4, 1)])  # x first, then y
        self.assertEqual(len(net.route(0, 2 + 8 + 32)), 6)  # farthest node: 2 + 2 + 2 hops
        self.assertAlmostEqual(net.hop_lat, 1e-6)  # 3 us at the mean 3 hops


class Broadcasts(unittest.TestCase):
    def test_binomial_reaches_everyone_once(self):
        for p in (1, 2, 5, 8, 13):
            for root in range(p):
                got = [d for r in rm.binomial_rounds(list(range(p)), root, 1.0) for _, d, _ in r]
                self.assertEqual(sorted(got + [root]), list(range(p)))

    def test_binomial_largest_distance_first(self):
        rounds = rm.binomial_rounds(list(range(8)), 0, 1.0)
        self.assertEqual(rounds[0], [(0, 4, 1.0)])
        self.assertEqual(len(rounds), 3)

    def test_sharing_counts_flows_on_a_link(self):
        net = rm.Torus(64)
        one = rm.flow_times(net, [(0, 4, 425e6)])  # ranks 0 -> 4: node 0 -> 1, 1 s of data
        self.assertAlmostEqual(one[0], 1.0 + 1e-6)
        four = rm.flow_times(net, [(r, r + 4, 425e6) for r in range(4)])  # 4 columns, same link
        self.assertAlmostEqual(four[0], 4.0 + 1e-6)
        self.assertAlmostEqual(rm.flow_times(net, [(r, r + 4, 425e6) for r in range(4)], share=False)[0], one[0])
        self.assertAlmostEqual(rm.flow_times(net, [(0, 1, 1.5e9)])[0], 1.0 + 1e-6)  # on-node: loopback


class Model(unittest.TestCase):
    def test_g1_and_gp_equal_summa(self):
        summa = rm.scaled_time(rm.Case(2048, 256, 8, 8), (2, 4))
        self.assertAlmostEqual(rm.scaled_time(rm.Case(2048, 256, 8, 8, 8, 8), (2, 4)), summa)

    def test_route_model_above_alpha_beta_lower_bound(self):
        case = rm.Case(4096, 256, 8, 8, 2, 2)
        self.assertGreater(rm.scaled_time(case, (4,)), rm.scaled_time(case, (4,), share=False) * 0.999)
        self.assertGreater(rm.scaled_time(case, (4,)), 0.8688)  # hympi-model's alpha-beta total there

    def test_cli_rejects_bad_input(self):
        for argv in (["-n", "4096", "-b", "256", "-p", "62"], ["-n", "4096", "-b", "256", "-p", "64", "--steps", "4,2"],
                     ["-n", "4096", "-b", "256", "-p", "64", "--groups", "3x3"]):
            with self.assertRaises(SystemExit) as e:
                rm.main(argv)
            self.assertEqual(e.exception.code, 2)


if __name__ == "__main__":
    unittest.main()
