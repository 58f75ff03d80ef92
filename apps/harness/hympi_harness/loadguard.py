"""Load guard: was the machine quiet while a point ran?

Over each launch the harness reads /proc/stat (CPU time of the whole machine) and
getrusage (CPU time of the harness and the launches it waited for); the difference is the
CPU time that other processes used or the hypervisor stole. As a share of the cores
available over the launch's wall time it says whether the point was measured on a busy
machine (`busy` column, marked on the plots). Without /proc (not Linux) the columns stay
empty and nothing is flagged."""
import os
import resource
import time

BUSY_SHARE = 0.25  # other processes used more than a quarter of the cores: the point is "busy"
MIN_SAMPLE = 0.1  # seconds: 10 clock ticks of /proc/stat at the usual 100 Hz (a shorter sample sees ~none)
COLUMNS = ["load1", "other_cpu_share", "busy"]


def machine_cpu_seconds():
    """CPU seconds the whole machine spent busy (user, nice, system, irq, softirq, steal), or None."""
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    ticks = [int(x) for x in fields[1:]]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # idle + iowait
    busy = sum(ticks[:8]) - idle  # guest time is already inside user
    return busy / os.sysconf("SC_CLK_TCK")


def own_cpu_seconds():
    """CPU seconds of this process and of the children it waited for (the launcher and its ranks)."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        r = resource.getrusage(who)
        total += r.ru_utime + r.ru_stime
    return total


def load1():
    try:
        return os.getloadavg()[0]
    except OSError:
        return None


def is_busy(other_share, threshold=BUSY_SHARE):
    return other_share is not None and other_share > threshold


class Probe:
    """Wraps one launch: Probe() before it, .result() after it waited for the launch."""

    def __init__(self, cpus=None):
        self.cpus = cpus or os.cpu_count() or 1
        self.t0 = time.monotonic()
        self.machine0 = machine_cpu_seconds()
        self.own0 = own_cpu_seconds()
        self.load0 = load1()

    def other_share(self):
        """Share of the cores other processes used since the probe started (None without /proc)."""
        machine = machine_cpu_seconds()
        wall = time.monotonic() - self.t0
        if machine is None or self.machine0 is None or wall <= 0:
            return None
        other = (machine - self.machine0) - (own_cpu_seconds() - self.own0)
        return max(0.0, other / (wall * self.cpus))

    def result(self, threshold=BUSY_SHARE):
        """{column: text} for the CSV: the higher load average of start and end, the share, the flag."""
        share = self.other_share()
        loads = [x for x in (self.load0, load1()) if x is not None]
        return {"load1": f"{max(loads):.2f}" if loads else "",
                "other_cpu_share": "" if share is None else f"{share:.3f}",
                "busy": "" if share is None else str(int(is_busy(share, threshold)))}


def wait_until_quiet(max_wait, sample=2.0, threshold=BUSY_SHARE, say=print):
    """Samples the machine (nothing of ours running) until other processes use at most `threshold`
    of the cores, for at most max_wait seconds. Returns the last share (None without /proc)."""
    deadline = time.monotonic() + max_wait
    while True:
        probe = Probe()
        time.sleep(sample)
        share = probe.other_share()
        if share is None or not is_busy(share, threshold):
            return share
        left = deadline - time.monotonic()
        if left <= 0:
            return share
        say(f"machine busy: other processes use {100 * share:.0f}% of {probe.cpus} cores "
            f"(load {load1():.2f}); waiting up to {left:.0f} s more")
