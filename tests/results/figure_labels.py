"""Figure labels in results/ against the inventory results/figures.csv.

The inventory gives each paper figure its artifacts (paths or globs under results/). A label
anywhere in results/ -- a gallery row, a README table row, a plot title in the plotting code,
an experiment file, a CSV's `experiment` column, a file name such as fig4_9_vs_pdgemm.png --
that names a figure must sit beside a file the inventory gives that figure. Every checker here
takes text and returns a list of problems (strings), so the tests can also feed it mutations.

Which paper a bare number belongs to follows from its form: Zhou's figures are whole numbers
(7-12), the thesis' are chapter.number (3.3, 4.10) and its tables "Table 3.1".

An experiment file (results/experiments/**.toml) may also name the figures whose row's command
runs it: a cluster file not run here has no artifact yet, but it is that figure's recipe.
"""
import ast
import csv
import fnmatch
import glob
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INVENTORY = os.path.join(ROOT, "results", "figures.csv")
COLUMNS = ["paper", "number", "title", "claim", "artifact", "command", "kind", "ours", "verdict"]
KINDS = ("measured here", "simulated on ", "modelled", "cluster-only", "none")
NO_COUNTERPART = "no counterpart: "

# "Fig 7", "Figs 4.8/4.9", "Figure 3.3", "Fig. 11", "Figs 7-10", "Table 3.1", "Figs 3.3, 3.4 and 3.5".
_NUM = r"\d+(?:\.\d+)?"
MENTION = re.compile(r"\b(?P<kind>Fig(?:ure)?s?\.?|Tables?)\s*(?P<list>" + _NUM +
                     r"(?:\s*(?:/|,|\band\b|–|-)\s*" + _NUM + r"(?![\d×x]))*)")
# "in the Fig 7/8 style", "in the style of Zhou's Figs 7/8" name a look, not that figure.
STYLE_AFTER, STYLE_BEFORE = re.compile(r"^\W{0,2}style", re.I), re.compile(r"style of[^;|\n]{0,20}$", re.I)
# A figure number in a file or experiment name: fig7_onenode, zhou-fig9-xc40, fig4_9_vs, fig4.6-torus.
NAME_FIG = re.compile(r"fig(\d+)(?:[._](\d+)(?![a-z]))?", re.I)
NAME = re.compile(r"[\w.*/-]+\.(?:png|csv|toml)\b|[\w/-]+\.\*")
BRACES = re.compile(r"([\w.*/-]*)\{([^{}\s]*,[^{}\s]*)\}([\w.*/-]*)")
RUNS = re.compile(r"results/experiments/[\w.-]+/[\w.-]+\.toml")


def read_inventory(path=INVENTORY):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def globs_of(row):
    return [g.strip() for g in row["artifact"].split(";") if g.strip()]


def figure_key(kind, number):
    """('Zhou', 'Fig 7') or ('thesis', 'Fig 4.10') / ('thesis', 'Table 3.1')."""
    if kind.lower().startswith("tab"):
        return ("thesis", "Table " + number)
    return ("thesis" if "." in number else "Zhou", "Fig " + number)


def mentions(text, order):
    """The figures a text names; ranges (7-10, 4.7–4.10) span the inventory's order."""
    found = []
    for m in MENTION.finditer(text):
        if STYLE_AFTER.search(text[m.end():]) or STYLE_BEFORE.search(text[max(0, m.start() - 40):m.start()]):
            continue
        parts = re.split(r"\s*(/|,|\band\b|–|-)\s*", m.group("list"))
        numbers, seps = parts[0::2], parts[1::2]
        keys = [figure_key(m.group("kind"), n) for n in numbers]
        for i, key in enumerate(keys):
            if i and seps[i - 1] in ("–", "-") and keys[i - 1] in order and key in order:
                lo, hi = order.index(keys[i - 1]), order.index(key)
                found.extend(order[lo + 1:hi])
            found.append(key)
    return found


def name_mentions(name):
    """The figure a file or experiment name carries, if any."""
    m = NAME_FIG.search(os.path.basename(name))
    if not m:
        return []
    return [figure_key("Fig", m.group(1) + ("." + m.group(2) if m.group(2) else ""))]


class Inventory:
    def __init__(self, rows, files):
        self.rows = rows
        self.files = files  # every file under results/, relative to ROOT
        self.order = [(r["paper"], r["number"]) for r in rows]
        self.globs = {(r["paper"], r["number"]): globs_of(r) for r in rows}
        self.runs = {(r["paper"], r["number"]): RUNS.findall(r["command"]) for r in rows}

    def gives(self, key, path):
        """Does the inventory give figure `key` the file (or file pattern) `path`?"""
        if key not in self.globs:
            return False
        if path == "results/figures.csv" or path in self.runs.get(key, []):  # the inventory; the row's runs
            return True
        for g in self.globs[key]:
            if fnmatch.fnmatch(path, g):
                return True
            if any(c in path for c in "*?[") and any(fnmatch.fnmatch(f, path) and fnmatch.fnmatch(f, g)
                                                     for f in self.files):
                return True
        return False

    def check(self, key, paths, where):
        """A label naming `key` beside `paths`: at least one of them must be the figure's."""
        if key not in self.globs:
            return [f"{where}: names {key[0]} {key[1]}, which is not in the inventory"]
        if not any(self.gives(key, p) for p in paths):
            return [f"{where}: names {key[0]} {key[1]} beside {sorted(paths)}, which the inventory "
                    f"does not give that figure (it gives {self.globs[key] or 'nothing'})"]
        return []


def results_files(root=ROOT):
    """Every file under results/ but the git-ignored run directories."""
    out = []
    for d, dirs, names in os.walk(os.path.join(root, "results")):
        dirs[:] = [x for x in dirs if not (d.endswith("results") and x == "runs")]
        out.extend(os.path.relpath(os.path.join(d, n), root) for n in names)
    return sorted(out)


def check_integrity(rows, files, expected):
    """51 rows of the papers' figures, each either with existing artifacts or saying why not."""
    problems = []
    if rows and list(rows[0].keys()) != COLUMNS:
        problems.append(f"columns {list(rows[0].keys())}, expected {COLUMNS}")
    keys = [(r["paper"], r["number"]) for r in rows]
    if len(rows) != len(expected):
        problems.append(f"{len(rows)} rows, expected {len(expected)}")
    for k in sorted(set(keys)):
        if keys.count(k) > 1:
            problems.append(f"{k} appears {keys.count(k)} times")
    for k in expected:
        if k not in keys:
            problems.append(f"{k} missing")
    for k in keys:
        if k not in expected:
            problems.append(f"{k} is not an experimental figure of the papers")
    for r in rows:
        k = f"{r['paper']} {r['number']}"
        for col in ("title", "claim", "verdict", "kind"):
            if not r[col].strip():
                problems.append(f"{k}: empty {col}")
        parts = [p.strip() for p in re.split(r";(?![^()]*\))", r["kind"])]  # ';' outside brackets
        if not all(p.startswith(KINDS) for p in parts):
            problems.append(f"{k}: kind {r['kind']!r} is not one of {KINDS}")
        for run in RUNS.findall(r["command"]):
            if run not in files:
                problems.append(f"{k}: command runs {run}, which is no file")
        if (r["kind"] == "none") != (not r["artifact"].strip()):
            problems.append(f"{k}: kind 'none' goes with an empty artifact and only then")
        if r["artifact"].strip():
            if not r["ours"].strip() or not r["command"].strip():
                problems.append(f"{k}: an artifact needs our number and its command")
            if r["verdict"].startswith(NO_COUNTERPART):
                problems.append(f"{k}: has an artifact but says no counterpart")
        elif not (r["verdict"].startswith(NO_COUNTERPART) and len(r["verdict"]) > len(NO_COUNTERPART) + 10):
            problems.append(f"{k}: no artifact, so the verdict must say 'no counterpart: <why>'")
        for g in globs_of(r):
            if not g.startswith("results/") or not any(fnmatch.fnmatch(f, g) for f in files):
                problems.append(f"{k}: artifact {g} matches no file under results/")
    return problems


def check_file_names(inv):
    """results/summa/fig4_9_vs_pdgemm.png must be Fig 4.9's (experiment files and plotting
    scripts are checked with what they write)."""
    problems = []
    for f in inv.files:
        if f.endswith((".toml", ".py")):
            continue
        for key in name_mentions(f):
            problems += inv.check(key, [f], f)
    return problems


def toml_output(text):
    m = re.search(r'^output\s*=\s*"([^"]+)"', text, re.M)
    return "results/" + m.group(1) if m else None


def check_experiment(inv, text, where):
    """An experiment file's name, title and comments name the figure its output CSV belongs to
    (or whose inventory row's command runs the file)."""
    out = toml_output(text)
    problems = []
    for key in name_mentions(where) + mentions(text, inv.order):
        problems += inv.check(key, ([out] if out else []) + [where], where)
    return problems


def check_csv_labels(inv, path, text):
    """A CSV's `experiment` column (zhou-fig7, ...) names the figure the CSV belongs to."""
    reader = csv.DictReader(text.splitlines())
    if "experiment" not in (reader.fieldnames or []):
        return []
    problems = []
    for label in sorted({r["experiment"] for r in reader if r.get("experiment")}):
        for key in name_mentions(label):
            problems += inv.check(key, [path], f"{path} (experiment {label})")
    return problems


def _resolve(name, base_dir):
    """A name written in results/<dir>/ or with a path from the source root, relative to ROOT."""
    if name.startswith("results/"):
        return os.path.normpath(name)
    return os.path.normpath(os.path.join(base_dir, name))


def _names_in(text, base_dir):
    """Paths (and globs) of results/ files a text names; experiment files stand for their output."""
    out = []
    text = BRACES.sub(lambda m: " ".join(m.group(1) + x + m.group(3) for x in m.group(2).split(",")), text)
    for raw in NAME.findall(text):
        raw = raw.split("#")[0]
        if raw.endswith(".toml"):
            for t in glob.glob(os.path.join(ROOT, "results", "experiments", "*", os.path.basename(raw))):
                with open(t) as f:
                    o = toml_output(f.read())
                if o:
                    out.append(o)
                out.append(os.path.relpath(t, ROOT))
            continue
        path = _resolve(raw, base_dir)
        if path.startswith("results/"):
            out.append(path)
    return out


def check_markdown(inv, path, text, gallery=False):
    """Each line that names a figure and a results/ file: the file is the figure's. In the
    gallery table, the first cell's figures must own the first cell's own link."""
    base = os.path.dirname(path)
    problems = []
    in_gallery = False
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith("## "):
            in_gallery = gallery and line.strip() == "## The gallery"
        where = f"{path}:{n}"
        keys = mentions(line, inv.order)
        if not keys:
            continue
        if in_gallery and line.startswith("| ["):
            first = line.split("|")[1]
            link = re.search(r"\]\(([^)#]+)", first)
            for key in mentions(first, inv.order):
                problems += inv.check(key, [_resolve(link.group(1), base)] if link else [], where + " (figure cell)")
        names = _names_in(line, base)
        if names:
            for key in keys:
                problems += inv.check(key, names, where)
    return problems


def _strings(node):
    """The string constants under an AST node; an f-string's holes become '*'."""
    out = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.JoinedStr):
            out.append("".join(v.value if isinstance(v, ast.Constant) else "*" for v in sub.values))
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            out.append(sub.value)
    return out


def check_plot_script(inv, path, source):
    """A plot title (any string) naming a figure must sit in the statement, else the function,
    else the module that names the figure's files (file names, or the globs it reads)."""
    tree = ast.parse(source)
    base = os.path.dirname(path)
    scopes = {}  # AST node -> the results/ files its strings name

    def names(node):
        if node not in scopes:
            scopes[node] = [n for s in _strings(node) for n in _names_in(s, base)]
        return scopes[node]

    problems = []

    def visit(node, chain):
        for child in ast.iter_child_nodes(node):
            here = chain + [child] if isinstance(child, (ast.stmt, ast.FunctionDef)) else chain
            if isinstance(child, ast.JoinedStr) or (isinstance(child, ast.Constant) and isinstance(child.value, str)):
                text = _strings(child)[0]
                for line in text.splitlines():
                    keys = mentions(line, inv.order)
                    if not keys:
                        continue
                    near = _names_in(line, base)
                    for scope in reversed(here):  # the statement, then outward to the module
                        near = near or names(scope)
                    near = near or names(tree)
                    for key in keys:
                        problems.extend(inv.check(key, near, f"{path}:{child.lineno}"))
                continue
            visit(child, here)

    visit(tree, [])
    for key in name_mentions(path):  # plot_fig12.py draws Fig 12
        problems.extend(inv.check(key, names(tree), path))
    return problems
