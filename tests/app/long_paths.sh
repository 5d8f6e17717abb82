# Legal long paths work: an output directory and an .h5 input of more than
# 240 characters (Open MPI's shared-file-pointer components used to abort
# the run with "buffer overflow detected" inside H5Fcreate/H5Fopen). With
# "MPIEXEC NP" the same runs go through mpiexec.
exe=$1 work=$2 mpiexec=$3 np=${4:-1}
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/lib.sh"
enter_workdir
launch=$exe
[ -n "$mpiexec" ] && launch="$mpiexec -n $np --oversubscribe $exe"
long=$work/$(printf 'd%.0s' $(seq 1 240))
[ ${#long} -gt 240 ] || fail "the test path is not long"

# shellcheck disable=SC2086
run $launch -gen_n 20 -steps 2 -status_every 0 -output_dir "$long/out"
expect_rc 0 "a run into a long output directory"
[ -f "$long/out/snapshots/snap_000002.h5" ] || fail "no snapshot under the long path"
# shellcheck disable=SC2086
run $launch -particles_file "$long/out/snapshots/snap_000002.h5" -steps 1 -status_every 0 -output_dir again
expect_rc 0 "a long .h5 input path"
grep -qi "overflow\|abort" "$work/stderr" && fail "an abort message on stderr"
echo "PASS"
