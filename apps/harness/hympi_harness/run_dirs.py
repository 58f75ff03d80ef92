"""Run directories: where a run's CSVs, statistics, plots and manifest go unless the committed
reference results are to be replaced (--update-reference) or another place is given.

    <results>/runs/<YYYY-MM-DD>-<host>-<revision>[-dirty]/<family>/<figure>.csv

The layout below the run directory mirrors <results>/, so a run's <family>/<figure>.csv has
its committed reference at <results>/<family>/<figure>.csv (results/plotlib.py draws both). A rerun on the
same day, host and revision resumes in the same directory. results/runs/ is ignored by git."""
import datetime
import os
import re
import socket

from .manifest import source_revision

RUNS = "runs"


def run_name(source_dir, when=None, host=None):
    commit, dirty = source_revision(source_dir)
    day = (when or datetime.datetime.now(datetime.timezone.utc)).strftime("%Y-%m-%d")
    host = re.sub(r"[^A-Za-z0-9_.-]", "_", (host or socket.gethostname()).split(".")[0]) or "host"
    return f"{day}-{host}-{commit[:10] or 'norev'}" + ("-dirty" if dirty else "")


def run_dir(results_dir, source_dir):
    return os.path.join(results_dir, RUNS, run_name(source_dir))

