#!/bin/bash
# Biaxial and unconfined compression of a cohesive packing (Saint-Cyr et al.
# 2013, seed 003, section III): one isotropic compaction, then from its last
# snapshot one compression per confining pressure, the Mohr-Coulomb fit of
# the peak states (eq 5) and the unconfined cohesion (eq 6).
#
#   tools/biaxial.sh [-moreau build/moreau] [-mpiexec mpiexec] [-runs runs/biaxial] [-n 2] [-bodies 400]
#                    [-cohesion 50] [-mu 0.4] [-pressures 500,1000,2000] [-strain 0.1]
#                    [-rate 0.02] [-- MORE_OPTIONS]
#
# Stage 1 (RUNS/compaction): -bodies disks (radii uniform +-30%) placed at
# random in the unit box, compacted without friction or gravity by the right
# and top walls under the middle pressure, as in the paper's preparation,
# with the cohesion already on: the contacts the compaction makes are then
# bonds (a bond is a touching contact, and a loaded bond's gap is held
# shut), where a cohesionless compaction leaves most of them open by
# rounding and the unconfined sample falls apart. Stage 2 (RUNS/p_<P>): from that snapshot, the law `cohesive`
# (-cohesion f_c, -mu, frictionless and cohesionless walls), the right wall
# pushed by the confining pressure P (0: unconfined, the wall removed), the
# top wall moved down at the axial strain rate -rate to axial strain
# -strain (the default 0.02 keeps the inertial number I = rate d sqrt(rho / p)
# near 1e-3 at the middle pressure); q/p, p and the volume are the analysis
# columns of timeseries.csv, each row the mean of its 50 steps. Then tools/biaxial_fit.py writes RUNS/biaxial.csv (the
# peak state of each run), RUNS/fit.txt (phi, c, and c^u from the unconfined
# run) and RUNS/biaxial.png (q/p and volumetric strain against axial strain).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
die() {
  echo "tools/biaxial.sh: error: $*" >&2
  exit 2
}

moreau=build/moreau mpiexec=mpiexec runs=runs/biaxial ranks=2 bodies=400 cohesion=50 mu=0.4
pressures=500,1000,2000 strain=0.1 rate=0.02 more=()
while [ $# -gt 0 ]; do
  case $1 in
  -moreau) moreau=${2:?-moreau needs a path}; shift 2 ;;
  -mpiexec) mpiexec=${2:?-mpiexec needs a program}; shift 2 ;;
  -runs) runs=${2:?-runs needs a directory}; shift 2 ;;
  -n) ranks=${2:?-n needs a rank count}; shift 2 ;;
  -bodies) bodies=${2:?-bodies needs a count}; shift 2 ;;
  -cohesion) cohesion=${2:?-cohesion needs a force}; shift 2 ;;
  -mu) mu=${2:?-mu needs a coefficient}; shift 2 ;;
  -pressures) pressures=${2:?-pressures needs a list}; shift 2 ;;
  -strain) strain=${2:?-strain needs a strain}; shift 2 ;;
  -rate) rate=${2:?-rate needs a strain rate}; shift 2 ;;
  --) shift; more=("$@"); break ;;
  *) die "unknown argument '$1' (see the comment at the top of tools/biaxial.sh)" ;;
  esac
done
[ -x "$moreau" ] || die "no moreau program at $moreau (build it first)"
IFS=, read -r -a plist <<<"$pressures"
[ ${#plist[@]} -ge 2 ] || die "-pressures needs at least two confining pressures for the fit"
positive=0
for p in "${plist[@]}"; do
  python3 -c "import sys; p = float(sys.argv[1]); sys.exit(0 if p >= 0 else 1)" "$p" 2>/dev/null ||
    die "-pressures: '$p' is not a pressure >= 0"
  python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) > 0 else 1)" "$p" && positive=$((positive + 1))
done
[ $positive -ge 2 ] || die "-pressures needs two positive pressures for the Mohr-Coulomb fit"
mkdir -p "$runs"
run() { "$mpiexec" -n "$ranks" "$moreau" "$@"; }

# The walls: floor and left fixed; right (2) and top (3) moving. Walls are
# material 1, frictionless and without cohesion.
walls=(-materials 2 -wall0_point 0,0 -wall0_normal 0,1 -wall1_point 0,0 -wall1_normal 1,0
  -wall0_material 1 -wall1_material 1)
middle=$(python3 -c "import sys; p = sorted(float(x) for x in sys.argv[1].split(',') if float(x) > 0); print(p[len(p) // 2])" "$pressures")

echo "tools/biaxial.sh: compaction of $bodies bodies under $middle"
run -gen_type random -gen_n "$bodies" -gen_box 0,0,1,1 -gen_fraction 0.6 -gravity 0,0 -mu 0 "${walls[@]}" \
  -law cohesive -cohesion "$cohesion" -pair_cohesion 0,1,0,0 \
  -wall2_point 1,0 -wall2_normal -1,0 -wall2_mode force -wall2_pressure "$middle" -wall2_mass 1 -wall2_material 1 \
  -wall3_point 0,1 -wall3_normal 0,-1 -wall3_mode force -wall3_pressure "$middle" -wall3_mass 1 -wall3_material 1 \
  -t_end 1 -snapshot_every 0 -status_every 0 -output_dir "$runs/compaction" -overwrite true "${more[@]}" \
  >"$runs/compaction.out"
snapshot=$(ls "$runs"/compaction/snapshots/snap_*.h5 | sort | tail -1)
read -r width height < <(python3 -c "
import csv, sys
row = list(csv.DictReader(open(sys.argv[1])))[-1]
print(row['wall2_x'], row['wall3_y'])" "$runs/compaction/timeseries.csv")
# The top wall moves at rate x height; the run lasts strain / rate.
speed=$(python3 -c "import sys; print(float(sys.argv[1]) * float(sys.argv[2]))" "$rate" "$height")
t_end=$(python3 -c "import sys; print(float(sys.argv[1]) / float(sys.argv[2]))" "$strain" "$rate")
for p in "${plist[@]}"; do
  dir="$runs/p_$p"
  echo "tools/biaxial.sh: compression at confining pressure $p"
  side=(-wall2_point "$width,0" -wall2_normal -1,0 -wall2_mode force -wall2_pressure "$p" -wall2_mass 1
    -wall2_material 1)
  top=3
  if python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) == 0 else 1)" "$p"; then
    side=() # unconfined: no right wall, the top wall is wall 2
    top=2
  fi
  run -particles_file "$snapshot" -overlap_tol 0.25 -gravity 0,0 -law cohesive -cohesion "$cohesion" -mu "$mu" \
    -pair_law 0,1,0,0,0 -pair_cohesion 0,1,0,0 "${walls[@]}" "${side[@]}" -wall${top}_material 1 \
    -wall${top}_point "0,$height" -wall${top}_normal 0,-1 -wall${top}_mode velocity -wall${top}_velocity "0,-$speed" \
    -t_end "$t_end" -output_every 50 -analysis_every 1 -snapshot_every 0 -status_every 0 \
    -output_dir "$dir" -overwrite true "${more[@]}" >"$dir.out"
done
/usr/bin/python3 "$here/biaxial_fit.py" "$runs" --pressures "$pressures"
