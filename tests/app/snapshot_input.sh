# Any snapshot a run writes reads back as input: its overlaps are the ones a
# run allows (up to -overlap_stop), above the -overlap_tol of a new packing.
# Without that allowance (-overlap_stop 0) the same snapshot is refused, so
# the first check means something.
exe=$1 work=$2
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/lib.sh"
enter_workdir

run "$exe" -steps 500 -snapshot_every 500 -status_every 0 -output_dir deposit
expect_rc 0 "the deposition"
snap=deposit/snapshots/snap_000500.h5
[ -f $snap ] || fail "no snapshot at step 500"
run "$exe" -particles_file $snap -steps 2 -status_every 0 -output_dir again
expect_rc 0 "reading back the snapshot of step 500"
run "$exe" -particles_file $snap -steps 2 -status_every 0 -overlap_stop 0 -output_dir strict
expect_rc 2 "the same snapshot held to -overlap_tol alone"
expect_one_error_line "the same snapshot held to -overlap_tol alone" "snap_000500.h5" "overlap"
echo "PASS"
