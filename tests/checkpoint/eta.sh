# bash eta.sh MOREAU WORKDIR MPIEXEC NP
#
# A restart's status line estimates the time left at the rate of its own
# steps: the wall time it prints is its own, so the steps it ran are the
# ones to divide by, not the steps since the run began. A dense sheared
# 1000-disk cell (~15 ms a step) runs 300 steps, then a restart runs 80
# more with one status line half way: 40 steps run, 40 left, so the ETA is
# about the wall time printed. Dividing by all 340 steps gave 40/340 of it.
# shellcheck source=tests/checkpoint/lib.sh
. "$(dirname "$0")/lib.sh"
np=$1

cell="-dim 2 -gen_type random -gen_n 1000 -gen_fraction 0.78 -gen_box 0,0,1,1 -gravity 0,0 -mu 0.4
  -pressure 1000 -inertial_number 0.1 -dt 4e-4 -snapshot_every 0 -status_every 0"
# shellcheck disable=SC2086
run "$np" $cell -steps 300 -output_dir o
expect_rc 0 "first run to step 300"
run "$np" -restart auto -steps 380 -status_every 340 -output_dir o
expect_rc 0 "restart to step 380"
line=$(grep '^step *340 ' stdout) || fail "no status line at step 340"
echo "$line"
# The time printed has a resolution of 0.1 s, and the two 40-step
# stretches of one run may see different loads (ctest runs tests side by
# side): a factor 2.5 either way is allowed, still far from 0.12.
awk -v l="$line" 'BEGIN {
  n = split(l, f, " ")
  wall = f[n - 2] + 0; eta = f[n] + 0
  if (wall < 0.2) { print "FAIL: the 40 steps took " wall " s, too few to compare"; exit 1 }
  r = eta / wall
  printf "ETA / wall time of the restart: %.2f (about 1 expected; 0.12 counts the steps before it)\n", r
  if (r < 0.4 || r > 2.5) { print "FAIL: the ETA is not at the restart'"'"'s own rate"; exit 1 }
}' || exit 1
echo "eta np $np: ok"
