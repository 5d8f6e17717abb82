#!/bin/bash
# The cost of rigid clusters against plain disks (issue 12): the same
# deposition run with disks, with seed 003's trimers (eta 0.3) and with rings
# of 6 disks (eta 0.1), each body's bounding radius the disk's radius, so the
# generated packings are the same. From every step's row of the time series:
# contact updates per second of the solve (contacts x sweeps / solve
# seconds), detection seconds per step, and steps per second of the whole
# run (wall time, including set-up and output).
#
#   benchmarks/clusters/trimers_vs_disks.sh [moreau] [outdir] [ranks] [bodies] [steps]
#
# Defaults: build/moreau /tmp/trimers_vs_disks 1 4000 2000. Run it alone on
# the machine: it prints the load average before and after.
set -euo pipefail
moreau=${1:-build/moreau} out=${2:-/tmp/trimers_vs_disks} ranks=${3:-1} n=${4:-4000} steps=${5:-2000}
py=/usr/bin/python3
common=(-gen_type random -gen_n "$n" -gen_box 0,0,1,2 -box 0,0,1,2.2 -mu 0.4 -dt 1e-4 -steps "$steps" -t_end 1e9
  -output_every 1 -snapshot_every 0 -status_every 0 -overwrite true)
mkdir -p "$out"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for kind in disks trimers rings; do
  case $kind in
  disks) extra=() ;;
  trimers) extra=(-shape trimer -shape_eta 0.3) ;;
  rings) extra=(-shape ring -shape_n 6 -shape_eta 0.1) ;;
  esac
  start=$(date +%s.%N)
  mpiexec -n "$ranks" "$moreau" "${common[@]}" "${extra[@]}" -output_dir "$out/$kind" >"$out/$kind.log"
  wall=$(echo "$(date +%s.%N) - $start" | bc)
  $py - "$out/$kind/timeseries.csv" "$kind" "$wall" "$steps" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
updates = sum(float(r["contacts"]) * float(r["iterations"]) for r in rows)
solve = sum(float(r["solve_seconds"]) for r in rows)
detect = sum(float(r["detect_seconds"]) for r in rows)
steps = int(sys.argv[4])
last = rows[-1]
print(f"{sys.argv[2]:8s} contact updates/s {updates / solve:.3g}  detection {1e3 * detect / len(rows):.3f} ms/step"
      f"  steps/s {steps / float(sys.argv[3]):.1f}  contacts at the end {int(float(last['contacts']))}"
      f"  mean sweeps/step {sum(float(r['iterations']) for r in rows) / len(rows):.0f}")
PY
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
