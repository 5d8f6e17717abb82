#!/bin/bash
# Contact updates per second of the solve for two builds on the same piles,
# alternated: bash benchmarks/sweep_ab.sh OLD_MOREAU NEW_MOREAU [rounds]
# 2D: 4000 disks at random in [0, 1] x [0, 1.5]; 3D: 3000 spheres in
# [0, 1]^2 x [0, 1.5]; mu 0.4, dt 2e-4, 1500 steps, 1 rank. The figure is
# sum(contacts x iterations) / sum(solve_seconds) over every step's row.
set -e
old=$1 new=$2 rounds=${3:-2}
if [ ! -x "$old" ] || [ ! -x "$new" ]; then
  echo "usage: $0 OLD_MOREAU NEW_MOREAU [rounds]" >&2
  exit 2
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
rate() {
  python3 - "$1" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ups = sum(float(r['contacts']) * float(r['iterations']) for r in rows)
print("%.4g updates/s, %s contacts at the end" % (ups / sum(float(r['solve_seconds']) for r in rows), rows[-1]['contacts']))
PY
}
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
for dim in 2 3; do
  if [ "$dim" = 3 ]; then scene="-dim 3 -gen_n 3000 -gen_box 0,0,0,1,1,1.5"; else scene="-dim 2 -gen_n 4000 -gen_box 0,0,1,1.5"; fi
  for round in $(seq "$rounds"); do
    for build in old new; do
      exe=$old
      [ "$build" = new ] && exe=$new
      # shellcheck disable=SC2086
      "$exe" $scene -gen_type random -mu 0.4 -dt 2e-4 -steps 1500 -t_end 1e9 -output_every 1 -snapshot_every 0 \
        -status_every 0 -output_dir "$out/run" -overwrite true >/dev/null
      echo "${dim}D round $round $build: $(rate "$out/run/timeseries.csv")"
    done
  done
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
