# Sourced by the driver scripts that run a chain (sigterm_resume.sh, stop_through_launcher.sh,
# chain_directories.sh, stop_blocked_output.sh), each called as SCRIPT BPMF WORK [LAUNCH...]:
# sets bpmf, work (emptied) and launch (the launcher up to its -np flag, as an array), and
# small_chain, the synthetic problem they all sample (the script adds iterations and output).
set -u
bpmf=$1 work=$2
shift 2
launch=("$@")
rm -rf "$work" && mkdir -p "$work"
small_chain=(--synthetic --synth-rows 200 --synth-cols 150 --synth-density 0.2 -K 4 --alpha 4 --seed 5)

# A launcher's processes, and those of them that are ranks (found by process id: the
# launcher may start them through a daemon of its own).
descendants() { for c in $(ps -o pid= --ppid "$1"); do echo "$c"; descendants "$c"; done; }
ranks_of() { for p in $(descendants "$1"); do [ "$(ps -o comm= -p "$p")" = "hympi-bpmf" ] && echo "$p"; done; }
# Waits up to 20 s for a chain's output FILE to show the data were read.
wait_started() { for _ in $(seq 400); do grep -q "train 200 x 150" "$1" 2>/dev/null && return 0; sleep 0.05; done; return 1; }
