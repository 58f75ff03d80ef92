#!/usr/bin/python3
"""Thesis Fig 4.9 simulated (apps/smpi/run-fig49.sh, fig49_rows.py): time of ScaLAPACK's PDGEMM
schedule, SUMMA, the best HSUMMA and the drop-in pdgemm_ (hsumma/scalapack on ScaLAPACK's descriptors,
best of its G) over cores (left: communication = time - DGEMM), and the speedup of HSUMMA (best G), the
drop-in (best G) and SUMMA over PDGEMM (right), one line per DGEMM model and fidelity set found in the CSV; the DGEMM
models' spread is the band the figure states (BG/P's ESSL rate by shape is not published).

usage: plot_hsumma_vs_pdgemm_bgp.py [CSV] [--out PNG]   (default results/simulated/fig4.9-bgp.csv, its .png)
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
out = None
if "--out" in args:
    i = args.index("--out")
    out = args[i + 1]
    del args[i:i + 2]
src = args[0] if args else os.path.join(here, "fig4.9-bgp.csv")
out = out or src[:-4] + ".png"
rows = read_rows(src)
if not rows:
    sys.exit(f"plot_hsumma_vs_pdgemm_bgp.py: error: no rows in {src}")


def model_name(r):
    m = "flat DGEMM" if r["dgemm_model"] == "flat" else "DGEMM by shape"
    rule = {"mpich": "MPICH rule", "dcmf": "DCMF rule"}.get(r["bcast"], r["bcast"])
    return f"{m}, {rule}"


series = {}
for r in rows:
    s = series.setdefault(model_name(r), {})
    p = s.setdefault(int(r["ranks"]), {})
    t = float(r["time_s"])
    if r["algorithm"] in ("hsumma", "dropin"):  # the best G of each
        if r["algorithm"] not in p or t < p[r["algorithm"]][0]:
            p[r["algorithm"]] = (t, r["G"], float(r["comm_s"]))
    else:
        p[r["algorithm"]] = (t, r["G"], float(r["comm_s"]))

fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5.2))
for name, pts in sorted(series.items()):
    ls = ("-" if name.startswith("flat") else "--") if "MPICH" in name else ":"
    names = {"pdgemm": "PDGEMM", "summa": "SUMMA", "hsumma": "HSUMMA best G", "dropin": "drop-in pdgemm_ best G"}
    for alg, colour in (("pdgemm", "tab:red"), ("summa", "tab:blue"), ("hsumma", "tab:green"), ("dropin", "tab:purple")):
        xs = sorted(p for p in pts if alg in pts[p])
        if xs:
            left.plot(xs, [pts[p][alg][2] for p in xs], ls, color=colour, marker="o" if alg != "dropin" else "s",
                      label=f"{names[alg]} ({name})")
    for alg, colour in (("hsumma", "tab:green"), ("summa", "tab:blue"), ("dropin", "tab:purple")):
        xs = sorted(p for p in pts if alg in pts[p] and "pdgemm" in pts[p])
        if xs:
            ys = [pts[p]["pdgemm"][0] / pts[p][alg][0] for p in xs]
            right.plot(xs, ys, ls, color=colour, marker="o" if alg != "dropin" else "s",
                       label=f"{names[alg]} over PDGEMM ({name})")
            if alg in ("hsumma", "dropin"):
                for x, y in zip(xs, ys):
                    right.annotate(f"{'drop-in ' if alg == 'dropin' else ''}G={pts[x][alg][1]}", (x, y),
                                   textcoords="offset points", xytext=(4, 4 if alg == "hsumma" else -10), fontsize=7)
for ax in (left, right):
    ax.set_xscale("log", base=2)
    ax.set_xlabel("simulated BG/P cores")
    ax.grid(True, alpha=0.3)
left.set_yscale("log")
left.set_ylabel("communication (s) = time - DGEMM")
right.axhline(1.0, color="grey", lw=0.8)
right.set_ylabel("speedup over ScaLAPACK's PDGEMM schedule")
left.legend(fontsize=6, loc="upper right")
right.legend(fontsize=6, loc="lower right")
fig.suptitle("thesis Fig 4.9: HSUMMA vs ScaLAPACK PDGEMM, simulated BG/P (bgp, faithful set, n = 65536, b = M = 256;\n"
             "step-limited, slope of marks; MPICH rule = eager 0, ring merge 16; DGEMM by shape = this host's ratios;\n"
             "drop-in = hympi's pdgemm_ on nb = 256 block-cyclic descriptors, policy pure, no lookahead)",
             fontsize=9)
fig.tight_layout()
fig.savefig(out, dpi=120)
print(f"wrote {out}")
