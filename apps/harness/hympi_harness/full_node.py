"""What the job got: how many cores a "full" node has, and when the job ends.

A full node is the hardware of the node the job runs on, not what the jobscript asked for:
$SLURM_CPUS_ON_NODE counts logical CPUs, so it is divided by lscpu's threads per core (SMT).
A different --ntasks-per-node is reported, so a 24-rank default on a 128-core node is seen."""
import os
import time

from .compat import command_output


def _int(text):
    text = (text or "").split("(")[0].split(",")[0].strip()  # Slurm spells counts "24" or "24(x2)"
    return int(text) if text.isdigit() else None


def threads_per_core():
    for line in (command_output(["lscpu"], env=dict(os.environ, LC_ALL="C")) or "").splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "Thread(s) per core" and _int(value):
            return _int(value)
    return 1


def detect_cores_per_node(env=None):
    """(cores, notes): $HYMPI_CORES_PER_NODE, else the job's CPUs on this node over threads per
    core, else $SLURM_NTASKS_PER_NODE; None outside a job. Notes explain a mismatch."""
    env = os.environ if env is None else env
    asked = _int(env.get("HYMPI_CORES_PER_NODE"))
    if asked:
        return asked, []
    cpus = _int(env.get("SLURM_CPUS_ON_NODE"))
    tasks = _int(env.get("SLURM_NTASKS_PER_NODE"))
    if not cpus:
        return tasks, []
    smt = threads_per_core()
    cores = max(cpus // smt, 1)
    notes = []
    if tasks and tasks != cores:
        notes.append(f'warning: "full" node = {cores} cores here (SLURM_CPUS_ON_NODE={cpus}, {smt} thread(s) per '
                     f"core) but the job asked --ntasks-per-node={tasks}; full-node points use {cores} ranks per "
                     "node (set HYMPI_CORES_PER_NODE to choose)")
    return cores, notes


def job_end_time(env=None):
    """Epoch seconds the Slurm job is killed, or None (no job, no limit known)."""
    env = os.environ if env is None else env
    end = _int(env.get("SLURM_JOB_END_TIME"))
    if end:
        return end
    job = env.get("SLURM_JOB_ID")
    if not job:
        return None
    try:  # "Unlimited", or nothing when squeue is missing: no limit known
        return time.mktime(time.strptime((command_output(["squeue", "-h", "-j", job, "-o", "%e"]) or "").strip(),
                                         "%Y-%m-%dT%H:%M:%S"))
    except ValueError:
        return None
