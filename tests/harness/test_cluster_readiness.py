#!/usr/bin/env python3
"""The harness as a cluster user meets it (issue #19): Python without tomllib, environment
that must not leak into real-node runs, two harness processes on one experiment, a kill
between merging rows and marking a point done, "full" nodes from the hardware the job got,
the launch lines of multi-node and uneven points, and the guards (login node, time limit).
Needs HYMPI_HARNESS=<path to hympi-harness>; HYMPI_TEST_MPI=1 also runs real-node points
under this build's mpirun."""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time
import unittest

from harness_testing import FAKE_APP, HARNESS
from harness_testing import SOURCE as ROOT
from hympi_harness.experiment import Experiment  # noqa: E402
from hympi_harness.store import Store  # noqa: E402
from test_harness import HarnessCase, read_csv  # noqa: E402  (the base case, no tests of its own)

# Variables of the test's own environment that would change what the harness does.
_SCRUBBED = ("SLURM_JOB_ID", "SLURM_JOB_NUM_NODES", "SLURM_NTASKS_PER_NODE", "SLURM_CPUS_ON_NODE",
             "SLURM_JOB_END_TIME", "SLURM_JOB_NODELIST", "SLURM_NODELIST", "SLURM_JOB_PARTITION", "HYMPI_LAUNCHER",
             "HYMPI_CORES_PER_NODE", "HYMPI_EMULATE_NODES", "HYMPI_TINY", "PBS_JOBID")


class Case(HarnessCase):
    def setUp(self):
        super().setUp()
        self.results = os.path.join(self.dir, "results")

    def env(self, extra=None):
        """Ours without the job and harness settings of whoever runs the tests, plus the test's."""
        env = {k: v for k, v in os.environ.items() if k not in _SCRUBBED}
        env.update(extra or {})
        return env

    def fake_sweep(self, points=1, sleep=0):
        sizes = ", ".join(str(i + 1) for i in range(points))
        return self.experiment(f"""
            [experiment]
            app = "{FAKE_APP}"
            output = "fake.csv"
            args = ["--count", "{self.count}", "--sleep", "{sleep}"]
            [axes]
            ranks = [1]
            size = [{sizes}]
            """)


class PythonTest(Case):
    """#19.1: without tomllib the harness falls back to tomli, and says what to do without both."""

    def blocked(self, *modules):
        site = os.path.join(self.dir, "site-" + "-".join(modules))
        os.makedirs(site, exist_ok=True)
        with open(os.path.join(site, "sitecustomize.py"), "w") as f:
            f.write("import sys\n" + "".join(f"sys.modules[{m!r}] = None\n" for m in modules))
        return {"PYTHONPATH": os.pathsep.join(p for p in (site, os.environ.get("PYTHONPATH")) if p)}

    def test_falls_back_to_tomli(self):
        try:
            import tomli  # noqa: F401
        except ImportError:
            self.skipTest("tomli is not installed (apt-get install python3-tomli)")
        env = self.blocked("tomllib")
        probe = subprocess.run([sys.executable, "-c", "import tomllib"], env=self.env(env), stderr=subprocess.PIPE)
        self.assertNotEqual(probe.returncode, 0, "the test interpreter still imports tomllib")
        self.harness(self.fake_sweep(points=2), expect=0, env=env)
        self.assertEqual(len(read_csv(os.path.join(self.results, "fake.csv"))), 2)

    def test_refuses_clearly_without_a_toml_reader(self):
        proc = self.harness(self.fake_sweep(), expect=2, env=self.blocked("tomllib", "tomli"))
        self.assertIn("has neither tomllib (3.11+) nor tomli", proc.stderr)
        self.assertIn("module load cray-python", proc.stderr)
        self.assertNotIn("Traceback", proc.stderr)
        self.assertEqual(self.runs(), [])

    def test_build_wrote_the_interpreter_cmake_found(self):
        with open(HARNESS) as f:
            first = f.readline().strip()
        self.assertTrue(first.startswith("#!/"), first)
        self.assertNotIn("env python3", first, "the built harness must name CMake's interpreter")
        self.assertTrue(os.access(first[2:].split()[0], os.X_OK), first)


class LeakTest(Case):
    """#19.4: exported layout, thread and launcher settings do not reach real-node runs."""

    leaks = {"HYMPI_RANKS_PER_NODE": "1", "HYMPI_NODE_SIZES": "1,1", "HYMPI_PLACEMENT": "roundrobin",
             "OMP_NUM_THREADS": "8", "OPENBLAS_NUM_THREADS": "8"}

    @unittest.skipUnless(os.environ.get("HYMPI_TEST_MPI") == "1", "HYMPI_TEST_MPI=1 runs real-node points")
    def test_real_node_point_runs_unsplit_and_single_threaded(self):
        exp = self.fake_experiment("real.csv", nodes=[1], ranks_per_node=[2])
        self.harness("--launcher", "mpirun", "--outside-allocation", exp, expect=0, env=self.leaks)
        row = read_csv(os.path.join(self.results, "real.csv"))[0]
        self.assertEqual(row["world_size"], "2")
        self.assertIn("ranks-per-node=0", row["options"], "real nodes must be said explicitly")
        self.assertEqual((row["omp_threads"], row["blas_threads"]), ("1", "1"))
        self.assertEqual(row["layout_env"], "", "emulated-layout variables reached the app")
        self.assertEqual(row["launcher"], "mpirun")
        self.assertEqual(row["binding"], "core")
        self.assertRegex(row["bound_to"], r"^0:\S+ 1:\S+$", "the binding mpirun reported is recorded")
        self.assertIn("OMP_NUM_THREADS=1", row["threads"])

    def test_local_launcher_refused_in_a_multi_node_job(self):
        proc = self.harness(self.fake_sweep(), expect=2,
                            env={"HYMPI_LAUNCHER": "local", "SLURM_JOB_ID": "7", "SLURM_JOB_NUM_NODES": "4"})
        self.assertIn("oversubscribed on this one node of a 4-node job", proc.stderr)
        self.assertIn("$HYMPI_LAUNCHER", proc.stderr)
        self.assertEqual(self.runs(), [])

    def test_srun_refused_on_a_login_node(self):
        proc = self.harness("--launcher", "srun", self.fake_sweep(), expect=2)
        self.assertIn("looks like a login node", proc.stderr)
        self.harness("--launcher", "srun", "--dry-run", self.fake_sweep(), expect=0)


class ConcurrencyTest(Case):
    """#19.5: two harness processes on one experiment, and a kill between rows and state."""

    def test_two_harnesses_share_the_points(self):
        exp = self.fake_sweep(points=6, sleep=0.4)
        cmd = [sys.executable, HARNESS, "--results-dir", self.results, exp]
        procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True,
                                  env=self.env()) for _ in range(2)]
        outs = [p.communicate(timeout=120)[0] for p in procs]
        self.assertEqual([p.returncode for p in procs], [0, 0], outs)
        rows = read_csv(os.path.join(self.results, "fake.csv"))
        self.assertEqual(sorted(r["options"] for r in rows), sorted(f"size={i} sleep=0.4" for i in range(1, 7)))
        self.assertEqual(len({r["point_id"] for r in rows}), 6, "a point is duplicated")
        self.assertEqual(len(self.runs()), 6, "a point ran twice:\n" + "\n".join(outs))
        self.assertTrue(all("done by another harness" in o for o in outs), "the two did not share the work")

    def test_kill_between_merge_and_mark_done_leaves_no_duplicate(self):
        exp = Experiment(self.fake_sweep(points=1))
        point = exp.points()[0]
        store = Store(os.path.join(self.results, "fake.csv"))
        store.prepare()
        raw = os.path.join(self.dir, "raw.csv")
        with open(raw, "w") as f:
            f.write("world_size,options\n1,a\n1,b\n")
        extra = ["local", "h", "exp", "", "none", "", ""]

        def killed_after_rows():
            raise KeyboardInterrupt  # SIGTERM lands after the rows, before the state
        store._save_state = killed_after_rows
        with self.assertRaises(KeyboardInterrupt):
            store.record(point, "ok", 0, 1.0, "t", "cmd", "", raw_csv=raw, extra=extra)
        self.assertEqual(len(read_csv(store.csv_path)), 2, "the rows were merged")
        resumed = Store(store.csv_path)
        self.assertIsNone(resumed.status(point.id), "the point must not count as done")
        self.assertIsNone(resumed.claim(point))
        resumed.record(point, "ok", 0, 1.0, "t", "cmd", "", raw_csv=raw, extra=extra)
        rows = read_csv(store.csv_path)
        self.assertEqual(len(rows), 2, "rerunning the point duplicated its rows")
        self.assertEqual({r["point_id"] for r in rows}, {point.id})
        self.assertEqual(Store(store.csv_path).status(point.id), "ok")


class FullNodeTest(Case):
    """#19.2: "full" is the hardware the job got (SMT-aware), with a warning on a mismatch."""

    def fake_lscpu(self, threads_per_core):
        bin_dir = os.path.join(self.dir, "bin")
        os.makedirs(bin_dir, exist_ok=True)
        with open(os.path.join(bin_dir, "lscpu"), "w") as f:
            f.write(f"#!/bin/sh\necho 'Thread(s) per core:  {threads_per_core}'\necho 'Core(s) per socket:  64'\n")
        os.chmod(os.path.join(bin_dir, "lscpu"), 0o755)
        return bin_dir + os.pathsep + os.environ["PATH"]

    def test_smt_node_with_a_24_task_default(self):
        env = {"PATH": self.fake_lscpu(2), "SLURM_CPUS_ON_NODE": "256", "SLURM_NTASKS_PER_NODE": "24"}
        fig9 = os.path.join(ROOT, "results", "experiments", "cluster", "zhou-fig9.toml")
        proc = self.harness("--dry-run", "--launcher", "srun", "--nodes", "8", fig9, expect=0, env=env)
        self.assertIn('warning: "full" node = 128 cores here (SLURM_CPUS_ON_NODE=256, 2 thread(s) per core) but '
                      "the job asked --ntasks-per-node=24", proc.stderr)
        per_node = [int(line.split("--ntasks-per-node ")[1].split()[0])
                    for line in proc.stdout.splitlines() if "--ntasks-per-node " in line]
        self.assertEqual(max(per_node), 128, "Fig 9's axis ends at the full node")
        self.assertNotIn("skipped (", proc.stdout)

    def test_matching_node_says_nothing(self):
        env = {"PATH": self.fake_lscpu(1), "SLURM_CPUS_ON_NODE": "24", "SLURM_NTASKS_PER_NODE": "24"}
        proc = self.harness("--dry-run", "--launcher", "srun", "--nodes", "8", self.fake_sweep(), expect=0, env=env)
        self.assertNotIn("warning", proc.stderr)

    def test_fig11_size_follows_the_process_grid(self):
        fig11 = os.path.join(ROOT, "results", "experiments", "cluster", "zhou-fig11.toml")
        for cores, grid in ((24, (12, 12)), (128, (24, 32))):
            for p in Experiment(fig11).points(cores_per_node=cores):
                s = p.params["_per_core"]
                self.assertEqual((p.params["m"], p.params["n"]), (grid[0] * s, grid[1] * s), (cores, p.label()))
                self.assertIn(f"{grid[0]}x{grid[1]}", p.app_args(False))


class LaunchLinesTest(Case):
    """#19.7 and #19.9: the dry run of a job sized by hand, with -N on every real-node line."""

    def test_multi_node_and_uneven_lines(self):
        exp = self.experiment("""
            [experiment]
            app = "app"
            [axes]
            layout = [{nodes = 2, ranks_per_node = "full"}, {node_sizes = "full,1"}, {nodes = 8, ranks_per_node = 1}]
            """)
        proc = self.harness("--dry-run", "--launcher", "srun", "--nodes", "4", "--cores-per-node", "4", exp, expect=0)
        srun = shutil.which("srun") or "srun"
        lines = [line.split(" ", 2)[2].replace(srun, "srun") for line in proc.stdout.splitlines() if line.startswith("[")]
        self.assertEqual(lines[0], "env -u SLURM_NTASKS_PER_NODE -u SLURM_DISTRIBUTION srun -n 8 -N 2 -w "
                                   "node001,node002 --ntasks-per-node 4 --cpu-bind=verbose,cores "
                                   "--distribution=block:block app --ranks-per-node 0 --csv " +
                         os.path.join(self.results, "exp.logs", lines[0].split("exp.logs/")[1].split()[0]))
        self.assertRegex(lines[1], r"^env -u SLURM_NTASKS_PER_NODE -u SLURM_DISTRIBUTION SLURM_HOSTFILE=\S+ srun -n 5 "
                                   r"-N 2 --distribution=arbitrary -w node001,node002 --cpu-bind=verbose,cores app "
                                   r"--ranks-per-node 0 --csv ")
        self.assertIn("skipped (needs 8 nodes > --max-nodes 4)", proc.stdout)

    def test_dry_run_writes_no_host_file(self):
        """A dry run writes nothing: the irregular srun point's host file is named where the
        run would put it (the results' logs), not written there nor into the current directory."""
        exp = self.experiment("""
            [experiment]
            app = "app"
            [axes]
            node_sizes = ["full,1"]
            """)
        cwd = os.path.join(self.dir, "cwd")
        os.makedirs(cwd)
        cmd = [sys.executable, HARNESS, "--results-dir", self.results, "--dry-run", "--launcher", "srun",
               "--nodes", "2", "--cores-per-node", "4", exp]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                              timeout=60, env=self.env(), cwd=cwd)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        named = re.search(r"SLURM_HOSTFILE=(\S+)", proc.stdout).group(1)
        self.assertEqual(os.path.dirname(named), os.path.join(self.results, "exp.logs"), proc.stdout)
        self.assertEqual(os.listdir(cwd), [], "a dry run wrote into the current directory")
        self.assertFalse(os.path.exists(self.results), "a dry run wrote into the results directory")

    def test_point_id_follows_the_settings_that_change_results(self):
        exp = self.fake_sweep()

        def point_id(*args, env=None):
            out = self.harness("--dry-run", *args, exp, expect=0, env=env).stdout
            return [line.split()[1] for line in out.splitlines() if line.startswith("[")][0]
        base = point_id("--launcher", "srun")
        self.assertEqual(base, point_id("--launcher", "srun"))
        others = {point_id("--launcher", "mpirun"), point_id("--launcher", "srun", "--binding", "none"),
                  point_id("--launcher", "srun", env={"SLURM_JOB_PARTITION": "big"})}
        self.assertEqual(len(others | {base}), 4, "launcher, binding and partition must change the point id")


class JobTest(Case):
    """#19.6, #19.8, #19.9: manifest and job column, the planner, the time limit."""

    def test_manifest_and_job_column(self):
        self.harness(self.fake_sweep(), expect=0, env={"SLURM_JOB_ID": "4242", "LOADEDMODULES": "cray-python/3.11:x"})
        with open(os.path.join(self.results, "manifests", "job-4242.json")) as f:
            manifest = json.load(f)
        self.assertEqual(manifest["slurm"]["job_id"], "4242")
        self.assertEqual(manifest["modules"], ["cray-python/3.11", "x"])
        for key in ("revision", "dirty", "versions", "environment", "launcher", "cores_per_node"):
            self.assertIn(key, manifest)
        self.assertEqual(manifest["environment"].get("OMP_NUM_THREADS", "1"), os.environ.get("OMP_NUM_THREADS", "1"))
        row = read_csv(os.path.join(self.results, "fake.csv"))[0]
        self.assertEqual(row["slurm_job_id"], "4242")

    def test_plan_prints_node_hours(self):
        fig8 = os.path.join(ROOT, "results", "experiments", "cluster", "zhou-fig8.toml")
        proc = self.harness("--plan", "--launcher", "srun", "--nodes", "8", "--cores-per-node", "24", fig8, expect=0)
        self.assertRegex(proc.stdout, r"per job: --nodes=8 --time<=\d\d:\d\d:\d\d -> [\d.]+ node-h held")
        self.assertIn("[skip: needs", proc.stdout)
        self.assertFalse(os.path.exists(self.results), "--plan must not write anything")

    def test_points_the_time_limit_would_kill_are_not_started(self):
        end = str(int(time.time()) + 30)
        proc = self.harness(self.fake_sweep(points=2), expect=0, env={"SLURM_JOB_END_TIME": end, "SLURM_JOB_ID": "1"})
        self.assertIn("left in the job < the point's timeout 600 s", proc.stdout)
        self.assertEqual(self.runs(), [])
        self.assertTrue(glob.glob(os.path.join(self.results, "manifests", "job-1.json")))


class SubmitTest(Case):
    """#19.1 and #19.8: jobscripts/submit.sh checks on the login node and splits a family per figure."""

    submit = os.path.join(ROOT, "jobscripts", "submit.sh")
    jobscript = os.path.join(ROOT, "jobscripts", "cray", "collectives.sbatch")

    def run_submit(self, *args, env=None):
        return subprocess.run([self.submit, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=120, env=self.env(dict(env or {}, HYMPI_HARNESS=HARNESS)))

    def test_one_job_per_figure_sized_by_the_plan(self):
        proc = self.run_submit("--per-figure", "--dry-run", self.jobscript, "-p", "big")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        jobs = [line for line in proc.stdout.splitlines() if " sbatch " in line]
        exp_dir = os.path.join(ROOT, "results", "experiments", "cluster")
        self.assertEqual(jobs, [f"HYMPI_EXPERIMENTS={exp_dir}/{name}.toml sbatch -p big --nodes={nodes} "
                                f"--job-name=hympi-{name} {self.jobscript}"
                                for name, nodes in (("zhou-fig7", 1), ("zhou-fig7-cold", 1), ("zhou-fig8", 64),
                                                    ("zhou-fig9", 8), ("zhou-fig10", 4), ("allreduce", 16))])
        self.assertIn("per job: --nodes=64", proc.stdout)

    def test_refuses_before_sbatch_without_a_toml_reader(self):
        site = os.path.join(self.dir, "site")
        os.makedirs(site)
        with open(os.path.join(site, "sitecustomize.py"), "w") as f:
            f.write("import sys\nsys.modules['tomllib'] = None\nsys.modules['tomli'] = None\n")
        proc = self.run_submit("--dry-run", self.jobscript, env={"PYTHONPATH": site})
        self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
        self.assertIn("nor tomli", proc.stderr)
        self.assertNotIn("sbatch", proc.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
