#!/usr/bin/env python3
"""plan_grid.py SCRIPT RANKS GRID N B GROUPS STEPS: the process grid, the size checks and the
groups of a simulated SUMMA/HSUMMA run, shared by run-sweep.sh and run-skeleton.sh. The grid is
apps/harness's most-square rule unless GRID is given; a number G takes apps/model's shape of G
(group_shapes). Prints "P Q G,... IxJ,..." or names the problem as SCRIPT and exits 2."""
import os
import sys

script, ranks, grid, n, b, groups, steps = sys.argv[1:]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "model"))
from hympi_model import group_shapes, parse_grid, square_grid  # noqa: E402


def fail(message):
    print(f"{script}: " + message, file=sys.stderr)
    sys.exit(2)


def whole(text, what):
    if not text.isdigit() or int(text) < 1:
        fail(f"{what} must be a positive integer, got '{text}'")
    return int(text)


ranks, n, b = whole(ranks, "--ranks"), whole(n, "-n"), whole(b, "-b")
if not steps.isdigit():
    fail(f"--steps must be 0 (all) or a positive integer, got '{steps}'")
try:
    P, Q = parse_grid(grid, "--grid") if grid else square_grid(ranks)
except ValueError as e:
    fail(str(e))
if P * Q != ranks:
    fail(f"--grid {P}x{Q} has {P * Q} ranks but --ranks is {ranks}")
if n % P or n % Q:
    fail(f"-n {n} must be a multiple of the grid's P = {P} and Q = {Q}")
if (n // P) % b or (n // Q) % b:
    fail(f"n/P = {n // P} and n/Q = {n // Q} must be multiples of b = {b} (whole panel steps)")
shapes = {I * J: (I, J) for I, J in group_shapes(P, Q)}
if not groups:  # the square grids' list as before: G = 1, 4, 16, ..., P
    groups = ",".join(str(g) for g in shapes if P != Q or (g & (g - 1) == 0 and g.bit_length() % 2))
splits = []
for g in groups.split(","):
    if "x" in g.lower():
        try:
            I, J = parse_grid(g, "a --groups entry")
        except ValueError as e:
            fail(str(e))
        if P % I or Q % J:
            fail(f"groups {g} must divide the grid {P}x{Q} (I | P and J | Q)")
    elif not g.isdigit() or int(g) not in shapes:
        fail(f"G={g} has no I x J shape dividing the grid {P}x{Q} (I | P, J | Q); give another G or IxJ")
    else:
        I, J = shapes[int(g)]
    splits.append(f"{I}x{J}")
print(P, Q, groups, ",".join(splits))
