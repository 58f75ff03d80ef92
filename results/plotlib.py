"""What every plot script under results/ shares: reading the apps' CSVs, medians over
repetitions, and a display-free matplotlib. A plot script imports it with

    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from plotlib import plt, read_rows, median_by

(the scripts run as `/usr/bin/python3 results/<family>/plot*.py`, from any directory).
"""
import csv
import io
import os
import statistics
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")  # files only: no display on clusters and CI
import matplotlib.pyplot as plt  # noqa: E402

__all__ = ["plt", "read_rows", "median_by", "median_interval", "reference_of", "stats_path"]


def read_rows(path, missing_ok=False):
    """The rows of one CSV as dicts ([] for a missing file when missing_ok). Some MPI
    version strings end in a NUL byte, which the csv module refuses: it is dropped."""
    if missing_ok and not os.path.exists(path):
        return []
    with open(path, newline="", errors="replace") as f:
        return list(csv.DictReader(io.StringIO(f.read().replace("\0", ""))))


def stats_path(csv_path):
    """The harness's per-point statistics next to a CSV (<stem>.stats.csv: median, ci_low,
    ci_high over the launches of a point, busy flag)."""
    return csv_path[:-4] + ".stats.csv" if csv_path.endswith(".csv") else csv_path + ".stats.csv"


def reference_of(csv_path):
    """The committed reference of a CSV inside a run directory (results/runs/<run>/<family>/x.csv ->
    results/<family>/x.csv), or None (not in a run directory, or no reference)."""
    parts = os.path.abspath(csv_path).split(os.sep)
    for i in range(len(parts) - 3, 0, -1):
        if parts[i] == "runs":
            ref = os.sep.join(parts[:i] + parts[i + 2:])
            return ref if os.path.exists(ref) else None
    return None


def median_interval(xs):
    """(median, low, high): the median of xs and its 95% interval by the harness's own statistics
    (order statistics; below 6 values [min, max], which covers less)."""
    import sys

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "apps", "harness"))
    from hympi_harness import stats  # noqa: E402

    low, high, _ = stats.median_ci(xs)
    return stats.median(xs), low, high


def median_by(rows, key, value="time_s"):
    """{key(row): median of float(row[value])} over the rows sharing a key."""
    groups = defaultdict(list)
    for r in rows:
        groups[key(r)].append(float(r[value]))
    return {k: statistics.median(v) for k, v in groups.items()}
