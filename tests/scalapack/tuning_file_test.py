#!/usr/bin/env python3
"""The groups=auto tuning file, through hympi-pdgemm-auto --probe on 2 ranks
(the drop-in's own code path): created on first use (directories included),
reused afterwards (not measured again), a corrupt one ignored with a warning and
rewritten, an unwritable location warned about once and the run goes on, the
default path under $XDG_CACHE_HOME, and a path that is not a regular file (a
private mknod copy of /dev/null, never the real one; a FIFO; a directory; a link
to a FIFO) warned about and left alone, with no lock file beside it. Usage: tuning_file_test.py <scratch> <launcher...> <tool>"""
import os
import re
import shutil
import socket
import stat
import subprocess
import sys

HEADER = "# hympi tuning file v1"
failures = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def probe(cmd, env_extra):
    env = {k: v for k, v in os.environ.items() if k not in ("HYMPI_TUNING_FILE", "XDG_CACHE_HOME")}
    env.update(env_extra)
    out = subprocess.run(cmd + ["--probe", "--grid", "2x1", "-n", "4096", "-M", "1024"], env=env, capture_output=True, text=True,
                         timeout=60)
    m = re.search(r"machine: alpha=(\S+) s beta=(\S+) s/B .* gamma=(\S+) Gflop/s", out.stdout)
    return out, (tuple(float(x) for x in m.groups()) if m else None)


def main(argv):
    scratch, cmd = argv[1], argv[2:]
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    path = os.path.join(scratch, "new", "dir", "tuning.txt")
    env = {"HYMPI_TUNING_FILE": path}

    out, machine = probe(cmd, env)
    check(out.returncode == 0 and machine is not None, f"first run measures (rc {out.returncode}) {out.stderr}")
    check(os.path.isfile(path) and open(path).readline().strip() == HEADER, "the file is created with its header")

    with open(path, "w") as f:
        f.write(f"{HEADER}\nalpha=0.00123\nbeta=4.5e-10\ngamma=6.7e9\n")
    before = open(path).read()
    out, machine = probe(cmd, env)
    check(machine == (0.00123, 4.5e-10, 6.7), f"a valid file is reused, not measured again: {machine}")
    check(open(path).read() == before, "a reused file is left unchanged")
    check("groups=auto: 2x1" in out.stdout, "its slow network makes the model group the 2x1 grid (M = 4b)")

    for bad in ("garbage\n", f"{HEADER}\nalpha=abc\nbeta=1e-9\ngamma=1e9\n",
                f"{HEADER}\nalpha=-1\nbeta=1e-9\ngamma=1e9\n", f"{HEADER}\nbeta=1e-9\ngamma=1e9\n"):
        with open(path, "w") as f:
            f.write(bad)
        out, machine = probe(cmd, env)
        check(out.returncode == 0 and machine is not None and machine[0] > 0,
              f"corrupt file {bad!r}: measured again (rc {out.returncode})")
        check(f"ignoring tuning file {path}" in out.stderr, f"corrupt file {bad!r}: a warning naming it")
        check(open(path).readline().strip() == HEADER, f"corrupt file {bad!r}: rewritten")

    blocker = os.path.join(scratch, "a-file")
    open(blocker, "w").close()
    out, machine = probe(cmd, {"HYMPI_TUNING_FILE": os.path.join(blocker, "tuning.txt")})
    check(out.returncode == 0 and machine is not None, "unwritable location: the run goes on")
    check(out.stderr.count("tuning file not saved") == 1, f"unwritable location: one warning ({out.stderr!r})")

    nodes = os.path.join(scratch, "nodes")
    os.makedirs(nodes)
    cases = []
    device = os.path.join(nodes, "null")
    try:
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        cases.append((device, "a character device"))
    except PermissionError:
        print("skip: mknod not permitted (the character device case)")
    fifo = os.path.join(nodes, "fifo")
    os.mkfifo(fifo)
    directory = os.path.join(nodes, "directory")
    os.mkdir(directory)
    link = os.path.join(nodes, "link-to-fifo")
    os.symlink(fifo, link)
    cases += [(fifo, "a FIFO"), (directory, "a directory"), (link, "a symbolic link to a FIFO")]
    for node, what in cases:
        before, names = os.lstat(node), sorted(os.listdir(nodes))
        out, machine = probe(cmd, {"HYMPI_TUNING_FILE": node})
        check(out.returncode == 0 and machine is not None, f"{what}: measured, the run goes on (rc {out.returncode})")
        check(f"ignoring tuning file {node}: it is {what}" in out.stderr and "left alone" in out.stderr,
              f"{what}: a warning naming it ({out.stderr!r})")
        after = os.lstat(node)
        check((after.st_ino, after.st_mode, after.st_rdev) == (before.st_ino, before.st_mode, before.st_rdev),
              f"{what}: left as it was")
        check(sorted(os.listdir(nodes)) == names, f"{what}: nothing created beside it ({sorted(os.listdir(nodes))})")

    xdg = os.path.join(scratch, "xdg")
    out, machine = probe(cmd, {"XDG_CACHE_HOME": xdg})
    default = os.path.join(xdg, "hympi", f"tuning-{socket.gethostname()}.txt")
    check(out.returncode == 0 and os.path.isfile(default), f"default path {default} is created")

    print(f"tuning file test: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
