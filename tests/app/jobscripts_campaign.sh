# campaign.sh: --dry-run prints one sbatch command per value, with the base
# options file, the varied option and its own output directory; a stand-in
# sbatch on PATH takes the real submissions and the job ids are printed;
# existing output directories and bad arguments are refused before anything
# is submitted.
exe=$1 work=$2 jobscripts=$3
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/lib.sh"
enter_workdir
campaign=$jobscripts/campaign.sh
printf -- '-gen_n 30\n-steps 2\n' >shear.opts

run bash "$campaign" -base shear.opts -vary mu 0.1,0.3,0.5 -n 16 -t 2:00:00 --dry-run
expect_rc 0 "campaign --dry-run"
[ "$(wc -l <stdout)" -eq 3 ] || fail "--dry-run did not print 3 commands"
for v in 0.1 0.3 0.5; do
  line=$(grep -F -- "-mu $v " stdout) || fail "no command for mu=$v"
  for part in "sbatch " "--ntasks 16" "--time 2:00:00" "$jobscripts/run.sbatch" "-options_file $work/shear.opts" \
    "-output_dir runs/mu_$v"; do
    echo "$line" | grep -qF -- "$part" || fail "mu=$v: '$part' missing from: $line"
  done
  echo "$line" | grep -qF -- "--signal" && fail "a 2-hour job should keep run.sbatch's own signal time"
done
[ -e runs ] && fail "--dry-run created directories"

# A short job gets its pre-timeout signal moved inside the time limit.
run bash "$campaign" -base shear.opts -vary mu 0.1 -t 5:00 --dry-run
grep -qF -- "--signal=B:USR1@30 " stdout || fail "-t 5:00 did not move the signal to 30 s before the end"

# Real submission through a stand-in sbatch that logs its arguments.
mkdir bin
cat >bin/sbatch <<'SBATCH'
#!/bin/sh
echo "$*" >>"$SBATCH_LOG"
n=$(wc -l <"$SBATCH_LOG")
echo "$((1000 + n));cluster"
SBATCH
chmod +x bin/sbatch
export SBATCH_LOG="$work/sbatch.log"
PATH="$work/bin:$PATH" run bash "$campaign" -base shear.opts -vary -e_n 0,0.5 -sep , -- -steps 4
expect_rc 0 "campaign submission"
[ "$(cat stdout)" = "1001 e_n=0 runs/e_n_0
1002 e_n=0.5 runs/e_n_0.5" ] || fail "unexpected job list: $(cat stdout)"
grep -qF -- "-e_n 0.5 -output_dir runs/e_n_0.5 -steps 4" sbatch.log || fail "extra moreau options not passed on"
[ -d runs/e_n_0.5 ] || fail "the output directory was not made at submission"

# The same campaign again would overwrite: refused, nothing submitted.
PATH="$work/bin:$PATH" run bash "$campaign" -base shear.opts -vary e_n 0.5,0.9
expect_rc 2 "a campaign into existing directories"
grep -q 'runs/e_n_0.5 already exists' stderr || fail "the refusal does not name the directory"
[ "$(wc -l <sbatch.log)" -eq 2 ] || fail "jobs were submitted although a directory existed"

run bash "$campaign" -base missing.opts -vary mu 0.1 --dry-run
expect_rc 2 "a missing base file"
run bash "$campaign" -base shear.opts --dry-run
expect_rc 2 "no -vary"
run bash "$campaign" -base shear.opts -vary mu 0.1 -frobnicate --dry-run
expect_rc 2 "an unknown argument"
echo "jobscripts_campaign: ok"
