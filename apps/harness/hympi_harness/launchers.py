"""Launch commands: local (one machine, emulated nodes), mpirun (real nodes), srun (Slurm/Cray).

With emulation (always for local, optional for the others via --emulate-nodes) every rank
runs wherever the launcher puts it and the app is told the layout (--ranks-per-node,
--node-sizes, --placement); without it the launcher places ranks on real nodes and the app
detects them itself.
"""
import os
import re
import shutil

from .compat import command_output

LAUNCHERS = ("local", "mpirun", "srun")
# core: one core per rank, ranks in blocks (the default: the same figure means the same on
# every cluster); none: unbound; launcher: whatever the launcher does by default.
BINDINGS = ("core", "none", "launcher")
# Emulated layouts come from the harness' own options; left in the environment they would
# split real nodes (the apps read them as defaults).
LAYOUT_ENV = ("HYMPI_RANKS_PER_NODE", "HYMPI_NODE_SIZES", "HYMPI_PLACEMENT")
THREAD_ENV = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS")


class LaunchError(Exception):
    pass


def detect_mpi_family(mpiexec):
    text = command_output([mpiexec, "--version"], timeout=20, with_stderr=True) or ""
    if "Open MPI" in text or "OpenRTE" in text:
        return "openmpi"
    if "HYDRA" in text or "MPICH" in text or "Intel" in text:
        return "mpich"
    return "other"


def slurm_hosts():
    """Hosts of the current Slurm allocation, in order (empty outside Slurm)."""
    nodelist = os.environ.get("SLURM_JOB_NODELIST") or os.environ.get("SLURM_NODELIST")
    if not nodelist:
        return []
    hosts = (command_output(["scontrol", "show", "hostnames", nodelist]) or "").split()
    if hosts:
        return hosts
    return [nodelist] if "[" not in nodelist and "," not in nodelist else []


class Launcher:
    def __init__(self, kind, mpiexec=None, mpi_family=None, emulate=False, extra_args=(), srun_mpi=None,
                 hosts=None, binding="core"):
        if kind not in LAUNCHERS:
            raise LaunchError(f"unknown launcher '{kind}'; choose one of {', '.join(LAUNCHERS)}")
        if binding not in BINDINGS:
            raise LaunchError(f"unknown binding '{binding}'; choose one of {', '.join(BINDINGS)}")
        self.kind = kind
        self.emulate = emulate or kind == "local"
        # Emulated nodes under mpirun oversubscribe one machine: binding to cores would stack ranks.
        self.binding = "none" if self.emulate and kind != "srun" else binding
        self.extra_args = list(extra_args)
        self.srun_mpi = srun_mpi
        self.hosts = list(hosts) if hosts else []
        self.hostfile_dir = None  # where srun's arbitrary-distribution host files go
        self.write_hostfiles = True  # False in a dry run: the file is only named, never written
        if kind == "srun":
            self.mpiexec = shutil.which("srun") or "srun"
            self.mpi_family = mpi_family or "other"
        else:
            self.mpiexec = mpiexec or shutil.which("mpirun") or shutil.which("mpiexec") or "mpirun"
            self.mpi_family = mpi_family or detect_mpi_family(self.mpiexec)

    def point_hosts(self, point):
        """The hosts a point runs on: its own nodes when the harness placed it, else the allocation."""
        if not self.emulate and self.hosts and point.nodes and point.nodes <= len(self.hosts):
            return self.hosts[:point.nodes]
        return self.hosts or [os.uname().nodename]

    def _srun_binding(self, roundrobin):
        if self.binding == "core":
            return ["--cpu-bind=verbose,cores", "--distribution=" + ("cyclic" if roundrobin else "block") + ":block"]
        if self.binding == "none":
            return ["--cpu-bind=verbose,none"]
        return ["--cpu-bind=verbose"]

    def _node_hosts(self, point):
        """Host of each node of the point, or None when the launcher should choose."""
        if self.emulate or not point.nodes or not self.hosts:
            return None
        if point.nodes > len(self.hosts):
            raise LaunchError(f"point needs {point.nodes} nodes but only {len(self.hosts)} hosts are known")
        return self.hosts[:point.nodes]

    def _node_sizes(self, point):
        p = point.params
        if "node_sizes" in p:
            return p["node_sizes"]
        if p.get("ranks_per_node") and point.nodes:
            rpn = p["ranks_per_node"]
            return [min(rpn, p["ranks"] - i * rpn) for i in range(point.nodes)]
        return None

    def command(self, point, app_path, app_args, env):
        """Returns (argv, extra environment) for one point."""
        p = point.params
        roundrobin = p.get("placement") == "roundrobin"
        extra_env = {}
        if self.kind == "srun":
            cmd = [self.mpiexec, "-n", str(point.ranks)]
            if self.srun_mpi:
                cmd.append(f"--mpi={self.srun_mpi}")
            if self.emulate:
                cmd += self._srun_binding(roundrobin)
            else:
                sizes = self._node_sizes(point)
                hosts = self._node_hosts(point)
                irregular = sizes and len(set(sizes)) > 1
                # The batch step's own task layout must not leak into the point's (#19.7).
                extra_env["SLURM_NTASKS_PER_NODE"] = None
                extra_env["SLURM_DISTRIBUTION"] = None
                if point.nodes:
                    cmd += ["-N", str(point.nodes)]
                if irregular and hosts:
                    # Irregular nodes: one host per rank in a file, in rank order.
                    per_rank = _rank_hosts(hosts, sizes, roundrobin)
                    path = os.path.join(self.hostfile_dir or ".", f"hosts-{point.id}.txt")
                    if self.write_hostfiles:
                        with open(path, "w") as f:
                            f.write("\n".join(per_rank) + "\n")
                    extra_env["SLURM_HOSTFILE"] = path
                    cmd += ["--distribution=arbitrary", "-w", ",".join(hosts)]
                    if self.binding != "launcher":
                        cmd.append("--cpu-bind=verbose," + ("cores" if self.binding == "core" else "none"))
                elif irregular:
                    raise LaunchError("irregular node_sizes under srun need the allocation's host list")
                else:
                    if hosts:
                        cmd += ["-w", ",".join(hosts)]
                    if p.get("ranks_per_node"):
                        cmd += ["--ntasks-per-node", str(p["ranks_per_node"])]
                    cmd += self._srun_binding(roundrobin)
        elif self.mpi_family == "openmpi":
            cmd = [self.mpiexec, "-np", str(point.ranks)]
            if self.emulate:
                cmd += ["--oversubscribe", "--bind-to", "none"]
            else:
                sizes = self._node_sizes(point)
                hosts = self._node_hosts(point)
                if hosts and sizes:
                    cmd += ["--host", ",".join(f"{h}:{n}" for h, n in zip(hosts, sizes))]
                    cmd += ["--map-by", "node" if roundrobin else "slot"]
                elif p.get("ranks_per_node"):
                    cmd += ["--map-by", f"ppr:{p['ranks_per_node']}:node"]
                elif roundrobin:
                    cmd += ["--map-by", "node"]
                if self.binding != "launcher":
                    cmd += ["--bind-to", "core" if self.binding == "core" else "none"]
                cmd.append("--report-bindings")
        else:  # MPICH / Hydra and compatible
            cmd = [self.mpiexec, "-n", str(point.ranks)]
            if not self.emulate:
                sizes = self._node_sizes(point)
                hosts = self._node_hosts(point)
                if hosts and sizes:
                    if roundrobin:
                        cmd += ["-hosts", ",".join(hosts)]
                    else:
                        cmd += ["-hosts", ",".join(f"{h}:{n}" for h, n in zip(hosts, sizes))]
                elif p.get("ranks_per_node"):
                    cmd += ["-ppn", str(p["ranks_per_node"])]
                if self.binding != "launcher":
                    cmd += ["-bind-to", "core" if self.binding == "core" else "none"]
                extra_env["HYDRA_TOPO_DEBUG"] = "1"  # Hydra prints each rank's binding
        cmd += self.extra_args
        cmd.append(app_path)
        cmd += app_args
        return cmd, extra_env


def _rank_hosts(hosts, sizes, roundrobin):
    if not roundrobin:
        return [h for h, n in zip(hosts, sizes) for _ in range(n)]
    left = list(sizes)
    out = []
    while any(left):
        for i, h in enumerate(hosts):
            if left[i]:
                out.append(h)
                left[i] -= 1
    return out


def run_environment(experiment_env, extra_env=None):
    """Environment of every run: Open MPI allowed as root, no emulated layout from the caller's
    environment, one OpenMP/BLAS thread per rank whatever was exported (an experiment's [env]
    may say otherwise), then the launcher's additions (None removes a variable)."""
    env = dict(os.environ)
    if os.geteuid() == 0:
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    for name in LAYOUT_ENV:
        env.pop(name, None)
    env.update((name, "1") for name in THREAD_ENV)
    env.update(experiment_env)
    for name, value in (extra_env or {}).items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def thread_settings(env):
    """The thread counts a run got, e.g. "OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1"."""
    return " ".join(f"{k}={env[k]}" for k in THREAD_ENV if k in env)


# srun --cpu-bind=verbose: "cpu-bind=MASK - host, task  0  0 [1234]: mask 0x1 set";
# Open MPI --report-bindings: "[host:1234] MCW rank 0 bound to socket 0[core 0[hwt 0]]: [B/.]"
# or "MCW rank 0 is not bound"; Hydra (HYDRA_TOPO_DEBUG=1): "process 0 binding: 0001".
_BINDING_LINES = (re.compile(r"cpu.bind[^,]*, task\s+(\d+)\s+\d+\s+\[\d+\]: mask (\S+)"),
                  re.compile(r"MCW rank (\d+) bound to .*: (\[.*\])"),
                  re.compile(r"MCW rank (\d+) (is not bound)"),
                  re.compile(r"process (\d+) binding: (\S+)"))


def describe_binding(*log_paths):
    """What the launcher reported about each rank's binding, compactly; "" if it said nothing."""
    seen = {}
    for path in log_paths:
        try:
            with open(path, errors="replace") as f:
                for line in f:
                    for pattern in _BINDING_LINES:
                        m = pattern.search(line)
                        if m:
                            seen[int(m.group(1))] = m.group(2).replace(" ", "")
                            break
        except OSError:
            continue
    if not seen:
        return ""
    ranks = sorted(seen)
    shown = " ".join(f"{r}:{seen[r]}" for r in ranks[:8])
    if len(ranks) > 8:
        shown += f" ... ({len(ranks)} ranks, {len(set(seen.values()))} distinct)"
    return shown
