# The time-series columns the docs show are the ones moreau writes: a 2D
# run with one wall must write exactly the header of the example in
# docs/file-formats.md (section "Time series CSV"), and the README's
# Outputs section must name each of its columns (wall 0 as wall<i>).
exe=$1 work=$2 docs=$3 readme=$4
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/lib.sh"
enter_workdir

run "$exe" -gen_n 50 -steps 1 -status_every 0 -output_every 1 -wall0_point 0,0 -wall0_normal 0,1 -output_dir o
expect_rc 0 "a run with one wall"
written=$(head -n 1 o/timeseries.csv)
documented=$(awk '/^## Time series CSV/ { s = 1 } s && /^step,/ { print; exit }' "$docs")
[ -n "$documented" ] || fail "$docs: no example header (a line starting 'step,') in the time-series section"
[ "$written" = "$documented" ] || fail "the time-series header moreau writes
  $written
differs from the one $docs shows
  $documented"
listed=$(sed -n '/^## Outputs/,/^## /p' "$readme" | tr -d '\n' | tr -s ' ')
for col in $(echo "$written" | tr ',' ' '); do
  name=$(echo "$col" | sed 's/^wall0_/wall<i>_/')
  case $listed in *"$name"*) ;; *) fail "$readme (Outputs) does not list the time-series column $name" ;; esac
done
echo "PASS: the documented time-series columns are the written ones: $written"
