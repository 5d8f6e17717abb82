#!/usr/bin/env bash
# bash benchmarks/shear/bench_shear.sh MOREAU WORKDIR [DIM N STEPS]
#
# Speed of a sheared periodic cell against the same bodies in a closed box.
# 1. Prepares a dense Lees-Edwards cell under pressure (I = 0.1,
#    p = 1000, mu = 0.4, a light pressure control, -barostat_mass 0.1) of N
#    disks (DIM 2) or spheres (DIM 3) on 2 ranks, from a random packing close
#    to the steady solid fraction (0.75 in 2D, 0.55 in 3D) to a strain of
#    0.5, and keeps its final checkpoint.
# 2. Continues it for STEPS steps on 1 and on 2 ranks (-restart of a copy,
#    -strain_end 0 lifting the preparation's stop),
#    reading moreau's own MoreauStep event from -log_view: steps per second and
#    contact updates per second (contacts x NLGS sweeps per second).
# 3. The same bodies (the cell's last snapshot, with their velocities) in a
#    closed box a little wider than the cell, walls on its faces, no gravity,
#    STEPS steps on 1 and 2 ranks: what the periodic images and
#    Lees-Edwards ghosts cost against plain ghosts (the contact counts and
#    sweeps per step differ; contact updates per second compare the two).
# Prints one line per run; quote the load average with the figures.
set -euo pipefail
exe=$(readlink -f "$1") work=$2 dim=${3:-2} n=${4:-10000} steps=${5:-300}
mpi=(mpiexec --oversubscribe)
mkdir -p "$work" && cd "$work"
# Units where the mean diameter is 1 (radii 0.5 (1 +- 0.3)), the grain
# density 1000 and p = 1000, so the inertial time d sqrt(rho/p) is 1; the
# box of side L holds N bodies at the starting solid fraction, and dt lets
# the fastest body (at the gradient faces, I L / 2) move 1% of a diameter
# per step.
if [ "$dim" = 2 ]; then
  frac=0.75 grav="0,0" per="x,y"
  len=$(python3 -c "import math; print(math.sqrt($n * math.pi * 0.25 * 1.03 / $frac))")
  box="0,0,$len,$len"
else
  frac=0.55 grav="0,0,0" per="x,y,z"
  len=$(python3 -c "import math; print(($n * math.pi / 6 * 1.09 / $frac) ** (1 / 3))")
  box="0,0,0,$len,$len,$len"
fi
dt=$(python3 -c "print(0.02 / (0.1 * $len))")
if [ ! -d prep ]; then
  "${mpi[@]}" -n 2 "$exe" -dim "$dim" -gen_type random -gen_n "$n" -gen_radius 0.5 -gen_box $box -gravity $grav \
    -periodic $per -mu 0.4 -pressure 1000 -barostat_mass 0.1 -inertial_number 0.1 -strain_end 0.5 -t_end 1e9 -dt $dt -nlgs_max_it 1000 \
    -output_dir prep -output_every 100 -snapshot_every 0 -status_every 2000 >prep.log
fi
step0=$(ls prep/checkpoints | sed -n 's/ckpt_0*\([0-9][0-9]*\)\.h5/\1/p' | sort -n | tail -1)
snap=$(ls prep/snapshots/*.h5 | sort | tail -1)
# The closed box: the cell's final box (centred where the generator's was),
# widened by two radii of the largest body on each side so that no body
# starts inside a wall.
lohi=$(python3 - prep/timeseries.csv "$dim" "$box" <<'PY'
import csv, sys
last = list(csv.DictReader(open(sys.argv[1])))[-1]
dim = int(sys.argv[2])
lens = [float(last["box_" + a]) for a in "xyz"[:dim]]
margin = 1.0  # two radii of the largest bodies
centre = [float(v) / 2 for v in sys.argv[3].split(",")[dim:]]
lo = [c - l / 2 - margin for c, l in zip(centre, lens)]
hi = [c + l / 2 + margin for c, l in zip(centre, lens)]
print(",".join(f"{v:.9g}" for v in lo + hi))
PY
)
step_rate() { # log file: steps/s and contact updates/s from -log_view and the time series
  python3 - "$1" "$2" "$steps" <<'PY'
import csv, re, sys
log, series, steps = sys.argv[1], sys.argv[2], int(sys.argv[3])
t = None
for line in open(log):
    m = re.match(r"^MoreauStep\s+(\d+)\s+\S+\s+([0-9.e+-]+)", line)
    if m: done, t = int(m.group(1)), float(m.group(2))
if done != steps:
    sys.exit(f"{log}: {done} steps done, {steps} asked")
rows = list(csv.DictReader(open(series)))[-steps:]
updates = sum(float(r["contacts"]) * float(r["iterations"]) for r in rows)
print(f"{steps / t:.1f} steps/s, {updates / t:.3g} contact updates/s, {sum(float(r['contacts']) for r in rows) / len(rows):.0f} contacts, {sum(float(r['iterations']) for r in rows) / len(rows):.1f} sweeps/step")
PY
}
for np in 1 2; do
  rm -rf "cell_np$np" && cp -r prep "cell_np$np"
  "${mpi[@]}" -n $np "$exe" -restart auto -output_dir "cell_np$np" -steps $((step0 + steps)) -strain_end 0 -output_every 1 \
    -checkpoint_keep 1 -log_view >"cell_np$np.log"
  echo "dim $dim, $n bodies, sheared periodic cell, $np rank(s): $(step_rate "cell_np$np.log" "cell_np$np/timeseries.csv")"
  rm -rf "box_np$np"
  "${mpi[@]}" -n $np "$exe" -dim "$dim" -particles_file "$snap" -box "$lohi" -gravity $grav -mu 0.4 -dt $dt \
    -steps "$steps" -t_end 1e9 -output_every 1 -snapshot_every 0 -status_every 0 -output_dir "box_np$np" \
    -log_view >"box_np$np.log"
  echo "dim $dim, $n bodies, same bodies in a closed box, $np rank(s): $(step_rate "box_np$np.log" "box_np$np/timeseries.csv")"
done
# Repartitioning in the drifting flow: 4 ranks, the share of the step time
# spent in migration (every step) and partitioning (at each repartition).
rm -rf cell_np4 && cp -r prep cell_np4
"${mpi[@]}" -n 4 "$exe" -restart auto -output_dir cell_np4 -steps $((step0 + steps)) -strain_end 0 -output_every 1 -checkpoint_keep 1 \
  -log_view >cell_np4.log
python3 - cell_np4.log <<'PY'
import re, sys
t = {}
for line in open(sys.argv[1]):
    m = re.match(r"^(Moreau\w+)\s+(\d+)\s+\S+\s+([0-9.e+-]+)", line)
    if m: t[m.group(1)] = (int(m.group(2)), float(m.group(3)))
step, mig, part = t["MoreauStep"][1], t["MoreauMigrate"][1], t.get("MoreauPartition", (0, 0.0))
print(f"4 ranks: migration {100 * mig / step:.1f}% of the step time, {part[0]} partitions costing {100 * part[1] / step:.2f}%")
PY
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
