"""Unit tests of the route model's DCMF broadcast rule (apps/model/dcmf_rule.py and its replay in
route_model.py): shapes and choices as the simulation's smpi.dcmf_shape states them, the schedule's
coverage, and isolated broadcasts against the simulation's measured times (tests/smpi/dcmf_bcast_test.sh
and its binary, 2026-11-27, on the faithful set)."""
import dataclasses
import os
import sys
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "apps", "model"))
import dcmf_rule as dc  # noqa: E402
import route_model as rm  # noqa: E402

MIB = 1 << 20


def bcast_time(net, members, nbytes, bcast="dcmf", st=rm.FAITHFUL, one_color=False):
    """One broadcast from members[0] alone on the platform, replayed as dataflow_times replays a phase."""
    free = [0.0] * (net.nodes * net.cores)
    ledger, clocks = {}, {}
    plan = rm.bcast_plan(bcast, members, 0, nbytes, 1, net)
    if one_color:
        box, _, _ = dc.classify(members, net, len(free))
        plan = [(f, rm.DCMF, d) for f, d in dc.rect_rounds(members, members[0], nbytes, box, net, True,
                                                             rm.ENVELOPE_BYTES)]
    for fl, nonblocking, merged in plan:
        flows = [(s, d, b, net.route(s // net.cores, d // net.cores) if s // net.cores != d // net.cores else [])
                 for s, d, b in fl]
        kinds = merged if nonblocking == rm.DCMF else [(nonblocking, merged)] * len(fl)
        for r, t in rm._timed_round(net, free, flows, True, ledger, True, st, kinds, clocks).items():
            free[r] = max(free[r], t)
    return max(free)


class Shapes(unittest.TestCase):
    def test_block_placement_on_the_2048_torus(self):
        net = rm.platform("bgp", 2048)  # 8 x 8 x 8, 32 x 64 grid
        row = list(range(64))  # 16 nodes (8 x 2) x 4 cores: filled
        col = list(range(0, 2048, 64))  # one core of 32 nodes in a 1 x 7 x 8 box
        box, filled, world = dc.classify(row, net, 2048)
        self.assertEqual(box, ((0, 0, 0, 0), (7, 1, 0, 3)))
        self.assertTrue(filled)
        self.assertFalse(world)
        box, filled, _ = dc.classify(col, net, 2048)
        self.assertEqual(box, ((0, 0, 0, 0), (0, 6, 7, 0)))  # 1 x 7 x 8 x 1 = 56 > 32
        self.assertFalse(filled)
        self.assertTrue(dc.classify(list(range(2048)), net, 2048)[2])

    def test_hsumma_outer_groups_are_irregular(self):
        net = rm.platform("bgp", 1024)  # 4 x 8 x 8 mesh, 32 x 32 grid; G = 16 as 4 x 4: outer rows stride 8
        self.assertFalse(dc.classify([8 * g for g in range(4)], net, 1024)[1])
        self.assertTrue(dc.classify(list(range(32)), net, 1024)[1])  # SUMMA's rows: 4 x 2 nodes x 4 cores

    def test_choice(self):
        self.assertEqual(dc.select(True, MIB, 3), "binomial")  # <= 3 ranks: MPICH's rule, a binomial tree
        self.assertEqual(dc.select(False, MIB, 32), "binomial")
        self.assertEqual(dc.select(True, 128, 32), "rect_async")
        self.assertEqual(dc.select(True, 129, 32), "rect")

    def test_colors_split_and_width(self):
        net = rm.platform("bgp", 128)  # 2 x 4 x 4
        box = dc.classify(list(range(64)), net, 128)[0]  # 2 x 4 x 2 nodes x 4 cores
        self.assertEqual(dc.plan_colors(box, MIB, False), ([0, 2, 1], 15360, [349520, 349520, 349536]))
        self.assertEqual(dc.plan_colors(box, MIB, True), ([0], 15360, [MIB]))
        self.assertEqual(dc.plan_colors(box, 1000, False), ([0, 2], 480, [496, 504]))  # fewer colors than axes


class Schedule(unittest.TestCase):
    def check_cover(self, net, members):
        box = dc.classify(members, net, net.nodes * net.cores)[0]
        colors = dc.rect_colors(box)
        for c, streams in enumerate(dc.rect_streams(members, members[0], box, net, colors)):
            have = {members[0]: 0}
            for depth, s, d, dep in sorted(streams, key=lambda x: x[0]):
                self.assertEqual(have.get(s), depth, f"color {c}: {s} sends at depth {depth} without the data")
                for r in [d] + [p for p, _ in dep.passed]:
                    self.assertNotIn(r, have, f"color {c}: {r} reached twice")
                    have[r] = depth + 1 if not dep.onnode else None
            self.assertEqual(sorted(have), sorted(members), f"color {c}")

    def test_every_member_once_per_color(self):
        self.check_cover(rm.platform("bgp", 128), list(range(64)))  # mesh, 3 colors
        self.check_cover(rm.platform("bgp", 1024), list(range(32)))  # mesh, a row
        net = rm.platform("bgp", 16384)  # 16 x 16 x 16 torus: rows wrap on x, lines cut into stretches
        self.check_cover(net, list(range(128)))
        box = dc.classify(list(range(128)), net, 16384)[0]
        lines = [dep for _, _, _, dep in dc.rect_streams(list(range(128)), 0, box, net, [0])[0] if not dep.onnode]
        self.assertTrue(any(not dep.posted for dep in lines))  # relayed stretches, uncharged
        self.assertLessEqual(max(dep.hops for dep in lines), 7)  # (16 - 1) // 2


class Times(unittest.TestCase):
    """1 MiB from rank 0 on the first 64 ranks of the 128-rank bgp mesh (a 2 x 4 x 2 x 4 RECT box; the
    simulation's `dcmf_bcast_test.sh time`, faithful set)."""

    def test_one_color_as_simulated(self):
        net = rm.platform("bgp", 128)
        self.assertAlmostEqual(bcast_time(net, list(range(64)), MIB, one_color=True) / 2.683527e-3, 1, delta=0.005)
        net = rm.platform("bgp", 128, shm_costs=False)  # --shm-costs off: 2.675344 ms
        self.assertAlmostEqual(bcast_time(net, list(range(64)), MIB, one_color=True) / 2.675344e-3, 1, delta=1e-5)

    def test_colors_without_crosstraffic_as_simulated(self):
        # The simulation with --cfg=network/crosstraffic:0 (SimGrid's reverse-direction ACK load, which
        # the model does not have): 16 ranks (2 x 2 nodes, 2 colors), no overheads, shm off: 1.315088 ms.
        net = dataclasses.replace(rm.platform("bgp", 128, shm_costs=False), net_send=0.0, net_recv=0.0)
        self.assertAlmostEqual(bcast_time(net, list(range(16)), MIB) / 1.315088e-3, 1, delta=1e-5)
        # the faithful set, 3 colors: 1.006827 ms without crosstraffic, 1.048348 ms with it
        net = rm.platform("bgp", 128)
        self.assertAlmostEqual(bcast_time(net, list(range(64)), MIB) / 1.006827e-3, 1, delta=0.025)

    def test_irregular_is_the_binomial_tree(self):
        net = rm.platform("bgp", 128)
        members = list(range(0, 128, 3))  # every 3rd rank: IRREG
        self.assertEqual(bcast_time(net, members, MIB), bcast_time(net, members, MIB, bcast="binomial"))
        self.assertAlmostEqual(bcast_time(net, list(range(64)), MIB, bcast="binomial") / 10.580663e-3, 1, delta=1e-5)


if __name__ == "__main__":
    unittest.main()
