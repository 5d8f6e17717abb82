# sh rough.sh TOOLS WORKDIR RUNS
#
# tools/rough_profile.py on the rough-wall run of the fixture: the profile
# table, the core fit, the top wall's balance (its mean normal stress over
# the run equals p + M V_y / (A t) to the printed digits, M V_y from the
# last snapshot) and the figure; bad input (one line, exit 2).
# shellcheck shell=sh
tools=$1 work=$2 runs=$3
# shellcheck source=tests/plots/lib.sh
. "$(dirname "$0")/lib.sh"
plot rough_profile rough.png "$runs/rough" --stress --barostat_mass 0.1 -o rough.png
grep -q "^core 0.25 < y/H < 0.75: vx/V = " "$work/stdout" || fail "no core fit in the output"
[ "$(grep -c '^ 0\.[0-9]* ' "$work/stdout")" -eq 8 ] || fail "the profile table does not have the 8 bins"
line=$(grep "^top wall, steps 1\.\.600" "$work/stdout") || fail "no top-wall balance for steps 1..600"
mean=$(echo "$line" | sed 's/.*mean normal stress \([0-9.]*\),.*/\1/')
balance=$(echo "$line" | sed 's/.*p + M V_y \/ (A t) = \([0-9.]*\) .*/\1/')
if [ -z "$mean" ] || [ "$mean" != "$balance" ]; then
  fail "top wall: mean normal stress $mean, p + M V_y / (A t) $balance"
fi
plot_fails rough_profile "timeseries.csv" "$work/nothing"
echo "rough_profile: wall balance $mean = $balance; figure and table written"
