# run.sbatch outside SLURM: a real run lands in runs/<job id>/ unless
# -output_dir is given (also inside an -options_file). With a stand-in moreau
# that checkpoints for a second on SIGTERM: USR1 to the script reaches the run,
# the script waits for it to finish and returns its status; with
# MOREAU_REQUEUE=1 under a (pretend) SLURM job it calls scontrol requeue, and a
# requeued job gets MOREAU_RESTART_OPTIONS.
exe=$1 work=$2 jobscripts=$3 mpiexec=$4
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/lib.sh"
enter_workdir
script=$jobscripts/run.sbatch
unset SLURM_JOB_ID SLURM_JOBID SLURM_RESTART_COUNT MOREAU_REQUEUE MOREAU_RESTART_OPTIONS MOREAU_LAUNCHER

MOREAU=$exe MOREAU_LAUNCHER="$mpiexec -n 2 --oversubscribe" run bash "$script" -gen_n 40 -steps 4 -output_every 2
expect_rc 0 "run.sbatch, a tiny run"
set -- runs/local-*/timeseries.csv
if [ $# -ne 1 ] || [ ! -f "$1" ]; then fail "no runs/local-<pid>/timeseries.csv"; fi
[ "$(data_rows "$1")" -eq 2 ] || fail "the run did not get its options"
rm -rf runs
printf -- '-gen_n 40\n-steps 2\n -output_dir from_file\n' >run.opts
MOREAU=$exe MOREAU_LAUNCHER="$mpiexec -n 1" run bash "$script" -options_file run.opts
expect_rc 0 "run.sbatch with -output_dir in the options file"
[ -f from_file/timeseries.csv ] || fail "-output_dir of the options file was not used"
[ -e runs ] && fail "runs/ made although the options file names the output directory"
MOREAU=$work/nothing run bash "$script" -steps 1
expect_rc 2 "a missing executable"
grep -q "nothing" stderr || fail "the error does not name the missing executable"

cat >fake_moreau <<'FAKE'
#!/bin/sh
# Stands in for a moreau that checkpoints on SIGTERM and can restart.
trap 'sleep 1; echo checkpointed >>"$FAKE_LOG"; exit 0' TERM
echo "started $*" >>"$FAKE_LOG"
case " $* " in *" -restart "*) exit 0 ;; esac
while :; do sleep 0.1; done
FAKE
chmod +x fake_moreau
mkdir bin
printf '#!/bin/sh\necho "$*" >>"%s/scontrol.log"\n' "$work" >bin/scontrol
chmod +x bin/scontrol
export FAKE_LOG="$work/fake.log"

# Starts run.sbatch in the background with the given environment, waits until
# the stand-in runs, sends USR1 and waits for the script; $rc is its status.
usr1_run() {
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

usr1_run
expect_rc 0 "USR1, no requeue"
grep -q checkpointed fake.log || fail "the run did not get SIGTERM or was not waited for"
grep -q "time limit near" stdout || fail "the script did not report the signal"
[ -e scontrol.log ] && fail "requeued without MOREAU_REQUEUE=1"

usr1_run SLURM_JOB_ID=4242 MOREAU_REQUEUE=1
expect_rc 0 "USR1 with MOREAU_REQUEUE=1"
grep -q checkpointed fake.log || fail "the run did not get SIGTERM before the requeue"
[ "$(cat scontrol.log)" = "requeue 4242" ] || fail "scontrol was not asked to requeue job 4242"
grep -q "started -x 1 -output_dir runs/4242\$" fake.log || fail "the job's output directory is not runs/<job id>"

: >fake.log
env SLURM_JOB_ID=4242 SLURM_RESTART_COUNT=1 MOREAU_RESTART_OPTIONS="-restart" MOREAU="$work/fake_moreau" \
  MOREAU_LAUNCHER=env bash "$script" -x 1 >stdout 2>stderr
rc=$?
expect_rc 0 "the requeued job"
grep -q "started -x 1 -output_dir runs/4242 -restart\$" fake.log || fail "the requeued job did not get -restart"
echo "jobscripts_run: ok"
