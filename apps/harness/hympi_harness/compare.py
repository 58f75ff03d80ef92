"""hympi-harness compare RUN REFERENCE: is a new run within its reference's intervals?

RUN and REFERENCE are harness CSVs or directories of them (a run directory, results/); CSVs
are paired by their path relative to the directory (a reference CSV the run has none of is
not compared), points by point id and row (or, for a reference written with other run
settings - older point ids -, by the columns that say what a row measured: layout,
operation, variant, size, iterations, ...). Per point the run's median (of the reference's
metric column: the first of median_us, time_s, seconds_per_iteration, seconds_total it
has) is checked against the reference's 95% interval of the median (widened by --tolerance
percent of its ends' size, so negative values widen too); per ratio (each variant or policy
against pure at the same operation and size) the run's ratio against every ratio the
reference's intervals allow. A median that is not a number (nan) is outside when the
reference has a number, and "n/a" (not counted) when neither has one or when the reference
lacks one; so is a ratio over a zero or nan median. A point (or row) of a reference CSV
that the run's CSV lacks is listed MISSING and fails, unless --allow-missing. A CSV of a
reference directory without a metric column is no run's (wrapper-cost, model tables): it is
skipped with a note naming it. Values near the largest float (1e308) are fine: no median
overflows. Exit status 0: everything compared is within (a run's CSV, or a directory holding
one, compared with itself always is); 1: something is outside or missing; 2: bad input (a damaged CSV: a row
with too few or many fields, a last line without its line end, a metric value that is no
number - abc, empty; nan is one -, each named by file and line; a run without the
reference's metric column; two CSVs named without one; a bad --tolerance) or nothing to
compare (no CSV or point in common, or only CSVs that are no run's)."""
import argparse
import csv
import io
import math
import os
import sys

from .arguments import number
from .repetitions import DEFAULT_METRICS, metric_of, summarize
from .run_dirs import RUNS

_SIDE_FILES = (".index.csv", ".stats.csv")
# Columns that name what a row measures, shown in the table when present.
_DESCRIBE = ("operation", "variant", "policy", "sync", "size_doubles", "algorithm", "m", "n", "k", "b", "K")
# Rows paired for a ratio: same point and the same values of these; the variant (or policy) differs.
_PARTNER = ("operation", "size_doubles", "root", "type", "reduce_op", "algorithm", "m", "n", "k", "b", "K",
            "dataset")


# What a row measured, for pairing rows whose point ids differ (a reference from older settings).
_WHAT = ("experiment", "ranks", "nodes", "ranks_per_node", "layout", "operation", "variant", "policy", "sync",
         "leaders", "groups", "root", "type", "reduce_op", "size_doubles", "iterations", "warmup", "timed_write", "cache",
         "baseline", "algorithm", "m", "n", "k", "b", "P", "Q", "I", "J", "lookahead", "dataset", "K", "burnin",
         "samples", "barrier_timing")


def harness_csvs(path):
    """{relative path: file} of the harness CSVs under a directory (a file: {its name: it})."""
    if os.path.isfile(path):
        return {os.path.basename(path): path}
    found = {}
    for root, dirs, files in os.walk(path):
        dirs[:] = sorted(d for d in dirs if d != RUNS and not d.endswith(".logs"))
        for name in files:
            if name.endswith(".csv") and not name.endswith(_SIDE_FILES):
                full = os.path.join(root, name)
                found[os.path.relpath(full, path)] = full
    return found


class DamagedCsv(ValueError):
    """A CSV that cannot be read as rows of its header; the message names file and line."""


class NoMetric(DamagedCsv):
    """A CSV without the metric column: not a run's CSV (as a reference), or a run measured otherwise."""

    def __init__(self, path, message):
        super().__init__(message)
        self.path = path


def read_dict_rows(path):
    """The rows of a CSV as dicts (numbered_rows without the line numbers)."""
    return [row for _, row in numbered_rows(path)]


def numbered_rows(path):
    """[(line, row as a dict)] of a CSV; any line ending (\\n, \\r\\n, \\r). A row with fewer or
    more fields than the header (a truncated file) is a ValueError naming its line."""
    with open(path, errors="replace") as f:  # universal newlines: CR-only files too
        text = f.read().replace("\0", "")
    reader = csv.DictReader(io.StringIO(text, newline=""))
    rows = []
    try:
        for row in reader:
            missing, extra = sum(v is None for v in row.values()), len(row.get(None) or [])
            if missing or extra:
                got = len(reader.fieldnames) - missing + extra
                raise DamagedCsv(f"{path}:{reader.line_num}: {got} fields, the header has {len(reader.fieldnames)} "
                                 "(a truncated or damaged row)")
            rows.append((reader.line_num, row))
    except csv.Error as e:
        raise DamagedCsv(f"{path}:{reader.line_num}: not a CSV: {e}")
    # Every writer ends its lines (\r too: read as \n): a last line without an end was cut, maybe
    # inside a field that still parses ("p17" cut to "p1", another point's launch).
    if text and not text.endswith("\n"):
        raise DamagedCsv(f"{path}:{text.count(chr(10)) + 1}: the last line has no line end (a truncated file)")
    return rows


def point_lines(path, metric=None):
    """(metric, {(point_id, row): stats line}) of one harness CSV, about `metric` (default: the
    file's usual one); rows without a row column are numbered in file order within their point
    (one launch per point, as before repetitions). A file without the metric is NoMetric, a
    metric value that is no number (abc, empty) DamagedCsv naming its line."""
    numbered = numbered_rows(path)
    if not numbered:
        return metric, {}
    rows = [row for _, row in numbered]
    chosen = metric_of(list(rows[0].keys()), metric)
    if chosen is None:
        raise NoMetric(path, f"{path}: no metric column ({metric}, the reference's)" if metric else
                             f"{path}: no metric column (one of {', '.join(DEFAULT_METRICS)})")
    for line, row in numbered:  # a value that is no number would drop its row, maybe its whole point
        try:
            float(row[chosen])
        except ValueError:
            raise DamagedCsv(f"{path}:{line}: {chosen} = '{row[chosen]}' is not a number")
    seen = {}
    for r in rows:
        if "row" not in r:
            pid = r.get("point_id", "")
            r["row"] = str(seen.get(pid, 0))
            seen[pid] = seen.get(pid, 0) + 1
    return chosen, {(line.get("point_id", ""), line["row"]): line for line in summarize(rows, chosen)}


def widened(line, tolerance):
    """The reference's interval widened by tolerance percent of each end's size (a negative
    low end moves down, not up)."""
    lo, hi = float(line["ci_low"]), float(line["ci_high"])
    return lo - abs(lo) * tolerance / 100.0, hi + abs(hi) * tolerance / 100.0


def verdict(value, interval):
    """ok / ABOVE / BELOW; NAN for a run without a number against a reference with one; n/a
    when the reference has no number to compare with."""
    lo, hi = interval
    if math.isnan(lo) or math.isnan(hi):
        return "n/a"
    if math.isnan(value):
        return "NAN"
    return "ok" if lo <= value <= hi else ("ABOVE" if value > hi else "BELOW")


def ratio_range(pure, variant):
    """Every ratio p / v with p and v in the two intervals: [min, max] of the corners when v's
    interval excludes zero; None when it holds zero or nan (any ratio, or none, is possible)."""
    (p_lo, p_hi), (v_lo, v_hi) = pure, variant
    if any(math.isnan(x) for x in (p_lo, p_hi, v_lo, v_hi)) or v_lo <= 0 <= v_hi:
        return None
    corners = [p / v for p in (p_lo, p_hi) for v in (v_lo, v_hi)]
    return min(corners), max(corners)


def describe(line):
    return " ".join(f"{c}={line[c]}" for c in _DESCRIBE if line.get(c, "") != "")


def _ratio_groups(lines):
    """{(point_id, partner values): {variant: line}} for CSVs with a variant or policy column."""
    groups = {}
    for (pid, _), line in lines.items():
        which = line.get("variant") or line.get("policy")
        if not which:
            continue
        key = (pid,) + tuple(line.get(c, "") for c in _PARTNER)
        groups.setdefault(key, {})[which] = line
    return groups


def paired(run, ref):
    """[(run line, reference line)]: by point id and row, else by what the rows measured (when
    that is unique in the reference)."""
    columns = [c for c in _WHAT if run and ref and c in next(iter(run.values())) and c in next(iter(ref.values()))]
    by_what = {}
    for line in ref.values():
        by_what.setdefault(tuple(line[c] for c in columns), []).append(line)
    pairs = []
    for key, line in run.items():
        if key in ref:
            pairs.append((line, ref[key]))
        elif columns:
            same = by_what.get(tuple(line[c] for c in columns), [])
            if len(same) == 1:
                pairs.append((line, same[0]))
    return pairs


def compare_file(name, run_path, ref_path, tolerance, out):
    """Prints the table of one CSV pair; returns (compared, outside, not compared: n/a, reference
    points the run lacks)."""
    metric, ref = point_lines(ref_path)
    _, run = point_lines(run_path, metric)  # the same column on both sides: the reference's
    compared = outside = missing = 0
    matched, found = {}, set()
    for line, r in paired(run, ref):
        key = (line.get("point_id", ""), line["row"])
        matched[key] = r
        found.add(id(r))
        interval = widened(r, tolerance)
        value = float(line["median"])
        v = verdict(value, interval)
        compared += v != "n/a"
        missing += v == "n/a"
        outside += v not in ("ok", "n/a")
        out.write(f"{v:5}  {name} {key[0]}#{key[1]} {describe(line)}: run {value:.4g} ({line['launches']} launches), "
                  f"reference {float(r['median']):.4g} in [{interval[0]:.4g}, {interval[1]:.4g}] "
                  f"({r['launches']} launches, level {r['ci_level']})\n")
    ref_groups = _ratio_groups(matched)  # the reference lines under the run's point ids
    for key, variants in _ratio_groups(run).items():
        if "pure" not in variants or key not in ref_groups or "pure" not in ref_groups[key]:
            continue
        for which, line in variants.items():
            r = ref_groups[key].get(which)
            if which == "pure" or r is None:
                continue
            pure, below = float(variants["pure"]["median"]), float(line["median"])
            allowed = ratio_range(widened(ref_groups[key]["pure"], tolerance), widened(r, tolerance))
            if allowed is None or below == 0 or math.isnan(pure) or math.isnan(below):
                out.write(f"n/a    {name} {key[0]} ratio pure/{which} {describe(line)}: run {pure:.4g}/{below:.4g}, "
                          "no finite ratio to compare (a zero or nan median)\n")
                missing += 1
                continue
            ratio = pure / below
            interval = allowed
            v = verdict(ratio, interval)
            compared += 1
            outside += v != "ok"
            out.write(f"{v:5}  {name} {key[0]} ratio pure/{which} {describe(line)}: run {ratio:.3g}, "
                      f"reference allows [{interval[0]:.3g}, {interval[1]:.3g}]\n")
    lacking = [(key, r) for key, r in ref.items() if id(r) not in found]
    for (pid, row), r in lacking:  # a run that lost points is not a run within its reference
        out.write(f"MISSING {name} {pid}#{row} {describe(r)}: reference {float(r['median']):.4g} "
                  f"({r['launches']} launches), no such point in the run\n")
    return compared, outside, missing, len(lacking)


def main(argv, out=sys.stdout):
    ap = argparse.ArgumentParser(prog="hympi-harness compare", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run", metavar="RUN", help="a run directory or harness CSV")
    ap.add_argument("reference", metavar="REFERENCE", help="the reference directory or CSV (e.g. results/)")
    ap.add_argument("--tolerance", type=number(minimum=0), default=0.0,
                    help="widen every reference interval by this many percent of its ends (>= 0; default 0)")
    ap.add_argument("--allow-missing", action="store_true",
                    help="points of a reference CSV that the run's CSV lacks are listed but do not fail "
                         "(default: they are exit 1)")
    args = ap.parse_args(argv)
    for path in (args.run, args.reference):
        if not os.path.exists(path):
            out.write(f"hympi-harness compare: error: '{path}' does not exist\n")
            return 2
    run, ref = harness_csvs(args.run), harness_csvs(args.reference)
    if os.path.isfile(args.run) and os.path.isfile(args.reference):
        ref = {name: args.reference for name in run}  # two files: compare them whatever their names
    total = outside = not_a_number = lacking = skipped = 0
    common = sorted(set(run) & set(ref))
    for name in common:
        try:
            c, o, m, lack = compare_file(name, run[name], ref[name], args.tolerance, out)
        except NoMetric as e:
            if e.path == ref[name] and os.path.isdir(args.reference):
                # A directory also holds CSVs no run wrote (wrapper-cost, model tables): named, not compared.
                out.write(f"hympi-harness compare: note: skipped, not a harness run's CSV: {e}\n")
                skipped += 1
                continue
            out.write(f"hympi-harness compare: error: {e}\n")
            return 2
        except DamagedCsv as e:
            out.write(f"hympi-harness compare: error: {e}\n")
            return 2
        except (OSError, ValueError, KeyError) as e:
            out.write(f"hympi-harness compare: error: {name}: {e}\n")
            return 2
        total, outside, not_a_number, lacking = total + c, outside + o, not_a_number + m, lacking + lack
    if total == 0:  # nothing compared is no pass
        why = ("no CSV of the run has a reference CSV at the same path" if not common else
               "the CSVs in common, skipped above, are no harness runs'" if skipped == len(common) else
               "the same point ids, or the same layout, operation, variant, size and iterations")
        out.write(f"hympi-harness compare: error: no point of the run has a reference with a number ({why})\n")
        return 2
    not_compared = f" ({not_a_number} n/a: no number to compare)" if not_a_number else ""
    missing = (f", {lacking} of the reference's points missing from the run"
               + (" (allowed: --allow-missing)" if args.allow_missing else "")) if lacking else ""
    out.write(f"== {total - outside} of {total} within the reference's intervals, {outside} outside"
              f"{not_compared}{missing}\n")
    return 1 if outside or (lacking and not args.allow_missing) else 0
