# -log_view prints PETSc's performance table with moreau's events, each
# counted at least once: detection, NLGS sweeps, snapshot writing, the
# per-step work around the solve (warm start, free velocities, records), and on
# several ranks the interface exchange. "MPIEXEC NP" as in run.sh.
exe=$1 work=$2 mpiexec=$3 np=${4:-1}
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/lib.sh"
enter_workdir
events="MoreauStep MoreauDetect MoreauNlgsSweep MoreauIOWrite MoreauWarmStart MoreauFreeVel MoreauNlgsRows"
if [ -n "$mpiexec" ]; then
  launch="$mpiexec -n $np --oversubscribe $exe"
  [ "$np" -gt 1 ] && events="$events MoreauExchange"
else
  launch=$exe
fi

# shellcheck disable=SC2086
run $launch -gen_n 100 -steps 10 -log_view
expect_rc 0 "run with -log_view"
grep -q 'Performance Summary' stdout || fail "no PETSc performance summary on stdout"
for ev in $events; do
  line=$(grep "^$ev " stdout) || fail "-log_view table has no $ev"
  count=$(echo "$line" | awk '{ print $2 }')
  [ "$count" -gt 0 ] || fail "$ev was never logged: $line"
done
# Ten steps, each logged once.
[ "$(grep '^MoreauStep ' stdout | awk '{ print $2 }')" -eq 10 ] || fail "MoreauStep not counted once per step"
echo "log_view: ok"
