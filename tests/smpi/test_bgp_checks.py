#!/usr/bin/env python3
"""apps/smpi/bgp_checks.py's verdicts: a total gain inside its band is "within" only when the
same configuration's communication gain is within its band too; rows of different fidelity
settings are judged apart; a miss carries its explanation, a row inside its band none."""
import importlib.util
import os
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
spec = importlib.util.spec_from_file_location("bgp_checks", os.path.join(HERE, "..", "..", "apps", "smpi",
                                                                          "bgp_checks.py"))
checks = importlib.util.module_from_spec(spec)
spec.loader.exec_module(checks)


def row(check, value, fidelity="faithful", where="best G=512, n=65536"):
    return (check, 16384, value, "slope 2,4 steps", where, fidelity)


class Verdicts(unittest.TestCase):
    def verdict(self, rows, check, fidelity="faithful"):
        return next(r[5] for r in checks.verdicts(rows) if r[0] == check and r[8] == fidelity)

    def test_total_needs_communication(self):
        rows = [row("hsumma_gain_total", 2.3), row("hsumma_gain_comm", 2.0)]
        self.assertEqual(self.verdict(rows, "hsumma_gain_total"), "no (communication)")
        self.assertEqual(self.verdict(rows, "hsumma_gain_comm"), "no")

    def test_both_within(self):
        rows = [row("hsumma_gain_total", 2.3), row("hsumma_gain_comm", 5.5)]
        self.assertEqual(self.verdict(rows, "hsumma_gain_total"), "yes")

    def test_fidelities_apart(self):
        """A legacy communication miss does not touch a faithful total of the same point."""
        rows = [row("hsumma_gain_total", 2.3), row("hsumma_gain_comm", 5.5),
                row("hsumma_gain_comm", 1.0, fidelity="legacy"), row("hsumma_gain_total", 2.3, fidelity="legacy")]
        self.assertEqual(self.verdict(rows, "hsumma_gain_total"), "yes")
        self.assertEqual(self.verdict(rows, "hsumma_gain_total", "legacy"), "no (communication)")

    def test_no_gain_is_a_bound(self):
        """1024 cores: SUMMA best in the thesis, so a best G slower than SUMMA agrees; a gain does not."""
        slower = [("hsumma_gain_total", 1024, 0.9, "slope 2,4 steps", "best G=256", "faithful")]
        faster = [("hsumma_gain_total", 1024, 1.15, "slope 2,4 steps", "best G=256", "faithful")]
        self.assertEqual(checks.verdicts(slower)[0][5], "yes")
        self.assertEqual(checks.verdicts(faster)[0][5], "no")

    def test_fidelity_of_old_rows(self):
        self.assertEqual(checks.fidelity_of({"time_s": "1"}), "legacy")
        self.assertEqual(checks.fidelity_of({"fidelity": "faithful;sharing=route"}), "faithful;sharing=route")

    def test_rule_of(self):
        self.assertEqual(checks.rule_of("faithful"), "dcmf")
        self.assertEqual(checks.rule_of("faithful;eager_bytes=0;bcast=mpich;ring_merge=16"), "mpich")
        self.assertIsNone(checks.rule_of("legacy"))


class CommittedRows(unittest.TestCase):
    """The committed CSVs through bgp_checks.main: every faithful row outside its band explains its miss."""

    def test_every_faithful_miss_explained(self):
        import csv
        import io
        import tempfile
        from contextlib import redirect_stdout
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "checks.csv")
            with redirect_stdout(io.StringIO()):
                checks.main(["--out", out])
            rows = list(csv.DictReader(open(out)))
        misses = [r for r in rows if r["within"].startswith("no") and r["fidelity"].startswith("faithful")]
        self.assertTrue(misses, "no faithful row outside its band: the thesis checks changed, recheck EXPLAIN")
        for r in misses:
            self.assertTrue(r["explanation"], f"{r['check']} p={r['ranks']} {r['fidelity']}: no explanation")
        for r in rows:
            if not r["within"].startswith("no"):
                self.assertFalse(r["explanation"], f"{r['check']} p={r['ranks']}: explanation on a row within")


if __name__ == "__main__":
    unittest.main()
