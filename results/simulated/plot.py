#!/usr/bin/python3
"""SUMMA vs HSUMMA over the number of groups G (thesis Fig 4.6 analogue): simulated
points (SimGrid SMPI, apps/smpi/run-sweep.sh), the alpha-beta model of the same
machine and problem (apps/model), and measured points where a real run has the
same P and n (results/summa/*.csv). One PNG per (machine, P, n, b, broadcast).

usage: plot.py [simulated.csv ...] [--out-dir DIR]   (default: every *.csv here)
"""
import argparse
import collections
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # results/plotlib.py
from plotlib import plt, read_rows as read  # noqa: E402

HERE = os.path.dirname(os.path.realpath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODEL_OF = {"binomial_tree": "binomial", "scatter_LR_allgather": "vandegeijn"}
# Published points of the modelled machine, drawn for reference (not measured here):
# (machine, P, n, b) -> (source, SUMMA seconds, {G: HSUMMA seconds}).
PUBLISHED = {
    ("bgp-torus", 16384, 65536, 256): ("thesis Fig 4.6, BlueGene/P (published)", 50.2, {512: 21.26}),
}


def measured_points(P, n):
    pts = collections.defaultdict(list)
    for path in glob.glob(os.path.join(ROOT, "results", "summa", "*.csv")):
        try:
            rows = read(path)
        except Exception:
            continue
        for r in rows:
            try:
                if int(r["P"]) * int(r["Q"]) != P or int(r["n"]) != n or r["algorithm"] not in ("summa", "hsumma"):
                    continue
                G = 1 if r["algorithm"] == "summa" else int(r["I"]) * int(r["J"])
                pts[(r["algorithm"], G)].append(float(r["time_s"]))
            except (KeyError, ValueError):
                continue
    return {k: min(v) for k, v in pts.items()}


def plot_group(key, rows, model_dir, out_dir):
    machine, P, n, b, bcast = key
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for policy in sorted({r["policy"] for r in rows}):
        sel = [r for r in rows if r["policy"] == policy]
        hs = sorted((int(r["I"]) * int(r["J"]), float(r["time_s_scaled"])) for r in sel if r["algorithm"] == "hsumma")
        summa = [float(r["time_s_scaled"]) for r in sel if r["algorithm"] == "summa"]
        if hs:
            ax.plot([g for g, _ in hs], [t for _, t in hs], "o-", label=f"HSUMMA simulated ({policy})")
        if summa:
            ax.axhline(min(summa), ls="--", color="C3", label=f"SUMMA simulated ({policy}) {min(summa):.3g} s")
            if hs:
                g, t = min(hs, key=lambda x: x[1])
                print(f"{machine} P={P} n={n} b={b} {bcast} {policy}: SUMMA {min(summa):.4g} s, best HSUMMA "
                      f"{t:.4g} s at G={g} (speedup {min(summa) / t:.3f}), sqrt(P)={P ** 0.5:g}")
    model = MODEL_OF.get(bcast)
    if model:
        pattern = os.path.join(model_dir, f"*.model-{machine}-{P}-{n}-{b}-{model}.csv")
        for path in sorted(glob.glob(pattern))[:1]:
            m = read(path)
            hs = sorted((int(r["G"]), float(r["t_total"])) for r in m if r["algorithm"] == "hsumma")
            # The model's grid shapes are all group counts; keep the simulated ones (squares).
            sims = {int(r["I"]) * int(r["J"]) for r in rows}
            hs = [(g, t) for g, t in hs if g in sims] or hs
            ax.plot([g for g, _ in hs], [t for _, t in hs], "s:", color="gray", label=f"HSUMMA model ({model})")
            s = [float(r["t_total"]) for r in m if r["algorithm"] == "summa"]
            if s:
                ax.axhline(s[0], ls=":", color="gray", label=f"SUMMA model {s[0]:.3g} s")
    published = PUBLISHED.get((machine, P, n, b))
    if published:
        source, summa_s, hsumma_s = published
        ax.axhline(summa_s, ls="-.", color="k", lw=0.8, label=f"SUMMA {source} {summa_s:.3g} s")
        ax.plot(list(hsumma_s), list(hsumma_s.values()), "*", color="k", ms=10, label=f"HSUMMA {source}")
    meas = measured_points(P, n)
    if meas:
        hs = sorted((g, t) for (a, g), t in meas.items() if a == "hsumma")
        ax.plot([g for g, _ in hs], [t for _, t in hs], "^", color="k", label="HSUMMA measured")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("groups G")
    ax.set_ylabel("time [s] (simulated: scaled to all n/b steps)")
    ax.set_title(f"SIMULATED {machine}, P={P}, n={n}, b=M={b}, bcast={bcast}", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    out = os.path.join(out_dir, f"summa-vs-G-{machine}-{P}-{n}-{b}-{bcast}.png")
    fig.savefig(out, dpi=120)
    plt.close(fig)
    print(f"  -> {out}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", nargs="*", help="simulated sweep CSVs (default: every non-model *.csv here)")
    ap.add_argument("--out-dir", default=HERE)
    a = ap.parse_args(argv)
    # The SUMMA-vs-G sweeps; the Zhou analogues have their own script (plot_zhou.py).
    paths = a.csv or [p for p in glob.glob(os.path.join(HERE, "fig4.6-*.csv")) if ".model-" not in p]
    if not paths:
        sys.exit("plot.py: no simulated CSV found (run apps/smpi/run-sweep.sh first)")
    groups = collections.defaultdict(list)
    for path in paths:
        for r in read(path):
            if r.get("kind") != "simulated" or "P" not in r:
                continue
            key = (r["machine"], int(r["P"]) * int(r["Q"]), int(r["k_full"]), int(r["b"]), r["smpi_bcast"])
            groups[key].append(r)
        model_dir = os.path.dirname(os.path.abspath(path))
    for key, rows in sorted(groups.items()):
        plot_group(key, rows, model_dir, a.out_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
