"""The experiment file's schema: every section, key and parameter the harness reads, with its
type and meaning, in one table (KEYS). The validation below and the documentation both read it:
`hympi-harness keys` prints it as the Markdown table in apps/README.md (a test keeps the two
equal). A section without a "*" row is closed: an unknown key in it is an error, named with
the file and line (found by scanning the text: toml_lines.py)."""
import difflib
import json
import math
import re

from .toml_lines import key_lines, line_of


# MPI counts ranks in a C int: no launch holds more, and a bound keeps the per-point work (the
# most square grid takes up to sqrt(ranks) steps) short, whatever number a file gives.
MAX_RANKS = 2 ** 31 - 1


class ExperimentError(Exception):
    pass


def _number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _scalar(v):
    return isinstance(v, (str, bool)) or _number(v)


def _positive_int(v):
    return isinstance(v, int) and not isinstance(v, bool) and 0 < v <= MAX_RANKS


def sizes_problem(text):
    """Why a node_sizes text ("4,2", "full,1") is no good, or None."""
    items = [s.strip() for s in text.split(",") if s.strip()]
    if not items:
        return 'expected numbers like "4,2"'
    for item in items:
        if item != "full" and not (re.fullmatch("[0-9]+", item) and _positive_int(int(item))):  # not "²"
            return f'\'{item}\' is not a node size: expected integers from 1 to {MAX_RANKS} or "full" like "4,2"'
    return None


class Kind:
    """A type of value: its name in messages and docs, and a test returning None or the problem."""

    def __init__(self, name, test=None, problem=None):
        self.name = name
        self._problem = problem or (lambda value: None if test(value) else f"expected {name}")

    def problem(self, value):
        return self._problem(value)


TEXT = Kind("text", lambda v: isinstance(v, str))
SECONDS = Kind("number > 0", lambda v: _number(v) and v > 0)
WORDS = Kind("list of texts or numbers", lambda v: isinstance(v, list) and all(isinstance(x, str) or _number(x)
                                                                             for x in v))
def _output_problem(v):
    """The CSV stays inside the results directory: a relative path without "..", not empty."""
    if not isinstance(v, str):
        return "expected text"
    parts = v.replace("\\", "/").split("/")
    if not v.strip() or v.startswith(("/", "~")) or ".." in parts:
        return "expected a path inside the results directory (relative, no '..')"
    return None


OUTPUT = Kind("relative path (no '..')", problem=_output_problem)
TABLE = Kind("table", lambda v: isinstance(v, dict))
TABLES = Kind("array of tables", lambda v: isinstance(v, list) and all(isinstance(x, dict) for x in v))
TEXT_OR_NUMBER = Kind("text or number", lambda v: isinstance(v, str) or _number(v))
VALUE = Kind("text, number, boolean or a list of these",
             lambda v: _scalar(v) or (isinstance(v, list) and all(_scalar(x) for x in v)))
COUNT = f"integer from 1 to {MAX_RANKS}"
POSITIVE_INT = Kind(COUNT, _positive_int)
PER_NODE = Kind(f'{COUNT} or "full"', lambda v: _positive_int(v) or v == "full")


def _sizes_kind_problem(v):
    if isinstance(v, str):
        return sizes_problem(v)
    return None if isinstance(v, list) and v and all(_positive_int(x) for x in v) else f"expected {SIZES.name}"


SIZES = Kind(f'text like "4,2" (numbers or "full") or a list of integers from 1 to {MAX_RANKS}',
             problem=_sizes_kind_problem)


def _axis_problem(values):
    if isinstance(values, list) and not values:
        return "has no values"
    return None  # the values themselves are parameters: checked by name in validate()


AXIS = Kind("a value or a non-empty list of values; a value may be a table of parameters", problem=_axis_problem)


class Key:
    def __init__(self, section, name, kind, meaning, required=False):
        self.section, self.name, self.kind, self.meaning, self.required = section, name, kind, meaning, required


# section "" is the top level; "parameter" is any value an axis (or --set) gives a point.
KEYS = [
    Key("", "experiment", TABLE, "what to run", required=True),
    Key("", "axes", TABLE, "the points: the cartesian product of the axes, in file order", required=True),
    Key("", "derive", TABLE, "parameters computed per point"),
    Key("", "exclude", TABLES, "`[[exclude]]`: a point matching every key of one entry is dropped"),
    Key("", "options", TABLE, "how parameters are spelled on the app's command line"),
    Key("", "env", TABLE, "environment variables of every launch (per point with `\"{name}\"`)"),
    Key("", "tiny", TABLE, "replacements under `--tiny` (seconds-long runs for tests)"),
    Key("experiment", "app", TEXT, "the app: a name found in the build tree, next to the harness or on PATH; "
        "or a path", required=True),
    Key("experiment", "name", TEXT, "the experiment's name (default: the file name without .toml)"),
    Key("experiment", "title", TEXT, "printed with the progress (default: the name)"),
    Key("experiment", "output", OUTPUT, "the CSV, relative to the results directory (default: `<name>.csv`)"),
    Key("experiment", "args", WORDS, 'fixed arguments; `"{name}"` is replaced by the point\'s parameter or by '
        "`source_dir` / `results_dir`"),
    Key("experiment", "timeout", SECONDS, "seconds per point (default 600)"),
    Key("experiment", "csv_option", TEXT, "the app's option naming its CSV (default `--csv`)"),
    Key("experiment", "metric", TEXT, "the CSV column the statistics are about (default: the first of "
        "median_us, time_s, seconds_per_iteration, seconds_total); must be a column of the app's CSV"),
    Key("axes", "*", AXIS, "a parameter's values; a table value sets several parameters at once "
        "(`{ranks = 4, grid = \"2x2\"}`)"),
    Key("derive", "*", TEXT_OR_NUMBER, "an expression over the point's parameters with + - * / // % and "
        "parentheses; naming ranks, nodes, ranks_per_node, _grid_p or _grid_q it is computed after the layout "
        "(and cannot be a layout parameter itself); a result that is not finite is an error"),
    Key("exclude", "*", VALUE, "a parameter's value (node_sizes also as \"2,1\"); a name no point has is "
        "an error"),
    Key("options", "*", TEXT, "the flag of a parameter (default `--name-with-dashes`; \"\" keeps it off the "
        "command line)"),
    Key("env", "*", TEXT_OR_NUMBER, "a variable's value; `\"{name}\"` is replaced as in `args`, per point "
        "(e.g. `OMPI_MCA_coll_tuned_bcast_algorithm = \"{_algorithm}\"` with a label axis `_algorithm`; a name "
        "no point has is an error); `<output>.index.csv` records each point's values (column `env`)"),
    Key("tiny", "axes", TABLE, "axes replacing those of `[axes]` with the same name (a name not in `[axes]` "
        "is an error)"),
    Key("tiny", "args", WORDS, "replaces `args`"),
    Key("tiny", "timeout", SECONDS, "replaces `timeout`"),
    Key("tiny", "exclude", TABLES, "replaces `[[exclude]]`"),
    Key("parameter", "ranks", POSITIVE_INT, "MPI ranks of the point (MPI counts them in an int: also when "
        "node_sizes or nodes x ranks_per_node give them)"),
    Key("parameter", "nodes", POSITIVE_INT, "nodes (real, or emulated with the local launcher); with ranks and "
        "ranks_per_node too, the nodes those ranks fill (ranks = 6, ranks_per_node = 4: nodes = 2)"),
    Key("parameter", "ranks_per_node", PER_NODE, "ranks per node; \"full\": the machine's cores per node"),
    Key("parameter", "node_sizes", SIZES, "ranks of each node of an irregular layout; ranks, nodes and "
        "ranks_per_node given beside it must agree (ranks_per_node = 4 with \"4,4,2\")"),
    Key("parameter", "placement", TEXT, "how ranks are placed on the nodes (the apps' `--placement`)"),
    Key("parameter", "*", VALUE, "`--name value` (underscores to dashes; true: a bare flag, false: left out; "
        "lists joined by commas); names starting with `_` are labels only"),
]
_BY_PLACE = {(k.section, k.name): k for k in KEYS}


def lookup(section, name):
    """The Key of `name` in `section` (or its "*" row), else None."""
    return _BY_PLACE.get((section, name)) or _BY_PLACE.get((section, "*"))


def _shown(value):
    text = json.dumps(value, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def _title(section, name=None):
    """How a key is named in messages: [section] key, or key alone at the top level."""
    if section == "":
        return name or "the top level"
    return f"[{section}]" + (f" {name}" if name else "")


def _place(path):
    """A key path as messages name it: [section] key, and the innermost key when it is deeper."""
    names = [p for p in path if isinstance(p, str)]
    if len(names) < 2:
        return _title("", names[0] if names else None)
    title = _title(names[0], names[1])
    return title + (f" ({names[-1]})" if len(names) > 2 else "")


def parameter_problem(name, value):
    """Why `value` is no good for parameter `name`, or None."""
    if isinstance(value, dict):
        return "expected a text, number, boolean or list, not a table"
    return lookup("parameter", name).kind.problem(value)


def did_you_mean(name, known):
    close = difflib.get_close_matches(name, known, n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


class _Checker:
    def __init__(self, path, text):
        self.path = path
        self.lines = key_lines(text)

    def fail(self, where, message):
        line = line_of(self.lines, where)
        raise ExperimentError(f"{self.path}:{line}: {message}" if line else f"{self.path}: {message}")

    def no_nul(self, doc):
        """A NUL character in any text or key: no command line, file name or environment can hold one."""
        todo = [((), doc)]
        while todo:  # no recursion: nesting is as deep as the file makes it
            where, value = todo.pop()
            if isinstance(value, dict):
                for name in value:
                    if "\0" in name:
                        self.fail(where + (name,), f"{_place(where + (name,))}: a NUL character (\\0) in a key")
                todo.extend(reversed([(where + (name,), v) for name, v in value.items()]))
            elif isinstance(value, list):
                todo.extend(reversed([(where + (i,), v) for i, v in enumerate(value)]))
            elif isinstance(value, str) and "\0" in value:
                self.fail(where, f"{_place(where)} = {_shown(value)}: a NUL character (\\0) in a text: no command "
                                 "line, file name or environment variable can hold one")

    def section(self, section, table, where):
        """Checks the keys of one table against the rows of `section`."""
        known = sorted(k.name for k in KEYS if k.section == section and k.name != "*")
        for name, value in table.items():
            key = lookup(section, name)
            if key is None:
                self.fail(where + (name,), f"{_title(section)}: unknown key '{name}'{did_you_mean(name, known)}; "
                                           f"known: {', '.join(known)}")
            problem = key.kind.problem(value)
            if problem and section == "" and name == "exclude" and isinstance(value, dict):
                self.fail(where + (name,), "[exclude] is a single table: write [[exclude]] (one per dropped "
                                           "combination of values)")
            if problem and section == "" and key.kind is TABLES:
                problem = f"expected an array of tables: write [[{name}]] on a line of its own, then its keys"
            elif problem and section == "" and not isinstance(value, dict):
                problem = f"expected a table: write [{name}] on a line of its own, then its keys"
            if problem:
                self.fail(where + (name,), f"{_title(section, name)} = {_shown(value)}: {problem}")
        for key in KEYS:
            if key.section == section and key.required and key.name not in table and section != "":
                self.fail(where, f"{_title(section)} needs {key.name} = \"...\" ({key.meaning})")

    def axes(self, table, where):
        self.section("axes", table, where)
        title = "[" + ".".join(where) + "]"
        for name, values in table.items():
            for value in (values if isinstance(values, list) else [values]):
                for param, v in (value.items() if isinstance(value, dict) else [(name, value)]):
                    problem = parameter_problem(param, v)
                    if problem:
                        shown = f"{name} = {_shown(values)}" + (f" ({param} = {_shown(v)})" if param != name else "")
                        self.fail(where + (name,), f"{title} {shown}: {param}: {problem}")

    def replacements(self, table, axes, where):
        """[tiny.axes] only replaces axes: a misspelled name would add an axis and keep the full one."""
        for name in table:
            if name not in axes:
                self.fail(where + (name,), f"[{'.'.join(where)}] '{name}' is not an axis of [axes]"
                                           f"{did_you_mean(name, list(axes))}; "
                                           f"[tiny.axes] only replaces axes: {', '.join(axes)}")

    def exclude(self, entries, where):
        for i, entry in enumerate(entries):
            if not entry:  # all() of nothing: it would drop every point
                self.fail(where + (i,), f"[[{'.'.join(where)}]] entry {i + 1} is empty: it would drop every point")
            self.section("exclude", entry, where + (i,))


def validate(doc, path, text):
    """Raises ExperimentError naming the file, line and key of the first thing KEYS does not allow."""
    check = _Checker(path, text)
    check.no_nul(doc)
    check.section("", doc, ())
    check.section("experiment", doc.get("experiment", {}), ("experiment",))
    check.axes(doc.get("axes", {}), ("axes",))
    for section in ("derive", "options", "env"):
        check.section(section, doc.get(section, {}), (section,))
    check.exclude(doc.get("exclude", []), ("exclude",))
    tiny = doc.get("tiny", {})
    check.section("tiny", tiny, ("tiny",))
    check.axes(tiny.get("axes", {}), ("tiny", "axes"))
    check.replacements(tiny.get("axes", {}), doc.get("axes", {}), ("tiny", "axes"))
    check.exclude(tiny.get("exclude", []), ("tiny", "exclude"))
    return check.lines


def markdown_table():
    """KEYS as the Markdown table of apps/README.md (what `hympi-harness keys` prints)."""
    out = ["| where | key | type | meaning |", "| --- | --- | --- | --- |"]
    for k in KEYS:
        where = {"": "file", "parameter": "a point's parameter", "exclude": "`[[exclude]]`"}.get(
            k.section, f"`[{k.section}]`")
        name = "any name" if k.name == "*" else f"`{k.name}`"
        kind = k.kind.name + (", required" if k.required else "")
        out.append(f"| {where} | {name} | {kind} | {k.meaning} |")
    return "\n".join(out) + "\n"
