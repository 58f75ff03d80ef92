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
        nb = 425e6 - rm.ENVELOPE_BYTES  # with SMPI's envelope, 1 s of data at 425 MB/s
        one = rm.flow_times(net, [(0, 4, nb)])  # ranks 0 -> 4: node 0 -> 1
        self.assertAlmostEqual(one[0], 1.0 + 1e-6)
        four = rm.flow_times(net, [(r, r + 4, nb) for r in range(4)])  # 4 columns, same link
        self.assertAlmostEqual(four[0], 4.0 + 1e-6)
        self.assertAlmostEqual(rm.flow_times(net, [(r, r + 4, nb) for r in range(4)], share=False)[0], one[0])
        self.assertAlmostEqual(rm.flow_times(net, [(0, 1, 1.5e9 - rm.ENVELOPE_BYTES)])[0], 1.0 + 1e-6)  # on-node: loopback


class Replay(unittest.TestCase):
    """One round of the dataflow replay (_timed_round): eager sends and link re-sharing."""

    def flow(self, net, src, dst, nbytes):
        return (src, dst, nbytes, net.route(src // net.cores, dst // net.cores))

    def test_eager_send_frees_the_sender_rendezvous_holds_it(self):
        net = rm.Torus(64)
        small, large = rm.EAGER_BYTES - 1, rm.EAGER_BYTES
        got = rm._timed_round(net, [0.0] * 256, [self.flow(net, 0, 4, small)], True, {})
        self.assertNotIn(0, got)  # the sender goes on at once (SMPI detaches it)
        self.assertAlmostEqual(got[4], 1e-6 + (small + rm.ENVELOPE_BYTES) / net.link_Bps)
        got = rm._timed_round(net, [0.0] * 256, [self.flow(net, 0, 4, large)], True, {})
        self.assertAlmostEqual(got[0], got[4])  # both ends wait
        got = rm._timed_round(net, [0.0] * 256, [self.flow(net, 0, 4, small)], True, {}, eager=False)
        self.assertIn(0, got)

    def test_resharing_counts_time_on_the_link_not_flows(self):
        net = rm.Torus(64)
        nb = 425e6 - rm.ENVELOPE_BYTES  # 1 s alone on a link
        ledger = {net.route(0, 1)[0]: [(0.0, 0.5)]}  # an earlier flow on the link until t = 0.5
        got = rm._timed_round(net, [0.0] * 256, [self.flow(net, 0, 4, nb)], True, ledger)
        self.assertAlmostEqual(got[4], 1e-6 + 1.5, places=5)  # 1 + half its life shared
        got = rm._timed_round(net, [0.0] * 256, [self.flow(net, 0, 4, nb)], True, None)
        self.assertAlmostEqual(got[4], 1e-6 + 1.0, places=5)  # round-only count: alone
        self.assertEqual(ledger[net.route(0, 1)[0]][-1][0], 0.0)  # the flow is placed for later rounds

    def test_small_panels_overlap_rounds(self):
        # 256 ranks, b = 64 (32 KiB panels): eager sends pipeline the binomial trees (0.85x)
        case = rm.Case(1024, 64, 16, 16)
        self.assertLess(rm.dataflow_time(case, 2), 0.9 * rm.dataflow_time(case, 2, eager=False))


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
