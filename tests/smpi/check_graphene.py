#!/usr/bin/env python3
"""Grid'5000 Graphene platforms (make_platform.py graphene-gige | graphene-ib): structure, and
tiny simulations in which each setting moves a ping-pong the way it should.
  1. (no SimGrid) 144 hosts x 4 cores in 4 cabinets of 39/35/30/40 nodes (SimGrid's nancy.xml), one
     cluster (switch) each; a route between cabinets crosses the source cabinet's uplink up and the
     destination's down; GigE and IB links, overheads and on-node costs as documented; block
     hostfile from graphene-1; more than 144 nodes and --sharing fair refused (exit 2).
  2. (no SimGrid) the named fidelity set (run-common.sh fidelity_setup): faithful by default on
     graphene-*, route sharing, SMPI's overheads, Open MPI's eager limit (65536 B TCP, 12288 B openib),
     Open MPI's broadcast decision (smpi:ompi); rows always carry the settings; fair sharing refused.
  3. (smpicc + smpirun) a 2-rank ping-pong (graphene_pingpong.c, no hympi glue, so the overhead
     properties are not charged here: onnode_cost.cpp charges them in the SMPI build) equals the
     platform's alpha + bytes/beta: IB below GigE at 8 B and 1 MiB, a cabinet crossing costs its two
     uplink latencies, and on-node costs move the loopback latency (0.5 us off -> 0.1 us on).
  4. (SMPI build: the glue charges the host properties) an 8 B MPI_Send between two nodes costs
     send overhead + alpha + receive overhead (GigE 48.26 us, IB 2.42 us), and two concurrent 8 MiB
     copies on one node share its 7 GB/s with on-node costs (the second at 3.5 GB/s), not without.
usage: check_graphene.py ROOT [SMPI_BIN]   (exit 77 after parts 1-2 without smpicc/smpirun)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET


def fail(msg):
    print(f"check_graphene: FAIL: {msg}")
    sys.exit(1)


def make(root, tmp, machine, ranks=576, *extra):
    out = os.path.join(tmp, f"{machine}-{ranks}-{'-'.join(extra) or 'on'}.xml")
    r = subprocess.run([sys.executable, os.path.join(root, "apps/smpi/platforms/make_platform.py"), machine, "--ranks",
                        str(ranks), *extra, "--out", out], capture_output=True, text=True)
    return r, out


def parse(path):
    """The world zone; the provenance comment holds '--' (options), which SimGrid reads but XML forbids."""
    return ET.fromstring(re.sub(r"<!--.*?-->", "", open(path).read(), flags=re.S)).find("zone")


def props(cluster):
    return {p.get("id"): p.get("value") for p in cluster.findall("prop")}


def check_structure(root, tmp):
    expected = {  # node link, its latency, uplink, its latency, send / receive overhead (docstring, README)
        "graphene-gige": ("117.5868MBps", "15.0us", "1175.8675MBps", "2.5us", "8.75", "9.31"),
        "graphene-ib": ("1.5GBps", "0.7us", "6GBps", "0.1us", "0.5", "0.5")}
    for machine, (bw, lat, up_bw, up_lat, send, recv) in expected.items():
        r, out = make(root, tmp, machine)
        if r.returncode:
            fail(f"{machine}: {r.stderr}")
        zone = parse(out)
        clusters = zone.findall("cluster")
        radicals = [c.get("radical") for c in clusters]
        if radicals != ["1-39", "40-74", "75-104", "105-144"]:
            fail(f"{machine}: cabinets {radicals}, expected 1-39, 40-74, 75-104, 105-144")
        hosts = {i for c in clusters for a, b in [map(int, c.get("radical").split("-"))] for i in range(a, b + 1)}
        if len(hosts) != 144 or any(c.get("core") != "4" or c.get("speed") != "4.17Gf" for c in clusters):
            fail(f"{machine}: {len(hosts)} hosts, cores {[c.get('core') for c in clusters]}: 144 x 4 at 4.17 Gf expected")
        for c in clusters:
            p = props(c)
            if (c.get("bw"), c.get("lat")) != (bw, lat) or (p.get("hympi_net_send_overhead_us"),
                                                             p.get("hympi_net_recv_overhead_us")) != (send, recv):
                fail(f"{machine} {c.get('id')}: bw {c.get('bw')} lat {c.get('lat')} overheads {p}")
            if p.get("hympi_core_copy_GBps") != "6.0" or p.get("hympi_node_copy_GBps") != "7.0" or \
                    p.get("hympi_shm_overhead_us") != "0.4" or c.get("loopback_lat") != "0.1us":
                fail(f"{machine} {c.get('id')}: on-node costs {p}, loopback {c.get('loopback_lat')}")
        links = {l.get("id"): l for l in zone.findall("link")}
        if sorted(links) != [f"uplink{k}" for k in range(1, 5)] or \
                any((l.get("bandwidth"), l.get("latency")) != (up_bw, up_lat) for l in links.values()):
            fail(f"{machine}: uplinks {[(k, l.attrib) for k, l in links.items()]}")
        routes = {(z.get("src"), z.get("dst")): [(l.get("id"), l.get("direction")) for l in z.findall("link_ctn")]
                  for z in zone.findall("zoneRoute")}
        for a in range(1, 5):
            for b in range(1, 5):
                want = [(f"uplink{a}", "UP"), (f"uplink{b}", "DOWN")] if a != b else None
                if routes.get((f"cabinet{a}", f"cabinet{b}")) != want:
                    fail(f"{machine}: route cabinet{a} -> cabinet{b} is {routes.get((f'cabinet{a}', f'cabinet{b}'))}")
        hostfile = open(out[:-4] + ".hosts").read().split()
        if len(hostfile) != 144 or hostfile[0] != "graphene-1:4" or hostfile[-1] != "graphene-144:4":
            fail(f"{machine}: hostfile {hostfile[:2]} ... {hostfile[-1:]} (graphene-1:4 .. graphene-144:4 expected)")
        r, out = make(root, tmp, machine, 576, "--shm-costs", "off")
        off = parse(out).findall("cluster")
        if any("hympi_shm_overhead_us" in props(c) or c.get("loopback_lat") != "0.5us" for c in off):
            fail(f"{machine} --shm-costs off: on-node properties or loopback {off[0].get('loopback_lat')} (0.5us expected)")
        for bad, why in ((["577"], "has 144 nodes"), (["8", "--sharing", "fair"], "route sharing")):
            r, _ = make(root, tmp, machine, *bad)
            if r.returncode != 2 or why not in r.stderr:
                fail(f"{machine} --ranks {' '.join(bad)}: exit {r.returncode}, stderr {r.stderr!r} (2 and {why!r})")
    print("check_graphene: structure ok (144 x 4 cores, 4 cabinets, uplink routes, GigE/IB values, on-node costs)")


def check_fidelity_set(root):
    def setup(machine, **opts):
        sets = "".join(f'{k}="{v}"; ' for k, v in opts.items())
        script = (f'script=test; source "{root}/apps/smpi/run-common.sh"; fidelity="" sharing="" overheads="" '
                  f'eager_bytes="" bcast="" ring_merge=""; {sets}fidelity_setup {machine} binomial_tree; '
                  'echo "$fidelity_in_use|$fidelity|${fidelity_labels[*]}|${fidelity_cfg[*]}"')
        return subprocess.run(["bash", "-c", script], capture_output=True, text=True)
    for machine, eager in (("graphene-gige", 65536), ("graphene-ib", 12288)):
        r = setup(machine)
        want = (f"1|faithful|fidelity=faithful sharing=route overheads=smpi eager_bytes={eager} bcast=smpi:ompi "
                f"ring_merge=1|--cfg=smpi/bcast:ompi --cfg=smpi/send-is-detached-thresh:{eager}")
        if r.stdout.strip() != want:
            fail(f"{machine}'s default fidelity set: {r.stdout.strip()!r}, expected {want!r}")
    r = setup("graphene-ib", eager_bytes="65536", bcast="scatter_LR_allgather")
    if r.stdout.split("|")[:2] != ["1", "faithful;eager_bytes=65536;bcast=smpi:scatter_LR_allgather"]:
        fail(f"graphene-ib overrides are named against its own faithful set: {r.stdout!r}")
    r = setup("graphene-gige", sharing="fair")
    if r.returncode != 2 or "route sharing" not in r.stderr:
        fail(f"graphene --sharing fair must exit 2: {r.returncode} {r.stderr!r}")
    print("check_graphene: fidelity set ok (route, smpi overheads, eager 65536 / 12288 B, smpi:ompi; overrides named)")


def smpi_flags(root):
    return subprocess.run(["bash", "-c", f'source "{root}/apps/smpi/smpi-flags.sh"; printf "%s\\n" "${{HYMPI_SMPI_FLAGS[@]}}"'],
                          capture_output=True, text=True, check=True).stdout.split()


def sim(root, tmp, exe, machine, hosts, nbytes, shm="on"):
    _, plat = make(root, tmp, machine, 576, "--shm-costs", shm)
    hf = os.path.join(tmp, "pair.hosts")
    open(hf, "w").write("".join(h + "\n" for h in hosts))
    flags = smpi_flags(root)
    # bw-factor 0:1: the SMPI build's glue sets it (1 off-node); this plain program has no glue.
    r = subprocess.run(["smpirun", "-np", "2", "-platform", plat, "-hostfile", hf, *flags, "--cfg=smpi/bw-factor:0:1",
                        exe, str(nbytes), "4"], capture_output=True, text=True, timeout=60)
    m = re.search(r"oneway_us ([0-9.]+)", r.stdout)
    if not m:
        fail(f"{machine} {hosts} {nbytes} B: no time ({r.stdout[-300:]} {r.stderr[-300:]})")
    return float(m.group(1))


def check_simulation(root, tmp):
    exe = os.path.join(tmp, "pingpong")
    subprocess.run(["smpicc", "-O1", "-o", exe, os.path.join(root, "tests/smpi/graphene_pingpong.c")], check=True,
                   capture_output=True)
    # alpha (us) within a cabinet = 2 node links; beta = node link bytes/s; uplink latency (us)
    model = {"graphene-gige": (30.0, 117.5868e6, 2.5), "graphene-ib": (1.4, 1.5e9, 0.1)}
    got = {}
    for machine, (alpha, beta, up) in model.items():
        for n in (8, 1 << 20):
            t = sim(root, tmp, exe, machine, ["graphene-1", "graphene-2"], n)
            want = alpha + (n + 16) / beta * 1e6  # SimGrid 3.32 sends 16 bytes more than the message (measured)
            if abs(t - want) > 1e-5 * want + 1e-3:
                fail(f"{machine} in a cabinet, {n} B: {t:.4f} us one way, the platform gives {want:.4f}")
            got[machine, n] = t
        cross = sim(root, tmp, exe, machine, ["graphene-1", "graphene-40"], 8)
        if abs(cross - got[machine, 8] - 2 * up) > 1e-3:
            fail(f"{machine}: crossing cabinets adds {cross - got[machine, 8]:.4f} us, two uplinks are {2 * up} us")
    for n in (8, 1 << 20):
        if not got["graphene-ib", n] < got["graphene-gige", n]:
            fail(f"{n} B: IB {got['graphene-ib', n]} us not below GigE {got['graphene-gige', n]} us")
    on = sim(root, tmp, exe, "graphene-gige", ["graphene-1:2"], 8)
    off = sim(root, tmp, exe, "graphene-gige", ["graphene-1:2"], 8, "off")
    if not (abs(on - 0.1) < 0.01 and abs(off - 0.5) < 0.01):
        fail(f"on-node 8 B: {on} us with on-node costs (0.1 + the glue's 0.4 overhead), {off} us off (0.5 expected)")
    print(f"check_graphene: ping-pong one way, 8 B / 1 MiB: GigE {got['graphene-gige', 8]:.2f} / "
          f"{got['graphene-gige', 1 << 20]:.1f} us, IB {got['graphene-ib', 8]:.2f} / {got['graphene-ib', 1 << 20]:.1f} us; "
          f"cabinet crossing and on-node loopback as the platform says")


def check_glue(root, tmp, bin_dir):
    probe = os.path.join(bin_dir, "hympi-smpi-fidelity-probe")
    env = dict(os.environ, HYMPI_SIM_OVERHEADS="smpi", HYMPI_SIM_SHARING="route", HYMPI_SIM_BCAST="smpi",
               HYMPI_SIM_RING_MERGE="1")
    flags = smpi_flags(root)

    def run(machine, hosts, np, args, shm="on"):
        _, plat = make(root, tmp, machine, 576, "--shm-costs", shm)
        hf = os.path.join(tmp, "glue.hosts")
        open(hf, "w").write("".join(h + "\n" for h in hosts))
        r = subprocess.run(["smpirun", "-np", str(np), "-platform", plat, "-hostfile", hf, *flags, probe, *map(str, args)],
                           capture_output=True, text=True, env=env, timeout=60)
        vals = dict(l.split("=", 1) for l in r.stdout.splitlines() if "=" in l)
        if r.returncode or not vals:
            fail(f"probe {args} on {machine}: exit {r.returncode} {r.stderr[-500:]}")
        return {k: float(v) for k, v in vals.items()}
    for machine, (send, alpha, beta, recv) in (("graphene-gige", (8.75, 30.0, 117.5868e6, 9.31)),
                                               ("graphene-ib", (0.5, 1.4, 1.5e9, 0.5))):
        t = run(machine, ["graphene-1", "graphene-2"], 2, ["mpi_p2p", 8, 0, 1])["time_s"] * 1e6
        want = send + alpha + 24 / beta * 1e6 + recv
        if abs(t - want) > 1e-6 * want:
            fail(f"{machine}: 8 B MPI_Send between nodes {t:.4f} us, overheads + alpha give {want:.4f} us")
    mib8 = 8 << 20
    on = run("graphene-gige", ["graphene-1:4"], 4, ["flows", mib8, 0, 1, 2, 3])
    off = run("graphene-gige", ["graphene-1:4"], 4, ["flows", mib8, 0, 1, 2, 3], "off")
    late = max(on["flow1_s"], on["flow2_s"])
    if abs(late - ((mib8 + 16) / 3.5e9 + 0.1e-6)) > 1e-9 or \
            any(abs(off[f] - ((mib8 + 16) / 6e9 + 0.5e-6)) > 1e-9 for f in ("flow1_s", "flow2_s")):
        fail(f"two 8 MiB on-node copies: {on} with on-node costs (the later at 7/2 GB/s expected), {off} without (6 GB/s)")
    print(f"check_graphene: with the glue, 8 B between nodes as overheads + alpha; two on-node 8 MiB copies "
          f"{on['flow1_s'] * 1e3:.3f} / {on['flow2_s'] * 1e3:.3f} ms (shared 7 GB/s), {off['flow1_s'] * 1e3:.3f} ms each without")


def main():
    root = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        check_structure(root, tmp)
        check_fidelity_set(root)
        if not (shutil.which("smpicc") and shutil.which("smpirun")):
            print("check_graphene: no smpicc/smpirun: simulation skipped")
            return 77
        check_simulation(root, tmp)
        if len(sys.argv) > 2 and os.path.exists(os.path.join(sys.argv[2], "hympi-smpi-fidelity-probe")):
            check_glue(root, tmp, sys.argv[2])
        else:
            print("check_graphene: no SMPI build: the glue's charges not checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
