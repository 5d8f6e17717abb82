# A run that blows up stops at the step where it does, with exit code 1, one
# moreau error message naming the body and the step, and its state in a last
# snapshot for diagnosis: a time step so large that velocities overflow (not
# finite), and one so large that bodies sink into a wall (overlap above
# -overlap_stop). With "MPIEXEC NP" the same runs go through mpiexec.
exe=$1 work=$2 mpiexec=$3 np=${4:-1}
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/lib.sh"
enter_workdir
launch=$exe
[ -n "$mpiexec" ] && launch="$mpiexec -n $np --oversubscribe $exe"

# shellcheck disable=SC2086
run $launch -gen_n 50 -dt 1e300 -t_end 1e305 -steps 3 -status_every 0 -output_dir blowup
expect_rc 1 "non-finite state"
expect_one_moreau_error "non-finite state" "step 1:" "not finite"
! grep -q '^  at ' "$work/stderr" || fail "non-finite state: a traceback (a runtime failure is one line)"
[ -f blowup/snapshots/snap_000001.h5 ] || fail "no snapshot of the step that blew up"

# 0.05 s steps: the bottom row falls through most of a radius in one step.
# shellcheck disable=SC2086
run $launch -gen_n 200 -dt 5e-2 -steps 40 -status_every 0 -output_dir sink
expect_rc 1 "overlap above the stop"
expect_one_moreau_error "overlap above the stop" "-overlap_stop 0.25" "overlaps"
! grep -q '^  at ' "$work/stderr" || fail "overlap above the stop: a traceback"
last=$(ls sink/snapshots/snap_*.h5 | tail -n 1)
[ "$last" != sink/snapshots/snap_000000.h5 ] || fail "no snapshot of the step that failed"

# The same run with the check turned off goes on to its end.
# shellcheck disable=SC2086
run $launch -gen_n 200 -dt 5e-2 -steps 40 -status_every 0 -overlap_stop 0 -output_dir nostop
expect_rc 0 "-overlap_stop 0"
echo "PASS"
