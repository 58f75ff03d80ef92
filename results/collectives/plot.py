#!/usr/bin/python3
"""Plots the collective benchmark CSVs of this folder as analogues of Zhou et
al. (ICPP'19) Figs 7-10. Every panel is titled with the layout it really ran on
(ranks, emulated nodes, placement, cores of the machine).

    /usr/bin/python3 results/collectives/plot.py [folder] [--stat avg|median]

--stat avg (default) plots OSU's average latency; --stat median the per-rank
median (robust to the time slices a busy machine steals) into *_median.png.
Where the harness wrote <csv stem>.stats.csv (repeated launches), the sweep figures
instead draw the median over the launches of the per-rank median with its 95% interval
of the median as error bars, and circle points measured on a busy machine. A folder inside
a run directory (results/runs/<run>/collectives) also shows the committed reference
(results/collectives/<same csv>) as thin grey lines.
"""
import argparse
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # results/plotlib.py
from plotlib import plt, read_rows, reference_of, stats_path  # noqa: E402

OPS = ["allgather", "allgatherv", "bcast"]
STYLE = {  # variant -> (label, colour, marker, linestyle)
    "pure": ("pure MPI", "tab:red", "o", "-"),
    "hybrid-barrier": ("hybrid, barrier sync", "tab:blue", "s", "-"),
    "hybrid-flags": ("hybrid, flag sync", "tab:green", "^", "-"),
    "node-barrier": ("node MPI_Barrier (floor)", "black", "", ":"),
}


def machine(folder):
    info = {}
    path = os.path.join(folder, "machine.txt")
    if os.path.exists(path):
        for line in open(path):
            key, _, value = line.strip().partition("=")
            info[key] = value
    return info


def run_label(row, cores):
    ranks, nodes, rpn = int(row["ranks"]), int(row["nodes"]), row["ranks_per_node"]
    text = f"{ranks} ranks, {nodes} node{'s' if nodes > 1 else ''} (max {rpn}/node)\nlayout {row['layout']}"
    if cores:
        text += f", {cores} cores"
        if ranks > int(cores):
            text += " (oversubscribed)"
    return text


def runs_of(rows):
    """Groups rows by the run they came from (ranks, layout), in file order."""
    runs = defaultdict(list)
    for row in rows:
        runs[(int(row["ranks"]), row["layout"])].append(row)
    return runs


STAT = "avg"  # which latency column the lines show: avg_us (OSU) or median_us


def stat_of(row):
    """The latency a line shows: a stats line's median over launches, else the row's STAT column."""
    return float(row["median"]) if "ci_low" in row else float(row[f"{STAT}_us"])


def launch_stats(rows):
    """Rows of a .stats.csv (the harness's statistics over launches) carry ci_low/ci_high."""
    return bool(rows) and "ci_low" in rows[0]


def draw_intervals(ax, rows, op):
    """Median over launches with its 95% interval of the median; busy points circled in red."""
    for variant, (label, colour, marker, line) in STYLE.items():
        pts = sorted((int(r["size_doubles"]), float(r["median"]), float(r["ci_low"]), float(r["ci_high"]),
                      r.get("busy") == "1") for r in rows if r["operation"] == op and r["variant"] == variant)
        if not pts:
            continue
        x, y = [p[0] for p in pts], [p[1] for p in pts]
        ax.errorbar(x, y, yerr=[[p[1] - p[2] for p in pts], [p[3] - p[1] for p in pts]], marker=marker,
                    linestyle=line, color=colour, label=label, markersize=4, capsize=2)
        busy = [p for p in pts if p[4]]
        if busy:
            ax.scatter([p[0] for p in busy], [p[1] for p in busy], s=90, facecolors="none", edgecolors="red",
                       label="busy machine" if variant == "pure" else None, zorder=5)


def draw_reference(ax, rows, op):
    """The committed reference's lines, thin and grey, beside this run's."""
    first = True
    for variant, (label, colour, marker, line) in STYLE.items():
        pts = sorted((int(r["size_doubles"]), stat_of(r)) for r in rows
                     if r["operation"] == op and r["variant"] == variant)
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], linestyle="--", color="grey", linewidth=0.8,
                    marker=marker, markersize=2, label="committed reference" if first else None)
            first = False


def sweep_panel(ax, rows, op):
    if launch_stats(rows):
        draw_intervals(ax, rows, op)
    else:
        draw_lines(ax, rows, op)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("doubles per rank" + (" (rank r: x(1 + r%3))" if op == "allgatherv" else ""))
    if launch_stats(rows):
        ax.set_ylabel(f"median of {rows[0].get('launches', '?')} launches (us), 95% CI")
    else:
        ax.set_ylabel(f"{STAT} latency (us)" + (", band: min..max over ranks" if STAT == "avg" else ""))
    ax.grid(True, which="major", alpha=0.3)


def draw_lines(ax, rows, op):
    for variant, (label, colour, marker, line) in STYLE.items():
        pts = sorted((int(r["size_doubles"]), stat_of(r), float(r["min_us"]), float(r["max_us"]))
                     for r in rows if r["operation"] == op and r["variant"] == variant)
        if not pts:
            continue
        x = [p[0] for p in pts]
        ax.plot(x, [p[1] for p in pts], marker=marker, linestyle=line, color=colour, label=label, markersize=4)
        # The band is min..max over ranks of the average, so only drawn with --stat avg; not for the node
        # barrier, whose min is a 1-rank node's no-op barrier on irregular layouts.
        if STAT == "avg" and variant != "node-barrier":
            ax.fill_between(x, [p[2] for p in pts], [p[3] for p in pts], color=colour, alpha=0.12, linewidth=0)


def machine_note(info):
    load = info.get("load", "").split()
    return f", load avg {load[0]} at start" if load else ""


def rows_or_skip(folder, csv_name, png_name):
    """The CSV's rows, or the lines of its .stats.csv (one per point and row, with the interval
    over the harness's launches) when the harness wrote one."""
    rows = read_rows(os.path.join(folder, csv_name), missing_ok=True)
    if not rows:
        print(f"plot.py: {csv_name} missing or empty, {png_name} skipped")
        return rows
    stats = read_rows(stats_path(os.path.join(folder, csv_name)), missing_ok=True)
    return stats if stats and all("ci_low" in r for r in stats) else rows


def save_figure(fig, folder, png_name):
    """Writes <png_name> (avg) or <png_name>_<stat>.png."""
    fig.tight_layout()
    png_name = png_name if STAT == "avg" else png_name.replace(".png", f"_{STAT}.png")
    fig.savefig(os.path.join(folder, png_name), dpi=80)
    plt.close(fig)
    print(f"plot.py: wrote {png_name}")


def sweep_figure(folder, csv_name, png_name, figure, cores, note="", ops=None, panel=sweep_panel):
    """One row of panels per run (layout), one column per operation of `ops` (default OPS) found in
    the CSV, each drawn by panel(ax, run_rows, op)."""
    rows = rows_or_skip(folder, csv_name, png_name)
    if not rows:
        return
    reference = reference_of(os.path.join(folder, csv_name))
    reference = runs_of(read_rows(reference)) if reference else {}
    ops = [op for op in ops or OPS if any(r["operation"] == op for r in rows)]
    runs = runs_of(rows)
    fig, axes = plt.subplots(len(runs), len(ops), figsize=(max(5.2 * len(ops), 10.4), 4.2 * len(runs)), squeeze=False)
    for i, (key, run_rows) in enumerate(runs.items()):
        for j, op in enumerate(ops):
            panel(axes[i][j], run_rows, op)
            if key in reference:
                draw_reference(axes[i][j], reference[key], op)
            root = next((r["root"] for r in run_rows if r["operation"] == op and r["root"]), "")
            axes[i][j].set_title(f"{op}{' root ' + root if root else ''}\n{run_label(run_rows[0], cores)}",
                                 fontsize=9)
    axes[0][0].legend(fontsize=8)
    what = "median latency over launches" if launch_stats(rows) else f"{STAT} latency"
    fig.suptitle(f"{figure}, {what} (hympi-bench-collectives, {rows[0]['mpi'].split(',')[0]}, host {rows[0]['host']}{note})")
    save_figure(fig, folder, png_name)


def rpn_figure(folder, csv_name, png_name, figure, cores, note=""):
    """Zhou Fig 9: latency against ranks per node at fixed node count, at a small and a large size."""
    rows = rows_or_skip(folder, csv_name, png_name)
    if not rows:
        return
    all_sizes = sorted({int(r["size_doubles"]) for r in rows})
    sizes = sorted({all_sizes[0], 1024 if 1024 in all_sizes else all_sizes[len(all_sizes) // 2], all_sizes[-1]})
    nodes = sorted({r["nodes"] for r in rows})
    fig, axes = plt.subplots(len(sizes), len(OPS), figsize=(5.2 * len(OPS), 3.8 * len(sizes)), squeeze=False)
    for i, size in enumerate(sizes):
        for j, op in enumerate(OPS):
            ax = axes[i][j]
            for variant, (label, colour, marker, line) in STYLE.items():
                pts = sorted((int(r["ranks_per_node"]), stat_of(r)) for r in rows
                             if r["operation"] == op and r["variant"] == variant and int(r["size_doubles"]) == size)
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=marker, linestyle=line, color=colour,
                            label=label)
            ranks = sorted({int(r["ranks"]) for r in rows})
            over = [n for n in ranks if cores and n > int(cores)]
            ax.set_title(f"{op}, {size} doubles per rank\n{'/'.join(nodes)} nodes, ranks {ranks}, {cores or '?'} cores"
                         + (f" (oversubscribed at {over} ranks)" if over else ""), fontsize=9)
            ax.set_xlabel("ranks per node")
            ax.set_ylabel(f"{STAT} latency (us)")
            ax.set_yscale("log")
            ax.set_xticks(sorted({int(r["ranks_per_node"]) for r in rows}))
            ax.grid(True, alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.suptitle(f"{figure}, {STAT} latency (layouts: {', '.join(sorted({r['layout'] for r in rows}))}{note})")
    save_figure(fig, folder, png_name)


def main():
    global STAT
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("folder", nargs="?", default=os.path.dirname(os.path.abspath(__file__)))
    p.add_argument("--stat", choices=["avg", "median"], default="avg")
    a = p.parse_args()
    folder, STAT = a.folder, a.stat
    info = machine(folder)
    cores, note = info.get("cores", ""), machine_note(info)
    sweep_figure(folder, "fig7_onenode.csv", "fig7_onenode.png", "Zhou Fig 7 analogue: one node", cores, note)
    sweep_figure(folder, "fig7_onenode_untimed_write.csv", "fig7_onenode_untimed_write.png",
                 "Zhou Fig 7 analogue: one node, exchange alone (--untimed-write)", cores, note)
    sweep_figure(folder, "fig8_one_rank_per_node.csv", "fig8_one_rank_per_node.png",
                 "Zhou Fig 8 analogue: one rank per emulated node", cores, note)
    sweep_figure(folder, "fig7_onenode_cold.csv", "fig7_onenode_cold.png",
                 "Zhou Fig 7 analogue: one node, cold caches (--cache cold)", cores, note)
    rpn_figure(folder, "fig9_ranks_per_node.csv", "fig9_ranks_per_node.png",
               "Zhou Fig 9 analogue: ranks-per-node sweep, 2 emulated nodes", cores, note)
    sweep_figure(folder, "fig10_irregular.csv", "fig10_irregular.png",
                 "Zhou Fig 10 analogue: irregularly populated emulated nodes", cores, note)


if __name__ == "__main__":
    main()
