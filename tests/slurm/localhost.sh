# A private one-node SLURM on localhost for the tests: munged, slurmctld and
# slurmd of the Debian 12 packages (slurmctld slurmd slurm-client munge),
# started in the foreground as children of the test with everything of
# theirs (configuration, munge key and socket, state, spool, TmpFS, logs, pid
# files) under one temporary directory, on free ports, with their own munge
# key; nothing under /etc, /run or /var is read or written, and a SLURM or
# munge already running on the machine is left alone. Needs root (slurmd
# runs jobs as their user). Sourced; defines
#   slurm_local_check          can it run here? (reason in $slurm_local_error)
#   slurm_local_start DIR CPUS start it in DIR, advertising CPUS CPUs; exports
#                              SLURM_CONF for the clients
#   slurm_local_tag            runs a command tagged as belonging to it
#   slurm_local_stop           cancels the jobs, stops the daemons by pid and
#                              kills whatever they left behind
# shellcheck shell=bash

# shellcheck disable=SC2034 # slurm_local_error is read by the test that sources this
slurm_local_error="" slurm_local_dir="" slurm_local_pids=()
slurm_local_host=$(hostname -s 2>/dev/null || hostname)

slurm_local_check() {
  local c
  for c in /usr/sbin/munged /usr/sbin/slurmctld /usr/sbin/slurmd munge unmunge sbatch squeue scontrol scancel srun sinfo; do
    if ! command -v "$c" >/dev/null 2>&1; then
      slurm_local_error="$c not found (install slurmctld slurmd slurm-client munge: tools/setup.sh)"
      return 1
    fi
  done
  if [ "$(id -u)" != 0 ]; then
    slurm_local_error="slurmd needs root"
    return 1
  fi
  # slurmd 22.05 will not start without some cgroup file system, even with
  # no cgroup plugin configured.
  if [ -z "$(ls -A /sys/fs/cgroup 2>/dev/null)" ]; then
    slurm_local_error="nothing mounted at /sys/fs/cgroup, which slurmd 22.05 needs"
    return 1
  fi
}

# Whether nothing listens on 127.0.0.1:$1.
slurm_local_port_free() {
  ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# repeat N CMD...: CMD every 0.1 s until it succeeds, at most N times.
slurm_local_retry() {
  local n=$1 i
  shift
  for ((i = 0; i < n; i++)); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  return 1
}

# Every process of this cluster, daemons and jobs, carries this variable.
slurm_local_tag() {
  MOREAU_SLURM_LOCAL="$slurm_local_dir" "$@"
}

slurm_local_start() {
  local d=$1 cpus=$2 port i
  slurm_local_dir=$d
  mkdir -p "$d"/{munge,state,spool,tmp,log,run} || return 1
  chmod 700 "$d" "$d/munge"
  # Two free neighbouring ports, away from SLURM's own 6817-6819 and below
  # the kernel's ephemeral range: there other processes' TCP connections
  # hold ports that nothing listens on, and binding one fails (a CI run saw
  # slurmctld refused so, beside MPI tests).
  local first=32768 span
  read -r first _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || first=32768
  [ "$first" -ge 12000 ] 2>/dev/null || first=32768
  span=$(((first - 10002) / 2))
  port=""
  for ((i = 0; i < 50; i++)); do
    local p=$((10000 + (RANDOM % span) * 2))
    if slurm_local_port_free $p && slurm_local_port_free $((p + 1)); then
      port=$p
      break
    fi
  done
  [ -n "$port" ] || { slurm_local_error="no free ports"; return 1; }

  head -c 1024 /dev/urandom >"$d/munge/munge.key"
  chmod 400 "$d/munge/munge.key"
  cat >"$d/slurm.conf" <<EOF
# A private test cluster (tests/slurm/localhost.sh).
ClusterName=moreautest
SlurmctldHost=$slurm_local_host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
# Its own munged; a requeued job may start again after cred_expire seconds
# (SLURM's default is 120).
AuthInfo=socket=$d/munge/munge.socket,cred_expire=10
# No default MPI plugin: the jobscripts must ask for pmix themselves.
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc=$d/log/jobcomp.txt
MailProg=/bin/true
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
TmpFS=$d/tmp
SlurmctldPidFile=$d/run/slurmctld.pid
SlurmdPidFile=$d/run/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
MinJobAge=600
KillWait=5
InactiveLimit=0
JobRequeue=1
# CPUS CPUs whatever the hardware has, so that several ranks fit.
SlurmdParameters=config_overrides
NodeName=$slurm_local_host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$slurm_local_host Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$d/slurm.conf

  # Simple commands in the background, so that $! is the daemon itself.
  # munged refuses root unless forced; the key and socket are its own.
  MOREAU_SLURM_LOCAL=$d /usr/sbin/munged --foreground --force --socket="$d/munge/munge.socket" \
    --key-file="$d/munge/munge.key" --pid-file="$d/munge/munged.pid" --log-file="$d/munge/munged.log" \
    --seed-file="$d/munge/munged.seed" --origin=127.0.0.1 >"$d/log/munged.out" 2>&1 &
  slurm_local_pids+=($!)
  if ! slurm_local_retry 50 sh -c "munge --socket='$d/munge/munge.socket' -n </dev/null | unmunge --socket='$d/munge/munge.socket'"; then
    slurm_local_error="munged did not start: $(tail -n 3 "$d/log/munged.out" "$d/munge/munged.log" 2>/dev/null | tr '\n' ' ')"
    return 1
  fi
  MOREAU_SLURM_LOCAL=$d /usr/sbin/slurmctld -D -f "$SLURM_CONF" >"$d/log/slurmctld.out" 2>&1 &
  slurm_local_pids+=($!)
  if ! slurm_local_retry 100 sh -c 'scontrol ping | grep -q "is UP"'; then
    slurm_local_error="slurmctld did not start: $(tail -n 3 "$d/log/slurmctld.log" 2>/dev/null | tr '\n' ' ')"
    return 1
  fi
  MOREAU_SLURM_LOCAL=$d /usr/sbin/slurmd -D -f "$SLURM_CONF" >"$d/log/slurmd.out" 2>&1 &
  slurm_local_pids+=($!)
  if ! slurm_local_retry 200 sh -c "sinfo -h -n '$slurm_local_host' -o %t | grep -Eq '^(idle|mix|alloc)'"; then
    slurm_local_error="slurmd did not register: $(tail -n 3 "$d/log/slurmd.log" "$d/log/slurmd.out" 2>/dev/null | tr '\n' ' ')"
    return 1
  fi
}

# The pids of every process tagged by slurm_local_tag (daemons, job steps,
# job scripts and what they started).
slurm_local_tagged() {
  local e p
  for e in /proc/[0-9]*/environ; do
    p=${e#/proc/}
    p=${p%/environ}
    [ "$p" = $$ ] && continue
    if { tr '\0' '\n' <"$e"; } 2>/dev/null | grep -qxF "MOREAU_SLURM_LOCAL=$slurm_local_dir"; then echo "$p"; fi
  done
}

slurm_local_stop() {
  local jobs p i left
  [ -n "$slurm_local_dir" ] || return 0
  if [ -n "${SLURM_CONF:-}" ] && [ "$SLURM_CONF" = "$slurm_local_dir/slurm.conf" ]; then
    jobs=$(timeout 10 squeue -h -o %A 2>/dev/null)
    if [ -n "$jobs" ]; then
      # shellcheck disable=SC2086
      timeout 10 scancel $jobs 2>/dev/null
      for ((i = 0; i < 150; i++)); do
        [ -z "$(timeout 5 squeue -h -o %A 2>/dev/null)" ] && break
        sleep 0.1
      done
    fi
  fi
  # Daemons last to first: slurmd, slurmctld, munged.
  for ((i = ${#slurm_local_pids[@]} - 1; i >= 0; i--)); do
    p=${slurm_local_pids[i]}
    kill -TERM "$p" 2>/dev/null || continue
    for _ in $(seq 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$p" 2>/dev/null
    wait "$p" 2>/dev/null
  done
  slurm_local_pids=()
  # Whatever is left (steps of cancelled jobs, their children).
  left=$(slurm_local_tagged)
  if [ -n "$left" ]; then
    echo "slurm_local_stop: killing leftover processes: $(echo "$left" | tr '\n' ' ')" >&2
    # shellcheck disable=SC2086
    kill -TERM $left 2>/dev/null
    sleep 1
    # shellcheck disable=SC2086
    kill -KILL $left 2>/dev/null
  fi
  return 0
}
