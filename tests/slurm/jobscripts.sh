#!/bin/bash
# The jobscripts on a real SLURM: a private one-node cluster on localhost
# (localhost.sh: its own munged, slurmctld and slurmd under a temporary
# directory, 8 CPUs advertised, cred_expire=10 so that a requeued job starts
# again after ~15 s, MpiDefault=none), and these jobs at once:
#   A  run.sbatch under srun --mpi=pmix, 2 ranks: USR1 to the batch script
#      (scancel --batch --signal=USR1, as --signal=B:USR1 would send it) once
#      the run is under way; the run checkpoints and exits 3, the job requeues
#      itself, runs again with SLURM_RESTART_COUNT=1 and -restart auto, and
#      ends COMPLETED with restarts=1; its final checkpoint's /bodies and its
#      time series (but columns 7-8, timings) equal those of the same run
#      without interruption (mpiexec -n 2 outside SLURM).
#   B  run.sbatch, 1 rank, -t 1 --signal=B:USR1@50: the real pre-timeout
#      signal stops it and it is requeued; while it waits the test shortens
#      -steps in its options file (a restart may change -steps) and raises its
#      time limit (else the continuation is signalled again at once), so that
#      the continuation finishes: COMPLETED, restarts = 1, the time series
#      continued without gaps up to the new last step.
#   C  chain.sh with MOREAU_LAUNCHER=mpiexec, 2 ranks: stopped like A; the job
#      submits its successor (--dependency=afterany) and ends COMPLETED; the
#      successor (chain count 1) continues with -restart auto, ends COMPLETED,
#      and the final state equals the run without interruption.
#   D  campaign.sh -array, -vary e_n 0,0.5,0.9, 1 rank each: a 3-task job
#      array and its collect job, all COMPLETED; e_n.csv has one row per case
#      with its value, final step and time, and the means of contacts and
#      kinetic_energy over the last half of its time series.
#   E  run.sbatch with MOREAU_MAX_RESTARTS=0, stopped like A: no requeue, an
#      error line, the job ends FAILED with exit code 3, its checkpoint kept.
# The job states seen on the way are printed at the end. Every daemon and
# every process of the jobs is stopped by pid, the temporary directory is
# removed (MOREAU_SLURM_KEEP=1 keeps it).
#
#   bash tests/slurm/jobscripts.sh MOREAU JOBSCRIPTS MPIEXEC
#
# Exits 77 with a line "SKIPPED: <reason>" when the SLURM packages are missing
# or the daemons cannot start, unless CI=true: then that is a failure.
exe=$1 jobscripts=$2 mpiexec=$3
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/slurm/localhost.sh
. "$here/localhost.sh"
case $exe in /*) ;; *) exe=$PWD/$exe ;; esac
t0=$(date +%s)

say() { echo "[$(($(date +%s) - t0)) s] $*"; }
skip() {
  if [ "${CI:-}" = true ]; then
    echo "FAIL: $* (CI=true: this test may not be skipped)"
    exit 1
  fi
  echo "SKIPPED: $*"
  exit 77
}
W=""
fail() {
  echo "FAIL: $*"
  if [ -n "$W" ]; then
    for f in "$W"/*.out "$W"/camp/*.out; do
      [ -f "$f" ] || continue
      echo "--- $f (last 15 lines)"
      tail -n 15 "$f"
    done
    [ -f "$W/states.log" ] && { echo "--- job states"; cat "$W/states.log"; }
    echo "--- last time-series rows"
    for f in "$W"/*/timeseries.csv; do [ -f "$f" ] && echo "$f: $(tail -n 1 "$f" | cut -d, -f1-4)"; done
    echo "--- processes of the test cluster"
    # shellcheck disable=SC2046
    ps -o pid,ppid,stat,etime,time,wchan:24,args -p "$(slurm_local_tagged | tr '\n' ,)0" 2>/dev/null | cut -c1-200
    if [ "${MOREAU_SLURM_DEBUG:-0}" = 1 ] && command -v gdb >/dev/null; then
      for p in $(slurm_local_tagged); do
        case $(cat /proc/"$p"/comm 2>/dev/null) in moreau | srun | mpiexec | slurmstepd) ;; *) continue ;; esac
        echo "--- gdb backtrace of $p ($(cat /proc/"$p"/comm))"
        timeout 30 gdb -p "$p" -batch -ex 'thread apply all bt 12' 2>/dev/null | grep -E '^(#|Thread)' | head -60
      done
    fi
    echo "--- slurmctld.log (last 20 lines)"
    tail -n 20 "$slurm_local_dir/log/slurmctld.log" 2>/dev/null
  fi
  exit 1
}

slurm_local_check || skip "$slurm_local_error"
command -v h5diff >/dev/null || skip "h5diff not found (hdf5-tools)"
[ -x "$exe" ] || fail "$exe is not an executable"
[ -x "$mpiexec" ] || mpiexec=$(command -v "$mpiexec") || fail "no mpiexec"

D=$(mktemp -d /tmp/moreau-slurm.XXXXXX) || fail "no temporary directory"
watcher="" ref_pid=""
cleanup() {
  [ -n "$watcher" ] && kill "$watcher" 2>/dev/null && wait "$watcher" 2>/dev/null
  [ -n "$ref_pid" ] && kill "$ref_pid" 2>/dev/null && wait "$ref_pid" 2>/dev/null
  slurm_local_stop
  if [ "${MOREAU_SLURM_KEEP:-0}" = 1 ]; then echo "kept $D"; else rm -rf "$D"; fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

slurm_local_start "$D/slurm" 8 || skip "the SLURM daemons did not start: $slurm_local_error"
say "SLURM up on $slurm_local_host ($(sinfo -h -o '%D node, %c CPUs, %t'))"
W=$D/work
mkdir -p "$W" && cd "$W" || fail "no work directory"
export MOREAU=$exe
# The jobs' ranks share 2 cores. Started by srun, Open MPI does not know that
# and its waiting ranks spin instead of yielding: on a busy machine a 2-rank
# continuation once crawled past the deadline. mpiexec yields by itself when
# told to oversubscribe (the CTest environment does).
export OMPI_MCA_mpi_yield_when_idle=1

# Every job state change, for the record.
watch_states() {
  declare -A seen
  local id state restarts reason code
  while :; do
    while read -r id state restarts reason code; do
      [ -n "$id" ] || continue
      if [ "${seen[$id]:-}" != "$state $restarts" ]; then
        seen[$id]="$state $restarts"
        echo "$(($(date +%s) - t0)) s: job $id $state restarts=$restarts reason=$reason exit=$code"
      fi
    done < <(scontrol -o show job 2>/dev/null | awk '/^JobId=/ {
        for (i = 1; i <= NF; i++) { k = $i; sub(/=.*/, "", k); v = $i; sub(/^[^=]*=/, "", v); f[k] = v }
        print f["JobId"], f["JobState"], f["Restarts"], f["Reason"], f["ExitCode"]; delete f }')
    sleep 0.3
  done >>"$W/states.log"
}
watch_states &
watcher=$!

field() { scontrol -o show job "$1" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1; }
rows() { [ -f "$1/timeseries.csv" ] && echo $(($(wc -l <"$1/timeseries.csv") - 1)) || echo 0; }
newest_checkpoint_step() {
  local f
  f=$(find "$1/checkpoints" -name 'ckpt_*.h5' 2>/dev/null | sort | tail -n 1)
  [ -n "$f" ] || return 1
  f=$(basename "$f" .h5)
  echo $((10#${f#ckpt_}))
}
ended() {
  case $(field "$1" JobState) in
  COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | BOOT_FAIL | DEADLINE | PREEMPTED) return 0 ;;
  esac
  return 1
}
sub() { slurm_local_tag "$@"; }

# 2000 steps (the default -t_end would stop at 2500); B runs until signalled.
common=(-gen_n 300 -steps 2000 -status_every 0 -output_every 10 -snapshot_every 0)
last_ckpt=$(printf 'ckpt_%08d.h5' 2000)

# The uninterrupted run, outside SLURM.
MOREAU_SLURM_LOCAL=$slurm_local_dir "$mpiexec" -n 2 "$exe" "${common[@]}" -output_dir ref >ref.out 2>&1 &
ref_pid=$!

A=$(sub sbatch --parsable -J A_requeue -n 2 -t 10 --signal=B:USR1@60 -o A.out "$jobscripts/run.sbatch" \
  "${common[@]}" -output_dir A) || fail "sbatch A"
printf -- '-gen_n 300\n-t_end 1e6\n-status_every 0\n-output_every 10\n-snapshot_every 0\n-output_dir B\n' >B.opts
B=$(sub sbatch --parsable -J B_signal -n 1 -t 1 --signal=B:USR1@50 -o B.out "$jobscripts/run.sbatch" \
  -options_file "$W/B.opts") || fail "sbatch B"
C1=$(MOREAU_LAUNCHER=$mpiexec sub bash "$jobscripts/chain.sh" -J C_chain -n 2 -t 10 -o "$W/C.out" -- \
  "${common[@]}" -output_dir C) || fail "chain.sh C"
printf -- '-gen_n 300\n-steps 300\n-status_every 0\n-output_every 10\n-snapshot_every 0\n' >camp.opts
sub bash "$jobscripts/campaign.sh" -array -base camp.opts -vary e_n 0,0.5,0.9 -n 1 -t 10 -runs camp >camp.txt ||
  fail "campaign.sh: $(cat camp.txt)"
Dc=$(awk '/collect:/ { print $1 }' camp.txt)
Da=$(head -n 1 camp.txt | cut -d_ -f1)
[ -n "$Dc" ] && [ -n "$Da" ] || fail "campaign.sh printed no job ids: $(cat camp.txt)"
E=$(MOREAU_MAX_RESTARTS=0 sub sbatch --parsable -J E_capped -n 1 -t 10 --signal=B:USR1@60 -o E.out \
  "$jobscripts/run.sbatch" -gen_n 300 -t_end 1e6 -status_every 0 -output_every 10 -snapshot_every 0 -output_dir E) ||
  fail "sbatch E"
say "submitted A=$A B=$B C=$C1 campaign array=$Da collect=$Dc E=$E"

# One loop watches everything: USR1 to A, C and E once their runs are under
# way, B's options shortened once it has been requeued with a checkpoint.
A_sig=0 C_sig=0 E_sig=0 B_steps="" B_seen=0 C2="" B_sig_at=""
limit=${MOREAU_SLURM_DEADLINE:-450}
deadline=$(($(date +%s) + limit))
while :; do
  [ "$(date +%s)" -lt "$deadline" ] || fail "the jobs did not all end within $limit s"
  if [ $A_sig = 0 ] && [ "$(rows A)" -ge 20 ]; then
    scancel --batch --signal=USR1 "$A" && A_sig=1 && say "USR1 to A's batch script at step $(tail -n 1 A/timeseries.csv | cut -d, -f1)"
  fi
  if [ $C_sig = 0 ] && [ "$(rows C)" -ge 20 ]; then
    scancel --batch --signal=USR1 "$C1" && C_sig=1 && say "USR1 to C's batch script at step $(tail -n 1 C/timeseries.csv | cut -d, -f1)"
  fi
  if [ $E_sig = 0 ] && [ "$(rows E)" -ge 5 ]; then
    scancel --batch --signal=USR1 "$E" && E_sig=1 && say "USR1 to E's batch script"
  fi
  if [ -z "$B_sig_at" ] && grep -q "time limit near" B.out 2>/dev/null; then
    B_sig_at=$(($(date +%s) - t0))
    say "B got the pre-timeout signal from SLURM"
  fi
  n=$(grep -c "requeueing job" B.out 2>/dev/null)
  if [ -z "$B_steps" ] && [ "${n:-0}" -gt $B_seen ]; then
    B_seen=$n
    if ck=$(newest_checkpoint_step B); then
      B_steps=$(((ck + 200 + 9) / 10 * 10))
      printf -- '-gen_n 300\n-t_end 1e6\n-steps %d\n-status_every 0\n-output_every 10\n-snapshot_every 0\n-output_dir B\n' \
        "$B_steps" >B.opts
      # SLURM checks for due signals every 30 s and may send one up to 60 s
      # early: with -t 1 a continuation gets USR1 again at its first check,
      # often right as it starts, and would be requeued again and again. A
      # longer limit lets it finish.
      scontrol update JobId="$B" TimeLimit=10 || fail "scontrol update JobId=$B TimeLimit=10"
      say "B requeued after its checkpoint at step $ck: its continuation stops at step $B_steps, time limit now 10 min"
    fi
  fi
  if [ -z "$C2" ]; then
    C2=$(sed -n 's/.*submitted job \([0-9]*\) .*/\1/p' C.out 2>/dev/null | head -n 1)
    [ -n "$C2" ] && say "C submitted its continuation, job $C2"
  fi
  if ended "$A" && ended "$B" && ended "$C1" && [ -n "$C2" ] && ended "$C2" && ended "$Dc" && ended "$E"; then
    break
  fi
  # A job that ended before its signal was sent cannot be checked.
  if [ $A_sig = 0 ] && ended "$A"; then fail "A ended before it could be signalled"; fi
  if [ $C_sig = 0 ] && ended "$C1"; then fail "C ended before it could be signalled"; fi
  if [ -z "$C2" ] && ended "$C1" && [ "$(field "$C1" JobState)" != COMPLETED ]; then fail "C ended $(field "$C1" JobState)"; fi
  sleep 0.2
done
say "all jobs ended"
wait "$ref_pid" || fail "the uninterrupted run failed: $(tail -n 5 ref.out)"
ref_pid=""

expect_state() { # job state exit restarts-at-least
  local s e r
  s=$(field "$1" JobState) e=$(field "$1" ExitCode) r=$(field "$1" Restarts)
  [ "$s" = "$2" ] && [ "$e" = "$3" ] && [ "${r:-0}" -ge "$4" ] ||
    fail "job $1 ($5): JobState=$s ExitCode=$e Restarts=$r, expected $2 $3 and restarts >= $4"
}
same_as_uninterrupted() { # dir what
  [ -f "$1/checkpoints/$last_ckpt" ] || fail "$2: no final checkpoint $1/checkpoints/$last_ckpt"
  h5diff "$1/checkpoints/$last_ckpt" "ref/checkpoints/$last_ckpt" /bodies >h5diff.out 2>&1 ||
    fail "$2: /bodies of the final checkpoint differ from the uninterrupted run: $(head -n 5 h5diff.out)"
  diff <(cut -d, -f1-6,9- "$1/timeseries.csv") <(cut -d, -f1-6,9- ref/timeseries.csv) >ts.diff ||
    fail "$2: the time series differs from the uninterrupted run: $(head -n 6 ts.diff)"
}
in_log() { grep -q -- "$2" "$1" || fail "$1 has no line with '$2'"; }

# A: requeued once, continued, the same as the uninterrupted run.
expect_state "$A" COMPLETED 0:0 1 A
in_log A.out "time limit near (USR1)"
in_log A.out "moreau exited with status 3"
in_log A.out "requeueing job $A"
in_log A.out "restart count 1,"
in_log A.out "A has checkpoints: continuing the run (-restart auto)"
in_log A.out "srun --mpi=pmix"
same_as_uninterrupted A "A (requeue)"
[ "$(cat A/run_status)" = "done $A" ] || fail "A/run_status: $(cat A/run_status)"
say "A: requeued and completed, same as the uninterrupted run"

# B: the real pre-timeout signal, requeued, finished at the shortened end.
[ -n "$B_sig_at" ] || fail "B never got the pre-timeout signal"
[ -n "$B_steps" ] || fail "B was not requeued after a checkpoint"
expect_state "$B" COMPLETED 0:0 1 B
[ "$(field "$B" Restarts)" = 1 ] || fail "B was requeued $(field "$B" Restarts) times, expected once"
in_log B.out "moreau exited with status 3"
in_log B.out "-restart auto"
[ -f "B/checkpoints/$(printf 'ckpt_%08d.h5' "$B_steps")" ] || fail "B: no checkpoint at its last step $B_steps"
awk -F, -v last="$B_steps" 'NR > 2 && $1 != prev + 10 { exit 1 } NR > 1 { prev = $1 } END { exit prev != last }' B/timeseries.csv ||
  fail "B: the time series is not continuous up to step $B_steps"
say "B: stopped by --signal=B:USR1@50 (-t 1), requeued, completed at step $B_steps"

# C: a chain of two jobs, the same as the uninterrupted run.
expect_state "$C1" COMPLETED 0:0 0 "C, first job"
expect_state "$C2" COMPLETED 0:0 0 "C, continuation"
in_log C.out "submitted job $C2 (continuation 1 of at most 20)"
in_log C.out "chain count 1)"
in_log C.out "C has checkpoints: continuing the run (-restart auto)"
in_log C.out "run.sbatch: $mpiexec "
same_as_uninterrupted C "C (chain)"
[ "$(cat C/run_status)" = "done $C2" ] || fail "C/run_status: $(cat C/run_status)"
say "C: continued by job $C2 (afterany), same as the uninterrupted run"

# D: the campaign's array tasks and its collect CSV.
for i in 0 1 2; do
  t=$(scontrol -o show job "${Da}_$i" 2>/dev/null | tr ' ' '\n' | sed -n 's/^JobId=//p' | head -n 1)
  [ -n "$t" ] || fail "no array task ${Da}_$i"
  expect_state "$t" COMPLETED 0:0 0 "campaign task $i"
done
expect_state "$Dc" COMPLETED 0:0 0 "campaign collect"
csv=camp/e_n.csv
[ -f $csv ] || fail "no $csv"
[ "$(head -n 1 $csv)" = "e_n,final_step,final_time,mean_contacts,mean_kinetic_energy,status,output_dir" ] ||
  fail "$csv header: $(head -n 1 $csv)"
[ "$(wc -l <$csv)" = 4 ] || fail "$csv has not 3 rows: $(cat $csv)"
i=0
for v in 0 0.5 0.9; do
  in_log "camp/e_n_$i.out" "-e_n $v -output_dir camp/e_n_$v"
  want=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; next }
    { n++; c[n] = $(at["contacts"]); k[n] = $(at["kinetic_energy"]); s = $1; t = $2 }
    END { f = int(n / 2) + 1; for (r = f; r <= n; r++) { sc += c[r]; sk += k[r] }
          printf "%s %s %.17g %.17g\n", s, t, sc / (n - f + 1), sk / (n - f + 1) }' "camp/e_n_$v/timeseries.csv")
  got=$(awk -F, -v v="$v" '$1 == v { print $2, $3, $4, $5, $6, $7 }' $csv)
  # shellcheck disable=SC2086
  set -- $want $got
  [ "$1" = 300 ] && [ "$1" = "$5" ] && [ "$2" = "$6" ] && [ "$9" = "done" ] && [ "${10}" = "camp/e_n_$v" ] ||
    fail "$csv row e_n=$v: '$got', expected step, time '$1 $2', done, camp/e_n_$v"
  awk -v a="$3" -v b="$7" -v c="$4" -v d="$8" 'function off(x, y) { return (x > y ? x - y : y - x) > 1e-8 * (x > y ? x : y) + 1e-300 }
    BEGIN { exit off(a, b) || off(c, d) }' || fail "$csv row e_n=$v: means '$7 $8', expected '$3 $4'"
  i=$((i + 1))
done
cmp -s camp/e_n_0/timeseries.csv camp/e_n_0.9/timeseries.csv && fail "e_n=0 and e_n=0.9 gave the same time series"
say "D: 3 array tasks and the collect job completed; $csv is right"

# E: beyond MOREAU_MAX_RESTARTS: not requeued, FAILED with exit code 3.
expect_state "$E" FAILED 3:0 0 "E (MOREAU_MAX_RESTARTS=0)"
in_log E.out "MOREAU_MAX_RESTARTS=0; not continuing"
newest_checkpoint_step E >/dev/null || fail "E: no checkpoint left to continue from"
[ "$(cut -d' ' -f1 E/run_status)" = stopped ] || fail "E/run_status: $(cat E/run_status)"
say "E: not requeued beyond MOREAU_MAX_RESTARTS=0, FAILED with exit code 3"

echo "--- job states seen"
cat states.log
echo "--- jobcomp records"
sed 's/ UserId=.*JobState=/ JobState=/; s/ Partition=.*//' "$slurm_local_dir/log/jobcomp.txt" 2>/dev/null
say "slurm_jobscripts: ok"
