#!/usr/bin/env python3
"""Tests of hympi-harness: expansion of experiment files, launcher commands, and sweeps of a
fake app (resume, failures, timeouts, dry run). Needs HYMPI_HARNESS=<path to hympi-harness>;
HYMPI_TEST_MPI=1 also runs the fake app under the real mpirun."""
import csv
import json
import os
import subprocess
import sys
import textwrap
import time
import unittest

from harness_testing import FAKE_APP, HARNESS, TempDirCase
from hympi_harness.experiment import Experiment, ExperimentError  # noqa: E402
from hympi_harness.launchers import Launcher  # noqa: E402


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class HarnessCase(TempDirCase):
    def setUp(self):
        super().setUp()
        self.count = os.path.join(self.dir, "count.txt")

    def experiment(self, body, name="exp"):
        path = os.path.join(self.dir, name + ".toml")
        with open(path, "w") as f:
            f.write(textwrap.dedent(body))
        return path

    def fake_experiment(self, output, **axes):
        """An experiment of the fake app writing `output`, over `axes` (name=[values])."""
        lines = "".join(f"{name} = {json.dumps(values)}\n" for name, values in axes.items())
        return self.experiment(f'[experiment]\napp = "{FAKE_APP}"\noutput = "{output}"\n[axes]\n{lines}')

    def env(self, extra=None):
        """The environment of the harness under test: ours plus the test's additions."""
        return {**os.environ, **(extra or {})}

    def harness(self, *args, expect=None, env=None):
        cmd = [sys.executable, HARNESS, "--results-dir", os.path.join(self.dir, "results"), *args]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=300,
                              env=self.env(env))
        if expect is not None:
            self.assertEqual(proc.returncode, expect, f"{cmd}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}")
        return proc

    def runs(self):
        if not os.path.exists(self.count):
            return []
        with open(self.count) as f:
            return f.read().splitlines()


class ExpansionTest(HarnessCase):
    def test_product_dict_values_exclude_and_layout(self):
        path = self.experiment(f"""
            [experiment]
            app = "{FAKE_APP}"
            args = ["--n", "{{size}}"]
            [axes]
            layout = [{{ranks = 4, ranks_per_node = 2}}, {{node_sizes = "3,1"}}, {{nodes = 2, ranks_per_node = 1}}]
            size = [8, 16]
            policy = ["pure", "hybrid"]
            _label = "x"
            [[exclude]]
            nodes = 2
            size = 16
            policy = "hybrid"
            """)
        exp = Experiment(path)
        points = exp.points()
        self.assertEqual(len(points), 3 * 2 * 2 - 3)  # all three layouts have nodes = 2
        p = points[0]
        self.assertEqual(p.params["nodes"], 2)
        self.assertEqual(p.app_args(emulate=True),
                         ["--n", "8", "--ranks-per-node", "2", "--size", "8", "--policy", "pure"])
        # Real nodes: the app is told so, whatever HYMPI_RANKS_PER_NODE the caller exported.
        self.assertEqual(p.app_args(emulate=False),
                         ["--n", "8", "--size", "8", "--policy", "pure", "--ranks-per-node", "0"])
        irregular = [q for q in points if "node_sizes" in q.params][0]
        self.assertEqual(irregular.ranks, 4)
        self.assertIn("--node-sizes", irregular.app_args(True))
        self.assertNotIn("--ranks-per-node", irregular.app_args(True))
        self.assertEqual(len({q.id for q in points}), len(points))
        self.assertEqual(Experiment(path).points()[0].id, p.id, "point ids must be stable")

    def test_tiny_section_and_set_override(self):
        path = self.experiment(f"""
            [experiment]
            app = "{FAKE_APP}"
            [axes]
            ranks = [24, 48]
            size = [1, 2, 3]
            [tiny.axes]
            ranks = [2]
            """)
        self.assertEqual(len(Experiment(path).points()), 6)
        self.assertEqual(len(Experiment(path, tiny=True).points()), 3)
        pts = Experiment(path, tiny=True, overrides={"size": "7"}).points()
        self.assertEqual([(p.ranks, p.params["size"]) for p in pts], [(2, 7)])

    def test_full_nodes(self):
        path = self.experiment(f"""
            [experiment]
            app = "{FAKE_APP}"
            [axes]
            nodes = [2]
            ranks_per_node = ["full"]
            node_sizes_unused = [0]
            """)
        self.assertEqual(Experiment(path).points(cores_per_node=24)[0].ranks, 48)
        with self.assertRaisesRegex(ExperimentError, "cores-per-node"):
            Experiment(path).points()
        irregular = self.experiment(f'[experiment]\napp = "{FAKE_APP}"\n[axes]\nnode_sizes = ["full,1"]\n', "irr")
        self.assertEqual(Experiment(irregular).points(cores_per_node=8)[0].params["node_sizes"], [8, 1])
        bad = self.experiment(f'[experiment]\napp = "{FAKE_APP}"\n[axes]\nnodes = [2]\nranks_per_node = ["all"]\n', "b")
        # Refused when the file is read (issue #42: the schema), naming file, line and key.
        with self.assertRaisesRegex(ExperimentError,
                                    r'b\.toml:5: .*ranks_per_node: expected integer from 1 to 2147483647 or "full"'):
            Experiment(bad).points()

    def test_bad_files_are_named(self):
        bad = self.experiment('[experiment]\napp = "x"\n[axes]\nnode_sizes = ["2,0"]\n', "bad")
        with self.assertRaisesRegex(ExperimentError, "node_sizes"):
            Experiment(bad).points()
        proc = self.harness(self.experiment("[axes]\nranks = [1]\n", "noapp"), expect=2)
        self.assertIn("needs app", proc.stderr)
        proc = self.harness(self.experiment("this is not toml", "garbage"), expect=2)
        self.assertIn("not valid TOML", proc.stderr)
        proc = self.harness(os.path.join(self.dir, "missing.toml"), expect=2)
        self.assertIn("not found", proc.stderr)


class LauncherTest(HarnessCase):
    def point(self, axes):
        path = self.experiment(f'[experiment]\napp = "a"\n[axes]\n{axes}\n')
        return Experiment(path).points()[0]

    def test_commands(self):
        p = self.point("nodes = [2]\nranks_per_node = [3]\nplacement = [\"roundrobin\"]")
        args = p.app_args(False)
        srun = Launcher("srun", srun_mpi="pmix")
        cmd, env = srun.command(p, "app", args, {})
        self.assertEqual(cmd[1:], ["-n", "6", "--mpi=pmix", "-N", "2", "--ntasks-per-node", "3",
                                   "--cpu-bind=verbose,cores", "--distribution=cyclic:block", "app",
                                   "--ranks-per-node", "0"])
        self.assertEqual(env, {"SLURM_NTASKS_PER_NODE": None, "SLURM_DISTRIBUTION": None})
        ompi = Launcher("mpirun", mpiexec="mpirun", mpi_family="openmpi", hosts=["a", "b", "c"])
        cmd, _ = ompi.command(p, "app", args, {})
        self.assertEqual(cmd[1:], ["-np", "6", "--host", "a:3,b:3", "--map-by", "node", "--bind-to", "core",
                                   "--report-bindings", "app", "--ranks-per-node", "0"])
        unbound = Launcher("mpirun", mpiexec="mpirun", mpi_family="openmpi", binding="launcher")
        cmd, _ = unbound.command(p, "app", args, {})
        self.assertEqual(cmd[1:], ["-np", "6", "--map-by", "ppr:3:node", "--report-bindings", "app",
                                   "--ranks-per-node", "0"])
        mpich = Launcher("mpirun", mpiexec="mpiexec", mpi_family="mpich")
        cmd, env = mpich.command(p, "app", args, {})
        self.assertEqual(cmd[1:], ["-n", "6", "-ppn", "3", "-bind-to", "core", "app", "--ranks-per-node", "0"])
        self.assertEqual(env, {"HYDRA_TOPO_DEBUG": "1"})
        local = Launcher("local", mpiexec="mpirun", mpi_family="openmpi")
        cmd, _ = local.command(p, "app", p.app_args(local.emulate), {})
        self.assertEqual(cmd[1:], ["-np", "6", "--oversubscribe", "--bind-to", "none", "app",
                                   "--ranks-per-node", "3", "--placement", "roundrobin"])

    def test_irregular_srun_uses_a_host_file(self):
        p = self.point('node_sizes = ["3,1"]')
        srun = Launcher("srun", hosts=["n1", "n2"])
        srun.hostfile_dir = self.dir
        cmd, env = srun.command(p, "app", [], {})
        self.assertEqual(cmd[1:], ["-n", "4", "-N", "2", "--distribution=arbitrary", "-w", "n1,n2",
                                   "--cpu-bind=verbose,cores", "app"])
        self.assertIsNone(env["SLURM_NTASKS_PER_NODE"], "the batch step's tasks per node must not clash")
        with open(env["SLURM_HOSTFILE"]) as f:
            self.assertEqual(f.read().split(), ["n1", "n1", "n1", "n2"])


class SweepTest(HarnessCase):
    def sweep_file(self):
        return self.experiment(f"""
            [experiment]
            app = "{FAKE_APP}"
            output = "fake/sweep.csv"
            args = ["--count", "{self.count}"]
            [axes]
            ranks = [1]
            size = [1, 2, 3, 4]
            """)

    def test_failed_point_recorded_and_sweep_goes_on_then_resume(self):
        exp = self.sweep_file()
        # sizes 1, 3, 4 succeed; size 2 fails, and it is the second point of four.
        fail2 = {"FAKE_FAIL_SIZE": "2"}
        proc = self.harness(exp, expect=1, env=fail2)
        results = os.path.join(self.dir, "results", "fake")
        self.assertIn("3 ok, 1 failed", proc.stdout)
        rows = read_csv(os.path.join(results, "sweep.csv"))
        self.assertEqual(sorted(r["options"] for r in rows),
                         ["size=1", "size=3", "size=4"])
        self.assertTrue(all(r["point_id"] and r["launcher"] == "local" and r["hosts"] for r in rows))
        index = read_csv(os.path.join(results, "sweep.index.csv"))
        failed = [r for r in index if r["status"] == "failed"]
        self.assertEqual(len(failed), 1)
        self.assertEqual(failed[0]["exit_code"], "3")
        self.assertIn("last words", failed[0]["stderr_tail"])
        with open(os.path.join(results, "sweep.state.json")) as f:
            state = json.load(f)
        self.assertEqual(sorted(s["status"] for s in state.values()), ["failed", "ok", "ok", "ok"])
        self.assertEqual(len(self.runs()), 4)

        # Resume: the three done points are skipped, the failed one is retried (and fails again).
        proc = self.harness(exp, expect=1, env=fail2)
        self.assertIn("0 ok, 1 failed, 0 skipped, 3 done before", proc.stdout)
        self.assertEqual(len(self.runs()), 5)
        self.assertEqual(len(read_csv(os.path.join(results, "sweep.csv"))), 3, "no duplicated rows")
        # --skip-failed: nothing left to run.
        proc = self.harness(exp, "--skip-failed", expect=0, env=fail2)
        self.assertIn("4 done before", proc.stdout)
        self.assertEqual(len(self.runs()), 5)
        # The cause of the failure fixed: only the failed point runs again.
        proc = self.harness(exp, expect=0)
        self.assertIn("1 ok, 0 failed, 0 skipped, 3 done before", proc.stdout)
        self.assertEqual(len(read_csv(os.path.join(results, "sweep.csv"))), 4)
        # --fresh: everything measured again, old rows gone.
        proc = self.harness(exp, "--fresh", expect=0)
        self.assertIn("4 ok, 0 failed, 0 skipped, 0 done before", proc.stdout)
        self.assertEqual(len(read_csv(os.path.join(results, "sweep.csv"))), 4)
        self.assertEqual(len(read_csv(os.path.join(results, "sweep.index.csv"))), 4)

    def test_dry_run_prints_commands_and_runs_nothing(self):
        exp = self.sweep_file()
        proc = self.harness("--dry-run", "--set", "fail=false,true", exp, expect=0)
        self.assertEqual(proc.stdout.count(FAKE_APP), 8 + 1)  # eight commands + the header line
        self.assertIn("--size 3", proc.stdout)
        self.assertIn("--size 2 --fail --csv", proc.stdout)
        self.assertRegex(proc.stdout, r" -np? 1 ")  # -np 1 / -n 1, whatever the MPI
        self.assertEqual(self.runs(), [])
        self.assertFalse(os.path.exists(os.path.join(self.dir, "results")))

    def test_timeout_and_max_ranks(self):
        exp = self.experiment(f"""
            [experiment]
            app = "{FAKE_APP}"
            output = "t.csv"
            args = ["--count", "{self.count}"]
            [axes]
            ranks = [1, 64]
            sleep = [30]
            """)
        proc = self.harness(exp, "--timeout", "2", "--max-ranks", "8", expect=1)
        self.assertIn("0 ok, 1 failed, 1 skipped", proc.stdout)
        index = read_csv(os.path.join(self.dir, "results", "t.index.csv"))
        self.assertEqual(index[0]["exit_code"], "timeout")

    def test_sigterm_stops_the_running_point(self):
        exp = self.fake_experiment("s.csv", ranks=[1], sleep=[60])
        cmd = [sys.executable, HARNESS, "--results-dir", os.path.join(self.dir, "results"), exp]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not self._fake_app_pids():
            time.sleep(0.2)
        self.assertTrue(self._fake_app_pids(), "the fake app never started")
        proc.terminate()
        _, err = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 130, err)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and self._fake_app_pids():
            time.sleep(0.2)
        self.assertEqual(self._fake_app_pids(), [], "the point's processes outlived the harness")

    def _fake_app_pids(self):
        """PIDs of fake apps started for THIS test (their command line holds our temp dir)."""
        pids = []
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    args = f.read().split(b"\0")
            except OSError:
                continue
            if any(FAKE_APP.encode() == a for a in args) and any(self.dir.encode() in a for a in args):
                pids.append(int(pid))
        return pids

    def test_wrong_rank_count_is_a_failure(self):
        # The fake app writes world_size, not ranks; a "ranks" column needs a real-looking app.
        app = os.path.join(self.dir, "singleton_app.sh")
        with open(app, "w") as f:
            f.write('#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = --csv ] && csv=$2; shift; done\n'
                    'printf "ranks,x\\n1,0\\n" > "$csv"\n')
        os.chmod(app, 0o755)
        exp = self.experiment(f"""
            [experiment]
            app = "{app}"
            output = "r.csv"
            [axes]
            ranks = [1, 2]
            """)
        proc = self.harness(exp, expect=1)
        self.assertIn("1 ok, 1 failed", proc.stdout)
        self.assertIn("instead of 2", proc.stdout)

    def test_no_rows_is_a_failure(self):
        exp = self.experiment(f"""
            [experiment]
            app = "{FAKE_APP}"
            output = "n.csv"
            csv_option = "--not-csv"
            [axes]
            ranks = [1]
            """)
        proc = self.harness(exp, expect=1)
        self.assertIn("no CSV rows", proc.stdout)

    @unittest.skipUnless(os.environ.get("HYMPI_TEST_MPI") == "1", "HYMPI_TEST_MPI=1 runs the fake app under mpirun")
    def test_real_mpirun_with_two_ranks(self):
        exp = self.fake_experiment("mpi.csv", nodes=[2], ranks_per_node=[1])
        self.harness(exp, expect=0)
        rows = read_csv(os.path.join(self.dir, "results", "mpi.csv"))
        self.assertEqual(len(rows), 1)
        self.assertEqual(rows[0]["world_size"], "2")
        self.assertIn("ranks-per-node=1", rows[0]["options"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
