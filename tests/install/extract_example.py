#!/usr/bin/env python3
"""Writes the one complete program of a language found in a Markdown file: the
fenced block (```cpp, ```c, ```fortran) that holds `main(` or a Fortran `program`.
None, or more than one, is an error naming the file, so a README example cannot
silently drop out of its test. Usage: extract_example.py <file.md> <lang> <out>"""
import re
import sys

MARK = {"cpp": r"\bmain\(", "c": r"\bmain\(", "fortran": r"(?im)^\s*program\s+\w+"}


def main(argv):
    path, lang, out = argv[1:4]
    text = open(path, encoding="utf-8").read()
    blocks = re.findall(r"(?ms)^```" + re.escape(lang) + r"[ \t]*\n(.*?)^```[ \t]*$", text)
    programs = [b for b in blocks if re.search(MARK[lang], b)]
    if len(programs) != 1:
        sys.exit(f"extract_example.py: {path} has {len(programs)} complete ```{lang} programs, expected 1")
    with open(out, "w", encoding="utf-8") as f:
        f.write(programs[0])
    print(f"{out}: {len(programs[0].splitlines())} lines from {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
