#!/usr/bin/env bash
# stop-local-slurm.sh -- stop the slurmd, slurmctld and munged that
# start-local-slurm.sh started, by the PIDs in their pidfiles (never by name).
#   --purge   also wipe Slurm's state, spool and logs (the next start is a clean cluster)
set -uo pipefail
log() { echo "[stop-local-slurm] $*" >&2; }
[ "$(id -u)" = 0 ] || { log "must run as root"; exit 1; }

alive() {  # alive PID COMM: a live, non-zombie process with that comm
  local pid=$1 comm=$2
  [ -r "/proc/$pid/stat" ] || return 1
  [ "$(cat /proc/$pid/comm 2>/dev/null)" = "$comm" ] || return 1
  [ "$(awk '{print $3}' /proc/$pid/stat 2>/dev/null)" != Z ]
}

stop_one() {  # stop_one PIDFILE COMM
  local pf=$1 comm=$2 pid
  [ -s "$pf" ] || { log "$comm: no pidfile"; return 0; }
  pid=$(cat "$pf")
  if alive "$pid" "$comm"; then
    log "stopping $comm (pid $pid)"
    kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 1 100); do alive "$pid" "$comm" || break; sleep 0.1; done
    if alive "$pid" "$comm"; then log "$comm still alive, SIGKILL"; kill -KILL "$pid"; sleep 0.2; fi
  else
    log "$comm: pid $pid not running"
  fi
  rm -f "$pf"
}

stop_one /run/slurmd.pid slurmd
stop_one /run/slurmctld.pid slurmctld
stop_one /run/munge/munged.pid munged

if [ "${1:-}" = "--purge" ]; then
  log "purging state: /var/spool/slurmctld /var/spool/slurmd /var/log/slurm/*"
  rm -rf /var/spool/slurmctld/* /var/spool/slurmd/*
  rm -f /var/log/slurm/*.log
fi
