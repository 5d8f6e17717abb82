#!/usr/bin/env bash
# Sweeps to tolerance against the number of subdomains (issue 4, item 1).
#
#   sweeps.sh -particles FILE -box x0,y0,x1,y1 -ranks 1,2,4,8,16 -out DIR
#             [-seeds 1,2,3] [-tile K] [-steps S] [-label L] [-launcher "mpiexec --oversubscribe"]
#             [-build DIR] [-- more bench_parallel_step options]
#
# For every rank count P and seed, bench_parallel_step reads the same state
# (a settled pile saved by make_pile.sh), optionally tiled K times wider, and
# takes S time steps (default 2) of dt 5e-3 at -nlgs_tol 1e-4, with the alert
# distance a tenth of the pile's mean radius (see pile_alert.sh): step 1 starts
# cold (a state read from a file has no contact history, so every force
# starts at zero), step 2 is warm-started from step 1's forces (quasi-static: the pile
# is at rest). The seed changes the random sweep order, so its spread at P = 1
# is the noise against which the P dependence is judged. Rows are appended to
# DIR/sweeps.csv (one per step); DIR/summary.txt gives, per label, step and P,
# the mean sweeps over the seeds and its ratio to the smallest P.
# Options after "--" come last and override these (e.g. -- -part_type block).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=pile_alert.sh
. "$here/pile_alert.sh"

die() {
  echo "sweeps.sh: error: $*" >&2
  exit 2
}

particles="" box="" ranks="" out="" seeds="1,2,3" tile=1 steps=2 label="" launcher="mpiexec" build="$repo/build"
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    -particles) particles=${2:?-particles needs a value}; shift 2 ;;
    -box) box=${2:?-box needs a value}; shift 2 ;;
    -ranks) ranks=${2:?-ranks needs a value}; shift 2 ;;
    -out) out=${2:?-out needs a value}; shift 2 ;;
    -seeds) seeds=${2:?-seeds needs a value}; shift 2 ;;
    -tile) tile=${2:?-tile needs a value}; shift 2 ;;
    -steps) steps=${2:?-steps needs a value}; shift 2 ;;
    -label) label=${2:?-label needs a value}; shift 2 ;;
    -launcher) launcher=${2:?-launcher needs a value}; shift 2 ;;
    -build) build=${2:?-build needs a value}; shift 2 ;;
    -h | -help | --help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "${BASH_SOURCE[0]}"; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    *) die "unknown argument '$1' (see sweeps.sh -help)" ;;
  esac
done
[ -f "$particles" ] || die "-particles: no such file '$particles'"
[[ "$box" =~ ^[-0-9.eE+]+(,[-0-9.eE+]+){3}$ ]] || die "-box: four numbers x0,y0,x1,y1, got '$box'"
[[ "$ranks" =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || die "-ranks: comma-separated positive integers, got '$ranks'"
[[ "$seeds" =~ ^[0-9]+(,[0-9]+)*$ ]] || die "-seeds: comma-separated integers, got '$seeds'"
[[ "$tile" =~ ^[1-9][0-9]*$ ]] || die "-tile: a positive integer, got '$tile'"
[[ "$steps" =~ ^[1-9][0-9]*$ ]] || die "-steps: a positive integer, got '$steps'"
[ -n "$out" ] || die "-out is required"
bench="$build/benchmarks/bench_parallel_step"
[ -x "$bench" ] || die "$bench not found: build the benchmarks first or pass -build DIR"
[ -n "$label" ] || label=$(basename "$particles" .h5)_x$tile
alert=$(pile_alert "$particles") || die "-particles: not a snapshot with body radii"

IFS=, read -r x0 y0 x1 y1 <<<"$box"
tile_opts=()
if [ "$tile" -gt 1 ]; then
  width=$(awk -v a="$x0" -v b="$x1" -v k="$tile" 'BEGIN { printf "%.17g", a + k * (b - a) }')
  tile_opts=(-bench_tile "$tile" -bench_tile_x "$x0,$x1")
  box="$x0,$y0,$width,$y1"
fi

mkdir -p "$out"
csv="$out/sweeps.csv"
IFS=, read -r -a rank_list <<<"$ranks"
IFS=, read -r -a seed_list <<<"$seeds"
echo "sweeps.sh: $label on ranks $ranks, seeds $seeds; load average $(cut -d' ' -f1 /proc/loadavg)"
for p in "${rank_list[@]}"; do
  for s in "${seed_list[@]}"; do
    log="$out/${label}_p${p}_s${s}.log"
    # shellcheck disable=SC2086  # the launcher is a command line to split
    if ! $launcher -n "$p" "$bench" -particles_file "$particles" -box "$box" "${tile_opts[@]}" \
      -dt 5e-3 -alert "$alert" -overlap_tol 0.2 -nlgs_tol 1e-4 -nlgs_max_it 100000 -seed "$s" \
      -bench_steps "$steps" -bench_label "$label" -bench_csv "$csv" "${extra[@]}" >"$log" 2>&1; then
      echo "sweeps.sh: the run on $p ranks (seed $s) failed; see $log:" >&2
      tail -5 "$log" >&2
      exit 1
    fi
    grep '^step' "$log" | sed "s/^/  P=$p seed=$s: /" | cut -c1-150
  done
done

# Mean sweeps over the seeds per (label, step, ranks), and the ratio to the
# smallest rank count of the same label and step.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  { k = $c["label"] SUBSEP $c["step"] SUBSEP $c["ranks"]; n[k]++; s[k] += $c["iterations"]
    if (!(k in lo) || $c["iterations"] < lo[k]) lo[k] = $c["iterations"]
    if (!(k in hi) || $c["iterations"] > hi[k]) hi[k] = $c["iterations"]
    iface[k] += $c["interface_copies"]; bytes[k] += $c["sweep_bytes_max"] }
  END {
    for (k in n) { split(k, f, SUBSEP); ls = f[1] SUBSEP f[2]
      if (!(ls in p0) || f[3] + 0 < p0[ls]) { p0[ls] = f[3] + 0; m0[ls] = s[k] / n[k] } }
    printf "%-24s %4s %5s %6s %10s %6s %6s %8s %16s %14s\n", "label", "step", "ranks", "seeds", "sweeps", "min",
           "max", "ratio", "interface_copies", "max_bytes/sweep"
    for (k in n) { split(k, f, SUBSEP); ls = f[1] SUBSEP f[2]
      printf "%-24s %4d %5d %6d %10.1f %6d %6d %8.3f %16.0f %14.0f\n", f[1], f[2], f[3], n[k], s[k] / n[k], lo[k],
             hi[k], s[k] / n[k] / m0[ls], iface[k] / n[k], bytes[k] / n[k] }
  }' "$csv" | (read -r header; echo "$header"; sort -k1,1 -k2,2n -k3,3n) >"$out/summary.txt"
cat "$out/summary.txt"
