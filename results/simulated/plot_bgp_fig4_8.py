#!/usr/bin/python3
"""Thesis Fig 4.8 simulated (apps/smpi/run-fig49.sh --outer 256 --figure "thesis Fig 4.8", fig49_rows.py):
HSUMMA's communication time (time - DGEMM) on 16384 simulated BG/P cores, n = 65536, outer block
M = 256, against the inner block b at the fixed G (left, the thesis' G = 4 and every other G run at
more than one b), and against G for each inner block b (right; SUMMA, which has no outer block,
drawn at G = 1). Rows of one fidelity set: that of the rows not imported.

usage: plot_bgp_fig4_8.py [CSV] [--out PNG] [--G G]  (default results/simulated/fig4.8-bgp-16384.csv, its .png, G = 4)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from plotlib import plt, read_rows  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
args = sys.argv[1:]
if args[:1] in (["-h"], ["--help"]):
    print(__doc__)
    sys.exit(0)
opts = {"--out": None, "--G": "4"}
for key in list(opts):
    if key in args:
        i = args.index(key)
        if i + 1 >= len(args):
            print(f"plot_bgp_fig4_8.py: error: {key} needs a value", file=sys.stderr)
            sys.exit(2)
        opts[key] = args[i + 1]
        del args[i:i + 2]
src = args[0] if args else os.path.join(here, "fig4.8-bgp-16384.csv")
out = opts["--out"] or src[:-4] + ".png"
rows = read_rows(src)
if not rows:
    print(f"plot_bgp_fig4_8.py: error: no rows in {src}", file=sys.stderr)
    sys.exit(2)

# One fidelity set: the one of the rows simulated for this figure (imported rows of another set are left out).
own = [r for r in rows if not r["command"].startswith("imported")] or rows
rows = [r for r in rows if r["fidelity"] == own[0]["fidelity"]]
comm = {}  # (G, b) -> communication seconds
for r in rows:
    comm[(int(r["G"]), int(r["b"]))] = float(r["comm_s"])
bs = sorted({b for _, b in comm})
Gs = sorted({G for G, _ in comm})

fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.8))
fixed = int(opts["--G"])
for G in Gs:
    pts = sorted(b for g, b in comm if g == G)
    if len(pts) < 2:  # a line needs two inner blocks
        continue
    bold = G == fixed
    left.plot(pts, [comm[(G, b)] for b in pts], "-", marker="o", lw=2.2 if bold else 0.9,
              alpha=1 if bold else 0.6, label=("SUMMA (G = 1)" if G == 1 else f"G = {G}") +
              (" (the thesis' fixed G)" if bold else ""))
if fixed not in {G for G, _ in comm if sum(1 for g, _ in comm if g == G) > 1}:
    left.text(0.02, 0.02, f"G = {fixed} was run at one b only", transform=left.transAxes, fontsize=7)
left.set_xscale("log", base=2)
left.set_xticks(bs, [str(b) for b in bs])
left.set_xlabel("inner block size b (outer block M = 256)")
left.set_ylabel("communication (s) = time - DGEMM")
left.grid(True, alpha=0.3)
left.legend(fontsize=7)
for b, style in zip(bs, ("-", "--", ":", "-.")):
    pts = sorted(G for G, bb in comm if bb == b)
    if len(pts) < 2:  # a single G (b = 128 at the thesis' G = 4) is on the left panel
        continue
    right.plot(pts, [comm[(G, b)] for G in pts], style, marker="o", label=f"b = {b}")
    best = min(pts, key=lambda G: comm[(G, b)])
    right.annotate(f"best G={best}", (best, comm[(best, b)]), textcoords="offset points", xytext=(4, -12), fontsize=7)
right.set_xscale("log", base=2)
right.set_xlabel("groups G (G = 1: SUMMA with block b)")
right.set_ylabel("communication (s)")
right.grid(True, alpha=0.3)
right.legend(fontsize=7)
r0 = rows[0]
fig.suptitle(f"thesis Fig 4.8: HSUMMA inner block b, simulated BG/P ({r0['machine']}, {r0['ranks']} cores, "
             f"n = {r0['n']}, M = 256; {r0['fidelity']};\nstep-limited: slope of 2 and 4 outer-step marks; "
             f"DGEMM {r0['dgemm_model']} at {r0['gflops_per_core']} Gflop/s)", fontsize=9)
fig.tight_layout()
fig.savefig(out, dpi=120)
print(f"wrote {out}")
