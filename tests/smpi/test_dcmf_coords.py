#!/usr/bin/env python3
"""make_platform.py bgp writes each node's BG/P coordinates for the simulated DCMF broadcast
(apps/smpi/glue/dcmf_*): on a mesh every host's own (x, y, z), distinct and filling the
X x Y x Z box, with the dims and no wrap; on the torus cluster the dims and the wrap (the
glue derives a node's coordinates from its name there). No SimGrid needed."""
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MAKE = os.path.join(ROOT, "apps", "smpi", "platforms", "make_platform.py")


def platform(tmp, ranks, *extra):
    out = os.path.join(tmp, f"bgp-{ranks}.xml")
    subprocess.run([sys.executable, MAKE, "bgp", "--ranks", str(ranks), "--out", out, *extra], check=True,
                   stdout=subprocess.DEVNULL)
    with open(out) as f:  # the header comment holds the command line's "--" (SimGrid's parser allows it)
        return ET.fromstring(re.sub(r"<!--.*?-->", "", f.read(), flags=re.S).split("\n", 1)[1])


def props(elem):
    return {p.get("id"): p.get("value") for p in elem.findall("prop")}


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for extra in ([], ["--shm-costs", "off"]):
            root = platform(tmp, 64, *extra)  # 16 nodes: a 2 x 2 x 4 mesh
            hosts = root.findall(".//host")
            seen = set()
            for h in hosts:
                p = props(h)
                i = int(h.get("id").removeprefix("node-"))
                want = f"{i % 2},{i // 2 % 2},{i // 4}"
                if p.get("hympi_bgp_coords") != want or p.get("hympi_bgp_dims") != "2,2,4" or \
                        p.get("hympi_bgp_wrap") != "0,0,0":
                    failures.append(f"mesh {extra}: {h.get('id')} has {p}")
                seen.add(p.get("hympi_bgp_coords"))
                if "hympi_net_send_overhead_us" not in p:
                    failures.append(f"mesh {extra}: {h.get('id')} lost its other properties")
            if len(hosts) != 16 or len(seen) != 16:
                failures.append(f"mesh {extra}: {len(hosts)} hosts, {len(seen)} distinct coordinates")
        cluster = platform(tmp, 2048).find(".//cluster")  # 512 nodes: the 8 x 8 x 8 torus
        p = props(cluster)
        if p.get("hympi_bgp_dims") != "8,8,8" or p.get("hympi_bgp_wrap") != "1,1,1" or \
                "hympi_net_recv_overhead_us" not in p:
            failures.append(f"torus cluster properties {p}")
    for f in failures:
        print("FAIL:", f)
    print("test_dcmf_coords:", "failed" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
