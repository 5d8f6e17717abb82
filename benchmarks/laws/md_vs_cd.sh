#!/bin/bash
# The cost of the MD comparison against contact dynamics for one quasi-static
# problem at equal accuracy of its final stress (issue 12; Brendel et al.
# eqs 1.35-1.37): a pile of disks settling under gravity in a closed box.
# At rest the walls carry the weight exactly, so the accuracy of a run at
# time t is the relative error of the summed vertical wall reactions
# against the weight W; a run has reached the tolerance at the first output
# row after which the error stays below it. Both runs start from the same
# generated packing.
#
#   benchmarks/laws/md_vs_cd.sh [moreau] [outdir] [ranks] [bodies] [t_end] [tol] [k_n p d ratio]
#
# Defaults: build/moreau /tmp/md_vs_cd 1 1000 1.5 1e-3 1e4. MD: k_n = ratio
# p d with p the pressure at the floor (rho g H phi) and d the mean diameter
# (k_n / (p d) >= 1e4 is the usual requirement for a near-rigid MD run),
# g_n critical for two disks, g_t = g_n, dt from -method md. CD: dt 2e-4,
# -nlgs_tol 1e-4. Prints one line per method: steps, wall seconds, the time
# the tolerance is reached and the wall seconds spent until then.
set -euo pipefail
moreau=${1:-build/moreau} out=${2:-/tmp/md_vs_cd} ranks=${3:-1} n=${4:-1000} t_end=${5:-1.5} tol=${6:-1e-3}
ratio=${7:-1e4}
py=/usr/bin/python3
common=(-gen_n "$n" -gen_box 0,0,1,1 -box 0,0,1,1.2 -mu 0.4 -t_end "$t_end" -output_every 10 -snapshot_every 0
  -status_every 0 -overwrite true)
mkdir -p "$out"
uptime
# rho g H phi, with about the lattice generator's radius for n disks in the
# unit box, density 1000.
read -r k_n g_n < <($py -c "
import math, sys
n, ratio = int(sys.argv[1]), float(sys.argv[2])
r = math.sqrt(0.8 / (math.pi * n))  # about the lattice generator's radius
p = 1000 * 9.81 * 1.0 * 0.8
k = ratio * p * 2 * r
m = 1000 * math.pi * r * r
print(k, 2 * math.sqrt(k * m / 2))" "$n" "$ratio")
start=$(date +%s.%N)
mpiexec -n "$ranks" "$moreau" "${common[@]}" -dt 2e-4 -output_dir "$out/cd" >"$out/cd.log"
cd_wall=$(echo "$(date +%s.%N) - $start" | bc)
start=$(date +%s.%N)
mpiexec -n "$ranks" "$moreau" "${common[@]}" -method md -md_stiffness "$k_n" -md_damping "$g_n" \
  -md_friction_damping "$g_n" -output_dir "$out/md" >"$out/md.log"
md_wall=$(echo "$(date +%s.%N) - $start" | bc)
uptime
$py - "$out" "$tol" "$cd_wall" "$md_wall" "$k_n" <<'PY'
import csv, glob, sys
import h5py
out, tol = sys.argv[1], float(sys.argv[2])
walls = {"cd": float(sys.argv[3]), "md": float(sys.argv[4])}
first = sorted(glob.glob(f"{out}/cd/snapshots/snap_*.h5"))[0]
with h5py.File(first) as f:
    weight = (1.0 / f["bodies/inv_mass"][:]).sum() * 9.81
for method in ("cd", "md"):
    rows = list(csv.DictReader(open(f"{out}/{method}/timeseries.csv")))
    ncol = [k for k in rows[0] if k.startswith("wall") and k.endswith("_fy")]
    # wall<i>_fy is the force the bodies exert on wall i: -W in total at rest
    err = [abs(sum(float(x[k]) for k in ncol) + weight) / weight for x in rows]
    t = [float(x["time"]) for x in rows]
    reached = None
    for i in range(len(rows)):
        if all(e < tol for e in err[i:]):
            reached = i
            break
    steps = int(rows[-1]["step"])
    if reached is None:
        print(f"{method}: {steps} steps, {walls[method]:.1f} s wall: error {err[-1]:.2e} at the end, tolerance {tol} not reached")
    else:
        frac = t[reached] / t[-1]
        print(f"{method}: {steps} steps, {walls[method]:.1f} s wall; error below {tol} from t = {t[reached]:.3f} s "
              f"(about {walls[method] * frac:.1f} s wall), final error {err[-1]:.2e}")
print(f"weight {weight:.6g}, MD k_n {float(sys.argv[5]):.4g}")
PY
