"""What a sweep leaves next to its CSV.

  fig.csv         the app's rows of every successful point, plus point_id, launcher, hosts, experiment
  fig.state.json  point id -> status of its last attempt (resume skips status "ok")
  fig.index.csv   one row per attempt: point id, status, exit code, seconds, command, stderr tail
  fig.logs/       stdout/stderr of every point (and its raw CSV while it runs)

A point's rows reach fig.csv only after it succeeded, so a crash or a failed point never
leaves partial or duplicated rows behind.
"""
import csv
import datetime
import json
import os
import shutil

EXTRA_COLUMNS = ["point_id", "launcher", "hosts", "experiment"]
INDEX_COLUMNS = ["point_id", "status", "exit_code", "seconds", "started", "experiment", "label", "command",
                 "stderr_tail"]


class StoreError(Exception):
    pass


def now_iso():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class Store:
    def __init__(self, csv_path):
        self.csv_path = csv_path
        stem = csv_path[:-4] if csv_path.endswith(".csv") else csv_path
        self.state_path = stem + ".state.json"
        self.index_path = stem + ".index.csv"
        self.logs_dir = stem + ".logs"
        self.state = {}
        if os.path.exists(self.state_path):
            try:
                with open(self.state_path) as f:
                    self.state = json.load(f)
            except (OSError, ValueError) as e:
                raise StoreError(f"cannot read state file '{self.state_path}': {e}; delete it to start over")

    def forget(self):
        """--fresh: drop everything an earlier sweep of this experiment left behind."""
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

    def _save_state(self):
        tmp = self.state_path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.state, f, indent=1, sort_keys=True)
        os.replace(tmp, self.state_path)  # atomic: a killed harness never leaves half a state file

    def record(self, point, status, exit_code, seconds, started, command, stderr_tail):
        self.state[point.id] = {"status": status, "exit_code": exit_code, "finished": now_iso(),
                                "label": point.label()}
        self._save_state()
        new = not os.path.exists(self.index_path) or os.path.getsize(self.index_path) == 0
        with open(self.index_path, "a", newline="") as f:
            w = csv.writer(f)
            if new:
                w.writerow(INDEX_COLUMNS)
            w.writerow([point.id, status, exit_code, f"{seconds:.2f}", started, point.experiment.name,
                        point.label(), command, stderr_tail])

    @staticmethod
    def read_rows(raw_csv):
        with open(raw_csv, newline="") as f:
            return [r for r in csv.reader(f) if r]

    def merge_rows(self, raw_csv, extra):
        """Appends the data rows of one point's raw CSV to the sweep CSV; returns how many."""
        with open(raw_csv, newline="") as f:
            rows = list(csv.reader(f))
        rows = [r for r in rows if r]
        if len(rows) < 2:
            return 0
        header = rows[0] + EXTRA_COLUMNS
        if os.path.exists(self.csv_path) and os.path.getsize(self.csv_path) > 0:
            with open(self.csv_path, newline="") as f:
                existing = next(csv.reader(f), [])
            if existing != header:
                raise StoreError(f"'{self.csv_path}' has a different header than this app writes now "
                                 f"({len(existing)} vs {len(header)} columns); move it aside or use --output")
            write_header = False
        else:
            write_header = True
        with open(self.csv_path, "a", newline="") as f:
            w = csv.writer(f)
            if write_header:
                w.writerow(header)
            for r in rows[1:]:
                w.writerow(r + extra)
        return len(rows) - 1
