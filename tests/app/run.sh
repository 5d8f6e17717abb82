# A tiny generated run writes the time series (header "step,time,...", one
# row per -output_every steps), the first and last snapshots with their XDMF
# files and the XDMF time collection; the last snapshot then starts a new run.
# With "MPIEXEC NP" after the work directory everything runs on NP ranks.
exe=$1 work=$2 mpiexec=$3 np=${4:-1}
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/lib.sh"
enter_workdir
if [ -n "$mpiexec" ]; then
  launch="$mpiexec -n $np --oversubscribe $exe"
else
  launch=$exe
fi

# shellcheck disable=SC2086
run $launch -gen_n 50 -gen_box 0,0,1,2 -steps 20 -output_every 5
expect_rc 0 "tiny run"
[ -s stderr ] && fail "tiny run wrote to stderr"
[ -f out/timeseries.csv ] || fail "no out/timeseries.csv"
head -n 1 out/timeseries.csv | grep -q '^step,time' || fail "timeseries.csv header does not start with step,time"
[ "$(data_rows out/timeseries.csv)" -eq 4 ] || fail "20 steps, a row every 5: expected 4 rows, got $(data_rows out/timeseries.csv)"
[ "$(sed -n '$p' out/timeseries.csv | cut -d, -f1)" = 20 ] || fail "the last row is not step 20"
ncol=$(head -n 1 out/timeseries.csv | awk -F, '{ print NF }')
awk -F, -v n="$ncol" 'NR > 1 && NF != n { exit 1 }' out/timeseries.csv || fail "rows do not have as many fields as the header"
for f in out/snapshots/snap_000000.h5 out/snapshots/snap_000000.xmf out/snapshots/snap_000020.h5 \
  out/snapshots/snap_000020.xmf out/snapshots.xmf; do
  [ -s "$f" ] || fail "missing $f"
done
grep -q 'snap_000020.h5' out/snapshots.xmf || fail "out/snapshots.xmf does not reference the last snapshot"
for f in out/snapshots/*; do
  case $f in *tmp*) fail "a temporary snapshot file was left behind: $f" ;; esac
done

# The last snapshot as input: no generator, so give the walls explicitly.
# shellcheck disable=SC2086
run $launch -particles_file out/snapshots/snap_000020.h5 -box 0,0,1,2 -steps 10 -output_every 10 -output_dir again
expect_rc 0 "run from the last snapshot"
[ -s stderr ] && fail "run from the last snapshot wrote to stderr"
[ "$(data_rows again/timeseries.csv)" -eq 1 ] || fail "the run from the snapshot did not write its row"
[ -s again/snapshots/snap_000010.h5 ] || fail "the run from the snapshot did not write its last snapshot"

# The options error path on these ranks: one error line, exit 2.
# shellcheck disable=SC2086
run $launch -gen_n 50 -steps 1 -nlgs_tool 1e-3 -output_dir rejected
expect_rc 2 "unknown option"
expect_one_moreau_error "unknown option" "-nlgs_tool" "-nlgs_tol"
echo "run: ok"
