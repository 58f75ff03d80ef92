#!/usr/bin/env python3
"""Per-point [env] (issue 50 item 4): "{name}" in an [env] value is filled in from the point, as
in args, so one file sweeps Open MPI's coll_tuned algorithm through a label axis; the value each
point ran with reaches the app and the index; a name no point has is exit 2 naming file, line and
key before anything runs."""
import csv
import os
import sys
import textwrap
import unittest

from harness_testing import FAKE_APP, HARNESS, TempDirCase, run

BCAST = "OMPI_MCA_coll_tuned_bcast_algorithm"


class EnvParams(TempDirCase):
    prefix = "hympi-env-params-"

    def experiment(self, env_lines, axes="ranks = [1]\n_algorithm = [2, 3]\n"):
        self.seen = os.path.join(self.dir, "seen.txt")
        path = os.path.join(self.dir, "e.toml")
        with open(path, "w") as f:
            f.write(textwrap.dedent(f"""\
                [experiment]
                app = "{FAKE_APP}"
                output = "fam/e.csv"
                args = ["--env-file", "{self.seen}"]
                [axes]
                """) + axes + "[env]\n" + env_lines)
        return path

    def harness(self, *args):
        return run([sys.executable, HARNESS, "--results-dir", os.path.join(self.dir, "results"), *args])

    def test_each_point_runs_and_records_its_own_value(self):
        path = self.experiment(f'OMPI_MCA_coll_tuned_use_dynamic_rules = 1\n{BCAST} = "{{_algorithm}}"\n'
                               'FAKE_ENV_LITERAL = "{{kept}}"\n')
        dry = self.harness("--dry-run", path)
        self.assertEqual(dry.returncode, 0, dry.stderr)
        self.assertIn(f"{BCAST}=2 ", dry.stdout)
        self.assertIn(f"{BCAST}=3 ", dry.stdout)
        proc = self.harness(path)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        with open(self.seen) as f:
            seen = sorted(f.read().splitlines())
        self.assertEqual(seen, [f"FAKE_ENV_LITERAL={{kept}} {BCAST}={a} OMPI_MCA_coll_tuned_use_dynamic_rules=1"
                                for a in (2, 3)])
        with open(os.path.join(self.dir, "results", "fam", "e.index.csv"), newline="") as f:
            index = list(csv.DictReader(f))
        by_label = {r["label"]: r["env"] for r in index}
        self.assertEqual(len(by_label), 2)
        for label, env in by_label.items():
            algorithm = label.split("_algorithm=")[1].split()[0]
            self.assertIn(f"{BCAST}={algorithm}", env.split(), label)
            self.assertIn("OMPI_MCA_coll_tuned_use_dynamic_rules=1", env.split())

    def test_an_old_index_gets_the_column(self):
        path = self.experiment(f'{BCAST} = "{{_algorithm}}"\n', axes="ranks = [1]\n_algorithm = [5]\n")
        os.makedirs(os.path.join(self.dir, "results", "fam"))
        old = os.path.join(self.dir, "results", "fam", "e.index.csv")
        with open(old, "w", newline="") as f:
            csv.writer(f).writerows([["point_id", "status", "exit_code", "seconds", "started", "experiment",
                                      "label", "command", "stderr_tail"], ["abc", "failed", "1", "0", "", "e",
                                                                           "x", "cmd", "tail"]])
        self.assertEqual(self.harness(path).returncode, 0)
        with open(old, newline="") as f:
            rows = list(csv.DictReader(f))
        self.assertEqual([r["env"] for r in rows], ["", f"{BCAST}=5"])
        self.assertEqual(rows[0]["stderr_tail"], "tail")

    def test_unknown_name_is_refused_with_file_line_and_key(self):
        for value, word in (('"{_algoritm}"', "_algoritm"), ('"{0}"', "0"), ('"{_algorithm"', "'}'")):
            with self.subTest(value=value):
                path = self.experiment(f"OMPI_MCA_coll_tuned_use_dynamic_rules = 1\n{BCAST} = {value}\n")
                proc = self.harness("--dry-run", path)
                self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
                self.assertNotIn("Traceback", proc.stderr)
                for part in (f"{path}:10", f"[env] {BCAST}", word):
                    self.assertIn(part, proc.stderr)
                self.assertNotIn(FAKE_APP, proc.stdout, "nothing may be printed as run")
                self.assertFalse(os.path.exists(os.path.join(self.dir, "results")))


if __name__ == "__main__":
    unittest.main(verbosity=2)
