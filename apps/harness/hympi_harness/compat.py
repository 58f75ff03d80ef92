"""What the harness needs from Python, checked once with a message a cluster user can act on.

Supported: Python 3.6 and newer (Cray EX and RHEL 8 system Pythons are 3.6). Experiment files
are TOML: read with tomllib (3.11+), else with the tomli package (tomli 1.x for Python 3.6,
tomli 2.x for 3.7+). Keep this package free of 3.7+ syntax: no walrus, no f"{x=}", no
`from __future__ import annotations`, no dataclasses; subprocess without capture_output/text.
"""
import shlex
import subprocess
import sys

MIN_PYTHON = (3, 6)

HOW_TO_GET_ONE = ("load a newer Python (Cray: `module load cray-python`; elsewhere e.g. `module load python/3.11`) "
                  "or install tomli for this one (`python3 -m pip install --user tomli`, on 3.6 'tomli<2'; "
                  "Debian/Ubuntu: apt-get install python3-tomli)")


class PythonTooOld(Exception):
    pass


def toml_reader():
    """The module that reads TOML: tomllib, else tomli. PythonTooOld names both when neither exists."""
    try:
        import tomllib
        return tomllib
    except ImportError:
        pass
    try:
        import tomli
        return tomli
    except ImportError:
        raise PythonTooOld("hympi-harness: Python {} at {} has neither tomllib (3.11+) nor tomli to read the "
                           "experiment files: {}".format(sys.version.split()[0], sys.executable, HOW_TO_GET_ONE))


def check_python():
    """Raises PythonTooOld unless this interpreter can run every part of the harness."""
    if sys.version_info < MIN_PYTHON:
        raise PythonTooOld("hympi-harness needs Python >= {}.{}; {} is {}".format(
            MIN_PYTHON[0], MIN_PYTHON[1], sys.executable, sys.version.split()[0]))
    toml_reader()


def command_output(cmd, timeout=30, env=None, with_stderr=False):
    """stdout of a helper command (scontrol, squeue, lscpu, git, mpirun --version), or None when it
    cannot run or fails. Text mode spelled the 3.6 way (no capture_output/text)."""
    try:
        out = subprocess.run(cmd, stdout=subprocess.PIPE, universal_newlines=True, timeout=timeout, env=env,
                             stderr=subprocess.STDOUT if with_stderr else subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout if out.returncode == 0 or with_stderr else None


def shell_join(words):
    """shlex.join (3.8+) for older Pythons too."""
    return " ".join(shlex.quote(w) for w in words)
