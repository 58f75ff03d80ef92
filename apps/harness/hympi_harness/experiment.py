"""Experiment files: a small TOML description of one figure's sweep, expanded into points.

[experiment]   app, output (CSV path under the results dir), args (fixed; "{name}" is replaced by
               the point's parameter or by source_dir / results_dir), timeout, csv_option, title,
               metric (the CSV column the per-point statistics are about; default: the app's timing)
[axes]         name = [values]; the points are the cartesian product in file order.
               A table value sets several parameters at once: {ranks = 4, grid = "2x2"}.
[derive]       name = "expression" computed per point from its parameters with + - * / // % and
               parentheses, e.g. m = "_P * _s" (after the product, before layout is filled in;
               expressions naming ranks, nodes, ranks_per_node, _grid_p or _grid_q - the most
               square process grid _grid_p x _grid_q of the point, _grid_p <= _grid_q - are
               computed after the layout, so "full" nodes of any size work).
[[exclude]]    a point matching every key of one entry is dropped.
[env]          variables of every launch; "{name}" is replaced as in args (per point).
[options]      renames: param = "--flag" (or "" to keep the parameter out of the command line).
[tiny]         axes / args / timeout that replace the normal ones under --tiny (CI, Slurm tests).

Parameters named ranks, nodes, ranks_per_node, node_sizes, placement describe the layout;
ranks_per_node = "full" and "full" inside node_sizes ("full,1") mean the machine's cores per
node (--cores-per-node), so one cluster file serves 24-core Cray nodes and other machines.
What a point gives of them must agree (ranks = 3, nodes = 2, ranks_per_node = 4 is an error, not
a launch of 3 ranks on one node) and count at most MAX_RANKS ranks; a LayoutError names the
parameter, and the experiment the file, line and key (or --set) it came from.
every other parameter becomes "--name value" (underscores to dashes, true = bare flag,
false = omitted, lists joined by commas). Names starting with "_" are labels only.
Every key and its type: schema.py (`hympi-harness keys`); an unknown key or a wrong type is an
ExperimentError naming the file, the line and the key.
"""
import ast
import hashlib
import operator
import itertools
import json
import math
import os

from .booleans import parse_bool
from .compat import toml_reader
from .grid import square_grid
from .schema import MAX_RANKS, ExperimentError, did_you_mean, parameter_problem, sizes_problem, validate
from .toml_lines import deepest_key, line_of

LAYOUT_KEYS = ("ranks", "nodes", "ranks_per_node", "node_sizes", "placement")


# ast.Constant from Python 3.8 on; ast.Num before (3.6, 3.7).
_NUMBER_NODES = tuple(getattr(ast, n) for n in ("Constant", "Num") if hasattr(ast, n))
_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
        ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod}
_SYMBOLS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%"}


def evaluate(expression, names):
    """Arithmetic over point parameters; nothing else (no calls, no attributes)."""
    def number(node):
        """An operand of arithmetic: a number (a text "pure" * 2 would silently repeat it)."""
        value = walk(node)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            what = f"parameter '{node.id}'" if isinstance(node, ast.Name) else "an operand"
            raise ExperimentError(f"derive '{expression}': {what} is {value!r}, not a number")
        return value

    def walk(node):
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, _NUMBER_NODES) and isinstance(getattr(node, "value", getattr(node, "n", None)),
                                                          (int, float)):
            return getattr(node, "value", getattr(node, "n", None))
        if isinstance(node, ast.Name):
            if node.id not in names:
                raise ExperimentError(f"derive '{expression}': unknown parameter '{node.id}'")
            return names[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            left, right = number(node.left), number(node.right)
            try:
                return _OPS[type(node.op)](left, right)
            except (ArithmeticError, ValueError) as e:  # 1 / 0, 1 % 0, ...
                raise ExperimentError(f"derive '{expression}': {e} ({left} {_SYMBOLS[type(node.op)]} {right})")
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -number(node.operand)
        raise ExperimentError(f"derive '{expression}': only numbers, parameters and + - * / // % are allowed")
    try:
        value = walk(ast.parse(str(expression), mode="eval"))
    except SyntaxError as e:
        raise ExperimentError(f"derive '{expression}': {e.msg}")
    except (RecursionError, MemoryError):  # "1+1+...+1" or "((...))" thousands deep: parse and walk recurse
        raise ExperimentError(f"derive '{expression}': nested too deeply (split it into several derived values)")
    if isinstance(value, float) and not math.isfinite(value):  # 1e308 * 10: no number to pass on
        raise ExperimentError(f"derive '{expression}': gives {value}, not a finite number")
    return int(value) if isinstance(value, float) and value.is_integer() else value


_LATE_NAMES = {"ranks", "nodes", "ranks_per_node", "_grid_p", "_grid_q"}


def _names_in(expression):
    try:
        return {n.id for n in ast.walk(ast.parse(str(expression), mode="eval")) if isinstance(n, ast.Name)}
    except (SyntaxError, RecursionError, MemoryError):
        return set()  # evaluate() says what is wrong, with the line


def _key_title(path):
    """("tiny", "axes", "ranks") -> "[tiny.axes] ranks", ("axes",) -> "[axes]", as the file spells them."""
    path = tuple(path)
    return f"[{'.'.join(path[:-1])}] {path[-1]}" if len(path) > 1 else f"[{path[0]}]" if path else "the top level"


def _short(text, width=60):
    text = str(text)
    return text if len(text) <= width else text[:width - 3] + "..."


def _as_list(name, values):
    if isinstance(values, list):
        if not values:
            raise ExperimentError(f"axis '{name}' has no values")
        return values
    return [values]


def _parse_set_value(text):
    """--set values: comma list of ints/floats/bools/strings ("1,2,4" -> [1, 2, 4]; "on,off" -> [True, False])."""
    out = []
    for item in text.split(","):
        item = item.strip()
        # The boolean words; "1" and "0" stay numbers (rank counts, sizes).
        if not item.isdigit() and parse_bool(item) is not None:
            out.append(parse_bool(item))
            continue
        for conv in (int, float):
            try:
                out.append(conv(item))
                break
            except ValueError:
                pass
        else:
            out.append(item)
    return out


class Point:
    """One run: its parameters (layout included) and a stable id."""

    def __init__(self, params, experiment):
        self.params = params
        self.experiment = experiment
        identity = {"app": experiment.app, "args": experiment.args, "params": params}
        if experiment.run_settings:  # launcher, binding, partition, threads: they change the result
            identity["run"] = experiment.run_settings
        canonical = json.dumps(identity, sort_keys=True, default=str)
        self.id = hashlib.sha1(canonical.encode()).hexdigest()[:12]

    @property
    def ranks(self):
        return self.params["ranks"]

    @property
    def nodes(self):
        return self.params.get("nodes")

    def label(self):
        short = {"ranks_per_node": "rpn", "node_sizes": "sizes"}
        return " ".join(f"{short.get(k, k)}={_text(v)}" for k, v in self.params.items())

    def environment(self):
        """The file's [env] with "{name}" filled in from this point (a label axis such as
        _algorithm picks Open MPI's coll_tuned algorithm per point, where args cannot reach)."""
        exp = self.experiment
        names = {**exp.template_vars, **self.params}
        out = {}
        for key, value in exp.env.items():
            try:
                out[key] = value.format(**names)
            except (KeyError, IndexError, ValueError, AttributeError, TypeError) as e:
                problem = f"unknown name {e}" if isinstance(e, KeyError) else str(e)
                raise ExperimentError(f"{exp.path}:{line_of(exp.lines, ('env', key))}: [env] {key} = "
                                      f"\"{_short(value)}\": {problem} (the point's parameters: "
                                      f"{', '.join(sorted(names))}; write {{{{ }}}} for a literal brace)")
        return out

    def app_args(self, emulate):
        """The app's command-line arguments for this point (without --csv)."""
        exp = self.experiment
        names = {**exp.template_vars, **self.params}
        try:
            args = [a.format(**names) if isinstance(a, str) else str(a) for a in exp.args]
        except (KeyError, IndexError, ValueError) as e:
            raise ExperimentError(f"{exp.path}: cannot fill in args {exp.args}: unknown name {e}")
        for key, value in self.params.items():
            if key.startswith("_"):
                continue
            if key in LAYOUT_KEYS:
                if not emulate or key in ("ranks", "nodes"):
                    continue
                if key == "ranks_per_node" and "node_sizes" in self.params:
                    continue
            flag = exp.options.get(key, "--" + key.replace("_", "-"))
            if not flag:
                continue
            if value is True:
                args.append(flag)
            elif value is False or value is None:
                continue
            else:
                args += [flag, _text(value)]
        real_nodes_flag = exp.options.get("ranks_per_node", "--ranks-per-node")
        if not emulate and real_nodes_flag:
            args += [real_nodes_flag, "0"]  # real nodes, whatever HYMPI_RANKS_PER_NODE says
        return args


def text_line(data, offset):
    """The 1-based line of a byte offset."""
    return data.count(b"\n", 0, offset) + 1


def _same(value, wanted):
    """Exclude matching: node_sizes may be written "2,1" or [2, 1]."""
    return value == wanted or (value is not None and _text(value) == _text(wanted).replace(" ", ""))


def _text(value):
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return str(value)


class LayoutError(ExperimentError):
    """A layout that cannot be; `key` is the parameter to blame (its line is found by the caller)."""

    def __init__(self, key, message):
        super().__init__(message)
        self.key = key


def _full(key, value, cores_per_node):
    if value != "full":
        return value
    if not cores_per_node:
        raise LayoutError(key, '"full" nodes need --cores-per-node (or $HYMPI_CORES_PER_NODE, or a Slurm allocation)')
    return cores_per_node


def _count(key, value, cores_per_node):
    """ranks, nodes or ranks_per_node as a number from 1 to MAX_RANKS ("full": cores per node)."""
    value = _full(key, value, cores_per_node) if key == "ranks_per_node" else value
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_RANKS:
        raise LayoutError(key, f"{key} = {value!r}: expected an integer from 1 to {MAX_RANKS}"
                               + (' or "full"' if key == "ranks_per_node" else ""))
    return value


def _sizes(given, cores_per_node):
    """node_sizes ("4,2", "full,1" or [4, 2]) as a list of ranks per node."""
    if isinstance(given, str):
        problem = sizes_problem(given)
        if problem:
            raise LayoutError("node_sizes", f"node_sizes = {given!r}: {problem}")
        return [int(_full("node_sizes", s.strip(), cores_per_node)) for s in given.split(",") if s.strip()]
    if not isinstance(given, list) or not given:
        raise LayoutError("node_sizes", f"node_sizes = {given!r}: expected numbers like \"4,2\"")
    return [_count("node_sizes", s, None) for s in given]


def _ceil_div(a, b):
    return -(-a // b)


def derive_layout(params, cores_per_node=None):
    """Fills in ranks / nodes / ranks_per_node from whichever of them the point gives; what it
    gives must agree (a dropped nodes = 2 beside ranks = 3 and ranks_per_node = 4 measured
    another layout than the file says). Errors are LayoutErrors naming the parameter."""
    p = dict(params)
    for key in ("ranks", "nodes", "ranks_per_node"):
        if key in p:
            p[key] = _count(key, p[key], cores_per_node)
    ranks, nodes, per_node = p.get("ranks"), p.get("nodes"), p.get("ranks_per_node")
    if "node_sizes" in p:
        sizes = _sizes(p["node_sizes"], cores_per_node)
        shown = ",".join(str(s) for s in sizes)
        if sum(sizes) > MAX_RANKS:
            raise LayoutError("node_sizes", f"node_sizes {shown} sum to {sum(sizes)} ranks, more than {MAX_RANKS}")
        if ranks is not None and ranks != sum(sizes):
            raise LayoutError("ranks", f"ranks = {ranks} but node_sizes {shown} sum to {sum(sizes)}")
        if nodes is not None and nodes != len(sizes):
            raise LayoutError("nodes", f"nodes = {nodes} but node_sizes {shown} are {len(sizes)} nodes")
        # As ranks_per_node lays them out: full nodes, the last one maybe partly filled.
        if per_node is not None and not (all(s == per_node for s in sizes[:-1]) and sizes[-1] <= per_node):
            raise LayoutError("ranks_per_node", f"ranks_per_node = {per_node} but node_sizes {shown} are not "
                                                f"{per_node} per node (give one of them)")
        p["node_sizes"], p["ranks"], p["nodes"] = sizes, sum(sizes), len(sizes)
    elif ranks is not None and nodes is not None and per_node is not None:
        if nodes != _ceil_div(ranks, per_node):
            filled = _ceil_div(ranks, per_node)
            raise LayoutError("nodes", f"ranks = {ranks}, nodes = {nodes} and ranks_per_node = {per_node} disagree: "
                                       f"{ranks} ranks at {per_node} per node fill {filled} node"
                                       f"{'s' if filled > 1 else ''}, not {nodes} (give two of them, or node_sizes)")
    elif nodes is not None and per_node is not None:
        if per_node * nodes > MAX_RANKS:
            raise LayoutError("nodes", f"nodes = {nodes} x ranks_per_node = {per_node} is {per_node * nodes} ranks, "
                                       f"more than {MAX_RANKS}")
        p["ranks"] = per_node * nodes
    elif nodes is not None and ranks is not None:
        if ranks % nodes:
            raise LayoutError("nodes", f"ranks = {ranks} do not divide into nodes = {nodes}; give node_sizes")
        p["ranks_per_node"] = ranks // nodes
    elif per_node is not None and ranks is not None:
        p["nodes"] = _ceil_div(ranks, per_node)
    if "ranks" not in p:
        raise LayoutError(None, "the point gives no rank count (ranks, nodes x ranks_per_node, or node_sizes)")
    # Layout first, in a fixed order, so labels and ids read the same way everywhere.
    ordered = {k: p[k] for k in LAYOUT_KEYS if k in p}
    ordered.update((k, v) for k, v in p.items() if k not in LAYOUT_KEYS)
    return ordered


class Experiment:
    def __init__(self, path, tiny=False, overrides=None, template_vars=None, run_settings=None):
        self.path = path
        self.run_settings = dict(run_settings or {})
        # Names usable in args besides the point's parameters: {source_dir}, {results_dir}.
        self.template_vars = dict(template_vars or {})
        toml = toml_reader()
        try:
            with open(path, "rb") as f:
                text = f.read().decode("utf-8")
            doc = toml.loads(text)
        except FileNotFoundError:
            raise ExperimentError(f"experiment file '{path}' not found")
        except IsADirectoryError:
            raise ExperimentError(f"'{path}' is a directory, not an experiment file (give the .toml files in it)")
        except OSError as e:
            raise ExperimentError(f"cannot read experiment file '{path}': {e.strerror}")
        except UnicodeDecodeError as e:
            line = text_line(e.object, e.start)
            raise ExperimentError(f"{path}:{line}: not UTF-8 text (byte 0x{e.object[e.start]:02x}); "
                                  "TOML files are UTF-8")
        except toml.TOMLDecodeError as e:
            raise ExperimentError(f"{path}: not valid TOML: {e}")
        except (RecursionError, MemoryError):  # the TOML reader recurses into nested arrays and tables
            line, key = deepest_key(text)
            where = f"{path}:{line}: {_key_title(key)}" if line else path
            raise ExperimentError(f"{where}: arrays or inline tables nested too deeply to read "
                                  "(no key of an experiment file takes more than a few levels)")
        self.lines = validate(doc, path, text)  # unknown keys and wrong types: file, line and key
        head = doc.get("experiment", {})
        self.name = head.get("name", os.path.splitext(os.path.basename(path))[0])
        self.title = head.get("title", self.name)
        self.app = head.get("app")
        if not self.app:
            raise ExperimentError(f"{path}: [experiment] needs app = \"hympi-...\"")
        self.output = head.get("output", self.name + ".csv")
        self.args = list(head.get("args", []))
        self.timeout = float(head.get("timeout", 600))
        self.csv_option = head.get("csv_option", "--csv")
        self.metric = head.get("metric")  # the column the per-point statistics are about (default: the app's)
        self.env = {k: str(v) for k, v in doc.get("env", {}).items()}
        self.options = dict(doc.get("options", {}))
        self.axes = dict(doc.get("axes", {}))
        self.exclude = list(doc.get("exclude", []))
        self.exclude_where = ("exclude",)  # where the entries are in the file, for messages
        self.derive = dict(doc.get("derive", {}))
        # Where each axis comes from, for messages about its values: its key, or --set.
        self.axis_where = {name: ("axes", name) for name in self.axes}
        if tiny and "tiny" in doc:
            t = doc["tiny"]
            self.axes.update(t.get("axes", {}))
            self.axis_where.update((name, ("tiny", "axes", name)) for name in t.get("axes", {}))
            self.args = list(t.get("args", self.args))
            self.timeout = float(t.get("timeout", self.timeout))
            self.exclude = list(t.get("exclude", self.exclude))
            self.exclude_where = ("tiny", "exclude") if "exclude" in t else self.exclude_where
        for key, text in (overrides or {}).items():
            if any(not item.strip() for item in text.split(",")):
                raise ExperimentError(f"--set {key}={text}: an empty value (a comma too many?)")
            values = _parse_set_value(text)
            for value in values:
                problem = parameter_problem(key, value)
                if problem:
                    raise ExperimentError(f"--set {key}={text}: {key}: {problem}")
            self.axes[key] = values if len(values) > 1 else values[0]
            self.axis_where[key] = "--set"
        if not self.axes:
            raise ExperimentError(f"{path}: [axes] is empty; give at least ranks = [...]")
        for name, expression in self.derive.items():
            # Computed after the layout, it would change the layout after it was checked.
            if name in LAYOUT_KEYS and _names_in(expression) & _LATE_NAMES:
                raise ExperimentError(f"{path}:{line_of(self.lines, ('derive', name))}: [derive] {name} = "
                                      f"\"{_short(expression)}\": a layout parameter cannot be derived from the "
                                      f"layout ({', '.join(sorted(_LATE_NAMES))}); derive it from other parameters")

    def _derived(self, name, expression, params):
        """A derived parameter's value at one point; an error names the file, line and point."""
        try:
            return evaluate(expression, params)
        except ExperimentError as e:
            at = " ".join(f"{k}={_text(v)}" for k, v in params.items())
            problem = str(e).replace(f"derive '{expression}': ", "")
            raise ExperimentError(f"{self.path}:{line_of(self.lines, ('derive', name))}: [derive] {name} = "
                                  f"\"{_short(expression)}\": {problem} at the point {at}")

    def _origins(self):
        """{parameter: where it comes from}: its axis (a key of an inline table: that axis) or
        derived value as a key path of the file, or "--set"."""
        found = {}
        for name, values in self.axes.items():
            for value in (values if isinstance(values, list) else [values]):
                for param in (value if isinstance(value, dict) else (name,)):
                    found[param] = self.axis_where.get(name, ("axes", name))
        found.update((name, ("derive", name)) for name in self.derive)
        return found

    def _layout_problem(self, error, params):
        """A LayoutError with the file, line and key of the parameter it blames, and the point."""
        where = self._origins().get(error.key, ("axes",))
        at = " ".join(f"{k}={_text(v)}" for k, v in params.items())
        if where == "--set":
            return f"{self.path}: --set {error.key}: {error} at the point {at}"
        return f"{self.path}:{line_of(self.lines, where)}: {_key_title(where)}: {error} at the point {at}"

    def points(self, cores_per_node=None):
        names = list(self.axes)
        value_lists = [_as_list(n, self.axes[n]) for n in names]
        seen, named = set(), set()
        out = []
        for combo in itertools.product(*value_lists):
            params = {}
            for name, value in zip(names, combo):
                if isinstance(value, dict):
                    params.update(value)
                else:
                    params[name] = value
            late = {n: e for n, e in self.derive.items() if _names_in(e) & _LATE_NAMES}
            for name, expression in self.derive.items():
                if name not in late:
                    params[name] = self._derived(name, expression, params)
            try:
                params = derive_layout(params, cores_per_node)
            except LayoutError as e:
                raise ExperimentError(self._layout_problem(e, params))
            if late:
                grid = dict(zip(("_grid_p", "_grid_q"), square_grid(params["ranks"])))
                for name, expression in late.items():
                    params[name] = self._derived(name, expression, {**params, **grid})
                params.update((k, v) for k, v in grid.items() if k not in params)
            named.update(params)
            if any(all(_same(params.get(k), v) for k, v in ex.items()) for ex in self.exclude):
                continue
            point = Point(params, self)
            point.environment()  # a name no point has: refused before anything runs
            if point.id not in seen:
                seen.add(point.id)
                out.append(point)
        self._check_exclude_names(named)
        return out

    def _check_exclude_names(self, named):
        """An [[exclude]] key no point has would drop nothing (a misspelling runs what it meant to drop)."""
        for i, entry in enumerate(self.exclude):
            for key in entry:
                if key not in named:
                    line = line_of(self.lines, self.exclude_where + (i, key))
                    raise ExperimentError(f"{self.path}:{line}: [[exclude]] '{key}' is no parameter of any point"
                                          f"{did_you_mean(key, sorted(named))}; the entry would drop nothing")
