"""Launch commands: local (one machine, emulated nodes), mpirun (real nodes), srun (Slurm/Cray).

With emulation (always for local, optional for the others via --emulate-nodes) every rank
runs wherever the launcher puts it and the app is told the layout (--ranks-per-node,
--node-sizes, --placement); without it the launcher places ranks on real nodes and the app
detects them itself.
"""
import os
import shutil
import subprocess

LAUNCHERS = ("local", "mpirun", "srun")


class LaunchError(Exception):
    pass


def detect_mpi_family(mpiexec):
    try:
        out = subprocess.run([mpiexec, "--version"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return "other"
    text = out.stdout + out.stderr
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
    try:
        out = subprocess.run(["scontrol", "show", "hostnames", nodelist], capture_output=True, text=True,
                             timeout=30)
        hosts = out.stdout.split()
        if hosts:
            return hosts
    except (OSError, subprocess.TimeoutExpired):
        pass
    return [nodelist] if "[" not in nodelist and "," not in nodelist else []


class Launcher:
    def __init__(self, kind, mpiexec=None, mpi_family=None, emulate=False, extra_args=(), srun_mpi=None,
                 hosts=None):
        if kind not in LAUNCHERS:
            raise LaunchError(f"unknown launcher '{kind}'; choose one of {', '.join(LAUNCHERS)}")
        self.kind = kind
        self.emulate = emulate or kind == "local"
        self.extra_args = list(extra_args)
        self.srun_mpi = srun_mpi
        self.hosts = list(hosts) if hosts else []
        self.hostfile_dir = None  # where srun's arbitrary-distribution host files go
        if kind == "srun":
            self.mpiexec = shutil.which("srun") or "srun"
            self.mpi_family = mpi_family or "other"
        else:
            self.mpiexec = mpiexec or shutil.which("mpirun") or shutil.which("mpiexec") or "mpirun"
            self.mpi_family = mpi_family or detect_mpi_family(self.mpiexec)

    def describe_hosts(self):
        if self.hosts:
            return ",".join(self.hosts)
        return os.uname().nodename

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
            if not self.emulate:
                sizes = self._node_sizes(point)
                hosts = self._node_hosts(point)
                irregular = sizes and len(set(sizes)) > 1
                if irregular and hosts:
                    # Irregular nodes: one host per rank in a file, in rank order.
                    per_rank = _rank_hosts(hosts, sizes, roundrobin)
                    path = os.path.join(self.hostfile_dir or ".", f"hosts-{point.id}.txt")
                    with open(path, "w") as f:
                        f.write("\n".join(per_rank) + "\n")
                    extra_env["SLURM_HOSTFILE"] = path
                    cmd += ["--distribution=arbitrary", "-w", ",".join(sorted(set(hosts)))]
                elif irregular:
                    raise LaunchError("irregular node_sizes under srun need the allocation's host list")
                else:
                    if point.nodes:
                        cmd += ["-N", str(point.nodes)]
                    if p.get("ranks_per_node"):
                        cmd += ["--ntasks-per-node", str(p["ranks_per_node"])]
                    if roundrobin:
                        cmd.append("--distribution=cyclic")
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


def run_environment(experiment_env):
    """Environment for every run: Open MPI as root, one BLAS thread, then the experiment's own."""
    env = dict(os.environ)
    if os.geteuid() == 0:
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    env.setdefault("OMP_NUM_THREADS", "1")
    env.update(experiment_env)
    return env
