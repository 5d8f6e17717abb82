# campaign.sh: --dry-run prints one sbatch command per value, with the base
# options file, the varied option and its own output directory, and the
# collect job; a stand-in sbatch on PATH takes the real submissions and the
# job ids are printed; existing output directories and bad arguments are
# refused before anything is submitted. -array submits one job array whose
# tasks read their case from the cases file. The collect step writes one CSV
# row per case (value, final step and time, means over the last half of the
# rows, state, directory), and waits for chained continuations. -with
# varies more options along (command lines, cases file, counts checked),
# -post runs a command after the collect step, -local --dry-run prints the
# local runs (tests/campaign runs them for real).
exe=$1 work=$2 jobscripts=$3
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/lib.sh"
enter_workdir
campaign=$jobscripts/campaign.sh
unset SLURM_JOB_ID
printf -- '-gen_n 30\n-steps 2\n' >shear.opts

run bash "$campaign" -base shear.opts -vary mu 0.1,0.3,0.5 -n 16 -t 2:00:00 --dry-run
expect_rc 0 "campaign --dry-run"
[ "$(grep -c 'run.sbatch' stdout)" -eq 3 ] || fail "--dry-run did not print 3 run commands"
for v in 0.1 0.3 0.5; do
  line=$(grep -F -- "-mu $v " stdout) || fail "no command for mu=$v"
  for part in "sbatch " "--ntasks 16" "--time 2:00:00" "$jobscripts/run.sbatch" "-options_file $work/shear.opts" \
    "-output_dir runs/mu_$v"; do
    echo "$line" | grep -qF -- "$part" || fail "mu=$v: '$part' missing from: $line"
  done
  echo "$line" | grep -qF -- "--signal" && fail "a 2-hour job should keep run.sbatch's own signal time"
done
grep "collect" stdout | grep -F -- "--dependency afterany:" | grep -F "$work/runs/mu.cases" | grep -qF "kinetic_energy" ||
  fail "--dry-run did not print the collect job: $(grep collect stdout)"
[ -e runs ] && fail "--dry-run created directories"

# A short job gets its pre-timeout signal moved inside the time limit.
run bash "$campaign" -base shear.opts -vary mu 0.1 -t 5:00 --dry-run
grep -qF -- "--signal=B:USR1@30 " stdout || fail "-t 5:00 did not move the signal to 30 s before the end"

# Real submission through a stand-in sbatch that logs its arguments.
mkdir bin
cat >bin/sbatch <<'SBATCH'
#!/bin/sh
echo "$*" >>"$SBATCH_LOG"
echo "collect_sbatch=$MOREAU_COLLECT_SBATCH cases=$MOREAU_CASES" >>"$SBATCH_LOG.env"
n=$(wc -l <"$SBATCH_LOG")
echo "$((1000 + n));cluster"
SBATCH
chmod +x bin/sbatch
export SBATCH_LOG="$work/sbatch.log"
PATH="$work/bin:$PATH" run bash "$campaign" -base shear.opts -vary -e_n 0,0.5 -sep , -sbatch "-p short" -- -steps 4
expect_rc 0 "campaign submission"
[ "$(cat stdout)" = "1001 e_n=0 runs/e_n_0
1002 e_n=0.5 runs/e_n_0.5
1003 collect: runs/e_n.csv when every case has ended" ] || fail "unexpected job list: $(cat stdout)"
grep -qF -- "-e_n 0.5 -output_dir runs/e_n_0.5 -steps 4" sbatch.log || fail "extra moreau options not passed on"
[ -d runs/e_n_0.5 ] || fail "the output directory was not made at submission"
sed -n 3p sbatch.log | grep -qF -- "--dependency afterany:1001:1002 " || fail "collect job: $(sed -n 3p sbatch.log)"
sed -n 3p sbatch.log | grep -qF -- "-p short" || fail "the collect job did not get the -sbatch arguments"
[ "$(sed -n 3p sbatch.log.env)" = "collect_sbatch=-p short cases=" ] || fail "collect environment: $(sed -n 3p sbatch.log.env)"
[ "$(cat runs/e_n.cases)" = "$(printf '0\te_n\t0\truns/e_n_0\n1\te_n\t0.5\truns/e_n_0.5')" ] || fail "cases file: $(cat runs/e_n.cases)"

# The same campaign again would overwrite: refused, nothing submitted.
PATH="$work/bin:$PATH" run bash "$campaign" -base shear.opts -vary e_n 0.5,0.9
expect_rc 2 "a campaign into existing directories"
grep -q 'runs/e_n_0.5 already exists' stderr || fail "the refusal does not name the directory"
PATH="$work/bin:$PATH" run bash "$campaign" -base shear.opts -vary e_n 0.9
expect_rc 2 "a second campaign of the same name"
grep -q 'runs/e_n.cases already exists' stderr || fail "the refusal does not name the cases file"
[ "$(wc -l <sbatch.log)" -eq 3 ] || fail "jobs were submitted although a directory existed"

# -array: one job array, its tasks' cases in the cases file.
: >sbatch.log
: >sbatch.log.env
PATH="$work/bin:$PATH" run bash "$campaign" -array -base shear.opts -vary gravity '0,-9.81;0,-1;0,0' -sep ';' -runs arr -n 2 -t 10
expect_rc 0 "campaign -array"
[ "$(cat stdout)" = "1001_0 gravity=0,-9.81 arr/gravity_0_-9.81
1001_1 gravity=0,-1 arr/gravity_0_-1
1001_2 gravity=0,0 arr/gravity_0_0
1002 collect: arr/gravity.csv when every case has ended" ] || fail "unexpected array job list: $(cat stdout)"
line=$(sed -n 1p sbatch.log)
for part in "--ntasks 2" "--time 10" "--signal=B:USR1@60" "--array 0-2" "--output arr/gravity_%a.out" \
  "--export ALL,MOREAU_CASES=$work/arr/gravity.cases" "$jobscripts/run.sbatch -options_file $work/shear.opts"; do
  echo "$line" | grep -qF -- "$part" || fail "array job: '$part' missing from: $line"
done
echo "$line" | grep -q -- "-gravity" && fail "the array job's command line names a case"
[ "$(sed -n 3p arr/gravity.cases)" = "$(printf '2\tgravity\t0,0\tarr/gravity_0_0')" ] || fail "array cases file: $(cat arr/gravity.cases)"
sed -n 2p sbatch.log | grep -qF -- "--dependency afterany:1001 " || fail "array collect job: $(sed -n 2p sbatch.log)"

run bash "$campaign" -array -chain -base shear.opts -vary mu 0.1,0.2 -n 4 -t 30:00 --dry-run
expect_rc 0 "campaign -array -chain --dry-run"
grep -F -- "--array 0-1" stdout | grep -q "^env MOREAU_CHAIN=1 MOREAU_CHAIN_SBATCH=--ntasks\\\\ 4\\\\ --time\\\\ 30:00 MOREAU_JOBSCRIPT=" ||
  fail "-chain: $(cat stdout)"

# The collect step on finished cases: the gravity campaign's three
# directories get time series (case 1 has none), case 0 a run_status.
d0=arr/gravity_0_-9.81 d2=arr/gravity_0_0
printf 'step,time,contacts,iterations,kinetic_energy\n10,0.1,4,3,1.5\n20,0.2,6,3,0.5\n30,0.3,10,3,0.25\n' >$d0/timeseries.csv
printf 'step,time,contacts,iterations,kinetic_energy\n10,0.1,1,2,8\n20,0.2,3,2,4\n' >$d2/timeseries.csv
echo "done 1001" >$d0/run_status
run bash "$campaign" collect arr/gravity.cases -columns contacts,kinetic_energy
expect_rc 1 "collect with a case without rows"
grep -q "case 1 (gravity=0,-1): no rows" stderr || fail "the missing case is not named"
[ "$(cat arr/gravity.csv)" = 'gravity,final_step,final_time,mean_contacts,mean_kinetic_energy,status,output_dir
"0,-9.81",30,0.3,8,0.375,done,arr/gravity_0_-9.81
"0,-1",,,,,unknown,arr/gravity_0_-1
"0,0",20,0.2,3,4,unknown,arr/gravity_0_0' ] || fail "collect CSV: $(cat arr/gravity.csv)"
run bash "$campaign" collect arr/gravity.cases -columns contacts,pressure
[ "$rc" -ne 0 ] || fail "collect of an unknown column succeeded"

# Under SLURM, a case continued by a job still queued puts the collection
# off: a new collect job after it, no CSV yet.
rm arr/gravity.csv
: >sbatch.log
echo "continued 1001 2002" >$d0/run_status
printf '#!/bin/sh\n[ "$3" = 2002 ] && echo " 2002 debug moreau root PD"\nexit 0\n' >bin/squeue
chmod +x bin/squeue
PATH="$work/bin:$PATH" SLURM_JOB_ID=1002 MOREAU_COLLECT_SBATCH="-p short" run bash "$campaign" collect "$work/arr/gravity.cases"
expect_rc 0 "collect while a continuation is queued"
[ -e arr/gravity.csv ] && fail "collected although a case is still being continued"
grep -qF -- "--dependency afterany:2002 -p short" sbatch.log || fail "no new collect job after the continuation: $(cat sbatch.log)"
# Once the continuation has ended, the collect job under SLURM writes the CSV.
echo "done 2002" >$d0/run_status
PATH="$work/bin:$PATH" SLURM_JOB_ID=1003 run bash "$campaign" collect "$work/arr/gravity.cases"
expect_rc 1 "collect under SLURM with a case without rows"
[ "$(head -n 2 arr/gravity.csv)" = 'gravity,final_step,final_time,mean_contacts,mean_kinetic_energy,status,output_dir
"0,-9.81",30,0.3,8,0.375,done,arr/gravity_0_-9.81' ] || fail "collect CSV under SLURM: $(cat arr/gravity.csv)"

# -with: options varied along, one value per case or one for all; in the run
# commands after the output directory and in the cases file after it.
run bash "$campaign" -base shear.opts -vary inertial_number 0.01,0.1 -with dt 1e-3,1e-4 -with -steps 9 --dry-run
expect_rc 0 "campaign -with --dry-run"
grep -qF -- "-inertial_number 0.01 -output_dir runs/inertial_number_0.01 -dt 1e-3 -steps 9" stdout ||
  fail "-with, case 0: $(cat stdout)"
grep -qF -- "-inertial_number 0.1 -output_dir runs/inertial_number_0.1 -dt 1e-4 -steps 9" stdout ||
  fail "-with, case 1: $(cat stdout)"
PATH="$work/bin:$PATH" run bash "$campaign" -array -base shear.opts -vary inertial_number 0.01,0.1 -with dt 1e-3,1e-4 \
  -runs with -post "echo posted >'$work/post.txt'"
expect_rc 0 "campaign -array -with -post"
[ "$(cat with/inertial_number.cases)" = "$(printf '0\tinertial_number\t0.01\twith/inertial_number_0.01\tdt\t1e-3
1\tinertial_number\t0.1\twith/inertial_number_0.1\tdt\t1e-4')" ] || fail "-with cases file: $(cat with/inertial_number.cases)"
# The collect job carries the -post command; the collect step runs it after
# writing the CSV, even with cases missing.
tail -n 1 sbatch.log | grep -qF -- "-post" || fail "the collect job has no -post: $(tail -n 1 sbatch.log)"
run bash "$campaign" collect with/inertial_number.cases -columns contacts -post "echo posted >'$work/post.txt'"
expect_rc 1 "collect -post with no case run"
[ "$(cat post.txt 2>/dev/null)" = posted ] || fail "collect did not run the -post command"
[ -s with/inertial_number.csv ] || fail "collect -post wrote no CSV"
run bash "$campaign" collect with/inertial_number.cases -columns contacts -post "exit 4"
expect_rc 1 "collect with a failing -post command"
run bash "$campaign" -base shear.opts -vary mu 0.1,0.2 -with dt 1,2,3 --dry-run
expect_rc 2 "-with with a wrong number of values"
grep -q "dt has 3 values for 2 cases" stderr || fail "the -with count error: $(cat stderr)"
run bash "$campaign" -base shear.opts -vary mu 0.1 -with mu 0.2 --dry-run
expect_rc 2 "-with the varied option"
run bash "$campaign" -local -array -base shear.opts -vary mu 0.1 --dry-run
expect_rc 2 "-local with -array"
# -local --dry-run: the run.sbatch commands with MOREAU_NP, then the collect step.
run bash "$campaign" -local -n 2 -base shear.opts -vary mu 0.1,0.2 --dry-run
expect_rc 0 "campaign -local --dry-run"
[ "$(grep -c "^env MOREAU_NP=2 bash $jobscripts/run.sbatch -options_file $work/shear.opts -mu 0.[12] -output_dir runs/mu_0.[12]" stdout)" = 2 ] ||
  fail "-local --dry-run: $(cat stdout)"
tail -n 1 stdout | grep -q "campaign.sh collect $work/runs/mu.cases" || fail "-local --dry-run collect: $(cat stdout)"

run bash "$campaign" -base missing.opts -vary mu 0.1 --dry-run
expect_rc 2 "a missing base file"
run bash "$campaign" -base shear.opts --dry-run
expect_rc 2 "no -vary"
run bash "$campaign" -base shear.opts -vary mu 0.1 -frobnicate --dry-run
expect_rc 2 "an unknown argument"
run bash "$campaign" -base shear.opts -vary mu 0.1 -columns 'a b' --dry-run
expect_rc 2 "bad -columns"
echo "jobscripts_campaign: ok"
