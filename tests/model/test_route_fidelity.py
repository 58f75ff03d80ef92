"""Unit tests of the route model's fidelity settings (apps/model/route_model.py, Settings):
each mechanism on a case whose answer is known by hand."""
import dataclasses
import os
import sys
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "apps", "model"))
import route_model as rm  # noqa: E402

WIRE_1S = 425e6 - rm.ENVELOPE_BYTES  # with SMPI's envelope, 1 s alone on a 425 MB/s link


def flow(net, src, dst, nbytes):
    a, b = src // net.cores, dst // net.cores
    return (src, dst, nbytes, net.route(a, b) if a != b else [])


class Sharing(unittest.TestCase):
    """Ranks 0 -> 4 (node 0 -> 1, 1 hop) and 1 -> 8 (node 0 -> 2, 2 hops) share link 0 -> 1."""

    def ends(self, sharing, net=None):
        net = net or rm.Torus(64)
        flows = [flow(net, 0, 4, WIRE_1S), flow(net, 1, 8, WIRE_1S)]
        self.assertEqual(flows[1][3][0], flows[0][3][0])
        return net, rm._timed_round(net, [0.0] * 256, flows, True, {}, settings=rm.Settings(sharing=sharing))

    def test_fair_shares_equally_and_charges_hops_to_the_receiver(self):
        net, got = self.ends("fair")
        self.assertAlmostEqual(got[0], 2.0)  # 1:1, both senders free when the data arrived
        self.assertAlmostEqual(got[1], 2.0)
        self.assertAlmostEqual(got[4], 2.0 + 1 * net.hop_lat, places=12)  # then the receiver sleeps hops x hop
        self.assertAlmostEqual(got[8], 2.0 + 2 * net.hop_lat, places=12)

    def test_route_weights_by_hops(self):
        net, got = self.ends("route")
        # max-min weighted by latency: 2/3 and 1/3 of the link (2:1); the 1-hop flow ends at 1.5 s,
        # the 2-hop one has half its data left and ends at 2 s alone
        self.assertAlmostEqual(got[4], 1.5 + net.hop_lat, places=9)
        self.assertAlmostEqual(got[8], 2.0 + 2 * net.hop_lat, places=9)
        self.assertAlmostEqual(got[0], got[4])  # rendezvous: latency on the wire, both ends wait

    def test_unweighted_is_the_old_count(self):
        net, got = self.ends("unweighted")
        self.assertAlmostEqual(got[4], 2.0 + net.hop_lat, places=9)


class Overheads(unittest.TestCase):
    """bgp: 1.25 us at the sender and the receiver of an off-node message."""

    def one(self, nbytes, overheads, eager_bytes=1200, sharing="fair", free=None):
        net = rm.platform("bgp", 256)
        st = rm.Settings(sharing, overheads, eager_bytes)
        return net, rm._timed_round(net, free or [0.0] * 256, [flow(net, 0, 4, nbytes)], True, {}, settings=st)

    def test_smpi_broadcast_pays_no_hop_latency_under_fair(self):
        # SMPI's own algorithms (smpi:ALG rows): only SMPI's callbacks charge them, and the zero-latency
        # links of fair sharing leave them no hop latency; a 64 KiB rendezvous then costs the wire alone
        net = rm.platform("bgp", 256)
        wire = (65536 + rm.ENVELOPE_BYTES) / 425e6
        got = rm._timed_round(net, [0.0] * 256, [flow(net, 0, 4, 65536)], True, {},
                              settings=rm.Settings("fair", "all", 1200, 1, layer=False))
        self.assertAlmostEqual(got[4], wire, places=12)
        case = rm.Case(4096, 256, 8, 8, bcast="vandegeijn", machine="bgp")
        fair = rm.Settings("fair", "all", 1200, 1)
        self.assertEqual(rm.scaled_time(case, (2,), settings=fair),
                         rm.scaled_time(case, (2,), settings=dataclasses.replace(fair, overheads="smpi", layer=False)))

    def test_64k_blocking_between_neighbours(self):
        wire = (65536 + rm.ENVELOPE_BYTES) / 425e6
        for sharing in ("fair", "route"):
            net, got = self.one(65536, "all", sharing=sharing)
            self.assertAlmostEqual(got[4], wire + net.hop_lat + 2.5e-6, places=12)  # 156.84 us, as measured
            self.assertAlmostEqual(got[0], wire + 1.25e-6 + (0 if sharing == "fair" else net.hop_lat), places=12)
            net, got = self.one(65536, "smpi", 65536, sharing)
            self.assertAlmostEqual(got[4], wire + net.hop_lat, places=12)  # 154.34 us: SMPI charges nothing

    def test_smpi_charges_eager_sends_both_sides(self):
        net, got = self.one(8192, "smpi", 65536)  # detached: send and receive overhead
        self.assertAlmostEqual(got[0], 1.25e-6, places=12)
        self.assertAlmostEqual(got[4], 2.5e-6 + net.hop_lat + (8192 + rm.ENVELOPE_BYTES) / 425e6, places=12)

    def test_onnode_overhead_at_the_sender_only(self):
        net = rm.platform("bgp", 256)
        got = rm._timed_round(net, [0.0] * 256, [flow(net, 0, 1, 8192)], True, {}, settings=rm.FAITHFUL)
        self.assertAlmostEqual(got[1], 0.9e-6 + 0.1e-6 + (8192 + rm.ENVELOPE_BYTES) / 3e9, places=12)  # cache rate


class Eager(unittest.TestCase):
    def test_8k_eager_frees_the_sender_rendezvous_holds_it(self):
        net = rm.platform("bgp", 256)
        late = [0.0] * 256
        late[4] = 1e-3  # the receiver posts late
        for limit, sender in ((65536, 1.25e-6), (1200, 1e-3 + (8192 + 16) / 425e6)):
            got = rm._timed_round(net, late, [flow(net, 0, 4, 8192)], True, {},
                                  settings=rm.Settings("fair", "all", limit))
            self.assertAlmostEqual(got[0], sender, places=12)
            # the sender's overhead ran while it waited; the receiver: wire, then hop latency + its overhead
            self.assertAlmostEqual(got[4], 1e-3 + (8192 + 16) / 425e6 + 0.1e-6 + 1.25e-6, places=12)


class Selection(unittest.TestCase):
    def test_mpich_thresholds(self):
        kib = 1024
        self.assertEqual(rm.mpich_algorithm(8, 12 * kib - 1), "binomial")
        self.assertEqual(rm.mpich_algorithm(7, 1 << 20), "binomial")
        self.assertEqual(rm.mpich_algorithm(8, 12 * kib), "scatter_rdb")
        self.assertEqual(rm.mpich_algorithm(8, 512 * kib - 1), "scatter_rdb")
        self.assertEqual(rm.mpich_algorithm(8, 512 * kib), "scatter_ring")
        self.assertEqual(rm.mpich_algorithm(12, 64 * kib), "scatter_ring")  # not a power of two

    def test_layer_broadcasts_deliver_every_piece(self):
        # the scatter hands each rank its binomial subtree's pieces (relative rank r: the lowest set
        # bit of r, clipped at p); the allgather then brings every rank the p - 1 pieces it lacks
        for alg, cases in (("scatter_rdb", ((8, 0), (8, 5), (16, 3))), ("scatter_ring", ((8, 0), (12, 7), (13, 2)))):
            for p, root in cases:
                members = [10 + 3 * i for i in range(p)]
                piece = 1000.0
                plan = rm.bcast_plan(alg, members, root, piece * p)
                for nonblocking in (False, True):  # the scatter's sends, then the allgather's sendrecvs
                    got = {m: 0.0 for m in members}
                    for flows, nb, _ in plan:
                        if nb == nonblocking:
                            for s, d, b in flows:
                                got[d] += b
                    for i, m in enumerate(members):
                        rel = (i - root) % p
                        want = (p - 1) * piece if nonblocking else (min(rel & -rel, p - rel) * piece if rel else 0)
                        self.assertAlmostEqual(got[m], want, msg=(alg, p, root, rel, nonblocking))

    def test_ring_merge_1_is_the_plain_ring(self):
        members = list(range(0, 64, 4))
        nbytes = 16 * 4096.0
        plain = rm.vandegeijn_rounds(members, 3, nbytes)[-(len(members) - 1):]
        merged = rm.ring_allgather_rounds(members, 3, nbytes, 1)
        self.assertEqual([sorted(f) for f, _ in merged], [sorted(f) for f in plain])
        self.assertTrue(all(m == 0 for _, m in merged))
        case = rm.Case(4096, 256, 8, 8, bcast="mpich", machine="bgp")
        st1 = rm.FAITHFUL
        self.assertEqual(rm.dataflow_time(case, 1, settings=st1),
                         rm.dataflow_time(case, 1, settings=rm.Settings("fair", "all", 1200, 1)))

    def test_ring_merge_sends_s_pieces_plus_latencies(self):
        members = list(range(0, 64, 4))  # 16 ranks, one per node
        rounds = rm.ring_allgather_rounds(members, 0, 16 * 100.0, 4)
        self.assertEqual([m for _, m in rounds], [3, 3, 3, 2])  # 15 steps: 4 + 4 + 4 + 3
        self.assertEqual(rounds[0][0][0], (0, 4, 400.0))
        net = rm.platform("bgp", 64)
        one = rm._timed_round(net, [0.0] * 64, [flow(net, 0, 4, 400.0)], True, {}, settings=rm.FAITHFUL,
                              kinds=[(True, 3)])
        # one message of 4 pieces + 3 more steps' charges: 4 x (1.25 + 1.25 + 0.1) us
        self.assertAlmostEqual(one[4], 4 * 2.6e-6 + 416 / 425e6, places=12)
        self.assertAlmostEqual(one[0], 1.25e-6, places=12)  # 400 B < 1200: eager, the sender goes on


class Sendrecv(unittest.TestCase):
    def test_charges_after_both_halves(self):
        # rank 0 sends 64 KiB to rank 4 (1 hop) and receives 100 B from rank 8 (2 hops) in one sendrecv:
        # both messages wait for their senders' overheads, and rank 0's receive charges (2 hops + 1.25 us)
        # come after its send has ended, as the layer's sendrecv charges them after PMPI_Sendrecv
        net = rm.platform("bgp", 256)
        flows = [flow(net, 0, 4, 65536), flow(net, 8, 0, 100)]
        got = rm._timed_round(net, [0.0] * 256, flows, True, {}, settings=rm.FAITHFUL, kinds=[(True, 0)] * 2)
        big_end = 1.25e-6 + (65536 + 16) / 425e6
        self.assertAlmostEqual(got[0], big_end + 2 * 0.1e-6 + 1.25e-6, places=12)
        self.assertAlmostEqual(got[4], big_end + 0.1e-6 + 1.25e-6, places=12)
        self.assertAlmostEqual(got[8], 1.25e-6, places=12)  # eager: gone after its overhead

    def test_receive_posted_after_the_own_send_overhead(self):
        # rank 0 sends 100 B off-node (1.25 us first) and receives 64 KiB from rank 1 on its node, whose
        # sender pays 0.9 us: the receive is posted at 1.25 us, so the copy starts then
        net = rm.platform("bgp", 256)
        flows = [flow(net, 0, 4, 100), flow(net, 1, 0, 65536)]
        got = rm._timed_round(net, [0.0] * 256, flows, True, {}, settings=rm.FAITHFUL, kinds=[(True, 0)] * 2)
        self.assertAlmostEqual(got[0], 1.25e-6 + 0.1e-6 + (65536 + 16) / 3e9, places=12)


class Cli(unittest.TestCase):
    def test_rejects_bad_settings(self):
        base = ["-n", "4096", "-b", "256", "-p", "64"]
        for extra in (["--ring-merge", "0", "--bcast", "mpich"], ["--ring-merge", "4", "--bcast", "vandegeijn"],
                      ["--eager-bytes", "-1"], ["--sharing", "maxmin"], ["-p", "0"], ["--bcast", "rectangle"]):
            with self.assertRaises(SystemExit) as e:
                rm.main(base + extra)
            self.assertEqual(e.exception.code, 2)

    def test_labels(self):
        self.assertEqual(rm.fidelity_label(rm.FAITHFUL, "dcmf"), "faithful")
        self.assertEqual(rm.fidelity_label(rm.LEGACY, "vandegeijn"), "legacy")
        self.assertEqual(rm.fidelity_label(rm.Settings("route", "all", 1200), "mpich"),
                         "faithful;sharing=route;bcast=mpich")


if __name__ == "__main__":
    unittest.main()
