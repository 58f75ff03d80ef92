#!/usr/bin/env python3
"""The skeleton's host-time devices against the plain run, on committed rows: a run with the
layer's merged ring (ring_merge S > 1) and every send rendezvous (eager_bytes 0) against the
same configuration with S = 1 and the faithful 1200 B eager limit. Every (algorithm, groups,
step mark) present in both must agree within --bound (relative, total time), and so must each
G's gain over SUMMA; any other setting or size that differs is an error.
usage: check_coarsening.py PLAIN.csv COARSE.csv [--bound 0.03] [--bcast mpich]"""
import argparse
import csv
import sys

SAME = ["machine", "sharing", "overheads", "bcast", "placement", "n", "b", "M", "ranks", "P", "Q"]


def rows(path, bcast):
    return {(r["algorithm"], int(r["I"]), int(r["J"]), int(r["max_steps"])): r
            for r in csv.DictReader(open(path)) if r.get("bcast") == bcast}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("plain")
    ap.add_argument("coarse")
    ap.add_argument("--bound", type=float, default=0.03)
    ap.add_argument("--bcast", default="mpich")
    a = ap.parse_args(argv)
    plain, coarse = rows(a.plain, a.bcast), rows(a.coarse, a.bcast)
    common = sorted(set(plain) & set(coarse))
    if not common:
        sys.exit(f"check_coarsening: no common (algorithm, groups, steps) rows with bcast={a.bcast}")
    bad = []
    for key in common:
        p, c = plain[key], coarse[key]
        differ = [f for f in SAME if p.get(f) != c.get(f)]
        if differ or p.get("ring_merge") != "1" or int(c.get("ring_merge", "1")) < 2:
            sys.exit(f"check_coarsening: {key} is not the same configuration with S = 1 vs S > 1 (differ: {differ}, "
                     f"ring_merge {p.get('ring_merge')} vs {c.get('ring_merge')})")
        err = float(c["time_s"]) / float(p["time_s"]) - 1
        summa = ("summa", 1, 1, key[3])
        gain_err = 0.0
        if key[0] == "hsumma" and summa in plain and summa in coarse:
            gain = lambda t: float(t[summa]["time_s"]) / float(t[key]["time_s"])
            gain_err = gain(coarse) / gain(plain) - 1
        ok = abs(err) <= a.bound and abs(gain_err) <= a.bound
        print(f"{key[0]:6s} G={key[1] * key[2]:<4d} steps={key[3]}: S={c['ring_merge']} {float(c['time_s']):.6g} s vs "
              f"{float(p['time_s']):.6g} s ({err:+.2%}), gain {gain_err:+.2%}  {'ok' if ok else 'OUTSIDE'}")
        if not ok:
            bad.append(key)
    if bad:
        sys.exit(f"check_coarsening: {len(bad)} of {len(common)} points outside +-{a.bound:.0%}")
    print(f"check_coarsening: {len(common)} points within +-{a.bound:.0%} (total and gain over SUMMA)")


if __name__ == "__main__":
    main()
