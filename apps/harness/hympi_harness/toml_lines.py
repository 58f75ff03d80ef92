"""Line numbers of TOML keys, for error messages: tomllib/tomli return plain dicts without
positions, so the text is scanned once: table headers ([a.b], [[a]]) set the current table,
`key = value` lines (dotted keys too) record their full path. Values spanning several lines
(arrays, inline tables, multi-line strings) are skipped so their contents are not read as
keys. A path not found (a key inside an inline table) falls back to its nearest ancestor."""
import re

_BARE = r'[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|\'[^\']*\''
_DOTTED = rf'(?:{_BARE})(?:\s*\.\s*(?:{_BARE}))*'
_HEADER = re.compile(rf'^\s*(\[\[?)\s*({_DOTTED})\s*\]\]?\s*(?:#.*)?$')
_KEY = re.compile(rf'^\s*({_DOTTED})\s*=(.*)$')
_PART = re.compile(_BARE)
_STRINGS = re.compile(r'"""|\'\'\'|"(?:[^"\\]|\\.)*"|\'[^\']*\'|#.*')


def _parts(dotted):
    return tuple(p[1:-1] if p[0] in "\"'" else p for p in _PART.findall(dotted))


def _open_brackets(text):
    """Brackets a value line leaves open (strings and comments removed), and whether a
    multi-line string starts in it and stays open."""
    depth, in_multi = 0, None
    for token in _STRINGS.finditer(text):
        if token.group() in ('"""', "'''"):
            in_multi = None if in_multi == token.group() else (in_multi or token.group())
    plain = _STRINGS.sub("", text)
    depth = plain.count("[") + plain.count("{") - plain.count("]") - plain.count("}")
    return depth, in_multi


def key_lines(text):
    """{path tuple: 1-based line} of every table header and key; [[a]] tables are also
    recorded as (a, index)."""
    found, table, counts = {}, (), {}
    depth, in_multi = 0, None
    for number, line in enumerate(text.splitlines(), 1):
        if in_multi:
            if in_multi in line:
                in_multi = None
            continue
        if depth > 0:
            more, in_multi = _open_brackets(line)
            depth += more
            continue
        header = _HEADER.match(line)
        if header:
            table = _parts(header.group(2))
            found.setdefault(table, number)
            if header.group(1) == "[[":
                index = counts.get(table, 0)
                counts[table] = index + 1
                table = table + (index,)
                found.setdefault(table, number)
            continue
        key = _KEY.match(line)
        if key:
            found.setdefault(table + _parts(key.group(1)), number)
            depth, in_multi = _open_brackets(key.group(2))
            depth = max(depth, 0)
    return found


def line_of(lines, path):
    """The line of `path` (a tuple of keys, array indexes allowed) or of its nearest ancestor, else None."""
    path = tuple(path)
    while path:
        if path in lines:
            return lines[path]
        path = path[:-1]
    return None


def deepest_key(text, limit=100):
    """(line, key path) of the first value whose arrays or inline tables nest deeper than
    `limit`, for the message of a file too deep to read; (None, ()) if none does."""
    lines = key_lines(text)
    depth, in_multi = 0, None
    for number, line in enumerate(text.splitlines(), 1):
        if in_multi:
            in_multi = None if in_multi in line else in_multi
            continue
        if depth == 0 and _HEADER.match(line):
            continue
        plain = _STRINGS.sub("", line)
        for char in plain:
            depth += (char in "[{") - (char in "]}")
            if depth > limit:
                keys = [k for k, n in lines.items() if n <= number and not any(isinstance(p, int) for p in k)]
                return number, max(keys, key=lambda k: (lines[k], len(k)), default=())
        _, in_multi = _open_brackets(line)
    return None, ()
