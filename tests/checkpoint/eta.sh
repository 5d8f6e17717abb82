# bash eta.sh MOREAU WORKDIR MPIEXEC NP
#
# A restart's status line estimates the time left at the rate of its own
# steps: the wall time it prints is its own, so the steps it ran are the
# ones to divide by, not the steps since the run began. A dense sheared
# 1000-disk cell (~15 ms a step) runs 150 steps, then a restart runs 80
# more with one status line half way: 40 steps run, 40 left, so the ETA is
# about the wall time printed. Dividing by all 190 steps gave 40/190 of it.
# shellcheck source=tests/checkpoint/lib.sh
. "$(dirname "$0")/lib.sh"
np=$1

cell="-dim 2 -gen_type random -gen_n 1000 -gen_fraction 0.78 -gen_box 0,0,1,1 -gravity 0,0 -mu 0.4
  -pressure 1000 -inertial_number 0.1 -dt 4e-4 -snapshot_every 0 -status_every 0"
# shellcheck disable=SC2086
run "$np" $cell -steps 150 -output_dir o
expect_rc 0 "first run to step 150"
run "$np" -restart auto -steps 230 -status_every 190 -output_dir o
expect_rc 0 "restart to step 230"
line=$(grep '^step *190 ' stdout) || fail "no status line at step 190"
echo "$line"
# The time printed has a resolution of 0.1 s: the ratio has half of it
# either side, plus the noise of two 40-step stretches of one run.
awk -v l="$line" 'BEGIN {
  n = split(l, f, " ")
  wall = f[n - 2] + 0; eta = f[n] + 0
  if (wall < 0.2) { print "FAIL: the 40 steps took " wall " s, too few to compare"; exit 1 }
  r = eta / wall
  printf "ETA / wall time of the restart: %.2f (about 1 expected; 0.21 counts the steps before it)\n", r
  if (r < 0.6 || r > 1.7) { print "FAIL: the ETA is not at the restart'"'"'s own rate"; exit 1 }
}' || exit 1
echo "eta np $np: ok"
