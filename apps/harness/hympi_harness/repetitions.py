"""Repetitions of a point and their statistics.

A point is launched `repeat` times (--repeat), or adaptively (--ci-width PCT) until the 95%
confidence interval of the median of every row it writes is within PCT percent of that median,
or --max-repeat launches were made. Every launch's rows go into <output>.csv with the columns
below; <output>.stats.csv holds one line per point and row: the first launch's row followed
by the statistics over the launches (stats.summary) of the experiment's metric column."""
import csv
import math
import os

from . import stats
from .loadguard import COLUMNS as LOAD_COLUMNS

# Appended to the app's columns of every launch's rows.
REPEAT_COLUMNS = ["repetition", "row"] + LOAD_COLUMNS + ["repeat_cap", "target_width_pct"]
STATS_COLUMNS = ["metric", "launches", "median", "q1", "q3", "iqr", "ci_low", "ci_high", "ci_level", "ci_width_pct",
                 "target_width_pct", "repeat_cap", "busy_reps", "busy", "load1", "other_cpu_share"]
_NAN_STATS = ("median", "q1", "q3", "iqr", "ci_low", "ci_high", "ci_level", "ci_width_pct")
# The timing column of each app, first found wins (an experiment may name its own: metric = "...").
DEFAULT_METRICS = ("median_us", "time_s", "seconds_per_iteration", "seconds_total")


class Plan:
    """How often to launch a point: `repeat` times, or adaptively up to `cap` times."""

    def __init__(self, repeat=1, ci_width=None, cap=None):
        self.repeat = max(1, repeat)
        self.ci_width = ci_width
        self.cap = max(self.repeat, cap or (self.repeat if ci_width is None else 20))

    def more_needed(self, launches, values_by_row):
        """Whether another launch is due after `launches` launches with these metric values per row."""
        if launches < self.repeat:
            return True
        if self.ci_width is None or launches >= self.cap:
            return False
        return not all(stats.precise_enough(v, self.ci_width) for v in values_by_row if v)

    def columns(self):
        return [str(self.cap), "" if self.ci_width is None else f"{self.ci_width:g}"]


def metric_of(header, wanted=None):
    """The column the statistics are about: the experiment's `metric`, else the app's usual one."""
    if wanted:
        return wanted if wanted in header else None
    return next((m for m in DEFAULT_METRICS if m in header), None)


def values_by_row(rows, header, metric):
    """[[metric value of row r in each launch]] from accumulated launch rows (REPEAT_COLUMNS appended)."""
    if metric is None or header is None:
        return []
    col, row_col = header.index(metric), header.index("row")
    by_row = {}
    for r in rows:
        try:
            by_row.setdefault(int(r[row_col]), []).append(float(r[col]))
        except (ValueError, IndexError):
            continue
    return [by_row[k] for k in sorted(by_row)]


def summarize(dict_rows, metric=None):
    """Stats lines (dicts) from the rows of a harness CSV: one per (point_id, row), in file order."""
    if not dict_rows:
        return []
    header = list(dict_rows[0].keys())
    metric = metric_of(header, metric)
    if metric is None:
        return []
    groups = {}
    for i, r in enumerate(dict_rows):
        # CSVs from before repetitions: each row is its own point row, one launch.
        key = (r.get("point_id", ""), r.get("row", str(i)))
        groups.setdefault(key, []).append(r)
    lines = []
    for group in groups.values():
        values, not_finite = [], 0
        for r in group:
            try:
                value = float(r[metric])
            except (TypeError, ValueError):
                continue
            if math.isfinite(value):
                values.append(value)
            else:
                not_finite += 1
        if not values and not not_finite:
            continue
        line = {k: v for k, v in group[0].items() if k not in ("repetition",) + tuple(LOAD_COLUMNS)}
        # Order statistics of the finite values (nan does not sort); a row that never had one
        # keeps its line, with nan statistics, so a comparison sees it instead of losing it.
        summary = stats.summary(values) if values else dict.fromkeys(_NAN_STATS, math.nan)
        line.update({k: _text(v) for k, v in summary.items()})
        line["launches"] = str(len(values) if values else not_finite)
        busy = [r.get("busy") == "1" for r in group]
        loads = [float(r["load1"]) for r in group if r.get("load1")]
        shares = [float(r["other_cpu_share"]) for r in group if r.get("other_cpu_share")]
        line.update({"metric": metric, "busy_reps": str(sum(busy)), "busy": str(int(any(busy))),
                     "load1": f"{max(loads):.2f}" if loads else "",
                     "other_cpu_share": f"{max(shares):.3f}" if shares else "",
                     "target_width_pct": group[0].get("target_width_pct", ""),
                     "repeat_cap": group[0].get("repeat_cap", "")})
        lines.append(line)
    return lines


def _text(value):
    return f"{value:.6g}" if isinstance(value, float) else str(value)


def write_stats(csv_path, dict_rows, metric=None):
    """Writes <stem>.stats.csv next to a harness CSV (atomically); returns its path or None."""
    lines = summarize(dict_rows, metric)
    if not lines:
        return None
    path = (csv_path[:-4] if csv_path.endswith(".csv") else csv_path) + ".stats.csv"
    fields = [k for k in lines[0] if k not in STATS_COLUMNS] + STATS_COLUMNS
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        w.writerows(lines)
    os.replace(tmp, path)
    return path
