#!/usr/bin/env python3
"""groups=auto's C++ model (hsumma/src/cost_model.cpp, through hympi-pdgemm-auto
--table) against the reference apps/model/hympi_model.py on a table of
(grid, m, n, k, b, M, alpha, beta, rate, broadcast): the same optimal I x J and
the same predicted time. Usage: model_choice_test.py <launcher...> <hympi-pdgemm-auto>"""
import itertools
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "apps", "model"))
import hympi_model as hm  # noqa: E402


def table():
    grids = [(1, 2), (2, 1), (2, 2), (1, 6), (3, 5), (6, 4), (4, 4), (8, 2), (2, 8), (32, 32), (16, 64), (128, 128)]
    sizes = [(512, 512, 512), (4096, 4096, 4096), (65536, 65536, 65536), (1000, 30000, 700)]
    blocks = [(32, 32), (256, 256), (64, 256)]
    alphas = [1e-7, 3e-6, 1e-4]
    betas = [1 / 425e6, 1 / 10e9]
    rates = [3.4, 40.0]
    for (P, Q), (m, n, k), (b, M), a, be, g, bc in itertools.product(grids, sizes, blocks, alphas, betas, rates,
                                                                       hm.BCASTS):
        yield P, Q, m, n, k, b, M, a, be, g, bc


def main(argv):
    cmd = argv[1:]
    rows = list(table())
    text = "".join(" ".join(repr(x) if isinstance(x, float) else str(x) for x in r) + "\n" for r in rows)
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
        f.write(text)
        f.flush()
        out = subprocess.run(cmd + ["--table", f.name], capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        print(out.stdout, out.stderr)
        return 1
    got = [line.split() for line in out.stdout.splitlines() if line.strip()]
    if len(got) != len(rows):
        print(f"expected {len(rows)} answers, got {len(got)}:\n{out.stdout[-2000:]}\n{out.stderr}")
        return 1
    bad = grouped = 0
    for r, g in zip(rows, got):
        P, Q, m, n, k, b, M, a, be, gf, bc = r
        pb = hm.Problem(m, n, k, b, M, P, Q)
        mc = hm.Machine(a, be, gf * 1e9)
        best = hm.optimal(hm.sweep(pb, mc, bc))
        I, J, t = int(g[0]), int(g[1]), float(g[2])
        grouped += best.G > 1
        if (I, J) != (best.I, best.J) or abs(t - best.t_total) > 1e-12 * best.t_total:
            bad += 1
            if bad <= 10:
                print(f"MISMATCH {r}: C++ {I}x{J} t={t!r}, Python {best.I}x{best.J} t={best.t_total!r}")
    print(f"model choice: {len(rows)} inputs, {grouped} with an optimum G > 1, {bad} mismatches")
    return 1 if bad or grouped == 0 or grouped == len(rows) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
