"""The per-job manifest: one JSON per harness run (per Slurm job) under <results>/manifests/,
holding what makes a point's numbers trustworthy or comparable: the job, its nodes and
partition, the modules and environment that change performance, the binding, the versions of
Python, MPI launcher and Slurm, and the source revision with a dirty flag (read at run time)."""
import json
import os
import re
import socket
import sys
import time

from .compat import command_output

# Environment that changes results: threads, MPI and fabric tuning, Cray programming environment.
_ENV_THAT_MATTERS = re.compile(r"^(OMP_|OPENBLAS_|MKL_|BLIS_|HYMPI_|UCX_|OMPI_MCA_|PMIX_MCA_|FI_|MPICH_|"
                               r"CRAY_|PE_|SLURM_CPU_BIND|SLURM_DISTRIBUTION|SLURM_HINT|LD_LIBRARY_PATH$)")
_SLURM = ("SLURM_JOB_ID", "SLURM_JOB_NAME", "SLURM_JOB_PARTITION", "SLURM_CLUSTER_NAME", "SLURM_JOB_NODELIST",
          "SLURM_JOB_NUM_NODES", "SLURM_NTASKS", "SLURM_NTASKS_PER_NODE", "SLURM_CPUS_ON_NODE",
          "SLURM_JOB_END_TIME", "SLURM_JOB_ACCOUNT", "SLURM_JOB_QOS")


def _first_line(cmd):
    lines = [line for line in (command_output(cmd, with_stderr=True) or "").splitlines() if line.strip()]
    return lines[0].strip() if lines else ""


def source_revision(source_dir):
    """(commit, dirty) of the source tree now, or ("", None) outside a git checkout."""
    if not source_dir:
        return "", None
    commit = (command_output(["git", "-C", source_dir, "rev-parse", "HEAD"]) or "").strip()
    status = command_output(["git", "-C", source_dir, "status", "--porcelain", "--untracked-files=no"])
    return commit, (None if status is None else bool(status.strip()))


def build_manifest(launcher, argv, source_dir, cores_per_node, notes):
    commit, dirty = source_revision(source_dir)
    env = os.environ
    return {
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "host": socket.gethostname(),
        "argv": list(argv),
        "slurm": {k[6:].lower(): env[k] for k in _SLURM if k in env},
        "hosts": launcher.hosts,
        "modules": [m for m in env.get("LOADEDMODULES", "").split(":") if m],
        "environment": {k: v for k, v in sorted(env.items()) if _ENV_THAT_MATTERS.match(k)},
        "launcher": {"kind": launcher.kind, "command": launcher.mpiexec, "mpi_family": launcher.mpi_family,
                     "srun_mpi": launcher.srun_mpi, "binding": launcher.binding, "emulate": launcher.emulate,
                     "extra_args": launcher.extra_args},
        "cores_per_node": cores_per_node,
        "notes": list(notes),
        "versions": {"python": sys.version.split()[0], "python_executable": sys.executable,
                     "launcher": _first_line([launcher.mpiexec, "--version"]),
                     "slurm": _first_line(["sinfo", "--version"]) if "SLURM_JOB_ID" in env else ""},
        "revision": commit,
        "dirty": dirty,
    }


def write_manifest(results_dir, manifest):
    """Writes the manifest as manifests/job-<id>.json (or run-<host>-<time>-<pid>.json) and returns the path."""
    job = os.environ.get("SLURM_JOB_ID")
    name = f"job-{job}.json" if job else "run-{}-{}-{}.json".format(
        socket.gethostname(), time.strftime("%Y%m%dT%H%M%S", time.gmtime()), os.getpid())
    directory = os.path.join(results_dir, "manifests")
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, name)
    tmp = path + f".tmp{os.getpid()}"
    with open(tmp, "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    os.replace(tmp, path)
    return path
