#!/usr/bin/env python3
"""Writes a SimGrid platform file (+ a block-placement hostfile) for one of the
modelled machines. Every number below is stated with its source; where a source
gives a range, the value used is said. Links are end-to-end calibrated: run with
--cfg=smpi/lat-factor:0:1 and bandwidth factor 1 off-node (apps/smpi/smpi-flags.sh),
so the alpha-beta model (apps/model) can use the same alpha and beta.

Machines
  bgp-torus   IBM BlueGene/P-like 3-D torus, 4 cores per node (Hasanov's thesis).
              Core: PowerPC 450, 850 MHz, 4 flop/cycle -> 3.4 Gflop/s peak per core
              (IBM Redbook SG24-7287, "IBM System Blue Gene Solution: Blue Gene/P
              Application Development"). Torus link: 425 MB/s per direction
              (3.4 Gb/s; same Redbook). MPI latency: about 3 us nearest to farthest
              (Alam et al., "Early evaluation of IBM BlueGene/P", SC'08, report
              ~2.5-5 us); we put 3 us end to end at the mean hop distance: per-hop
              link latency = 3 us / mean hops of the chosen torus. Intra-node
              (shared memory through the DMA engine): 1 us, 1.5 GB/s (estimate).
  bgp         BlueGene/P as the thesis ran it (Fig 4.6/4.7, VN mode: 4 ranks per node), for
              checks against its numbers; bgp-torus stays as the committed sweeps' platform.
              - Partitions of 256 nodes (1024 cores) or fewer are a 3-D MESH (no wrap-around:
                the thesis calls its 1024-core partition a mesh; BG/P wraps only whole
                512-node midplanes), built as a Full zone with X-then-Y-then-Z routes and
                one link per direction; larger ones the 3-D torus cluster.
              - Links 425 MB/s per direction (Redbook SG24-7287) with 0.1 us per hop
                (hardware hop latency, order of 100 ns; an estimate), end to end.
              - Per-message software overhead: MPI latency on BG/P is ~2.5-3 us nearest
                neighbour (Alam et al., SC'08; Kumar et al., "The deep computing messaging
                framework", ICS'08), almost all of it software. 1.25 us is charged to the
                sender and 1.25 us to the receiver of an off-node message
                (hympi_net_send/recv_overhead_us): by the simulated MPI layer on every
                message of its broadcasts with the fidelity setting overheads=all, else by
                apps/smpi/glue/onnode_cost.cpp's op-cost callbacks, which SMPI applies only
                to eager or nonblocking sends (apps/smpi/README.md "Fidelity settings"). Not smpi/os|or|ois: the glue's callback replaces those
                settings, and a latency factor would not occupy the rank (a root's sends of
                a binomial tree or a ring's steps would overlap their overheads).
              - Compute: 2.25 Gflop/s per core, the thesis' rate: its SUMMA at 16384 cores,
                n = 65536, spends ~15.3 s computing (50.2 s total, 34.9 s communication):
                2 n^3 / 16384 / 15.3 s = 2.25 Gflop/s (66% of the PPC450's 3.4 Gflop/s peak).
              - Broadcasts: the thesis quotes MPICH's rule (binomial below 12 KiB or 8
                processes, scatter + recursive doubling below 512 KiB for powers of two,
                else scatter + ring allgather). SMPI 3.32's smpi/bcast:mpich is NOT that
                rule: on a communicator with the same ranks on every node (all of
                SUMMA's, with 4 ranks per node) it returns SMP_binomial, and it takes
                scatter + recursive doubling for any even size. For the thesis' messages
                (512 KiB and 1 MiB panels on 8 or more ranks) the rule picks scatter +
                ring, so run-sweep.sh and run-hier-bcast.sh used
                --cfg=smpi/bcast:scatter_LR_allgather for bgp (on fewer than 8 ranks the
                rule would pick binomial: a known difference); that is the legacy fidelity
                set now, and the faithful one broadcasts with BG/P's DCMF rule in the
                simulated MPI layer (--bcast dcmf; --bcast mpich: the rule itself).
              - Placement (--placement): block (TXYZ, a node's 4 ranks consecutive) or
                xyzt (BG/P's default mapping: X first, one rank per node per sweep).
              On-node costs as bgp-torus.
  xc40-dragonfly  Cray XC40 "Hazel Hen"-like (HLRS), 24 cores per node: 2 x Intel
              Xeon E5-2680 v3 (Haswell, 12 cores, 2.5 GHz, 16 DP flop/cycle ->
              40 Gflop/s peak per core; we use 36 Gflop/s, ~90% DGEMM efficiency).
              Aries dragonfly (Alverson et al., "Cray XC Series Network", Cray
              white paper 2012): 4 nodes per router, 16 routers per chassis
              (rank-1, all-to-all), 6 chassis per group (rank-2), groups linked
              by optical rank-3 links; ~5.25 GB/s per direction electrical,
              ~4.7 GB/s optical (we use 5 GB/s for all), ~1.3 us MPI latency
              (we put 0.3 us per hop, ~1.2-1.5 us over the 4-5 hops of a typical
              route). Intra-node: 0.3 us, 8 GB/s (estimate for shared memory).
  ib-fattree  A generic InfiniBand EDR cluster: 2-level fat tree of 36-port
              switches (18 down, 18 up), 100 Gb/s = 12.5 GB/s links (we use
              11 GB/s achievable), ~1 us MPI latency over the 4 links of a
              leaf-spine-leaf route (0.25 us per link); nodes with 2 x 16 cores,
              30 Gflop/s per core (an AVX2 Broadwell-class DGEMM rate; an
              assumption, not a measured machine). Intra-node: 0.3 us, 8 GB/s
              (estimate).
  graphene-gige, graphene-ib  Grid'5000 Nancy's Graphene cluster, where the thesis ran chapter 3
              and Fig 4.10/4.11 (seed note: 144 nodes of one 4-core Xeon X3440, 16 GB, nodes in 4 groups
              on 4 switches under the Nancy router; Gigabit Ethernet and 20G InfiniBand), and where
              SimGrid validated SMPI (Degomme et al., "Simulating MPI applications: the SMPI approach",
              IEEE TPDS 2017; Bedaride et al., PMBS'13). Values and sources (README "Graphene"):
              - Shape: 4 cabinets of 39, 35, 30, 40 nodes (graphene-1..39, 40..74, 75..104, 105..144),
                SimGrid's own examples/platforms/nancy.xml (simgrid/simgrid, commit 66b0686); each a
                SimGrid cluster (one switch: a crossbar of private node links), the cabinets joined by
                one uplink each to the router. Block placement fills graphene-1 first.
              - Compute: 16.673 Gflop/s per NODE in nancy.xml ("power", one per host in its v3 format),
                so 4.17 Gflop/s per core. It cannot be a core's rate: the X3440's peak is 2.53 GHz x 4
                DP flop/cycle = 10.12 Gflop/s per core. Range for a DGEMM: 4.17 (this) to ~9 (90% of peak).
              - GigE: 1 Gb/s node links (nancy.xml bw 1.25E8 B/s) at 0.940694 of it, 117.6 MB/s: the
                large-message segment (>= 65472 B) of SMPI's piecewise bandwidth factor, SimGrid 3.32's
                built-in smpi/bw-factor default (strings of libsimgrid.so.3.32), the TCP goodput; links
                full duplex (SPLITDUPLEX). Uplinks 10 Gb/s (nancy.xml's 1.25E9 B/s cabinet links) at the
                same factor. Small-message latency within a cabinet 48 us end to end: 24 us per node link
                (2 per route) in a Graphene platform file of SMPI's validation (lat="2.4E-5", seen through
                the code search, its repository not named: unverified), split as 8.75 us send and 9.31 us
                receive overhead (that file's smpi/os and smpi/or intercepts below 1420 B, commented out
                there) + 15 us per node link. The router hop is not published: 2.5 us per uplink assumed
                (range 1-10 us; store and forward of a 1500 B frame at 10 Gb/s is 1.2 us).
              - IB (DDR 4x, 20 Gb/s signalling, 16 Gb/s of data after 8b/10b): 1.5 GB/s per link (assumed:
                DDR MPI bandwidth through PCIe gen2, range 1.2-1.9 GB/s), 2.4 us end to end in a cabinet
                (assumed, range 1.5-4 us: 0.5 us send + 0.5 us receive overhead + 0.7 us per node link).
                The IB fabric's shape is not published: assumed the same 4 switches, each with 4 DDR
                links (6 GB/s) and 0.1 us to the core switch (range: 1 link to non-blocking).
              - On-node (Xeon X3440, Lynnfield: 2 DDR3-1333 channels, 21.3 GB/s peak; 8 MB shared L3): one
                core's copy 6 GB/s (the validation file's loopback_bw="6000000000"), the node's memcpy
                7 GB/s (assumed: STREAM copy ~14 GB/s counting read and write; range 5-10), 2 MiB of L3
                per core copied at 15 GB/s (assumed, range 10-25), Open MPI's sm latency 0.5 us (0.4 us
                overhead + 0.1 us loopback; assumed, range 0.3-1 us), flag poll 0.08 us (an L3 cache-line
                transfer, assumed). No fence cost (not calibrated).
              --sharing fair is refused: TCP shares a link by round-trip time, which is SimGrid's
              latency-weighted max-min (route sharing), not per-packet arbitration.
The simulated host speed is per core (SimGrid `core` attribute): one rank per core.

Link sharing (--sharing; apps/smpi/README.md "Fidelity settings")
  route (default)  the file as always: the network links carry their latency. SimGrid's
        max-min solver weights a flow by its route's latency, so on a shared link a k-hop
        flow gets 1/k of a 1-hop flow's share.
  fair  the network links get latency 0 (every flow the same weight, as routers that
        arbitrate per packet) and every host the property hympi_hop_latency_us (the link
        latency they had); the simulated MPI layer (apps/smpi/glue/sim_p2p.cpp, run with
        HYMPI_SIM_SHARING=fair) charges hops x that to the receiver of each message. The
        on-node loopback keeps its latency.

On-node costs (default; --shm-costs off writes the older platform, loopback only)
  SimGrid's cluster loopback links are FATPIPE (no sharing) and SMPI charges no copy, so
  shared memory was invisible. With shm costs the loopback runs at one core's copy rate
  with a small latency, and apps/smpi/glue/onnode_cost.cpp scales it by the node's share
  and charges the rest from these host properties:
  per-message overhead (sender), one core's copy bandwidth, the node's memory bandwidth
  shared by its concurrent copies, and the flag poll interval (a cache-line transfer).
  xc40  Haswell E5-2680 v3 node: STREAM copy ~110 GB/s per 2-socket node (counts read
        and write: ~55 GB/s of memcpy), one core ~8 GB/s of memcpy; Cray MPICH on-node
        latency ~0.35 us (0.3 us overhead + 0.05 us loopback); core-to-core cache-line
        transfer ~0.1-0.2 us (0.15 us flag poll). Copies up to the core's L3 share (30 MB per
        12-core socket: 2.5 MiB) stay in cache: ~20 GB/s of memcpy per core (L3 read ~30 GB/s
        per core on Haswell-EP), not shared (L3 bandwidth grows with the cores).
        MPI_Win_sync = a memory fence, 0.015 us (hympi_fence_us): MFENCE's reciprocal
        throughput on Haswell is ~33 cycles (Agner Fog, "Instruction tables", Haswell) = 13 ns
        at 2.5 GHz; MPI_Win_sync after a store measured 12-16 ns on this machine with Open MPI
        and MPICH (apps/smpi/probe/win_sync_cost.cpp). MPI_Barrier on one rank: 3-4 ns
        there (not charged).
  bgp   PowerPC 450 node: 13.6 GB/s DDR2 peak (Redbook SG24-7287), ~5 GB/s of memcpy
        per node and ~1.5 GB/s per core (estimates); on-node MPI latency ~1 us (0.9 us
        overhead + 0.1 us loopback); 0.1 us flag poll; 8 MB shared L3 (2 MiB per core share)
        at ~3 GB/s of memcpy (estimate).
  ib    as xc40 (a 2-socket x86 node; an assumption).
  graphene  one Xeon X3440 (graphene-gige, graphene-ib above).
  This machine (apps/smpi/probe/copy_rate.cpp, a loaded 2-core VM): 64 MiB copies
  1.6 GB/s on one core and 1.0 GB/s for both cores at once (the memory bandwidth is
  shared, not per core); 1 MiB copies (in cache) 44 GB/s on one core, 90 GB/s on two.
"""
import argparse
import math
import os
import re
import sys

HEADER = """<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
<!-- Generated by apps/smpi/platforms/make_platform.py {args}
{notes}
-->
  <zone id="world" routing="Full">
"""
FOOTER = """  </zone>
</platform>
"""


def torus_dims(nodes):
    """Most cubic X x Y x Z with X*Y*Z = nodes."""
    best = None
    for x in range(1, nodes + 1):
        if nodes % x:
            continue
        for y in range(x, nodes // x + 1):
            if (nodes // x) % y:
                continue
            z = nodes // x // y
            if z < y:
                continue
            score = z - x
            if best is None or score < best[0]:
                best = (score, (x, y, z))
    return best[1]


def mean_torus_hops(dims):
    # Mean ring distance over a ring of d nodes is about d/4 (exactly: sum of min(i, d-i) / d).
    return sum(sum(min(i, d - i) for i in range(d)) / d for d in dims)


def bgp_torus(nodes, cores, speed):
    dims = torus_dims(nodes)
    hops = max(1.0, mean_torus_hops(dims))
    hop_lat = 3.0 / hops
    notes = (f"BlueGene/P-like 3-D torus {dims[0]}x{dims[1]}x{dims[2]} = {nodes} nodes x {cores} cores, "
             f"{speed} Gflop/s per core;\n425 MB/s torus links; 3 us end to end at the mean distance of "
             f"{hops:.2f} hops -> {hop_lat:.4f} us per hop.")
    body = (f'    <cluster id="bgp" prefix="node-" suffix="" radical="0-{nodes - 1}" speed="{speed}Gf" '
            f'core="{cores}" bw="425MBps" lat="{hop_lat:.4f}us" topology="TORUS" '
            f'topo_parameters="{dims[0]},{dims[1]},{dims[2]}" loopback_bw="1.5GBps" loopback_lat="1us"/>\n')
    return notes, body


BGP_MESH_MAX_NODES = 256  # 1024 cores: the thesis' mesh partition (Fig 4.7)
BGP_HOP_US, BGP_SEND_US, BGP_RECV_US = 0.1, 1.25, 1.25


def mesh_route(a, b, dims):
    """Dimension-ordered (X, then Y, then Z) links from node a to node b: ("x+", node) etc."""
    coords = [list(node_coords(a, dims)), node_coords(b, dims)]
    here, there = coords
    links = []
    for d in range(3):
        step = 1 if there[d] > here[d] else -1
        while here[d] != there[d]:
            links.append(f"{'xyz'[d]}{'+' if step > 0 else '-'}-{node_index(here, dims)}")
            here[d] += step
    return links


def node_coords(i, dims):
    """X fastest, as SimGrid's torus numbers its nodes."""
    return (i % dims[0], i // dims[0] % dims[1], i // (dims[0] * dims[1]))


def node_index(c, dims):
    return c[0] + dims[0] * (c[1] + dims[1] * c[2])


def bgp_mesh_body(nodes, cores, speed, dims):
    """A Full zone: hosts, one link per direction between mesh neighbours, explicit routes."""
    lines = []
    for i in range(nodes):
        lines.append(f'    <host id="node-{i}" speed="{speed}Gf" core="{cores}"/>\n')
        lines.append(f'    <link id="lo-{i}" bandwidth="1.5GBps" latency="1us" sharing_policy="FATPIPE"/>\n')
        c = node_coords(i, dims)
        for d in range(3):
            for sign, delta in (("+", 1), ("-", -1)):
                if 0 <= c[d] + delta < dims[d]:
                    lines.append(f'    <link id="{"xyz"[d]}{sign}-{i}" bandwidth="425MBps" '
                                 f'latency="{BGP_HOP_US}us"/>\n')
    for a in range(nodes):
        lines.append(f'    <route src="node-{a}" dst="node-{a}"><link_ctn id="lo-{a}"/></route>\n')
        for b in range(nodes):
            if a != b:
                hops = "".join(f'<link_ctn id="{link}"/>' for link in mesh_route(a, b, dims))
                lines.append(f'    <route src="node-{a}" dst="node-{b}" symmetrical="NO">{hops}</route>\n')
    return "".join(lines)


def bgp_thesis(nodes, cores, speed):
    dims = torus_dims(nodes)
    shape = "mesh" if nodes <= BGP_MESH_MAX_NODES else "torus"
    notes = (f"BlueGene/P as in the thesis: 3-D {shape} {dims[0]}x{dims[1]}x{dims[2]} = {nodes} nodes x {cores} "
             f"cores, {speed} Gflop/s per core;\n425 MB/s links, {BGP_HOP_US} us per hop, per off-node message "
             f"{BGP_SEND_US} us send + {BGP_RECV_US} us receive overhead (run with smpi/bcast:scatter_LR_allgather).")
    if shape == "mesh":
        body = bgp_mesh_body(nodes, cores, speed, dims)
    else:
        body = (f'    <cluster id="bgp" prefix="node-" suffix="" radical="0-{nodes - 1}" speed="{speed}Gf" '
                f'core="{cores}" bw="425MBps" lat="{BGP_HOP_US}us" topology="TORUS" '
                f'topo_parameters="{dims[0]},{dims[1]},{dims[2]}" loopback_bw="1.5GBps" loopback_lat="1us"/>\n')
    return notes, body


def xc40_dragonfly(nodes, cores, speed):
    per_router, routers, chassis = 4, 16, 6
    per_group = per_router * routers * chassis
    if nodes <= per_router * routers:
        groups, nch, nr = 1, 1, math.ceil(nodes / per_router)
    elif nodes <= per_group:
        groups, nch, nr = 1, math.ceil(nodes / (per_router * routers)), routers
    else:
        groups, nch, nr = math.ceil(nodes / per_group), chassis, routers
    total = groups * nch * nr * per_router
    notes = (f"Cray XC40 (Hazel Hen)-like dragonfly: {groups} group(s) x {nch} chassis x {nr} routers x "
             f"{per_router} nodes = {total} nodes x {cores} cores, {speed} Gflop/s per core;\n5 GB/s links, "
             f"0.3 us per hop (Aries).")
    body = (f'    <cluster id="xc40" prefix="nid" suffix="" radical="0-{total - 1}" speed="{speed}Gf" '
            f'core="{cores}" bw="5GBps" lat="0.3us" topology="DRAGONFLY" '
            f'topo_parameters="{groups},1;{nch},3;{nr},1;{per_router}" loopback_bw="8GBps" '
            f'loopback_lat="0.3us"/>\n')
    return notes, body, total


def ib_fattree(nodes, cores, speed):
    down = 18
    leaves = max(1, math.ceil(nodes / down))
    total = leaves * down
    spines = min(18, max(1, leaves))
    notes = (f"InfiniBand EDR-like 2-level fat tree: {leaves} leaf switches x {down} nodes = {total} nodes x "
             f"{cores} cores, {spines} spines, {speed} Gflop/s per core;\n11 GB/s, 0.25 us per link.")
    body = (f'    <cluster id="ib" prefix="node-" suffix="" radical="0-{total - 1}" speed="{speed}Gf" '
            f'core="{cores}" bw="11GBps" lat="0.25us" topology="FAT_TREE" '
            f'topo_parameters="2;{down},{leaves};1,{spines};1,1" loopback_bw="8GBps" loopback_lat="0.3us"/>\n')
    return notes, body, total


# Graphene (Grid'5000 Nancy): the docstring has every value's source or assumption.
GRAPHENE_CABINETS = ((1, 39), (40, 74), (75, 104), (105, 144))  # SimGrid's examples/platforms/nancy.xml
GRAPHENE_NODES = 144
GRAPHENE_TCP_BW_FACTOR = 0.940694  # SMPI's bw-factor for >= 65472 B (SimGrid 3.32 default)
# network: node link bandwidth, node link latency us, uplink bandwidth, uplink latency us,
#          send and receive overhead us per off-node message
GRAPHENE_NET = {
    "graphene-gige": (f"{125 * GRAPHENE_TCP_BW_FACTOR:.4f}MBps", 15.0, f"{1250 * GRAPHENE_TCP_BW_FACTOR:.4f}MBps", 2.5,
                      8.75, 9.31),
    "graphene-ib": ("1.5GBps", 0.7, "6GBps", 0.1, 0.5, 0.5),
}


def graphene(machine, nodes, cores, speed):
    """Four SimGrid clusters (one per cabinet switch) in the Full world zone; a route between two
    cabinets crosses both cabinets' uplinks (the router between them has no cost of its own)."""
    bw, lat, up_bw, up_lat, send, recv = GRAPHENE_NET[machine]
    net = "Gigabit Ethernet (TCP)" if machine.endswith("gige") else "20G InfiniBand (DDR 4x)"
    notes = (f"Grid'5000 Graphene: 4 cabinets of 39/35/30/40 nodes x {cores} cores, {speed} Gflop/s per core, {net};\n"
             f"node links {bw}, {lat} us; cabinet uplinks to the router {up_bw}, {up_lat} us; per off-node message "
             f"{send} us send + {recv} us receive overhead.")
    lines = []
    for k, (first, last) in enumerate(GRAPHENE_CABINETS, 1):
        lines.append(f'    <cluster id="cabinet{k}" prefix="graphene-" suffix="" radical="{first}-{last}" speed="{speed}Gf" '
                     f'core="{cores}" bw="{bw}" lat="{lat}us" sharing_policy="SPLITDUPLEX" router_id="switch{k}" '
                     f'loopback_bw="6GBps" loopback_lat="0.5us"/>\n')  # shm off: all of the sm latency on the loopback
    for k in range(1, len(GRAPHENE_CABINETS) + 1):
        lines.append(f'    <link id="uplink{k}" bandwidth="{up_bw}" latency="{up_lat}us" sharing_policy="SPLITDUPLEX"/>\n')
    for a in range(1, len(GRAPHENE_CABINETS) + 1):
        for b in range(1, len(GRAPHENE_CABINETS) + 1):
            if a != b:
                lines.append(f'    <zoneRoute src="cabinet{a}" dst="cabinet{b}" gw_src="switch{a}" gw_dst="switch{b}" '
                             f'symmetrical="NO"><link_ctn id="uplink{a}" direction="UP"/>'
                             f'<link_ctn id="uplink{b}" direction="DOWN"/></zoneRoute>\n')
    props = [("hympi_net_send_overhead_us", send), ("hympi_net_recv_overhead_us", recv)]
    return notes, "".join(lines), props


# (overhead us, core copy GB/s, node copy GB/s, flag poll us, loopback latency us,
#  cache share bytes per core, cache copy GB/s): see the docstring.
SHM = {"bgp-torus": (0.9, 1.5, 5.0, 0.1, 0.1, 2 << 20, 3.0),
       "xc40-dragonfly": (0.3, 8.0, 55.0, 0.15, 0.05, 2560 << 10, 20.0),
       "ib-fattree": (0.3, 8.0, 55.0, 0.15, 0.05, 2560 << 10, 20.0)}
SHM["bgp"] = SHM["bgp-torus"]  # the thesis' BG/P has the same nodes
SHM["graphene-gige"] = SHM["graphene-ib"] = (0.4, 6.0, 7.0, 0.08, 0.1, 2 << 20, 15.0)  # one Xeon X3440
# A memory fence (MPI_Win_sync, apps/smpi/glue/win_sync_cost.cpp), us: see the docstring. Only where
# calibrated (the Zhou figures' machine); the other platforms stay as they were (no fence cost).
FENCE_US = {"xc40-dragonfly": 0.015}


def with_shm_costs(body, machine):
    """The loopback at the core's copy rate with a small latency, and the on-node cost
    properties (onnode_cost.cpp) for with_properties."""
    overhead, core, node, flag, lat, cache, cache_rate = SHM[machine]
    body = re.sub(r'loopback_bw="[^"]*" ?', f'loopback_bw="{core}GBps" ', body)
    body = re.sub(r'loopback_lat="[^"]*"', f'loopback_lat="{lat}us"', body)
    body = re.sub(r'(<link id="lo-\d+" )bandwidth="[^"]*" latency="[^"]*"', rf'\1bandwidth="{core}GBps" latency="{lat}us"',
                  body)
    return body, [("hympi_shm_overhead_us", overhead), ("hympi_core_copy_GBps", core),
                  ("hympi_node_copy_GBps", node), ("hympi_flag_poll_us", flag), ("hympi_cache_bytes", cache),
                  ("hympi_cache_copy_GBps", cache_rate)] + [("hympi_fence_us", f) for f in [FENCE_US.get(machine)] if f]


def with_properties(body, props):
    """Host properties on the cluster element, or on every <host> of a mesh."""
    inner = "".join(f'      <prop id="{k}" value="{v}"/>\n' for k, v in props)
    if "<cluster" in body:  # every cluster (graphene has one per cabinet)
        return re.sub(r'(<cluster [^>]*?)/>\n', lambda m: m.group(1) + ">\n" + inner + "    </cluster>\n", body)
    return re.sub(r'(<host [^>]*)/>\n', lambda m: m.group(1) + ">\n" + inner + "    </host>\n", body)


def with_bgp_coordinates(body, nodes):
    """BG/P's (x, y, z) of every node (bgp, bgp-torus) for the simulated DCMF broadcast (glue/dcmf_*):
    hympi_bgp_dims "X,Y,Z" and hympi_bgp_wrap "0,0,0" (mesh) or "1,1,1" (torus) on every host,
    and hympi_bgp_coords "x,y,z" on each mesh host. A torus cluster cannot carry per-host
    properties: there node-<i>'s coordinates are node_coords(i, dims), X fastest (SimGrid's
    own torus numbering), and the glue derives them from the host's name. t (the core) is the
    rank's place among its node's ranks, known only at run time."""
    dims = torus_dims(nodes)
    wrap = "1,1,1" if "<cluster" in body else "0,0,0"  # SimGrid's torus cluster, or bgp's mesh zone
    shared = (f'      <prop id="hympi_bgp_dims" value="{dims[0]},{dims[1]},{dims[2]}"/>\n'
              f'      <prop id="hympi_bgp_wrap" value="{wrap}"/>\n')

    def host(m):
        c = node_coords(int(m.group(2)), dims)
        own = f'      <prop id="hympi_bgp_coords" value="{c[0]},{c[1]},{c[2]}"/>\n'
        return m.group(1) + ">\n" + shared + own + ("    </host>\n" if m.group(3) else "")

    body = re.sub(r'(<host id="node-(\d+)"[^>]*?)(/?)>\n', host, body)
    return re.sub(r'(<cluster id="bgp"[^>]*?)(/?)>\n',
                  lambda m: m.group(1) + ">\n" + shared + ("    </cluster>\n" if m.group(2) else ""), body)


DEFAULTS = {"bgp": (4, 2.25), "bgp-torus": (4, 3.4), "xc40-dragonfly": (24, 36.0), "ib-fattree": (32, 30.0),
            "graphene-gige": (4, 4.17), "graphene-ib": (4, 4.17)}


def hostfile(prefix, nodes, cores, ranks, placement, first=0):
    """smpirun gives ranks to the hostfile's lines in order, cycling when they run out: xyzt
    lists every node once with one rank (rank r on node r mod nodes). Nodes are numbered from first."""
    if placement == "xyzt":
        if ranks % nodes:
            raise SystemExit(f"make_platform.py: --placement xyzt needs ranks ({ranks}) a multiple of the nodes ({nodes})")
        return "".join(f"{prefix}{i + first}:1\n" for i in range(nodes))
    lines, left = [], ranks
    for i in range(nodes):
        lines.append(f"{prefix}{i + first}:{min(cores, left)}\n")
        left -= cores
    return "".join(lines)


def with_fair_sharing(body):
    """Network links at latency 0; their latency (one value per platform) as hympi_hop_latency_us."""
    if "<cluster" in body:
        lat = re.search(r' lat="([0-9.]+)us"', body).group(1)
        return re.sub(r' lat="[0-9.]+us"', ' lat="0us"', body), [("hympi_hop_latency_us", lat)]
    lats = set(re.findall(r'<link id="[xyz][+-]-\d+" bandwidth="[^"]*" latency="([0-9.]+)us"', body))
    if len(lats) != 1:
        raise SystemExit(f"make_platform.py: --sharing fair needs one network link latency, found {sorted(lats)}")
    body = re.sub(r'(<link id="[xyz][+-]-\d+" bandwidth="[^"]*" )latency="[0-9.]+us"', r'\1latency="0us"', body)
    return body, [("hympi_hop_latency_us", lats.pop())]


def main(argv=None):
    ap = argparse.ArgumentParser(description="Write a SimGrid platform and hostfile for a modelled machine.")
    ap.add_argument("machine", choices=sorted(DEFAULTS))
    ap.add_argument("--ranks", type=int, required=True, help="simulated MPI ranks (one per core)")
    ap.add_argument("--cores", type=int, help="cores per node (default: the machine's)")
    ap.add_argument("--speed", type=float, help="Gflop/s per core (default: the machine's)")
    ap.add_argument("--shm-costs", choices=["on", "off"], default="on",
                    help="charge on-node copies and overheads (default on; off: the older loopback-only platform)")
    ap.add_argument("--placement", choices=["block", "xyzt"], default="block",
                    help="rank order: block (a node's cores consecutive) or xyzt (one rank per node, X first, "
                         "then the next core: BG/P's default mapping)")
    ap.add_argument("--sharing", choices=["route", "fair"], default="route",
                    help="link sharing: route (default; links keep their latency, SimGrid weights flows by it) or "
                         "fair (0-latency links, hympi_hop_latency_us for the simulated MPI layer)")
    ap.add_argument("--out", required=True, help="platform file to write (hostfile: same name, .hosts)")
    a = ap.parse_args(argv)
    cores = a.cores or DEFAULTS[a.machine][0]
    speed = a.speed or DEFAULTS[a.machine][1]
    if a.ranks < 1 or cores < 1 or speed <= 0:
        ap.error("--ranks, --cores and --speed must be positive")
    nodes = math.ceil(a.ranks / cores)
    props, first = [], 0
    if a.machine.startswith("graphene") and a.sharing == "fair":
        ap.error("--sharing fair is BG/P's (per-packet routers); Graphene's TCP/IB flows keep route sharing")
    if a.machine.startswith("graphene") and nodes > GRAPHENE_NODES:
        ap.error(f"{a.machine} has {GRAPHENE_NODES} nodes, {nodes} asked")
    if a.machine == "bgp-torus":
        notes, body = bgp_torus(nodes, cores, speed)
        total, prefix = nodes, "node-"
    elif a.machine == "bgp":
        notes, body = bgp_thesis(nodes, cores, speed)
        props = [("hympi_net_send_overhead_us", BGP_SEND_US), ("hympi_net_recv_overhead_us", BGP_RECV_US)]
        total, prefix = nodes, "node-"
    elif a.machine.startswith("graphene"):
        notes, body, props = graphene(a.machine, nodes, cores, speed)
        total, prefix, first = GRAPHENE_NODES, "graphene-", 1
    elif a.machine == "xc40-dragonfly":
        notes, body, total = xc40_dragonfly(nodes, cores, speed)
        prefix = "nid"
    else:
        notes, body, total = ib_fattree(nodes, cores, speed)
        prefix = "node-"
    if a.shm_costs == "on":
        body, shm_props = with_shm_costs(body, a.machine)
        props += shm_props
    if a.sharing == "fair":
        body, fair_props = with_fair_sharing(body)
        props += fair_props
    if props:
        body = with_properties(body, props)
    if a.machine in ("bgp", "bgp-torus"):
        body = with_bgp_coordinates(body, nodes)  # for the simulated DCMF broadcast
    args = " ".join(sys.argv[1:] if argv is None else argv)
    args = re.sub(r" --sharing[ =]route\b", "", args)  # the default: today's file byte for byte
    with open(a.out, "w") as f:
        f.write(HEADER.format(args=args, notes=notes) + body + FOOTER)
    hosts = os.path.splitext(a.out)[0] + ".hosts"
    with open(hosts, "w") as f:
        f.write(hostfile(prefix, nodes, cores, a.ranks, a.placement, first))
    print(f"{a.out}: {notes.splitlines()[0]} ({total} nodes in the platform, {nodes} used); hostfile {hosts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
