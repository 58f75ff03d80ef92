"""Runs the points of one experiment: skip done ones, launch the rest, record every outcome."""
import csv
import json
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
from .repetitions import DEFAULT_METRICS, REPEAT_COLUMNS, Plan, metric_of, values_by_row, write_stats
from .schema import ExperimentError
from .toml_lines import line_of
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


class PointRun:
    """A point being measured: its command and the rows of the launches made so far."""

    def __init__(self, index, point, tag, cmd, extra_env, raw_csv, logs_dir):
        self.index, self.point, self.tag = index, point, tag
        self.cmd, self.extra_env, self.raw_csv = cmd, extra_env, raw_csv
        self.out_path = os.path.join(logs_dir, f"{point.id}.out")
        self.err_path = os.path.join(logs_dir, f"{point.id}.err")
        self.started = now_iso()
        self.header, self.rows, self.seconds, self.launches = None, [], 0.0, 0
        self.status, self.code, self.tail = "ok", 0, ""


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
        return self.launcher.command(point, self.app_path, args, point.environment())

    def _groups(self):
        """Consecutive points that differ only in the experiment's last axis (e.g. policy = pure,
        hybrid): their repeated launches take turns, so the ratio of the two shares the noise. A
        group's points are claimed together; one launch per point (the default): one point a group."""
        if self.repeats.cap == 1:
            return [[(i, point)] for i, point in enumerate(self.points, 1)]
        axes = list(self.exp.axes.items())
        last = set()
        if axes:
            name, values = axes[-1]
            last = {name}.union(*[set(v) for v in (values if isinstance(values, list) else [values])
                                  if isinstance(v, dict)])
        groups, key = [], None
        for i, point in enumerate(self.points, 1):
            k = json.dumps({n: v for n, v in point.params.items() if n not in last}, sort_keys=True, default=str)
            if groups and k == key:
                groups[-1].append((i, point))
            else:
                groups.append([(i, point)])
            key = k
        return groups

    def _start(self, i, point, tag):
        """A PointRun for a point to measure now, or None (done, skipped, dry run, taken, unbuildable)."""
        status = self.store.status(point.id)
        if status == "ok" or (status == "failed" and not self.retry_failed):
            self.counts["done-before"] += 1
            self.say(f"{tag} done before ({status}) {point.label()}")
            return None
        reason = self.too_big(point) or self._too_late(point)
        if reason:
            self.counts["skipped"] += 1
            self.say(f"{tag} skipped ({reason}) {point.label()}")
            return None
        raw_csv = os.path.join(self.store.logs_dir, f"{point.id}.csv")
        try:
            cmd, extra_env = self._command(point, raw_csv)
        except LaunchError as e:
            self.counts["failed"] += 1
            self.say(f"{tag} FAILED to build command: {e}  {point.label()}")
            if not self.dry_run:
                self.store.record(point, "failed", "", 0.0, now_iso(), "", str(e), env=point.environment())
            return None
        if self.dry_run:
            self.say(f"{tag} {point.id} {_env_text({**point.environment(), **extra_env})}{shell_join(cmd)}")
            return None
        taken = self.store.claim(point, self.retry_failed)
        if taken:  # another harness (job) on the same experiment finished or runs it
            self.counts["done-before"] += 1
            self.say(f"{tag} done by another harness ({taken}) {point.label()}")
            return None
        self.say(f"{tag} run  {point.label()}")
        return PointRun(i, point, tag, cmd, extra_env, raw_csv, self.store.logs_dir)

    def run(self):
        """Returns True when no point failed."""
        n = len(self.points)
        width = len(str(n))
        # Host files go with the run's logs; a dry run names them there and writes nothing.
        self.launcher.hostfile_dir = self.store.logs_dir
        self.launcher.write_hostfiles = not self.dry_run
        if not self.dry_run:
            self.store.prepare()
        self.say(f"== {self.exp.name}: {self.exp.title}")
        self.say(f"   {n} points, app {self.app_path}, launcher {self.launcher.kind}"
                 f"{' (emulated nodes)' if self.launcher.emulate else ''}, csv {self.store.csv_path}")
        start = time.monotonic()
        ran_seconds = []
        for group in self._groups():
            active = [r for r in (self._start(i, p, f"[{i:>{width}}/{n}]") for i, p in group) if r]
            while active:  # one launch of each point in turn until each has what it needs
                for run in list(active):
                    if self._launch_once(run):
                        continue
                    active.remove(run)
                    ok = self._finish(run)
                    ran_seconds.append(run.seconds)
                    left = sum(1 for p in self.points[run.index:] if self.store.status(p.id) != "ok")
                    eta = sum(ran_seconds) / len(ran_seconds) * left
                    self.say(f"{run.tag} {'ok  ' if ok else 'FAILED'} {run.seconds:6.1f} s   "
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
        env = run_environment(point.environment(), extra_env)
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

    def _launch_once(self, run):
        """One more launch of the point; True while the repetition plan wants another."""
        status, code, tail, took, load = self._launch(run.point, run.cmd, run.extra_env, run.raw_csv, run.out_path,
                                                      run.err_path)
        run.seconds += took
        run.code, run.tail = code, tail
        if status != "ok":
            run.status = "failed"
            return False
        got = Store.read_rows(run.raw_csv)
        if run.header is not None and got[0] != run.header[:len(got[0])]:
            run.status, run.tail = "failed", "the app's CSV header changed between repetitions"
            return False
        run.header = got[0] + REPEAT_COLUMNS
        self.metric = self.metric or metric_of(run.header, self.exp.metric)
        if self.metric is None and (self.exp.metric or self.repeats.ci_width is not None):
            self._no_metric(run, got[0])
        run.rows += [r + [str(run.launches), str(i)] + [load[c] for c in LOAD_COLUMNS] + self.repeats.columns()
                     for i, r in enumerate(got[1:])]
        if load["busy"] == "1":
            self.say(f"{run.tag}   busy machine: other processes used {float(load['other_cpu_share']) * 100:.0f}% "
                     f"of the cores (load {load['load1']})")
        run.launches += 1
        return self.repeats.more_needed(run.launches, values_by_row(run.rows, run.header, self.metric))

    def _no_metric(self, run, columns):
        """The statistics would be about no column: the point is recorded failed, the sweep stops (exit 2)."""
        exp = self.exp
        if exp.metric:
            line = line_of(exp.lines, ("experiment", "metric"))
            what = f"{exp.path}:{line}: [experiment] metric = \"{exp.metric}\" is not a column of the app's CSV"
        else:
            what = (f"{exp.path}: --ci-width needs a metric: the app's CSV has none of {', '.join(DEFAULT_METRICS)}; "
                    "name its timing column in [experiment] metric")
        run.status, run.tail = "failed", what
        self._finish(run)
        raise ExperimentError(f"{what} (its columns: {', '.join(columns)})")

    def _finish(self, run):
        """Records the point: the rows of all its launches (with their repetition and load columns)
        when every launch succeeded, else the failure. Returns whether it succeeded."""
        merge = None
        if run.status == "ok":
            with open(run.raw_csv, "w", newline="") as f:
                csv.writer(f).writerows([run.header] + run.rows)
            merge = run.raw_csv
            if run.launches > 1:
                self.say(f"{run.tag}   {run.launches} launches{self._width_note(run.rows, run.header)}")
        point = run.point
        bound = describe_binding(run.out_path, run.err_path)
        extra = [self.launcher.kind, ",".join(self.launcher.point_hosts(point)), self.exp.name,
                 os.environ.get("SLURM_JOB_ID", ""), self.launcher.binding, bound,
                 thread_settings(run_environment(point.environment(), run.extra_env))]
        # Rows, state and index change in one locked step (a StoreError - header changed - stops
        # the sweep: every later point would fail too). The tail explains failures only.
        self.store.record(point, run.status, run.code, run.seconds, run.started, shell_join(run.cmd),
                          "" if run.status == "ok" else run.tail, raw_csv=merge, extra=extra,
                          env=point.environment())
        if run.status == "ok":
            self.counts["ok"] += 1
        else:
            self.counts["failed"] += 1
            self.say(f"{run.tag}   exit {run.code}: {run.tail[:400]}")
            self.say(f"{run.tag}   logs: {run.err_path}")
        return run.status == "ok"

    def _width_note(self, rows, header):
        widths = [stats.summary(v)["ci_width_pct"] for v in values_by_row(rows, header, self.metric) if v]
        return f", widest interval {max(widths):.1f}% of the median" if widths else ""

    def write_stats(self):
        """<output>.stats.csv from every row the experiment's CSV holds now."""
        if os.path.exists(self.store.csv_path):
            with open(self.store.csv_path, newline="", errors="replace") as f:
                return write_stats(self.store.csv_path, list(csv.DictReader(f)), self.exp.metric)
        return None
