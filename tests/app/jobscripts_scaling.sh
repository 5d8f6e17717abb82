# scaling.sh --local on 1 and 2 ranks, strong and weak: the CSV has one row
# per rank count with the right bodies and steps, times that agree with the
# -log_view table of each run, and the efficiency worked out here. Then the
# SLURM path with a stand-in sbatch: one exclusive job per rank count and a
# collect job that depends on all of them.
exe=$1 work=$2 jobscripts=$3 mpiexec=$4
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/lib.sh"
enter_workdir
export MOREAU="$exe" MOREAU_MPIEXEC="$mpiexec --oversubscribe"

for mode in strong weak; do
  run bash "$jobscripts/scaling.sh" $mode -ranks 1,2 -gen_n 60 -steps 5 --local -out $mode
  expect_rc 0 "scaling.sh $mode --local"
  csv=$mode/scaling.csv
  [ "$(head -n 1 $csv)" = "ranks,bodies,steps,seconds,seconds_per_step,efficiency" ] || fail "$csv header"
  [ "$(data_rows $csv)" -eq 2 ] || fail "$csv: expected 2 rows"
  if [ $mode = strong ]; then bodies2=60; else bodies2=120; fi
  [ "$(cut -d, -f1-3 $csv | sed -n '2,3p' | tr '\n' ' ')" = "1,60,5 2,$bodies2,5 " ] || fail "$csv: ranks, bodies or steps wrong"
  grep -qx -- "-gen_n $bodies2" $mode/np2/moreau.out || fail "$mode: the 2-rank run did not get -gen_n $bodies2"
  [ $mode = weak ] && { grep -qx -- "-gen_box 0,0,2,2" weak/np2/moreau.out || fail "weak: the box did not double in x"; }
  for p in 1 2; do
    logged=$(awk '/^MoreauStep / { print $4 }' $mode/np$p/moreau.out)
    [ -n "$logged" ] || fail "$mode np$p: no MoreauStep in the log"
    # The CSV keeps 6 significant digits.
    awk -F, -v p=$p -v t="$logged" 'function off(a, b) { return (a > b ? a - b : b - a) > 1e-5 * b }
      NR > 1 && $1 == p { exit off($4, t) || off($5 * $3, $4) }' $csv ||
      fail "$mode np$p: seconds or seconds_per_step disagree with -log_view ($logged)"
  done
  awk -F, -v mode=$mode 'NR == 2 { t1 = $5 }
    NR == 3 { want = mode == "strong" ? t1 / (2 * $5) : t1 / $5; d = want - $6; exit (d < 0 ? -d : d) > 5e-5 + 1e-5 * want }' $csv ||
    fail "$mode: efficiency is not $mode efficiency of the two rows"
  awk -F, 'NR == 2 { exit !($6 == 1) }' $csv || fail "$mode: efficiency of the smallest rank count is not 1"
done

mkdir bin
cat >bin/sbatch <<'SBATCH'
#!/bin/sh
echo "$*" >>"$SBATCH_LOG"
n=$(wc -l <"$SBATCH_LOG")
echo "$((500 + n))"
SBATCH
chmod +x bin/sbatch
export SBATCH_LOG="$work/sbatch.log"
PATH="$work/bin:$PATH" run bash "$jobscripts/scaling.sh" weak -ranks 1,4 -gen_n 100 -t 10 -out slurm
expect_rc 0 "scaling.sh weak through sbatch"
[ "$(wc -l <sbatch.log)" -eq 3 ] || fail "expected 2 runs and 1 collect job"
sed -n 1p sbatch.log | grep -q -- "--exclusive --ntasks 1 .*run.sbatch .*-gen_n 100 " || fail "first job: $(sed -n 1p sbatch.log)"
sed -n 2p sbatch.log | grep -q -- "--ntasks 4 .*--signal=B:USR1@60 .*-gen_n 400 -gen_box 0,0,4,2 " || fail "second job: $(sed -n 2p sbatch.log)"
sed -n 3p sbatch.log | grep -q -- "--dependency afterany:501:502 .*scaling.sh' collect" || fail "collect job: $(sed -n 3p sbatch.log)"

run bash "$jobscripts/scaling.sh" sideways -ranks 1
expect_rc 2 "an unknown mode"
run bash "$jobscripts/scaling.sh" strong -ranks 1,x --local
expect_rc 2 "a bad rank list"
echo "jobscripts_scaling: ok"
