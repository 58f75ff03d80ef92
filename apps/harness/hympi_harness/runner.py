"""Runs the points of one experiment: skip done ones, launch the rest, record every outcome."""
import csv
import os
import shlex
import signal
import subprocess
import sys
import time

from .compat import shell_join
from .plan import clock as _clock
from .launchers import LaunchError, describe_binding, run_environment, thread_settings
from . import stats
from .loadguard import BUSY_SHARE, COLUMNS as LOAD_COLUMNS, Probe
from .repetitions import REPEAT_COLUMNS, Plan, metric_of, values_by_row, write_stats
from .store import Store, now_iso

STDERR_TAIL_LINES = 12  # enough to get past mpirun's own epilogue to the app's last words


def _tail(path, lines=STDERR_TAIL_LINES):
    try:
        with open(path, errors="replace") as f:
            text = f.read()[-8000:]
    except OSError:
        return ""
    kept = [line.strip() for line in text.splitlines() if line.strip().strip("-=*")][-lines:]
    return " | ".join(kept)[-1500:]


def _env_text(env):
    """VAR=value words for a dry-run line; None means the variable is removed (env -u)."""
    words = [f"-u {k}" for k, v in env.items() if v is None]
    words = (["env"] + words) if words else []
    words += [f"{k}={shlex.quote(v)}" for k, v in env.items() if v is not None]
    return " ".join(words) + " " if words else ""


def _kill_group(proc):
    """Stops a launcher and everything it started (it runs in its own session)."""
    for sig, grace in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=grace)
            return
        except subprocess.TimeoutExpired:
            continue


class Sweep:
    def __init__(self, experiment, points, launcher, app_path, csv_path, out=sys.stdout, dry_run=False,
                 retry_failed=True, max_ranks=None, max_nodes=None, cores_per_node=None, timeout=None,
                 end_time=None, repeats=None, busy_threshold=BUSY_SHARE):
        self.exp = experiment
        self.repeats = repeats or Plan()
        self.busy_threshold = busy_threshold
        self.metric = None  # the column the statistics are about, known after the first launch
        self.points = points
        self.launcher = launcher
        self.app_path = app_path
        self.store = Store(csv_path)
        self.out = out
        self.dry_run = dry_run
        self.retry_failed = retry_failed
        self.max_ranks = max_ranks
        self.max_nodes = max_nodes
        self.cores_per_node = cores_per_node
        self.timeout = timeout or experiment.timeout
        self.end_time = end_time  # epoch seconds the job ends (SLURM_JOB_END_TIME), or None
        self.counts = {"ok": 0, "failed": 0, "skipped": 0, "done-before": 0}

    def say(self, text):
        print(text, file=self.out, flush=True)

    def too_big(self, point):
        if self.max_ranks and point.ranks > self.max_ranks:
            return f"needs {point.ranks} ranks > --max-ranks {self.max_ranks}"
        nodes = point.nodes or 1
        if self.max_nodes and not self.launcher.emulate and nodes > self.max_nodes:
            return f"needs {nodes} nodes > --max-nodes {self.max_nodes}"
        widest = max(point.params.get("node_sizes") or [point.params.get("ranks_per_node") or 0])
        if self.cores_per_node and widest > self.cores_per_node:
            return f"needs {widest} ranks on a node > --cores-per-node {self.cores_per_node}"
        return None

    def _too_late(self, point):
        """A point that the job's time limit would kill before its own timeout is not started."""
        if not self.end_time or self.dry_run:
            return None
        left = self.end_time - time.time()
        if left < self.timeout:
            return f"{left:.0f} s left in the job < the point's timeout {self.timeout:g} s"
        return None

    def _command(self, point, raw_csv):
        args = point.app_args(self.launcher.emulate) + [self.exp.csv_option, raw_csv]
        return self.launcher.command(point, self.app_path, args, self.exp.env)

    def run(self):
        """Returns True when no point failed."""
        n = len(self.points)
        width = len(str(n))
        if not self.dry_run:
            self.store.prepare()
            self.launcher.hostfile_dir = self.store.logs_dir
        self.say(f"== {self.exp.name}: {self.exp.title}")
        self.say(f"   {n} points, app {self.app_path}, launcher {self.launcher.kind}"
                 f"{' (emulated nodes)' if self.launcher.emulate else ''}, csv {self.store.csv_path}")
        start = time.monotonic()
        ran_seconds = []
        for i, point in enumerate(self.points, 1):
            tag = f"[{i:>{width}}/{n}]"
            status = self.store.status(point.id)
            if status == "ok" or (status == "failed" and not self.retry_failed):
                self.counts["done-before"] += 1
                self.say(f"{tag} done before ({status}) {point.label()}")
                continue
            reason = self.too_big(point) or self._too_late(point)
            if reason:
                self.counts["skipped"] += 1
                self.say(f"{tag} skipped ({reason}) {point.label()}")
                continue
            raw_csv = os.path.join(self.store.logs_dir, f"{point.id}.csv")
            try:
                cmd, extra_env = self._command(point, raw_csv)
            except LaunchError as e:
                self.counts["failed"] += 1
                self.say(f"{tag} FAILED to build command: {e}  {point.label()}")
                if not self.dry_run:
                    self.store.record(point, "failed", "", 0.0, now_iso(), "", str(e))
                continue
            if self.dry_run:
                self.say(f"{tag} {point.id} {_env_text({**self.exp.env, **extra_env})}{shell_join(cmd)}")
                continue
            taken = self.store.claim(point, self.retry_failed)
            if taken:  # another harness (job) on the same experiment finished or runs it
                self.counts["done-before"] += 1
                self.say(f"{tag} done by another harness ({taken}) {point.label()}")
                continue
            self.say(f"{tag} run  {point.label()}")
            ok, seconds = self._run_point(point, cmd, extra_env, raw_csv, tag)
            ran_seconds.append(seconds)
            left = sum(1 for p in self.points[i:] if self.store.status(p.id) != "ok")
            eta = sum(ran_seconds) / len(ran_seconds) * left
            self.say(f"{tag} {'ok  ' if ok else 'FAILED'} {seconds:6.1f} s   "
                     f"elapsed {_clock(time.monotonic() - start)}, about {_clock(eta)} left")
        if not self.dry_run and self.write_stats():
            self.say(f"   statistics per point in {self.store.csv_path[:-4]}.stats.csv")
        c = self.counts
        self.say(f"== {self.exp.name}: {c['ok']} ok, {c['failed']} failed, {c['skipped']} skipped, "
                 f"{c['done-before']} done before" + (" (dry run)" if self.dry_run else ""))
        return c["failed"] == 0

    @staticmethod
    def _wrong_rank_count(raw_csv, point):
        """A launcher whose PMI the MPI does not speak starts N singletons that all "succeed":
        catch it by the ranks column the apps write (run info)."""
        if not os.path.exists(raw_csv):
            return None
        rows = Store.read_rows(raw_csv)
        if len(rows) < 2 or "ranks" not in rows[0]:
            return None
        col = rows[0].index("ranks")
        seen = {r[col] for r in rows[1:] if col < len(r)}
        if seen != {str(point.ranks)}:
            return (f"the app ran with {'/'.join(sorted(seen))} rank(s) instead of {point.ranks}: "
                    "does the launcher's PMI match the MPI (e.g. srun --mpi=pmix vs pmi2)?")
        return None

    def _launch(self, point, cmd, extra_env, raw_csv, out_path, err_path):
        """One launch of the point: (status "ok"/"failed", exit code, explanation, seconds, load columns)."""
        for path in (raw_csv, out_path, err_path):
            if os.path.exists(path):
                os.remove(path)
        env = run_environment(self.exp.env, extra_env)
        t0 = time.monotonic()
        probe = Probe()
        timed_out = False
        with open(out_path, "w") as out, open(err_path, "w") as err:
            out.write("# " + shell_join(cmd) + "\n")
            out.flush()
            try:
                proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env, start_new_session=True)
            except OSError as e:
                err.write(f"cannot start {cmd[0]}: {e}\n")
                proc = None
            if proc is not None:
                try:
                    proc.wait(timeout=self.timeout)
                except subprocess.TimeoutExpired:
                    timed_out = True
                    _kill_group(proc)
                except KeyboardInterrupt:
                    _kill_group(proc)
                    raise
        load = probe.result(self.busy_threshold)
        seconds = time.monotonic() - t0
        code = proc.returncode if proc is not None else 127
        tail = _tail(err_path) or _tail(out_path)
        if timed_out:
            return "failed", "timeout", f"timed out after {self.timeout:g} s; " + tail, seconds, load
        if code != 0:
            return "failed", code, tail, seconds, load
        wrong = self._wrong_rank_count(raw_csv, point)
        if wrong:
            return "failed", code, wrong + "; " + tail, seconds, load
        if not (os.path.exists(raw_csv) and len(Store.read_rows(raw_csv)) > 1):
            return "failed", code, "exit 0 but the app wrote no CSV rows; " + tail, seconds, load
        return "ok", code, tail, seconds, load

    def _run_point(self, point, cmd, extra_env, raw_csv, tag):
        """Launches the point as often as the repetition plan asks; its rows are merged only when
        every launch succeeded (the rows of all launches, with their repetition and load columns)."""
        out_path = os.path.join(self.store.logs_dir, f"{point.id}.out")
        err_path = os.path.join(self.store.logs_dir, f"{point.id}.err")
        started = now_iso()
        header, rows, seconds, launches = None, [], 0.0, 0
        status, code, tail = "ok", 0, ""
        while status == "ok" and self.repeats.more_needed(launches, values_by_row(rows, header, self.metric)):
            status, code, tail, took, load = self._launch(point, cmd, extra_env, raw_csv, out_path, err_path)
            seconds += took
            if status != "ok":
                break
            got = Store.read_rows(raw_csv)
            if header is not None and got[0] != header[:len(got[0])]:
                status, tail = "failed", "the app's CSV header changed between repetitions"
                break
            header = got[0] + REPEAT_COLUMNS
            self.metric = self.metric or metric_of(header, self.exp.metric)
            rows += [r + [str(launches), str(i)] + [load[c] for c in LOAD_COLUMNS] + self.repeats.columns()
                     for i, r in enumerate(got[1:])]
            if load["busy"] == "1":
                self.say(f"{tag}   busy machine: other processes used {float(load['other_cpu_share']) * 100:.0f}% "
                         f"of the cores (load {load['load1']})")
            launches += 1
        merge = None
        if status == "ok":
            with open(raw_csv, "w", newline="") as f:
                csv.writer(f).writerows([header] + rows)
            merge = raw_csv
            if launches > 1:
                self.say(f"{tag}   {launches} launches{self._width_note(rows, header)}")
        bound = describe_binding(out_path, err_path)
        extra = [self.launcher.kind, ",".join(self.launcher.point_hosts(point)), self.exp.name,
                 os.environ.get("SLURM_JOB_ID", ""), self.launcher.binding, bound,
                 thread_settings(run_environment(self.exp.env, extra_env))]
        # Rows, state and index change in one locked step (a StoreError - header changed - stops
        # the sweep: every later point would fail too). The tail explains failures only.
        self.store.record(point, status, code, seconds, started, shell_join(cmd),
                          "" if status == "ok" else tail, raw_csv=merge, extra=extra)
        if status == "ok":
            self.counts["ok"] += 1
        else:
            self.counts["failed"] += 1
            self.say(f"{tag}   exit {code}: {tail[:400]}")
            self.say(f"{tag}   logs: {err_path}")
        return status == "ok", seconds

    def _width_note(self, rows, header):
        widths = [stats.summary(v)["ci_width_pct"] for v in values_by_row(rows, header, self.metric) if v]
        return f", widest interval {max(widths):.1f}% of the median" if widths else ""

    def write_stats(self):
        """<output>.stats.csv from every row the experiment's CSV holds now."""
        if os.path.exists(self.store.csv_path):
            with open(self.store.csv_path, newline="", errors="replace") as f:
                return write_stats(self.store.csv_path, list(csv.DictReader(f)), self.exp.metric)
        return None
