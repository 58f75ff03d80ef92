"""The process-grid rule and grid text, once for the harness and the model (apps/model).

They follow the library's hympi::most_square_grid and hympi::parse_grid (lib/src/grid.cpp);
tests/model compares square_grid with the C++ rule for every rank count 1..1024.
"""
import re

_GRID = re.compile(r"([0-9]{1,9})[xX]([0-9]{1,9})")


def square_grid(ranks):
    """The most square p x q = ranks with p <= q: p is the largest divisor of ranks <= sqrt(ranks)."""
    if ranks < 1:
        raise ValueError("a grid needs at least one rank, got %d" % ranks)
    p = 1
    while (p + 1) * (p + 1) <= ranks:
        p += 1
    while ranks % p:
        p -= 1
    return p, ranks // p


def parse_grid(text, what="grid"):
    """'PxQ' (or 'PXQ') with P, Q >= 1 -> (P, Q); anything else raises ValueError naming `what`."""
    m = _GRID.fullmatch(str(text))
    if m and int(m.group(1)) >= 1 and int(m.group(2)) >= 1:
        return int(m.group(1)), int(m.group(2))
    raise ValueError("%s must be PxQ with P, Q >= 1 (e.g. 2x3), got '%s'" % (what, text))
