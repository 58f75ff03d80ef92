#!/usr/bin/env python3
"""Plots of the laptop-scale SUMMA / HSUMMA / PDGEMM measurements (CSV from hympi-summa).

  fig11_ori_hy_ratio.png      Zhou et al. Fig 11 analogue: Ori_SUMMA / Hy_SUMMA time vs per-core size
  fig4_7_time_vs_groups.png   thesis Fig 4.7 analogue: HSUMMA time vs number of groups G
  fig4_8_inner_block.png      thesis Fig 4.8 analogue: HSUMMA time (and its split) vs inner block b
  fig4_9_vs_pdgemm.png        thesis Fig 4.9 analogue (HSUMMA vs ScaLAPACK PDGEMM): GF/s of SUMMA, HSUMMA, PDGEMM vs n
  n4096_np2.png               the 2-rank n = 4096 target: GF/s per variant vs 2x the single-rank DGEMM rate

Every point is the median over the repetitions (one CSV row per repetition); Fig 11 draws the median of
the paired pure/hybrid ratios with its 95% interval (plotlib.median_interval). Missing CSVs are skipped.
Usage: plot_summa.py [DIR]   (default: the directory of this script)
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # results/plotlib.py
from plotlib import median_by, median_interval, plt, read_rows  # noqa: E402

HERE = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))


def load(name):
    path = os.path.join(HERE, name)
    if not os.path.exists(path):
        print(f"skip {name}: not found")
        return []
    return read_rows(path)


def variant(r):
    if r["algorithm"] == "pdgemm":
        nb = int(r["pdgemm_nb"])
        return "PDGEMM nb=" + ("ours" if nb == 0 else str(nb))
    name = "SUMMA" if r["algorithm"] == "summa" else f"HSUMMA G={int(r['I']) * int(r['J'])}"
    ahead = " +lookahead" if r.get("lookahead") == "1" else ""
    return f"{name} {r['policy']}" + (f"/{r['sync']}" if r["policy"] == "hybrid" else "") + ahead


def label_and_save(fig, ax, name, title, xlabel=None, ylabel=None, legend_size=None):
    """The closing steps every single-axes figure shares: labels, legend, then save."""
    if xlabel:
        ax.set_xlabel(xlabel)
    if ylabel:
        ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=legend_size)
    save(fig, name)


def save(fig, name):
    fig.tight_layout()
    fig.savefig(os.path.join(HERE, name), dpi=120)
    plt.close(fig)
    print("wrote", name)


def fig11_times(rows):
    """Median time per (ranks, grid, layout, sync, policy, per-core size s = b: one block per rank)."""
    return median_by(rows, lambda r: (r["ranks"], r["P"] + "x" + r["Q"], r["layout"], r["sync"], r["policy"], int(r["b"])))


def n4096_rates(rows):
    """Median GF/s per (grid, variant with b) and the median single-rank DGEMM rate."""
    g = median_by(rows, lambda r: (r["P"] + "x" + r["Q"], variant(r) + ("" if r["algorithm"] == "pdgemm" else f" b={r['b']}")), "gflops")
    return g, statistics.median(float(r["ref_dgemm_gflops"]) for r in rows)


def fig11_paired_ratios(rows):
    """{(ranks, grid, layout, sync, s): [pure/hybrid]}: the n-th pure row of a point over its n-th
    hybrid row (a launch writes both policies per repetition, so a pair shares the machine's load)."""
    times = {}
    for r in rows:
        key = (r["ranks"], r["P"] + "x" + r["Q"], r["layout"], r["sync"], int(r["b"]))
        times.setdefault(key, {"pure": [], "hybrid": []})[r["policy"]].append(float(r["time_s"]))
    return {k: [p / h for p, h in zip(v["pure"], v["hybrid"])] for k, v in times.items() if v["pure"] and v["hybrid"]}


def fig11():
    rows = load("fig11_ori_hy.csv")
    if not rows:
        return
    ratios = fig11_paired_ratios(rows)
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for series in sorted({k[:4] for k in ratios}):
        ranks, grid, layout, sync = series
        points = sorted((k[4], median_interval(v)) for k, v in ratios.items() if k[:4] == series)
        sizes = [s for s, _ in points]
        mid = [m for _, (m, _, _) in points]
        err = [[m - lo for _, (m, lo, _) in points], [hi - m for _, (m, _, hi) in points]]
        ax.errorbar(sizes, mid, yerr=err, marker="o", capsize=3,
                    label=f"{ranks} ranks {grid}, {layout}, sync={sync}")
    ax.axhline(1.0, color="grey", lw=0.8)
    ax.set_yscale("log")  # ratios above and below 1 read symmetrically
    ax.set_xscale("log", base=2)
    ax.set_xticks([8, 64, 128, 256], ["8", "64", "128", "256"])
    label_and_save(fig, ax, "fig11_ori_hy_ratio.png", "Ori vs Hy SUMMA on one machine (cf. Zhou et al. Fig 11)",
                   xlabel="per-core block size s (local C is s x s, b = s)",
                   ylabel="Ori / Hy time (median of pairs, 95% CI)",
                   legend_size=7)


def fig4_7():
    rows = load("hsumma_groups.csv")
    if not rows:
        return
    t = median_by(rows, lambda r: (r["policy"], int(r["I"]) * int(r["J"]), r["I"] + "x" + r["J"]))
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for policy in sorted({k[0] for k in t}):
        pts = sorted((g, shape, v) for (p, g, shape), v in t.items() if p == policy)
        ax.plot(range(len(pts)), [v for _, _, v in pts], marker="o", label=policy)
        ax.set_xticks(range(len(pts)), [f"G={g}\n({s})" for g, s, _ in pts])
    label_and_save(fig, ax, "fig4_7_time_vs_groups.png",
                   "HSUMMA time vs groups (cf. thesis Fig 4.7)\n" + rows[0]["m"] + "^3, grid 2x2, " + rows[0]["layout"],
                   ylabel="time per multiply [s]")


def fig4_8():
    rows = load("hsumma_blocks.csv")
    if not rows:
        return
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.2))
    for policy in sorted({r["policy"] for r in rows}):
        sub = [r for r in rows if r["policy"] == policy]
        for col, ax in (("time_s", axes[0]), ("bcast_s", axes[1])):
            t = median_by(sub, lambda r: int(r["b"]), col)
            bs = sorted(t)
            ax.plot(bs, [t[b] for b in bs], marker="o", label=policy)
    for ax, title in ((axes[0], "total"), (axes[1], "broadcast part")):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("inner block size b (M = 256)")
        ax.set_ylabel("time per multiply [s]")
        ax.set_title(f"HSUMMA {title} vs b (cf. thesis Fig 4.8)")
        ax.legend()
    save(fig, "fig4_8_inner_block.png")


def fig4_9():
    rows = load("hsumma_vs_pdgemm.csv")
    if not rows:
        return
    g = median_by(rows, lambda r: (variant(r), int(r["m"])), "gflops")
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for v in sorted({k[0] for k in g}):
        ns = sorted(n for (w, n) in g if w == v)
        ax.plot(ns, [g[(v, n)] for n in ns], marker="o", label=v)
    ax.set_xscale("log", base=2)
    label_and_save(fig, ax, "fig4_9_vs_pdgemm.png",
                   "SUMMA / HSUMMA / PDGEMM, 4 ranks (cf. thesis Fig 4.9)\n" + rows[0]["layout"] + ", 2 cores",
                   xlabel="n (m = n = k)", ylabel="GF/s (median)", legend_size=7)


def n4096():
    rows = load("n4096_np2.csv")
    if not rows:
        return
    g, ref = n4096_rates(rows)
    labels = sorted(g)
    fig, ax = plt.subplots(figsize=(8, 0.32 * len(labels) + 1.5))
    ax.barh([f"{grid} {v}" for grid, v in labels], [g[k] for k in labels])
    ax.axvline(2 * ref, color="red", ls="--", label=f"2 x single-rank DGEMM ({2 * ref:.1f} GF/s)")
    ax.axvline(0.9 * 2 * ref, color="orange", ls=":", label="90% of that")
    label_and_save(fig, ax, "n4096_np2.png", "n = 4096 on 2 ranks", xlabel="GF/s (median over repetitions)",
                   legend_size=7)


def summary():
    """Prints the SUMMA issue's target ratios from the CSVs (medians over repetitions)."""
    rows = load("n4096_np2.csv")
    if rows:
        g, ref = n4096_rates(rows)
        engine = {k: v for k, v in g.items() if not k[1].startswith("PDGEMM")}
        pdgemm = {k: v for k, v in g.items() if k[1].startswith("PDGEMM")}
        best = max(engine, key=engine.get)
        best_pd = max(pdgemm, key=pdgemm.get) if pdgemm else None
        print(f"n={rows[0]['m']}, {rows[0]['ranks']} ranks: best {best[0]} {best[1]}: {engine[best]:.1f} GF/s = "
              f"{100 * engine[best] / (2 * ref):.0f}% of 2x single-rank DGEMM ({2 * ref:.1f} GF/s)"
              + (f"; best PDGEMM {best_pd[0]} {best_pd[1]}: {pdgemm[best_pd]:.1f} GF/s -> "
                 f"{engine[best] / pdgemm[best_pd]:.2f}x" if best_pd else ""))
        for (grid, name), value in sorted(engine.items()):
            if "+lookahead" in name:
                base = engine.get((grid, name.replace(" +lookahead", "")))
                if base:
                    print(f"  lookahead 1 vs 0, {grid} {name.replace(' +lookahead', '')}: {value / base:.3f}x")
    rows = load("fig11_ori_hy.csv")
    if rows:
        t = fig11_times(rows)
        for key in sorted({k[:4] for k in t}):
            ratios = [f"s={s}: {t[key + ('pure', s)] / t[key + ('hybrid', s)]:.2f}"
                      for s in sorted({k[5] for k in t if k[:4] == key})
                      if key + ("pure", s) in t and key + ("hybrid", s) in t]
            print(f"Fig 11 Ori/Hy, {key[0]} ranks {key[1]} {key[2]} sync={key[3]}: " + ", ".join(ratios))


if __name__ == "__main__":
    fig11()
    fig4_7()
    fig4_8()
    fig4_9()
    n4096()
    summary()
