#!/usr/bin/env python3
"""Issue #54 (case 9): SIGTERM or Ctrl-C outside a sweep - waiting for a quiet machine,
expanding the points, comparing, writing the manifest, --fresh - is exit 130 with one line
`hympi-harness: error: interrupted (...)`, never a KeyboardInterrupt traceback. Each test waits
until the harness is inside the step (a line it printed, a FIFO it reads, a lock it waits for,
a helper it started, CPU time it spent), so the signal lands there and not while Python starts."""
import fcntl
import os
import signal
import stat
import subprocess
import sys
import textwrap
import time
import unittest

from harness_testing import FAKE_APP, HARNESS, TempDirCase

DEADLINE = 60  # seconds for the harness to reach the step, and again to stop after the signal


def _default_sigint():
    # A test runner started in the background may ignore SIGINT; the harness must see Ctrl-C.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Case(TempDirCase):
    prefix = "hympi-interrupts-"

    def start(self, *args, env=None):
        self.err_path = os.path.join(self.dir, "harness.err")
        with open(self.err_path, "w") as err, open(os.devnull, "w") as out:
            return subprocess.Popen([sys.executable, HARNESS, *args], stdout=out, stderr=err,
                                    env={**os.environ, **(env or {})}, preexec_fn=_default_sigint)

    def stderr(self):
        with open(self.err_path) as f:
            return f.read()

    def wait_until(self, proc, ready, what):
        deadline = time.monotonic() + DEADLINE
        while not ready():
            self.assertIsNone(proc.poll(), f"the harness ended before {what}: {self.stderr()}")
            self.assertLess(time.monotonic(), deadline, f"the harness never got to {what}")
            time.sleep(0.05)

    def interrupted(self, proc, sig=signal.SIGTERM):
        """Sends `sig`; the harness must end with 130 and one error line, no traceback."""
        proc.send_signal(sig)
        try:
            proc.wait(timeout=DEADLINE)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            self.fail("the harness did not stop after the signal")
        err = self.stderr()
        self.assertEqual(proc.returncode, 130, err)
        self.assertNotIn("Traceback", err)
        self.assertNotIn("KeyboardInterrupt", err)
        last = err.strip().splitlines()[-1]
        self.assertTrue(last.startswith(f"hympi-harness: error: interrupted ({sig.name})"), err)
        return err

    def experiment(self, axes):
        path = os.path.join(self.dir, "exp.toml")
        with open(path, "w") as f:
            f.write(f'[experiment]\napp = "{FAKE_APP}"\noutput = "fam/e.csv"\n[axes]\n{axes}')
        return path


class OutsideASweep(Case):
    def test_quiet_wait(self):
        for sig in (signal.SIGTERM, signal.SIGINT):
            with self.subTest(signal=sig.name):
                # A threshold below zero: every sample is busy, so it waits and says so.
                proc = self.start("quiet", "--wait", "300", "--sample", "0.1", "--busy-threshold", "-1")
                self.wait_until(proc, lambda: "machine busy" in self.stderr(), "waiting")
                self.interrupted(proc, sig)

    def test_expanding_the_points(self):
        # 100^6 points: the expansion runs until the signal (the CPU time it spent says it is in it).
        axes = "".join(f"a{i} = [{', '.join(str(v) for v in range(100))}]\n" for i in range(6))
        proc = self.start("--dry-run", "--results-dir", os.path.join(self.dir, "results"),
                          self.experiment("ranks = [1]\n" + axes))

        def busy_for_a_second():
            with open(f"/proc/{proc.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") >= 1.0
        self.wait_until(proc, busy_for_a_second, "the expansion")
        self.interrupted(proc)

    def test_compare(self):
        # compare reads a FIFO no one writes to: it waits in read() until the signal.
        for sig in (signal.SIGTERM, signal.SIGINT):
            with self.subTest(signal=sig.name):
                run_dir = os.path.join(self.dir, f"run-{sig.name}")
                os.makedirs(run_dir)
                fifo = os.path.join(run_dir, "fig.csv")
                os.mkfifo(fifo)
                proc = self.start("compare", run_dir, run_dir)
                writer = []

                def reading():
                    try:  # opening the write end succeeds once the harness holds the read end
                        writer.append(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
                        return True
                    except OSError:
                        return False
                try:
                    self.wait_until(proc, reading, "reading the run's CSV")
                    self.interrupted(proc, sig)
                finally:
                    for fd in writer:
                        os.close(fd)

    def test_fresh_waiting_for_the_lock(self):
        results = os.path.join(self.dir, "results")
        os.makedirs(os.path.join(results, "fam"))
        with open(os.path.join(results, "fam", "e.lock"), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # another harness works on the experiment
            proc = self.start("--fresh", "--results-dir", results, self.experiment("ranks = [1]\n"))

            def waiting():
                with open("/proc/locks") as f:
                    return any("->" in line and f" {proc.pid} " in line for line in f)
            self.wait_until(proc, waiting, "--fresh waiting for the experiment's lock")
            self.interrupted(proc)

    def test_manifest(self):
        # In a job the manifest asks the launcher for its version: this one never answers.
        mpiexec = os.path.join(self.dir, "mpiexec")
        marker = mpiexec + ".asked"
        with open(mpiexec, "w") as f:
            f.write(textwrap.dedent(f"""\
                #!/bin/sh
                touch '{marker}'
                exec sleep 120
                """))
        os.chmod(mpiexec, os.stat(mpiexec).st_mode | stat.S_IXUSR)
        proc = self.start("--mpiexec", mpiexec, "--cores-per-node", "4", "--results-dir",
                          os.path.join(self.dir, "results"), self.experiment("ranks = [1]\n"),
                          env={"SLURM_JOB_ID": "54"})
        self.wait_until(proc, lambda: os.path.exists(marker), "the manifest")
        self.interrupted(proc)


if __name__ == "__main__":
    unittest.main(verbosity=2)
