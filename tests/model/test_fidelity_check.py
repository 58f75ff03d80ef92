"""The model-vs-simulation comparison (apps/model/fidelity_check.py) on small synthetic CSVs:
settings read from the rows reach the model, the band, and the refusals."""
import contextlib
import csv
import io
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "apps", "model"))
import fidelity_check as fc  # noqa: E402
import route_model as rm  # noqa: E402

BASE = dict(kind="simulated", machine="bgp", platform="plat/bgp-64.xml", placement="block", algorithm="hsumma",
            policy="pure", lookahead="0", ranks="64", m="4096", n="4096", k="4096", P="8", Q="8", I="1", J="1",
            b="256", M="256", k_run="512", steps_fit="2,4", time_s_scaled="1.0", dgemm_s_scaled="0.9",
            smpi_bcast="scatter_LR_allgather")
FAITHFUL = dict(fidelity="faithful;bcast=mpich", sharing="fair", overheads="all", eager_bytes="1200", bcast="mpich",
                ring_merge="1")


class Rows(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        os.makedirs(os.path.join(self.dir.name, "plat"))
        with open(os.path.join(self.dir.name, "plat", "bgp-64.xml"), "w") as f:
            f.write('<prop id="hympi_core_copy_GBps" value="1.5"/>')  # on-node costs on
        with open(os.path.join(self.dir.name, "plat", "bgp-64-off.xml.cmd"), "w") as f:
            f.write("make_platform.py bgp --ranks 64 --shm-costs off")
        self.calls = []

    def tearDown(self):
        self.dir.cleanup()

    def model(self, case, steps, settings):
        self.calls.append((case, steps, settings))
        return 2.0

    def run_rows(self, *rows, **kw):
        return fc.compare([(f"row{i}", r) for i, r in enumerate(rows)], root=self.dir.name, model=self.model, **kw)

    def test_settings_reach_the_model(self):
        row = dict(BASE, **dict(FAITHFUL, ring_merge="4"), I="2", J="4", time_s_scaled="2.02")
        out, refused = self.run_rows(row)
        self.assertEqual(refused, [])
        case, steps, st = self.calls[0]
        self.assertEqual((case.machine, case.bcast, case.I, case.J, case.shm_costs, steps),
                         ("bgp", "mpich", 2, 4, True, (2, 4)))
        self.assertEqual(st, rm.Settings("fair", "all", 1200, 4))
        self.assertAlmostEqual(out[0]["ratio"], 2.0 / 2.02)
        self.assertTrue(out[0]["within"])
        self.assertEqual((out[0]["p"], out[0]["G"]), (64, 8))

    def test_legacy_row_without_columns(self):
        row = dict(BASE, platform="plat/bgp-64-off.xml.cmd", eager_bytes="0", steps_fit="", k_run="256")
        out, refused = self.run_rows(row)
        case, steps, st = self.calls[0]
        self.assertEqual((case.bcast, case.shm_costs, steps), ("vandegeijn", False, (1,)))
        self.assertEqual(st, rm.Settings("route", "smpi", 0, 1))  # SimGrid's (weighted) sharing by default
        self.assertEqual(out[0]["fidelity"], "legacy")
        self.calls.clear()
        self.run_rows(row, route_sharing="unweighted")
        self.assertEqual(self.calls[0][2].sharing, "unweighted")

    def test_band(self):
        out, _ = self.run_rows(dict(BASE, time_s_scaled="1.9"), dict(BASE, time_s_scaled="2.2"))
        self.assertEqual([r["within"] for r in out], [False, False])  # 1.053 and 0.909
        out, _ = self.run_rows(dict(BASE, time_s_scaled="1.9"), band=0.06)
        self.assertTrue(out[0]["within"])

    def test_g_equal_p_is_summa(self):
        self.run_rows(dict(BASE, I="8", J="8"))
        self.assertEqual((self.calls[0][0].I, self.calls[0][0].J), (1, 1))

    def test_refuses_what_the_model_lacks(self):
        bad = {"placement": dict(BASE, placement="xyzt"), "machine": dict(BASE, machine="xc40-dragonfly"),
               "bcast": dict(BASE, smpi_bcast="ompi_pipeline"), "sharing": dict(BASE, **dict(FAITHFUL, sharing="x")),
               "not found": dict(BASE, platform="plat/none.xml"), "policy": dict(BASE, policy="hybrid"),
               "b = M": dict(BASE, M="512"), "bcast=": dict(BASE, **dict(FAITHFUL, bcast="rectangle")),
               "time_s_scaled": {k: v for k, v in BASE.items() if k != "time_s_scaled"},
               "eager_bytes": dict(BASE, **dict(FAITHFUL, eager_bytes="lots"))}
        out, refused = self.run_rows(*bad.values())
        self.assertEqual(out, [])
        self.assertEqual(self.calls, [])
        for (where, why), what in zip(refused, bad):
            self.assertIn(what, why, where)

    def test_main_exit_codes(self):
        path = os.path.join(self.dir.name, "rows.csv")
        t = rm.scaled_time(rm.Case(4096, 256, 8, 8, bcast="mpich", machine="bgp"), (2, 4), settings=rm.Settings(
            "fair", "all", 1200, 1))
        rows = [dict(BASE, **FAITHFUL, platform=os.path.join(self.dir.name, "plat", "bgp-64.xml"),
                     time_s_scaled=repr(t * f)) for f in (1.01, 1.2)]
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
        with contextlib.redirect_stdout(io.StringIO()) as so, contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(fc.main([path]), 0)
            self.assertEqual(fc.main([path, "--check"]), 1)  # the second row is 0.83
            self.assertEqual(fc.main([path, "--check", "--band", "0.25"]), 0)
        self.assertIn("0.9901", so.getvalue())
        with contextlib.redirect_stderr(io.StringIO()) as se:
            with open(path, "w") as f:
                f.write("kind,machine\nsimulated,xc40-dragonfly\n")
            self.assertEqual(fc.main([path]), 2)
            with self.assertRaises(SystemExit) as e:
                fc.main([path + ".missing"])
            self.assertEqual(e.exception.code, 2)
        self.assertIn("refused", se.getvalue())


if __name__ == "__main__":
    unittest.main()
