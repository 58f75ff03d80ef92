#!/usr/bin/env bash
# A single-node Slurm cluster (munged + slurmctld + slurmd) in a private directory, for
# testing jobscripts. Nothing outside $SLURM_LOCAL_DIR is touched except one run directory
# of its own (below): own munge key and socket, own ports, own TmpFS, SLURM_CONF instead of
# /etc/slurm. Every wait is bounded and only the processes this script started (by PID) are
# ever signalled.
#
# munged refuses a socket with any ancestor directory that is not executable by all (a
# checkout under /root or a 0700 home or `mktemp -d`). So its socket, key, seed and pid file
# live in a fresh `mktemp -d /tmp/hympi-slurm.XXXXXX` (0755) created by start, named in
# $SLURM_LOCAL_DIR/rundir and removed by stop: never shared between two clusters.
#
#   slurm-local.sh start    start (idempotent: returns at once if already up)
#   slurm-local.sh stop     cancel jobs, stop the daemons (no-op if nothing runs)
#   slurm-local.sh status   exit 0 if all three daemons are alive and slurmctld answers
#   slurm-local.sh env      print "export SLURM_CONF=..." for clients
#
# Environment: SLURM_LOCAL_DIR (default ${TMPDIR:-/tmp}/hympi-slurm-$UID),
#   SLURM_LOCAL_PORT (slurmctld port, slurmd uses +1; default: the first free pair from 16817,
#     so clusters of several build trees can run side by side),
#   SLURM_LOCAL_CPUS (CPUs declared for the node; more than the machine has is allowed),
#   SLURM_LOCAL_TIMEOUT (seconds for each wait, default 30).
# Exit 77 when the Slurm or munge daemons are not installed or we are not root
# (ctest SKIP_RETURN_CODE).
set -euo pipefail

D=${SLURM_LOCAL_DIR:-${TMPDIR:-/tmp}/hympi-slurm-$(id -u)}
PORT=${SLURM_LOCAL_PORT:-}
CPUS=${SLURM_LOCAL_CPUS:-$(nproc)}
TIMEOUT=${SLURM_LOCAL_TIMEOUT:-30}
CONF=$D/slurm.conf
PIDS=$D/pids
SBIN_PATH=/usr/sbin:/usr/local/sbin:$PATH

log() { echo "slurm-local: $*" >&2; }

# shellcheck source=skip-unless-slurm.sh
source "$(dirname "$0")/skip-unless-slurm.sh"

# A PID from our own pid file, or nothing. Never `$(<file)`: the file may vanish (set -e).
pid_of() { cat "$PIDS/$1.pid" 2>/dev/null || true; }

# Alive means: exists, is not a zombie (init reaps orphans late), and still runs the program
# we started under that PID (guards against PID reuse).
alive() {
  local pid=$1 name=$2 stat comm
  [[ -n $pid ]] || return 1
  stat=$(ps -o stat= -p "$pid" 2>/dev/null) || return 1
  [[ -n $stat && $stat != Z* ]] || return 1
  comm=$(cat "/proc/$pid/comm" 2>/dev/null) || return 1
  [[ $comm == "$name"* ]]
}

# wait_for SECONDS DESCRIPTION COMMAND...: polls COMMAND every 0.2 s until it succeeds.
wait_for() {
  local limit=$1 what=$2 deadline
  shift 2
  deadline=$((SECONDS + limit))
  until "$@" >/dev/null 2>&1; do
    if ((SECONDS >= deadline)); then
      log "timed out after ${limit}s waiting for $what"
      return 1
    fi
    sleep 0.2
  done
}

dead() { ! alive "$1" "$2"; }

# stop_daemon NAME: TERM, wait on the PID (not the pid file), KILL after 15 s.
stop_daemon() {
  local name=$1 pid
  pid=$(pid_of "$name")
  if alive "$pid" "$name"; then
    kill -TERM "$pid" 2>/dev/null || true
    if ! wait_for 15 "$name ($pid) to exit" dead "$pid" "$name"; then
      log "killing $name ($pid)"
      kill -KILL "$pid" 2>/dev/null || true
      wait_for 5 "$name ($pid) to die" dead "$pid" "$name" || true
    fi
  fi
  rm -f "$PIDS/$name.pid"
}

# slurmstepd processes of THIS instance (their environment holds our SLURM_CONF) and all
# their descendants. They can outlive a dead slurmd and ignore SIGTERM.
our_stepds() {
  local pid
  for pid in $(pgrep -x slurmstepd 2>/dev/null || true); do
    if tr '\0' '\n' 2>/dev/null <"/proc/$pid/environ" | grep -qxF "SLURM_CONF=$CONF"; then
      echo "$pid"
    fi
  done
}

descendants() {
  local pid child
  for pid in "$@"; do
    for child in $(pgrep -P "$pid" 2>/dev/null || true); do
      echo "$child"
      descendants "$child"
    done
  done
}

kill_stepds() {
  local stepds victims
  stepds=$(our_stepds)
  [[ -n $stepds ]] || return 0
  # shellcheck disable=SC2086
  victims="$stepds $(descendants $stepds)"
  log "killing leftover job steps: $(echo $victims)"
  # shellcheck disable=SC2086
  kill -KILL $victims 2>/dev/null || true
}

ctl() { SLURM_CONF=$CONF "$@"; }

controller_up() { ctl scontrol ping 2>/dev/null | grep -q "is UP"; }

node_idle() { ctl sinfo -h -N -o '%T' 2>/dev/null | grep -qx 'idle'; }

queue_empty() { [[ -z $(ctl squeue -h -o %i 2>/dev/null) ]]; }

is_running() {
  alive "$(pid_of munged)" munged && alive "$(pid_of slurmctld)" slurmctld && alive "$(pid_of slurmd)" slurmd &&
    controller_up
}

do_stop() {
  if alive "$(pid_of slurmctld)" slurmctld; then
    local jobs
    jobs=$(ctl squeue -h -o %i 2>/dev/null || true)
    if [[ -n $jobs ]]; then
      # shellcheck disable=SC2086
      ctl scancel $jobs 2>/dev/null || true
      wait_for 15 "the queue to drain" queue_empty || true
    fi
  fi
  stop_daemon slurmd
  kill_stepds
  stop_daemon slurmctld
  stop_daemon munged
  remove_rundir
}

# The world-traversable run directory of the current start (see the header), or nothing.
rundir() { cat "$D/rundir" 2>/dev/null || true; }

remove_rundir() {
  local dir
  dir=$(rundir)
  # Only a directory this script made: the mktemp pattern, never anything else.
  if [[ $dir == /tmp/hympi-slurm.?????? && -d $dir ]]; then rm -rf "$dir"; fi
  rm -f "$D/rundir"
}

# make_rundir: a fresh 0755 directory under /tmp whose every ancestor is a+x (munged checks).
make_rundir() {
  local dir parent
  dir=$(mktemp -d /tmp/hympi-slurm.XXXXXX) || { log "cannot create a run directory under /tmp"; return 1; }
  chmod 0755 "$dir"
  echo "$dir" >"$D/rundir"
  parent=$dir
  while [[ $parent != / ]]; do
    parent=$(dirname "$parent")
    if [[ $(stat -L -c %A "$parent") != ?????????[xt] ]]; then
      log "$parent is not searchable by all users; munged cannot use a socket below it"
      return 1
    fi
  done
}

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# The port pair: as asked, else the first pair from 16817 where nothing listens yet.
choose_ports() {
  if [[ -n $PORT ]]; then return 0; fi
  local p
  for ((p = 16817; p < 16917; p += 2)); do
    if ! listening "$p" && ! listening $((p + 1)); then
      PORT=$p
      return 0
    fi
  done
  log "no free port pair in 16817-16916; set SLURM_LOCAL_PORT"
  return 1
}

write_config() {
  local user
  user=$(id -un)
  cat >"$CONF" <<CONF
# Written by hympi tests/slurm/slurm-local.sh; private to $D
ClusterName=hympi
SlurmctldHost=localhost
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$MUNGE_SOCKET
MpiDefault=pmix
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
EnforcePartLimits=ALL
ReturnToService=2
MailProg=/bin/true
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
TmpFS=$D/tmp
SlurmctldPidFile=$D/run/slurmctld.pid
SlurmdPidFile=$D/run/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmctldDebug=info
SlurmdDebug=info
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmdParameters=config_overrides
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF
}

show_failure() {
  local f
  for f in "$D"/log/*; do
    [[ -f $f ]] || continue
    grep -hiE 'fatal|error' "$f" 2>/dev/null | tail -n 5 | sed "s|^|  $(basename "$f"): |" >&2 || true
  done
}

# start_daemon NAME LOGFILE COMMAND...: starts one daemon in the foreground mode, in the
# background, and records its PID ourselves (Slurm's own pid files vanish early on stop).
start_daemon() {
  local name=$1 out=$2
  shift 2
  SLURM_CONF=$CONF setsid "$@" >"$out" 2>&1 </dev/null &
  echo $! >"$PIDS/$name.pid"
}

do_start() {
  skip_unless_slurm
  if is_running; then
    log "already running in $D"
    return 0
  fi
  do_stop
  rm -rf "$D/state" "$D/spool" "$D/log" "$D/tmp" "$D/run" "$D/munge" "$PIDS"
  mkdir -p "$D/state" "$D/spool" "$D/log" "$D/tmp" "$D/run" "$PIDS"
  make_rundir || { do_stop; return 1; }
  local munge_dir
  munge_dir=$(rundir)
  MUNGE_SOCKET=$munge_dir/munge.sock
  (umask 077 && dd if=/dev/urandom of="$munge_dir/munge.key" bs=1024 count=1 status=none)
  choose_ports
  write_config

  PATH=$SBIN_PATH start_daemon munged "$D/log/munged.out" munged -F --socket="$MUNGE_SOCKET" \
    --key-file="$munge_dir/munge.key" --pid-file="$munge_dir/munged.pid" --log-file="$D/log/munged.log" \
    --seed-file="$munge_dir/munge.seed"
  if ! wait_for "$TIMEOUT" "munged" sh -c "munge -S '$MUNGE_SOCKET' -n | unmunge -S '$MUNGE_SOCKET'"; then
    show_failure; cat "$D/log/munged.out" >&2 || true; do_stop; return 1
  fi
  PATH=$SBIN_PATH start_daemon slurmctld "$D/log/slurmctld.out" slurmctld -D -i -f "$CONF"
  if ! wait_for "$TIMEOUT" "slurmctld to answer" controller_up; then
    show_failure; do_stop; return 1
  fi
  PATH=$SBIN_PATH start_daemon slurmd "$D/log/slurmd.out" slurmd -D -N localhost -f "$CONF"
  if ! wait_for "$TIMEOUT" "the node to become idle" node_idle; then
    show_failure; ctl sinfo -N >&2 || true; do_stop; return 1
  fi
  log "up in $D (SLURM_CONF=$CONF, $CPUS CPUs, ports $PORT/$((PORT + 1)))"
}

do_status() {
  local name
  for name in munged slurmctld slurmd; do
    if alive "$(pid_of "$name")" "$name"; then echo "$name: running ($(pid_of "$name"))"; else echo "$name: stopped"; fi
  done
  is_running
}

# Short whatever $D is (a Unix socket path has at most 108 bytes).
MUNGE_SOCKET=$(rundir)/munge.sock

case ${1:-} in
  start) do_start ;;
  stop) do_stop; log "stopped" ;;
  status) do_status ;;
  env) echo "export SLURM_CONF=$CONF" ;;
  *) echo "usage: $0 start|stop|status|env" >&2; exit 2 ;;
esac
