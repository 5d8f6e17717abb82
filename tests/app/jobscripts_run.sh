# run.sbatch outside SLURM: a real run lands in runs/<job id>/ unless
# -output_dir is given (also inside an -options_file). With a stand-in moreau
# that checkpoints and exits 3 on SIGUSR1: USR1 to the script reaches the run,
# the script waits for it; under a (pretend) SLURM job it calls scontrol
# requeue and exits 0, a job that runs again (or finds a checkpoint) gets
# -restart auto, MOREAU_MAX_RESTARTS and MOREAU_REQUEUE=0 stop the chain with
# status 3, a refused requeue says so, MOREAU_CHAIN=1 submits a dependent job
# instead, an array task takes its case from MOREAU_CASES. Last, the real
# moreau on 2 ranks: USR1 stops it with status 3 and a checkpoint, and the
# same command continues it.
exe=$1 work=$2 jobscripts=$3 mpiexec=$4
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/lib.sh"
enter_workdir
script=$jobscripts/run.sbatch
unset SLURM_JOB_ID SLURM_JOBID SLURM_RESTART_COUNT SLURM_ARRAY_TASK_ID MOREAU_REQUEUE MOREAU_LAUNCHER \
  MOREAU_CHAIN MOREAU_CHAIN_COUNT MOREAU_CHAIN_SBATCH MOREAU_JOBSCRIPT MOREAU_MAX_RESTARTS MOREAU_CASES

MOREAU=$exe MOREAU_LAUNCHER="$mpiexec -n 2 --oversubscribe" run bash "$script" -gen_n 40 -steps 4 -output_every 2
expect_rc 0 "run.sbatch, a tiny run"
set -- runs/local-*/timeseries.csv
if [ $# -ne 1 ] || [ ! -f "$1" ]; then fail "no runs/local-<pid>/timeseries.csv"; fi
[ "$(data_rows "$1")" -eq 2 ] || fail "the run did not get its options"
[ "$(cat "$(dirname "$1")/run_status")" = "done $(basename "$(dirname "$1")")" ] || fail "no 'done' in run_status"
rm -rf runs
printf -- '-gen_n 40\n-steps 2\n -output_dir from_file\n' >run.opts
MOREAU=$exe MOREAU_LAUNCHER="$mpiexec -n 1" run bash "$script" -options_file run.opts
expect_rc 0 "run.sbatch with -output_dir in the options file"
[ -f from_file/timeseries.csv ] || fail "-output_dir of the options file was not used"
[ -e runs ] && fail "runs/ made although the options file names the output directory"
MOREAU=$work/nothing run bash "$script" -steps 1
expect_rc 2 "a missing executable"
grep -q "nothing" stderr || fail "the error does not name the missing executable"
MOREAU=$exe MOREAU_REQUEUE=yes run bash "$script" -steps 1
expect_rc 2 "MOREAU_REQUEUE=yes"

cat >fake_moreau <<'FAKE'
#!/bin/sh
# Stands in for moreau: on SIGUSR1 it checkpoints into its output directory
# and exits $FAKE_SIGNAL_RC (default 3, "stopped, resumable"); with -restart
# or FAKE_DONE set it finishes at once.
dir=""
prev=""
for a in "$@"; do
  [ "$prev" = -output_dir ] && dir=$a
  prev=$a
done
trap 'sleep 1; mkdir -p "$dir/checkpoints"; : >"$dir/checkpoints/ckpt_00000010.h5"; echo checkpointed >>"$FAKE_LOG"; exit ${FAKE_SIGNAL_RC:-3}' USR1
echo "started $*" >>"$FAKE_LOG"
mkdir -p "$dir"
case " $* " in *" -restart "*) exit 0 ;; esac
[ -n "$FAKE_DONE" ] && exit 0
while :; do sleep 0.1; done
FAKE
chmod +x fake_moreau
mkdir bin
# Stand-in scontrol: logs its arguments; "show job" prints the fields
# run.sbatch reads; anything else exits $SCONTROL_RC.
cat >bin/scontrol <<SCONTROL
#!/bin/sh
echo "\$*" >>"$work/scontrol.log"
if [ "\$1" = show ]; then echo "JobId=\$3 JobName=moreau StdOut=$work/job.log Command=/nowhere/run.sbatch"; exit 0; fi
exit \${SCONTROL_RC:-0}
SCONTROL
# Stand-in sbatch: logs its arguments and the environment the new job gets.
cat >bin/sbatch <<SBATCH
#!/bin/sh
echo "\$*" >>"$work/sbatch.log"
echo "chain=\$MOREAU_CHAIN count=\$MOREAU_CHAIN_COUNT job=\${SLURM_JOB_ID:-unset} conf=\${SLURM_CONF:-unset} cases=\${MOREAU_CASES:-unset}" >>"$work/sbatch.env"
echo "5151;cluster"
SBATCH
chmod +x bin/scontrol bin/sbatch
export FAKE_LOG="$work/fake.log"

# Starts run.sbatch in the background with the given environment, waits until
# the stand-in runs, sends USR1 and waits for the script; $rc is its status.
usr1_run() {
  rm -f "$FAKE_LOG" scontrol.log sbatch.log sbatch.env
  : >"$FAKE_LOG"
  env "$@" MOREAU="$work/fake_moreau" MOREAU_LAUNCHER=env PATH="$work/bin:$PATH" \
    bash "$script" -x 1 >"$work/stdout" 2>"$work/stderr" &
  job=$!
  i=0
  until grep -q started "$FAKE_LOG"; do
    i=$((i + 1))
    [ $i -lt 200 ] || { kill $job; fail "the stand-in moreau did not start"; }
    sleep 0.1
  done
  kill -USR1 $job
  wait $job
  rc=$?
}
status_is() {
  [ "$(cat "$1/run_status" 2>/dev/null)" = "$2" ] || fail "$1/run_status is '$(cat "$1/run_status" 2>/dev/null)', expected '$2'"
}

usr1_run
expect_rc 3 "USR1 outside SLURM"
grep -q checkpointed fake.log || fail "the run did not get SIGUSR1 or was not waited for"
grep -q "time limit near" stdout || fail "the script did not report the signal"
grep -q "nothing to requeue" stdout || fail "the script did not say that nothing requeues it"
[ -e scontrol.log ] && fail "scontrol called outside SLURM"
rm -rf runs

usr1_run SLURM_JOB_ID=4242
expect_rc 0 "USR1 under SLURM (requeue by default)"
grep -q checkpointed fake.log || fail "the run did not get SIGUSR1 before the requeue"
[ "$(cat scontrol.log)" = "requeue 4242" ] || fail "scontrol was not asked to requeue job 4242"
grep -q "started -x 1 -output_dir runs/4242\$" fake.log || fail "the job's output directory is not runs/<job id>"
status_is runs/4242 "requeued 4242"

# The requeued job continues from the checkpoint.
: >fake.log
env SLURM_JOB_ID=4242 SLURM_RESTART_COUNT=1 MOREAU="$work/fake_moreau" MOREAU_LAUNCHER=env \
  bash "$script" -x 1 >stdout 2>stderr
rc=$?
expect_rc 0 "the requeued job"
grep -q "started -x 1 -output_dir runs/4242 -restart auto\$" fake.log || fail "the requeued job did not get -restart auto"
status_is runs/4242 "done 4242"
# A checkpoint alone (a job submitted again) also continues; a -restart given
# by the user is left alone.
: >fake.log
env SLURM_JOB_ID=4242 MOREAU="$work/fake_moreau" MOREAU_LAUNCHER=env bash "$script" -x 1 -output_dir runs/4242 >stdout 2>stderr
grep -q "started -x 1 -output_dir runs/4242 -restart auto\$" fake.log || fail "a checkpoint in the output directory did not add -restart auto"
: >fake.log
env SLURM_JOB_ID=4242 MOREAU="$work/fake_moreau" MOREAU_LAUNCHER=env bash "$script" -x 1 -restart runs/4242/checkpoints/ckpt_00000010.h5 >stdout 2>stderr
grep -q "started -x 1 -restart runs/4242/checkpoints/ckpt_00000010.h5 -output_dir runs/4242\$" fake.log ||
  fail "-restart FILE was not passed unchanged"
# A requeued job without a checkpoint starts over.
: >fake.log
env SLURM_JOB_ID=4343 SLURM_RESTART_COUNT=1 FAKE_DONE=1 MOREAU="$work/fake_moreau" MOREAU_LAUNCHER=env bash "$script" -x 1 >stdout 2>stderr
grep -q "started -x 1 -output_dir runs/4343\$" fake.log || fail "-restart auto without a checkpoint"
grep -q "starts from the beginning" stdout || fail "no line about starting over"
rm -rf runs

usr1_run SLURM_JOB_ID=4242 MOREAU_REQUEUE=0
expect_rc 3 "USR1 with MOREAU_REQUEUE=0"
[ -e scontrol.log ] && fail "requeued with MOREAU_REQUEUE=0"
status_is runs/4242 "stopped 4242"
rm -rf runs

usr1_run SLURM_JOB_ID=4242 SLURM_RESTART_COUNT=20
expect_rc 3 "USR1 after 20 restarts"
[ -e scontrol.log ] && fail "requeued beyond MOREAU_MAX_RESTARTS (default 20)"
grep -q "error: .*20 restarts.*MOREAU_MAX_RESTARTS=20" stderr || fail "no line about MOREAU_MAX_RESTARTS"
rm -rf runs
usr1_run SLURM_JOB_ID=4242 SLURM_RESTART_COUNT=1 MOREAU_CHAIN_COUNT=1 MOREAU_MAX_RESTARTS=2
expect_rc 3 "USR1 after 1 requeue and 1 chained job, MOREAU_MAX_RESTARTS=2"
[ -e scontrol.log ] && fail "requeued beyond MOREAU_MAX_RESTARTS=2"
rm -rf runs
usr1_run SLURM_JOB_ID=4242 SLURM_RESTART_COUNT=1 MOREAU_MAX_RESTARTS=2
expect_rc 0 "USR1 after 1 restart, MOREAU_MAX_RESTARTS=2"
[ "$(cat scontrol.log)" = "requeue 4242" ] || fail "not requeued below MOREAU_MAX_RESTARTS"
rm -rf runs

usr1_run SLURM_JOB_ID=4242 SCONTROL_RC=1
expect_rc 3 "USR1 with a refused requeue"
grep -q "requeue 4242 failed.*chain.sh" stderr || fail "a refused requeue is not reported"
status_is runs/4242 "stopped 4242"
rm -rf runs

# A run that fails after the signal is not continued.
usr1_run SLURM_JOB_ID=4242 FAKE_SIGNAL_RC=1
expect_rc 1 "a run failing after USR1"
[ -e scontrol.log ] && fail "a failed run was requeued"
status_is runs/4242 "failed 4242"
rm -rf runs

# Chain: a dependent job with the same sbatch options, the options, the
# output directory and the next chain count; this job's SLURM variables and
# case are not passed on.
usr1_run SLURM_JOB_ID=4242 SLURM_CONF=/x/slurm.conf SLURM_NTASKS=2 MOREAU_CHAIN=1 MOREAU_CHAIN_SBATCH="-n 2 -t 5" \
  MOREAU_JOBSCRIPT=/js/run.sbatch
expect_rc 0 "USR1 with MOREAU_CHAIN=1"
[ "$(cat sbatch.log)" = "--parsable --dependency=afterany:4242 -n 2 -t 5 --output $work/job.log /js/run.sbatch -x 1 -output_dir runs/4242" ] ||
  fail "continuation job: $(cat sbatch.log)"
[ "$(cat sbatch.env)" = "chain=1 count=1 job=unset conf=/x/slurm.conf cases=unset" ] || fail "continuation environment: $(cat sbatch.env)"
grep -q "^requeue" scontrol.log && fail "requeued although MOREAU_CHAIN=1"
status_is runs/4242 "continued 4242 5151"
rm -rf runs

# An array task takes its case (option, value, output directory).
printf '0\tmu\t0.1\truns/mu_0.1\n1\tmu\t0.3\truns/mu_0.3\n' >mu.cases
: >fake.log
env SLURM_JOB_ID=77 SLURM_ARRAY_TASK_ID=1 MOREAU_CASES="$work/mu.cases" FAKE_DONE=1 MOREAU="$work/fake_moreau" \
  MOREAU_LAUNCHER=env bash "$script" -x 1 >stdout 2>stderr
grep -q "started -x 1 -mu 0.3 -output_dir runs/mu_0.3\$" fake.log || fail "array task 1 did not get its case: $(cat fake.log)"
# With the options campaign.sh -with varies along, after the directory.
printf '0\tmu\t0.1\truns/mu_0.1\tdt\t1e-3\tsteps\t7\n' >with.cases
: >fake.log
env SLURM_JOB_ID=78 SLURM_ARRAY_TASK_ID=0 MOREAU_CASES="$work/with.cases" FAKE_DONE=1 MOREAU="$work/fake_moreau" \
  MOREAU_LAUNCHER=env bash "$script" -x 1 >stdout 2>stderr
grep -q "started -x 1 -mu 0.1 -output_dir runs/mu_0.1 -dt 1e-3 -steps 7\$" fake.log ||
  fail "array task 0 did not get its -with options: $(cat fake.log)"
printf '0\tmu\t0.1\truns/mu_0.1\tdt\n' >odd.cases
env SLURM_JOB_ID=79 SLURM_ARRAY_TASK_ID=0 MOREAU_CASES="$work/odd.cases" MOREAU="$work/fake_moreau" \
  MOREAU_LAUNCHER=env bash "$script" -x 1 >stdout 2>stderr
rc=$?
expect_rc 2 "a case with an option but no value"
grep -q "malformed" stderr || fail "the malformed case is not reported: $(cat stderr)"
env SLURM_JOB_ID=77 SLURM_ARRAY_TASK_ID=5 MOREAU_CASES="$work/mu.cases" MOREAU="$work/fake_moreau" \
  MOREAU_LAUNCHER=env bash "$script" -x 1 >stdout 2>stderr
rc=$?
expect_rc 2 "an array task without a case"
rm -rf runs

# The real moreau on 2 ranks: USR1 stops it after a checkpoint (status 3, the
# signal passed on by mpiexec), and the same command with another -steps
# (20 steps after the checkpoint; an option is given once) continues it from
# there.
MOREAU=$exe MOREAU_LAUNCHER="$mpiexec -n 2 --oversubscribe" bash "$script" -gen_n 300 -steps 100000 -status_every 0 \
  -output_every 10 -snapshot_every 0 -output_dir real >stdout 2>stderr &
job=$!
i=0
until [ "$(cat real/timeseries.csv 2>/dev/null | wc -l)" -gt 3 ]; do
  i=$((i + 1))
  [ $i -lt 600 ] || { kill $job; fail "the real run wrote no time series rows within 60 s"; }
  sleep 0.1
done
kill -USR1 $job
wait $job
rc=$?
expect_rc 3 "the real run stopped by USR1"
set -- real/checkpoints/ckpt_*.h5
[ -f "$1" ] || fail "no checkpoint after USR1"
ck=$(basename "$1" .h5)
ck=$(echo "${ck#ckpt_}" | sed 's/^0*//')
[ "$ck" -gt 0 ] && [ "$ck" -lt 100000 ] || fail "checkpoint at step $ck"
status_is real "stopped local-$job"
MOREAU=$exe MOREAU_LAUNCHER="$mpiexec -n 2 --oversubscribe" run bash "$script" -gen_n 300 -steps $((ck + 20)) -status_every 0 \
  -output_every 10 -snapshot_every 0 -output_dir real
expect_rc 0 "the real run continued"
grep -q -- "-restart auto" stdout || fail "the continuation did not get -restart auto"
[ -f "real/checkpoints/ckpt_$(printf %08d $((ck + 20))).h5" ] || fail "no final checkpoint at step $((ck + 20))"
[ "$(tail -n 1 real/timeseries.csv | cut -d, -f1)" -eq $(((ck + 20) / 10 * 10)) ] || fail "the time series was not continued"
awk -F, 'NR > 2 && $1 != prev + 10 { exit 1 } NR > 1 { prev = $1 }' real/timeseries.csv ||
  fail "the continued time series has gaps or repeated rows"
echo "jobscripts_run: ok"
