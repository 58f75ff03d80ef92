"""What a sweep leaves next to its CSV.

  fig.csv         the app's rows of every launch of every successful point, plus its repetition,
                  row and load columns (repetitions.REPEAT_COLUMNS) and EXTRA_COLUMNS
  fig.state.json  point id -> status of its last attempt (resume skips status "ok"); "running"
                  while a harness works on it (with its host, pid and Slurm job)
  fig.index.csv   one row per attempt: point id, status, exit code, seconds, command, stderr tail,
                  env (the experiment's [env] as this point ran it: "{name}" filled in)
  fig.lock        flock(2) taken around every read-modify-write of the files above, so two
                  harness processes (two jobs) on one experiment share the points between them
  fig.logs/       stdout/stderr of every point (and its raw CSV while it runs), job manifests
  fig.stats.csv   per point and row: statistics over the point's launches (repetitions.py)

A point's rows reach fig.csv only after it succeeded, in the same locked step that marks it
done; rows of that point id from an earlier attempt are replaced, never duplicated, so even
a harness killed between writing rows and state leaves no duplicate on resume.
"""
import contextlib
import csv
import datetime
import fcntl
import json
import os
import shutil
import signal
import socket

from .compat import command_output

EXTRA_COLUMNS = ["point_id", "launcher", "hosts", "experiment", "slurm_job_id", "binding", "bound_to", "threads"]
INDEX_COLUMNS = ["point_id", "status", "exit_code", "seconds", "started", "experiment", "label", "command",
                 "stderr_tail", "env"]


class StoreError(Exception):
    pass


def now_iso():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _owner():
    return {"host": socket.gethostname(), "pid": os.getpid(), "slurm_job_id": os.environ.get("SLURM_JOB_ID", "")}


def _claim_alive(entry):
    """Whether the harness that marked a point "running" may still be working on it."""
    if entry.get("host") == socket.gethostname():
        try:
            os.kill(int(entry.get("pid", 0)), 0)
            return int(entry.get("pid", 0)) > 0
        except (OSError, ValueError):
            return False
    job = entry.get("slurm_job_id")
    if not job:
        return False
    state = command_output(["squeue", "-h", "-j", job, "-o", "%T"])
    if state is None:
        return True  # cannot tell (no squeue here, or it failed): leave the point to its owner
    return state.strip() in ("RUNNING", "COMPLETING", "SUSPENDED")


@contextlib.contextmanager
def _signals_held():
    """SIGTERM/SIGINT wait until the block is done: the files it writes change together."""
    held = {signal.SIGTERM, signal.SIGINT}
    old = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


class Store:
    def __init__(self, csv_path):
        self.csv_path = csv_path
        stem = csv_path[:-4] if csv_path.endswith(".csv") else csv_path
        self.state_path = stem + ".state.json"
        self.index_path = stem + ".index.csv"
        self.lock_path = stem + ".lock"
        self.logs_dir = stem + ".logs"
        self.state = {}
        self._reload()

    def _reload(self):
        self.state = {}
        if os.path.exists(self.state_path):
            try:
                with open(self.state_path) as f:
                    self.state = json.load(f)
            except (OSError, ValueError) as e:
                raise StoreError(f"cannot read state file '{self.state_path}': {e}; delete it to start over")

    @contextlib.contextmanager
    def _locked(self):
        """The experiment's lock, with the state as it is now on disk."""
        os.makedirs(os.path.dirname(os.path.abspath(self.lock_path)), exist_ok=True)
        with open(self.lock_path, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                self._reload()
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def forget(self):
        """--fresh: drop everything an earlier sweep of this experiment left behind."""
        with self._locked():
            for path in (self.csv_path, self.state_path, self.index_path):
                if os.path.exists(path):
                    os.remove(path)
            shutil.rmtree(self.logs_dir, ignore_errors=True)
            self.state = {}

    def prepare(self):
        os.makedirs(os.path.dirname(os.path.abspath(self.csv_path)), exist_ok=True)
        os.makedirs(self.logs_dir, exist_ok=True)

    def status(self, point_id):
        return self.state.get(point_id, {}).get("status")

    def claim(self, point, retry_failed=True):
        """Marks the point "running" for this process unless it is done or another live harness
        has it. Returns None when claimed, else the reason to leave it ("ok", "failed", "running")."""
        with self._locked():
            entry = self.state.get(point.id, {})
            status = entry.get("status")
            if status == "ok" or (status == "failed" and not retry_failed):
                return status
            if status == "running" and _claim_alive(entry):
                return "running"
            self.state[point.id] = dict(entry, status="running", label=point.label(), since=now_iso(), **_owner())
            self._save_state()
        return None

    def _save_state(self):
        tmp = self.state_path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.state, f, indent=1, sort_keys=True)
        os.replace(tmp, self.state_path)  # atomic: a killed harness never leaves half a state file

    def record(self, point, status, exit_code, seconds, started, command, stderr_tail, raw_csv=None, extra=None,
               env=None):
        """One step under the lock: the point's rows (if any) into the CSV, replacing rows of an
        earlier attempt, then its state and index line. Returns the number of rows merged."""
        rows = 0
        with self._locked(), _signals_held():
            if raw_csv is not None:
                rows = self._merge_rows(point.id, raw_csv, extra)
                if rows == 0:
                    status = "failed"
            self.state[point.id] = {"status": status, "exit_code": exit_code, "finished": now_iso(),
                                    "label": point.label()}
            self._save_state()
            new = not os.path.exists(self.index_path) or os.path.getsize(self.index_path) == 0
            if not new:
                self._widen_index()
            with open(self.index_path, "a", newline="") as f:
                w = csv.writer(f)
                if new:
                    w.writerow(INDEX_COLUMNS)
                w.writerow([point.id, status, exit_code, f"{seconds:.2f}", started, point.experiment.name,
                            point.label(), command, stderr_tail,
                            " ".join(f"{k}={v}" for k, v in sorted((env or {}).items()))])
        return rows

    def _widen_index(self):
        """An index written before the env column: the column added (empty), so rows stay aligned."""
        rows = self.read_rows(self.index_path)
        if not rows or rows[0] != INDEX_COLUMNS[:-1]:
            return
        tmp = self.index_path + ".tmp"
        with open(tmp, "w", newline="") as f:
            csv.writer(f).writerows([INDEX_COLUMNS] + [r + [""] for r in rows[1:]])
        os.replace(tmp, self.index_path)

    @staticmethod
    def read_rows(raw_csv):
        with open(raw_csv, newline="") as f:
            return [r for r in csv.reader(f) if r]

    def _merge_rows(self, point_id, raw_csv, extra):
        """Rewrites the sweep CSV (atomically) with this point's rows replacing any earlier ones."""
        rows = self.read_rows(raw_csv)
        if len(rows) < 2:
            return 0
        header = rows[0] + EXTRA_COLUMNS
        kept = []
        if os.path.exists(self.csv_path) and os.path.getsize(self.csv_path) > 0:
            existing = self.read_rows(self.csv_path)
            if existing and existing[0] != header:
                raise StoreError(f"'{self.csv_path}' has a different header than this app writes now "
                                 f"({len(existing[0])} vs {len(header)} columns); move it aside or use --output")
            col = header.index("point_id")
            kept = [r for r in existing[1:] if len(r) <= col or r[col] != point_id]
        tmp = self.csv_path + ".tmp"
        with open(tmp, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(header)
            w.writerows(kept)
            for r in rows[1:]:
                w.writerow(r + [point_id] + list(extra))
        os.replace(tmp, self.csv_path)
        return len(rows) - 1
