#!/usr/bin/env python3
"""Route model against simulated rows, setting by setting (issue 41: model within 5% of the skeleton).

Reads simulated SUMMA/HSUMMA rows (run-sweep.sh / the skeleton / step_slope.py CSVs). A row's
fidelity settings come from its columns (fidelity, sharing, overheads, eager_bytes, bcast,
ring_merge); a row without them is a legacy row (SimGrid's route sharing, SMPI's overheads,
the eager limit of its eager_bytes column or 65536, SMPI's smpi_bcast). The model replays the
same case (machine, platform's on-node costs, grid, groups, steps run) with the same settings
and the row's time is compared: model/sim per (ranks, G), total and communication (total minus
the local updates), with a band (default 5%).

Rows whose settings the model does not model are refused, each with the reason (placement
other than block, a machine, broadcast or policy it lacks, a platform whose on-node costs it
cannot tell, ...): never compared. --check fails (exit 1) when a compared point is outside the
band; no comparable row at all is an error (exit 2).

Route sharing: SimGrid weights a flow by its route latency; --route-sharing chooses the model's
form of it: route (weighted, default) or unweighted (the model before 2026-11-27, which
route_check.py keeps for its committed residuals)."""
import argparse
import csv
import os
import sys
import time

HERE = os.path.dirname(os.path.realpath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, HERE)
import route_model as rm  # noqa: E402

SMPI_ALGS = {"binomial_tree": "binomial", "scatter_LR_allgather": "vandegeijn"}
FIDELITY_COLUMNS = ("fidelity", "sharing", "overheads", "eager_bytes", "bcast", "ring_merge")


class Refused(Exception):
    """A row the model does not model (the message says which setting)."""


def shm_costs(row, root=ROOT):
    """On-node costs of the row's platform: its file (or the .cmd that generated it) tells."""
    path = row.get("platform", "")
    full = path if os.path.isabs(path) else os.path.join(root, path)
    try:
        with open(full) as f:
            text = f.read(1 << 20)
    except OSError:
        raise Refused(f"platform {path!r} not found: its on-node costs are unknown")
    if path.endswith(".cmd"):
        return "--shm-costs off" not in text
    return "hympi_core_copy_GBps" in text


def row_settings(row):
    """(Settings, model broadcast) of a simulated row; Refused if the model lacks one of them."""
    def col(name, default):
        v = row.get(name)
        return default if v in (None, "") else v
    smpi = row.get("smpi_bcast", "")
    bcast = col("bcast", f"smpi:{smpi}" if smpi else "")
    if bcast.startswith("smpi:"):
        alg = SMPI_ALGS.get(bcast[5:])
        if alg is None:
            raise Refused(f"bcast={bcast}: the model replays smpi:binomial_tree and smpi:scatter_LR_allgather only")
        bcast = alg
    elif bcast not in ("mpich", "dcmf"):
        raise Refused(f"bcast={bcast!r}: not a broadcast the model knows")
    sharing, overheads = col("sharing", "route"), col("overheads", "smpi")
    if sharing not in ("fair", "route") or overheads not in rm.OVERHEADS:
        raise Refused(f"sharing={sharing} overheads={overheads}: the model has sharing fair|route, overheads all|smpi")
    try:
        eager, merge = int(col("eager_bytes", rm.LEGACY.eager_bytes)), int(col("ring_merge", 1))
    except ValueError:
        raise Refused(f"eager_bytes={row.get('eager_bytes')!r} ring_merge={row.get('ring_merge')!r}: not integers")
    if eager < 0 or merge < 1:
        raise Refused(f"eager_bytes={eager} ring_merge={merge}: out of range")
    return rm.Settings(sharing, overheads, eager, merge), bcast


def row_case(row, root=ROOT):
    """The model's Case and steps of a simulated row; Refused if it has what the model lacks."""
    machine = row.get("machine", "")
    if machine not in rm.MACHINES:
        raise Refused(f"machine={machine!r}: the model has {', '.join(rm.MACHINES)}")
    for name, want in (("placement", "block"), ("policy", "pure"), ("lookahead", "0"), ("kind", "simulated")):
        if row.get(name, want) not in (want, ""):
            raise Refused(f"{name}={row[name]}: the model has {name}={want} only")
    if row.get("algorithm", "summa") not in ("summa", "hsumma"):
        raise Refused(f"algorithm={row['algorithm']}: the model has summa and hsumma")
    try:
        n, b, M = int(row["n"]), int(row["b"]), int(row.get("M") or row["b"])
        P, Q, I, J, p = (int(row[k]) for k in ("P", "Q", "I", "J", "ranks"))
        sim = float(row["time_s_scaled"])
        steps = (tuple(int(x) for x in row["steps_fit"].split(",")) if row.get("steps_fit")
                 else (int(row["k_run"]) // b,))
        dgemm = float(row["dgemm_s_scaled"]) if row.get("dgemm_s_scaled") else None
    except (KeyError, ValueError) as e:
        raise Refused(f"missing or bad column: {e}")
    if int(row.get("m", n)) != n or int(row.get("k", n)) != n or M != b:
        raise Refused("the model has square problems with b = M")
    if P * Q != p or p % rm.Torus.cores:
        raise Refused(f"grid {P}x{Q} on {p} ranks: the model needs P Q = ranks, a multiple of {rm.Torus.cores}")
    st, bcast = row_settings(row)
    G = I * J
    if G == p:  # one rank per group: SUMMA's broadcasts exactly
        I = J = 1
    case = rm.Case(n, b, P, Q, I, J, bcast, machine=machine, shm_costs=shm_costs(row, root))
    return case, steps, st, dict(p=p, G=G, n=n, b=b, sim_s=sim, sim_comm_s=None if dgemm is None else sim - dgemm)


def model_settings(st, route_sharing):
    return rm.Settings(route_sharing, st.overheads, st.eager_bytes, st.ring_merge) if st.sharing == "route" else st


def compare(rows, band=0.05, route_sharing="route", root=ROOT, model=rm.scaled_time):
    """(compared rows, refused [(where, reason)]). `model(case, steps, settings=...)` gives the time."""
    out, refused, memo = [], [], {}
    for where, row in rows:
        try:
            case, steps, st, info = row_case(row, root)
        except Refused as e:
            refused.append((where, str(e)))
            continue
        mst = model_settings(st, route_sharing)
        key = (case, steps, mst)
        if key not in memo:
            t0 = time.process_time()
            try:
                memo[key] = (model(case, steps, settings=mst), time.process_time() - t0)
            except NotImplementedError as e:
                refused.append((where, str(e)))
                continue
        t, host = memo[key]
        comp = rm.compute_time(case)
        ratio = t / info["sim_s"]
        comm = info["sim_comm_s"]
        out.append(dict(where=where, machine=case.machine, fidelity=row.get("fidelity") or "legacy",
                        sharing=st.sharing, overheads=st.overheads, eager_bytes=st.eager_bytes,
                        bcast=rm.bcast_name(case.bcast), ring_merge=st.ring_merge, p=info["p"], n=info["n"],
                        b=info["b"], G=info["G"], steps=",".join(map(str, steps)), sim_s=info["sim_s"], model_s=t,
                        ratio=ratio, comm_ratio=(t - comp) / comm if comm else "",
                        within=abs(ratio - 1) <= band, model_host_s=host))
    return out, refused


def read_rows(paths):
    for path in paths:
        with open(path, newline="") as f:
            for i, row in enumerate(csv.DictReader(f), start=2):
                yield f"{os.path.basename(path)}:{i}", row


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv", nargs="+", help="simulated CSVs (sweep or step-slope rows)")
    ap.add_argument("--band", type=float, default=0.05, help="accepted |model/sim - 1| (default 0.05)")
    ap.add_argument("--route-sharing", choices=("route", "unweighted"), default="route",
                    help="the model's form of SimGrid's route sharing (default route: latency-weighted)")
    ap.add_argument("--check", action="store_true", help="exit 1 if a compared point is outside the band")
    a = ap.parse_args(argv)
    if not 0 < a.band < 1:
        ap.error(f"--band {a.band}: expected a fraction between 0 and 1")
    for path in a.csv:
        if not os.path.isfile(path):
            ap.error(f"{path}: no such file")
    rows, refused = compare(read_rows(a.csv), a.band, a.route_sharing)
    for where, why in refused:
        print(f"refused {where}: {why}", file=sys.stderr)
    if not rows:
        print("fidelity_check.py: no row the model can compare", file=sys.stderr)
        return 2
    w = csv.DictWriter(sys.stdout, fieldnames=list(rows[0]))
    w.writeheader()
    for r in rows:
        w.writerow({k: f"{v:.4g}" if isinstance(v, float) else v for k, v in r.items()})
    bad = [r for r in rows if not r["within"]]
    print(f"{len(rows)} rows compared, {len(bad)} outside +-{100 * a.band:g}%, {len(refused)} refused", file=sys.stderr)
    return 1 if a.check and bad else 0


if __name__ == "__main__":
    sys.exit(main())
