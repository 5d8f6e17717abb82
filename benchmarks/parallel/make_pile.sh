#!/usr/bin/env bash
# Deposits a pile of disks under gravity once and keeps its last state as an
# HDF5 snapshot, the starting point of sweeps.sh (issue 4, item 1).
#
#   make_pile.sh -n N -width W -out DIR [-dim 2|3] [-steps S] [-relax R] [-ranks P] [-launcher "mpiexec"]
#                [-build DIR]
#
# Deposit: moreau generates N disks (mean radius 0.5, radii in [0.35, 0.65])
# at random in a box W wide filled to an area fraction of 0.45 (with -dim 3:
# spheres in a box W x W in plan filled to a volume fraction of 0.3, what
# random insertion reaches easily), between fixed walls, and lets them fall for S steps of 5e-3 (default 1200, 6 s of
# simulated time). This phase only has to end dense, not follow an accurate
# trajectory, hence a coarse solve (tolerance 1e-3, at most 100 sweeps) and an
# alert distance of 0.6, above the ~0.25 that a disk falling the whole box
# height moves in a step, so that no contact is missed at this step size.
# Relaxation: the coarse solve leaves the pile creeping (median speed ~3% of
# sqrt(g d)), so R more steps (default 200) at tolerance 1e-4, with the alert
# distance a tenth of the mean radius (see pile_alert.sh), let it come to
# rest. Output: DIR/pile.h5 (the last state),
# DIR/box.txt (x0,y0,x1,y1, or x0,y0,z0,x1,y1,z1, for -box), and DIR/deposit and DIR/relax with each
# phase's timeseries.csv (kinetic energy, largest overlap, sweeps).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=pile_alert.sh
. "$here/pile_alert.sh"

die() {
  echo "make_pile.sh: error: $*" >&2
  exit 2
}

n="" width="" out="" dim=2 steps=1200 relax=200 ranks=1 launcher="mpiexec" build="$repo/build"
while [ $# -gt 0 ]; do
  case "$1" in
    -n) n=${2:?-n needs a value}; shift 2 ;;
    -width) width=${2:?-width needs a value}; shift 2 ;;
    -out) out=${2:?-out needs a value}; shift 2 ;;
    -dim) dim=${2:?-dim needs a value}; shift 2 ;;
    -steps) steps=${2:?-steps needs a value}; shift 2 ;;
    -relax) relax=${2:?-relax needs a value}; shift 2 ;;
    -ranks) ranks=${2:?-ranks needs a value}; shift 2 ;;
    -launcher) launcher=${2:?-launcher needs a value}; shift 2 ;;
    -build) build=${2:?-build needs a value}; shift 2 ;;
    -h | -help | --help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) die "unknown argument '$1' (see make_pile.sh -help)" ;;
  esac
done
[[ "$n" =~ ^[1-9][0-9]*$ ]] || die "-n: a positive integer, got '$n'"
[[ "$width" =~ ^[0-9.]+$ ]] || die "-width: a positive number, got '$width'"
[[ "$dim" =~ ^[23]$ ]] || die "-dim: 2 or 3, got '$dim'"
[[ "$steps" =~ ^[1-9][0-9]*$ ]] || die "-steps: a positive integer, got '$steps'"
[[ "$relax" =~ ^[1-9][0-9]*$ ]] || die "-relax: a positive integer, got '$relax'"
[ -n "$out" ] || die "-out is required"
[ -x "$build/moreau" ] || die "$build/moreau not found: build moreau first or pass -build DIR"

# Mean disk area pi r^2 (1 + p^2 / 3) with r = 0.5 and p = 0.3; mean sphere
# volume 4/3 pi r^3 (1 + p^2).
if [ "$dim" = 2 ]; then
  height=$(awk -v n="$n" -v w="$width" 'BEGIN { h = n * 3.141592653589793 * 0.25 * 1.03 / (0.45 * w); printf "%d", h + 1 }')
  box="0,0,$width,$height"
else
  height=$(awk -v n="$n" -v w="$width" 'BEGIN { h = n * 4.1887902047863905 * 0.125 * 1.09 / (0.3 * w * w); printf "%d", h + 1 }')
  box="0,0,0,$width,$width,$height"
fi
mkdir -p "$out"
echo "$box" >"$out/box.txt"
last_row() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { last = $0 }
    END { split(last, f, ","); printf "kinetic energy %g, largest overlap %g, sweeps %d\n",
          f[c["kinetic_energy"]], f[c["max_overlap"]], f[c["iterations"]] }' "$1"
}

echo "make_pile.sh: depositing $n bodies (${dim}D) in the box $box, $steps steps on $ranks rank(s)"
# shellcheck disable=SC2086  # the launcher is a command line to split
$launcher -n "$ranks" "$build/moreau" -dim "$dim" -gen_type random -gen_n "$n" -gen_box "$box" -gen_radius 0.5 \
  -dt 5e-3 -alert 0.6 -nlgs_tol 1e-3 -nlgs_max_it 100 -steps "$steps" -t_end 1e30 -output_dir "$out/deposit" \
  -output_every 10 -status_every 100 -snapshot_every 0
deposit=$(printf "%s/deposit/snapshots/snap_%06d.h5" "$out" "$steps")
[ -f "$deposit" ] || die "no final snapshot $deposit"
echo "make_pile.sh: deposit done: $(last_row "$out/deposit/timeseries.csv")"

alert=$(pile_alert "$deposit") || die "cannot read the radii of $deposit"
echo "make_pile.sh: relaxing, $relax steps, alert distance $alert"
# The deposit overlaps by more than moreau's default 1% of a radius in places.
# shellcheck disable=SC2086
$launcher -n "$ranks" "$build/moreau" -dim "$dim" -particles_file "$deposit" -box "$box" -overlap_tol 0.3 -alert "$alert" -dt 5e-3 \
  -nlgs_tol 1e-4 -steps "$relax" -t_end 1e30 -output_dir "$out/relax" -output_every 5 -status_every 20 \
  -snapshot_every 0
relaxed=$(printf "%s/relax/snapshots/snap_%06d.h5" "$out" "$relax")
[ -f "$relaxed" ] || die "no final snapshot $relaxed"
cp "$relaxed" "$out/pile.h5"
echo "make_pile.sh: relaxation done: $(last_row "$out/relax/timeseries.csv")"
echo "make_pile.sh: pile in $out/pile.h5, walls -box $box"
