#!/bin/bash
# Biaxial and unconfined compression of a cohesive packing (Saint-Cyr et al.
# 2013, seed 003, section III): one isotropic compaction, then from its last
# snapshot one compression per confining pressure, the Mohr-Coulomb fit of
# the peak states (eq 5) and the unconfined cohesion (eq 6).
#
#   tools/biaxial.sh [-moreau build/moreau] [-mpiexec mpiexec] [-runs runs/biaxial] [-n 2] [-bodies 400]
#                    [-cohesion 50] [-mu 0.4] [-pressures 500,1000,2000] [-strain 0.1]
#                    [-rate 0.02] [-sizes uniform|volumes] [-compaction P]
#                    [-unconfined stress|strain] [-sigma0 S] [-load_rate 1] [-mu_wall 1]
#                    [-load_end 20] [-- MORE_OPTIONS]
#
# Stage 1 (RUNS/compaction): -bodies disks placed at random in the unit box,
# compacted without friction or gravity by the right and top walls under
# -compaction (default: the middle confining pressure), as in the paper's
# preparation, with the cohesion already on: the contacts the compaction
# makes are then bonds (a bond is a touching contact, and a loaded bond's gap
# is held shut), where a cohesionless compaction leaves most of them open by
# rounding and the unconfined sample falls apart. Radii (-sizes): uniform
# +-30% about the mean, or the paper's R_min to 3 R_min with a uniform
# distribution of volumes (number density of R proportional to R^-2). The
# bond number B = f_c / (P d) of the compaction is printed.
#
# Stage 2 (RUNS/p_<P>): from that snapshot, the law `cohesive` (-cohesion
# f_c, -mu, walls without cohesion).
# - Confined (P > 0): frictionless walls, the right wall pushed by the
#   confining pressure P, the top wall moved down at the axial strain rate
#   -rate to axial strain -strain (the default 0.02 keeps the inertial
#   number I = rate d sqrt(rho / p) near 1e-3 at the middle pressure).
# - Unconfined (P = 0), -unconfined stress (the paper's section II.C): both
#   side walls removed, friction -mu_wall between the grains and the floor
#   and top wall, the top wall pushed down by the force sigma0 W (W the
#   compacted width) growing as 1 + load_rate t (-wall<i>_load_rate) until
#   sigma0 x -load_end or 3% axial strain (-wall<i>_stop_travel): the sample
#   holds sigma0 and is loaded at a constant stress rate until it breaks.
#   The paper starts at the compaction pressure; our samples do not all
#   hold that (docs/validation_clusters.md), so -sigma0 defaults to a tenth
#   of it.
# - Unconfined, -unconfined strain: the right wall removed (the fixed
#   frictionless left wall a plane of symmetry), frictionless walls, the top
#   wall moved at -rate as in the confined runs.
# q/p, p, sigma_yy and the volume are the analysis columns of
# timeseries.csv, each row the mean of its 50 steps. Then
# tools/biaxial_fit.py writes RUNS/biaxial.csv (the peak state of each run),
# RUNS/fit.txt (phi, c, and c^u from the unconfined run) and
# RUNS/biaxial.png (q/p and volumetric strain against axial strain, the
# unconfined sigma_yy, and the peaks with the fit).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
die() {
  echo "tools/biaxial.sh: error: $*" >&2
  exit 2
}

moreau=build/moreau mpiexec=mpiexec runs=runs/biaxial ranks=2 bodies=400 cohesion=50 mu=0.4
pressures=500,1000,2000 strain=0.1 rate=0.02 sizes=uniform compaction="" unconfined=stress sigma0=""
load_rate=1 mu_wall=1 load_end=20 more=()
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
  -sizes) sizes=${2:?-sizes needs uniform or volumes}; shift 2 ;;
  -compaction) compaction=${2:?-compaction needs a pressure}; shift 2 ;;
  -unconfined) unconfined=${2:?-unconfined needs stress or strain}; shift 2 ;;
  -sigma0) sigma0=${2:?-sigma0 needs a stress}; shift 2 ;;
  -load_rate) load_rate=${2:?-load_rate needs a rate}; shift 2 ;;
  -mu_wall) mu_wall=${2:?-mu_wall needs a coefficient}; shift 2 ;;
  -load_end) load_end=${2:?-load_end needs a factor}; shift 2 ;;
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
case $sizes in uniform | volumes) ;; *) die "-sizes: '$sizes' is neither uniform nor volumes" ;; esac
case $unconfined in stress | strain) ;; *) die "-unconfined: '$unconfined' is neither stress nor strain" ;; esac
positive_number() {
  python3 -c "import math, sys; v = float(sys.argv[1]); sys.exit(0 if math.isfinite(v) and v > 0 else 1)" "$2" \
    2>/dev/null || die "$1: '$2' is not a positive number"
}
positive_number -load_rate "$load_rate"
python3 -c "import math, sys; v = float(sys.argv[1]); sys.exit(0 if math.isfinite(v) and v > 1 else 1)" "$load_end" \
  2>/dev/null || die "-load_end: '$load_end' is not a factor above 1"
python3 -c "import math, sys; v = float(sys.argv[1]); sys.exit(0 if math.isfinite(v) and v >= 0 else 1)" "$mu_wall" \
  2>/dev/null || die "-mu_wall: '$mu_wall' is not a friction coefficient >= 0"
[ -z "$compaction" ] || positive_number -compaction "$compaction"
[ -z "$sigma0" ] || positive_number -sigma0 "$sigma0"
mkdir -p "$runs"
run() { "$mpiexec" -n "$ranks" "$moreau" "$@"; }

# The walls: floor and left fixed; right (2) and top (3) moving. Walls are
# material 1, without cohesion.
floor=(-materials 2 -wall0_point 0,0 -wall0_normal 0,1 -wall0_material 1)
left=(-wall1_point 0,0 -wall1_normal 1,0 -wall1_material 1)
middle=$(python3 -c "import sys; p = sorted(float(x) for x in sys.argv[1].split(',') if float(x) > 0); print(p[len(p) // 2])" "$pressures")
compaction=${compaction:-$middle}
sigma0=${sigma0:-$(python3 -c "import sys; print(float(sys.argv[1]) / 10)" "$compaction")}
radii=()
if [ "$sizes" = volumes ]; then
  # R_min to 3 R_min, equal weight per radius interval times R^-2: each
  # interval holds the same area of grains.
  python3 -c "
for i in range(200):
    r = 1 + 2 * (i + 0.5) / 200
    print(f'{r:.6f},{r ** -2:.9f}')" >"$runs/sizes.txt"
  radii=(-gen_size_dist file -gen_size_file "$runs/sizes.txt")
fi

echo "tools/biaxial.sh: compaction of $bodies bodies under $compaction"
run -gen_type random -gen_n "$bodies" -gen_box 0,0,1,1 -gen_fraction 0.6 "${radii[@]}" -gravity 0,0 -mu 0 \
  "${floor[@]}" "${left[@]}" -law cohesive -cohesion "$cohesion" -pair_cohesion 0,1,0,0 \
  -wall2_point 1,0 -wall2_normal -1,0 -wall2_mode force -wall2_pressure "$compaction" -wall2_mass 1 -wall2_material 1 \
  -wall3_point 0,1 -wall3_normal 0,-1 -wall3_mode force -wall3_pressure "$compaction" -wall3_mass 1 -wall3_material 1 \
  -t_end 1 -snapshot_every 0 -status_every 0 -output_dir "$runs/compaction" -overwrite true "${more[@]}" \
  >"$runs/compaction.out"
snapshot=$(ls "$runs"/compaction/snapshots/snap_*.h5 | sort | tail -1)
read -r width height < <(python3 -c "
import csv, sys
row = list(csv.DictReader(open(sys.argv[1])))[-1]
print(row['wall2_x'], row['wall3_y'])" "$runs/compaction/timeseries.csv")
/usr/bin/python3 -c "
import h5py, sys
with h5py.File(sys.argv[1], 'r') as f:
    d = 2 * f['bodies/radius'][:].mean()
print(f'tools/biaxial.sh: mean diameter {d:.6g}, bond number f_c / (P d) {float(sys.argv[2]) / (float(sys.argv[3]) * d):.3g} '
      f'at the compaction pressure, {float(sys.argv[2]) / (float(sys.argv[4]) * d):.3g} at sigma0')" \
  "$snapshot" "$cohesion" "$compaction" "$sigma0"
# The top wall moves at rate x height; the run lasts strain / rate.
speed=$(python3 -c "import sys; print(float(sys.argv[1]) * float(sys.argv[2]))" "$rate" "$height")
t_end=$(python3 -c "import sys; print(float(sys.argv[1]) / float(sys.argv[2]))" "$strain" "$rate")
stage=(-particles_file "$snapshot" -overlap_tol 0.25 -gravity 0,0 -law cohesive -cohesion "$cohesion" -mu "$mu"
  -pair_cohesion 0,1,0,0 -output_every 50 -analysis_every 1 -snapshot_every 0 -status_every 0 -overwrite true)
for p in "${plist[@]}"; do
  dir="$runs/p_$p"
  echo "tools/biaxial.sh: compression at confining pressure $p"
  if python3 -c "import sys; sys.exit(1 if float(sys.argv[1]) == 0 else 0)" "$p"; then
    run "${stage[@]}" -pair_law 0,1,0,0,0 "${floor[@]}" "${left[@]}" \
      -wall2_point "$width,0" -wall2_normal -1,0 -wall2_mode force -wall2_pressure "$p" -wall2_mass 1 -wall2_material 1 \
      -wall3_point "0,$height" -wall3_normal 0,-1 -wall3_mode velocity -wall3_velocity "0,-$speed" -wall3_material 1 \
      -t_end "$t_end" -output_dir "$dir" "${more[@]}" >"$dir.out"
  elif [ "$unconfined" = strain ]; then
    # No right wall; the top wall is wall 2.
    run "${stage[@]}" -pair_law 0,1,0,0,0 "${floor[@]}" "${left[@]}" \
      -wall2_point "0,$height" -wall2_normal 0,-1 -wall2_mode velocity -wall2_velocity "0,-$speed" -wall2_material 1 \
      -t_end "$t_end" -output_dir "$dir" "${more[@]}" >"$dir.out"
  else
    # No side walls; the top wall is wall 1, its tangential velocity held at 0.
    force=$(python3 -c "import sys; print(float(sys.argv[1]) * float(sys.argv[2]))" "$sigma0" "$width")
    load_time=$(python3 -c "import sys; print((float(sys.argv[1]) - 1) / float(sys.argv[2]))" "$load_end" "$load_rate")
    travel=$(python3 -c "import sys; print(0.03 * float(sys.argv[1]))" "$height") # past the rupture: 3% axial strain
    run "${stage[@]}" -pair_law "0,1,$mu_wall,0,0" "${floor[@]}" \
      -wall1_point "0,$height" -wall1_normal 0,-1 -wall1_mode force -wall1_force "$force" -wall1_load_rate "$load_rate" \
      -wall1_mass 1 -wall1_material 1 -wall1_stop_travel "$travel" -t_end "$load_time" -output_dir "$dir" "${more[@]}" \
      >"$dir.out"
  fi
done
/usr/bin/python3 "$here/biaxial_fit.py" "$runs" --pressures "$pressures" --unconfined "$unconfined" --sigma0 "$sigma0" \
  --load_rate "$load_rate"
