#!/usr/bin/env python3
"""hympi-grouped-model: --help names the machine's variables; the picks at issue 44's BG/P 64 KiB
points (2048 ranks, 4 per node, the 8 x 8 x 8 torus) are one group per node under both broadcast
rules and the flat broadcast without the torus; its CSV's model_s and auto columns agree (the pick
has the least time); bad input is exit 2 with one "hympi-grouped-model: error:" line naming it;
the largest torus's pick takes seconds at most.
usage: grouped_model_test.py TOOL"""
import csv
import os
import subprocess
import sys
import time

BGP = {"HYMPI_MODEL_ALPHA": "3e-6", "HYMPI_MODEL_BETA": "2.3529411764705882e-09", "HYMPI_MODEL_NODE_RANKS": "4",
       "HYMPI_MODEL_SHM_ALPHA": "1e-6", "HYMPI_MODEL_SHM_BETA": "6.666666666666667e-10"}


def run(tool, args, **env):
    e = {k: v for k, v in os.environ.items() if not k.startswith("HYMPI_MODEL_")}
    e.update(env)
    return subprocess.run([tool, *args], capture_output=True, text=True, env=e, timeout=60)


def pick(tool, args, **env):
    r = run(tool, args, **env)
    assert r.returncode == 0, r.stderr
    rows = list(csv.DictReader(line for line in r.stdout.splitlines() if not line.startswith("#")))
    chosen = [int(x["groups"]) for x in rows if x["auto"] == "1"]
    fastest = min(rows, key=lambda x: float(x["model_s"]))
    assert len(chosen) == 1 and chosen[0] == int(fastest["groups"]), (chosen, fastest)
    return chosen[0]


def main(tool):
    h = run(tool, ["--help"])
    assert h.returncode == 0 and "HYMPI_MODEL_TORUS" in h.stdout and "--ranks" in h.stdout, h.stdout
    for rule in ("mpich", "dcmf"):
        with_torus = pick(tool, ["--ranks", "2048", "--bytes", "65536"], HYMPI_MODEL_BCAST=rule,
                          HYMPI_MODEL_TORUS="8x8x8", **BGP)
        blind = pick(tool, ["--ranks", "2048", "--bytes", "65536"], HYMPI_MODEL_BCAST=rule, **BGP)
        assert (with_torus, blind) == (512, 1), (rule, with_torus, blind)
    assert pick(tool, ["--ranks", "2048", "--bytes", str(1 << 20)], HYMPI_MODEL_BCAST="dcmf",
                HYMPI_MODEL_TORUS="8x8x8", **BGP) == 1
    # Root 5 leads its group: the leaders sit at t = 0 and, on node 1, t = 1: a box they do not fill.
    assert pick(tool, ["--ranks", "2048", "--bytes", "65536", "--root", "5"], HYMPI_MODEL_BCAST="dcmf",
                HYMPI_MODEL_TORUS="8x8x8", **BGP) != 512
    # More ranks than the torus holds: the torus is not used, and the tool says so.
    big = run(tool, ["--ranks", "4096", "--bytes", "65536"], HYMPI_MODEL_TORUS="8x8x8", **BGP)
    assert big.returncode == 0 and "the torus is not used" in big.stdout, big.stdout
    # Every app's bad usage: exit 2 and one line "<app>: error: ..." naming it (option errors
    # too, not CLI11's own codes 104-109), the model's variables strict.
    for args, env, says in ((["--ranks", "8", "--bytes", "64", "--groups", "9"], {}, "exceeds --ranks"),
                            (["--ranks", "0", "--bytes", "64"], {}, "--ranks"),
                            (["--ranks", "abc", "--bytes", "64"], {}, "--ranks"),
                            (["--ranks", "8"], {}, "--bytes"),
                            (["--ranks", "8", "--bytes", "64", "--bogus"], {}, "--bogus"),
                            (["--ranks", "8", "--bytes", "64", "--groups", "99999999999"], {}, "--groups"),
                            (["--ranks", "8", "--bytes", "64"], {"HYMPI_MODEL_TORUS": "8x8"}, "HYMPI_MODEL_TORUS"),
                            (["--ranks", "8", "--bytes", "64"], {"HYMPI_MODEL_BCAST": "tree"}, "HYMPI_MODEL_BCAST"),
                            (["--ranks", "8", "--bytes", "64"], {"HYMPI_MODEL_ALPHA": "fast"}, "HYMPI_MODEL_ALPHA"),
                            (["--ranks", "8", "--bytes", "64"], {"HYMPI_MODEL_NODE_RANKS": "1e12"},
                             "HYMPI_MODEL_NODE_RANKS"),
                            (["--ranks", "8", "--bytes", "64", "--root", "8"], {}, "--root")):
        r = run(tool, args, **env)
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1 and lines[0].startswith("hympi-grouped-model: error: ") \
            and says in lines[0], (args, env, r.returncode, r.stderr)
    # The largest torus it accepts (2^22 nodes), 3 ranks per node: the leaders' loads by the closed
    # form, not flow by flow (that took over 60 s; 0.01 s now): bounded well below the timeout.
    start = time.monotonic()
    assert pick(tool, ["--ranks", str(128 * 128 * 256 * 3), "--bytes", "65536"], HYMPI_MODEL_TORUS="128x128x256",
                HYMPI_MODEL_NODE_RANKS="3", **{k: v for k, v in BGP.items() if k != "HYMPI_MODEL_NODE_RANKS"}) > 1
    assert time.monotonic() - start < 10, time.monotonic() - start
    # --time adds one '# pick_seconds: S' line (positive, below the 0.2 s it repeats for) and
    # leaves the CSV as it was.
    plain = run(tool, ["--ranks", "64", "--bytes", "16384"])
    timed = run(tool, ["--ranks", "64", "--bytes", "16384", "--time"])
    extra = [l for l in timed.stdout.splitlines() if l not in plain.stdout.splitlines()]
    assert timed.returncode == 0 and len(extra) == 1 and extra[0].startswith("# pick_seconds: "), timed.stdout
    assert 0 < float(extra[0].split(":")[1]) < 0.2, extra
    print("ok")


if __name__ == "__main__":
    main(sys.argv[1])
