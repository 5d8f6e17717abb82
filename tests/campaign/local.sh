# sh local.sh MOREAU WORKDIR TOOLS MPIEXEC
#
# tools/campaign.sh -local end to end on two tiny cases: 100 disks (the
# options below), I = 0.02 and 0.1, 1.5 strain units each on 2 ranks
# (about 1000 steps per strain), blocks of 0.25 strain. Checks: both runs
# done; jobscripts/campaign.sh's own table runs/muI.csv; the campaign table
# runs/muI_table.csv with exactly the columns of tools/steady_state.py
# --cases, one row per case in order, each steady, with 100 bodies, its dt,
# a wall time, a strain near 1.5, mu and phi in the dense-flow range and the
# measured I within 30% of the target; the plot runs/muI.png (a PNG) and
# the fitted constants on standard output.
# shellcheck shell=sh
exe=$1 work=$2 tools=$3 mpiexec=$4
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/../app/lib.sh"
enter_workdir
printf -- '-dim 2\n-gen_type random\n-gen_n 100\n-gen_fraction 0.75\n-gen_box 0,0,1,1\n-gravity 0,0\n-mu 0.4
-pressure 1000\n-barostat_mass 0.1\n-t_end 1e9\n-nlgs_max_it 200\n-output_every 10\n-snapshot_every 0\n-status_every 0\n' >tiny.opts
PATH=$(dirname "$mpiexec"):$PATH MOREAU=$exe run bash "$tools/campaign.sh" -local -base tiny.opts -n 2 -I 0.02,0.1 \
  -dt 5e-3,1e-3 -strain 1.5 -block 0.25
cat stdout
expect_rc 0 "tools/campaign.sh -local"
for i in 0.02 0.1; do
  [ "$(cut -d' ' -f1 runs/inertial_number_$i/run_status)" = done ] || fail "case I = $i is not done"
done
[ "$(data_rows runs/muI.csv)" = 2 ] || fail "runs/muI.csv (jobscripts/campaign.sh collect) has not 2 rows"
[ "$(head -n 1 runs/muI_table.csv)" = "I_target,I_measured,mu,mu_err,phi,phi_err,steady_from,strain,n_bodies,wall_seconds,steady,blocks,dt,max_overlap_d,output_dir" ] ||
  fail "columns of runs/muI_table.csv: $(head -n 1 runs/muI_table.csv)"
[ "$(data_rows runs/muI_table.csv)" = 2 ] || fail "runs/muI_table.csv has not 2 rows"
awk -F, 'NR > 1 {
  want_i = NR == 2 ? "0.02" : "0.1"; want_dt = NR == 2 ? "5e-3" : "1e-3"
  if ($1 != want_i || $13 != want_dt) { print "row " NR - 1 ": case " $1 " dt " $13; bad = 1 }
  if ($11 != 1 || $7 == "") { print "I = " $1 ": not steady"; bad = 1 }
  if ($9 != 100) { print "I = " $1 ": n_bodies " $9; bad = 1 }
  if (!($10 > 0)) { print "I = " $1 ": wall_seconds " $10; bad = 1 }
  if ($8 < 1.45 || $8 > 1.55) { print "I = " $1 ": strain " $8; bad = 1 }
  if ($3 < 0.15 || $3 > 0.8 || !($4 > 0) || $5 < 0.65 || $5 > 0.86 || !($6 > 0)) { print "I = " $1 ": mu " $3 " +- " $4 ", phi " $5 " +- " $6; bad = 1 }
  if ($2 / $1 < 0.7 || $2 / $1 > 1.3) { print "I = " $1 ": measured I " $2; bad = 1 }
} END { exit bad }' runs/muI_table.csv >check.txt || fail "campaign table: $(cat check.txt)"
[ "$(head -c 4 runs/muI.png | od -An -c | tr -d ' ')" = "211PNG" ] || fail "runs/muI.png is missing or not a PNG"
grep -q "^mu(I) = mu_1 + b I: mu_1 = " stdout || fail "no fitted mu(I) printed"
grep -q "^phi(I) = phi_max - a I: phi_max = " stdout || fail "no fitted phi(I) printed"
echo "campaign -local: ok"
