#!/bin/bash
# Where a step's time goes in several builds, the builds alternated on the
# same run:
#   bash benchmarks/log_view_ab.sh ROUNDS MOREAU... -- ARGS...
# Each round runs every MOREAU with ARGS and -log_view on one rank, in the
# order given, and prints its wall time and the time of the events MoreauStep,
# MoreauFreeVel, MoreauNlgsRows and MoreauWarmStart (seconds, from -log_view).
set -e
rounds=$1
shift || true
exes=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  exes+=("$1")
  shift
done
[ "$1" = -- ] && shift
if ! [ "$rounds" -ge 1 ] 2>/dev/null || [ ${#exes[@]} = 0 ]; then
  echo "usage: $0 ROUNDS MOREAU... -- ARGS..." >&2
  exit 2
fi
for exe in "${exes[@]}"; do
  [ -x "$exe" ] || { echo "$0: $exe is not an executable" >&2; exit 2; }
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$rounds"); do
  for exe in "${exes[@]}"; do
    start=$(date +%s.%N)
    "$exe" "$@" -output_dir "$out/run" -overwrite true -log_view >"$out/log" 2>&1
    end=$(date +%s.%N)
    events=$(awk '$1 ~ /^(MoreauStep|MoreauFreeVel|MoreauNlgsRows|MoreauWarmStart)$/ { printf " %s %s", $1, $4 }' "$out/log")
    echo "round $round $exe: wall $(echo "$end - $start" | bc)$events"
  done
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
