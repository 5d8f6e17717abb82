#!/usr/bin/env bash
# Contact updates per second of the solve on square (cubic) lattices, one
# rank, several builds and orders side by side (issue 14, item 2):
#
#   lattice_speed.sh [-builds DIR,DIR...] [-orders random,blocks:128,...] [-rounds R] [-sweeps N] DIM:N ...
#
# Each case is the lattice of memory_runs.sh (k^DIM bodies of radius 0.5,
# neighbours inside the alert distance: 1.46 contacts a disk, about 2.2 a
# sphere counted by the solve) under gravity, 2 steps of exactly N sweeps
# (default 50), no snapshots. An order is random, or blocks:B / layers:B for
# -nlgs_order blocks / layers -nlgs_block B. Every round runs every case,
# order and build in turn, so that the builds are measured side by side.
# Prints one line a run: round, case, order, build, updates per second
# (contacts x iterations / solve_seconds, summed over the steps).
set -euo pipefail
die() {
  echo "lattice_speed.sh: error: $*" >&2
  exit 2
}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
builds="$here/../build" orders=random,blocks:128 rounds=2 sweeps=50 cases=()
while [ $# -gt 0 ]; do
  case "$1" in
    -builds) builds=${2:?-builds needs a value}; shift 2 ;;
    -orders) orders=${2:?-orders needs a value}; shift 2 ;;
    -rounds) rounds=${2:?-rounds needs a value}; shift 2 ;;
    -sweeps) sweeps=${2:?-sweeps needs a value}; shift 2 ;;
    -*) die "unknown option '$1'" ;;
    *) [[ "$1" =~ ^[23]:[1-9][0-9]*$ ]] || die "a case is DIM:N with DIM 2 or 3, got '$1'"; cases+=("$1"); shift ;;
  esac
done
[ ${#cases[@]} -gt 0 ] || die "no case given (e.g. 2:1000000)"
for v in rounds sweeps; do
  [[ "${!v}" =~ ^[1-9][0-9]*$ ]] || die "-$v: a positive integer, got '${!v}'"
done
IFS=, read -r -a build_list <<<"$builds"
IFS=, read -r -a order_list <<<"$orders"
for b in "${build_list[@]}"; do [ -x "$b/moreau" ] || die "$b/moreau not found"; done
for o in "${order_list[@]}"; do
  [[ "$o" = random || "$o" =~ ^(blocks|layers):[1-9][0-9]*$ ]] || die "an order is random, blocks:B or layers:B, got '$o'"
done
# shellcheck source=lattice_case.sh
. "$here/lattice_case.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run BUILD DIM N ORDER: prints the updates per second.
run() {
  local build=$1 dim=$2 n=$3 order=$4 box kind extra=()
  box=$(lattice_box "$dim" "$n")
  kind=${order%%:*}
  [ "$kind" = random ] || extra=(-nlgs_block "${order#*:}")
  rm -rf "$work/out"
  "$build/moreau" -dim "$dim" -gen_type lattice -gen_n "$n" -gen_box "$box" -gen_radius 0.5 -alert 0.4 -steps 2 \
    -t_end 1e30 -dt 1e-3 -nlgs_min_it "$sweeps" -nlgs_max_it "$sweeps" -nlgs_order "$kind" "${extra[@]}" \
    -snapshot_every 0 -status_every 0 -output_every 1 -output_dir "$work/out" >"$work/log" 2>&1 ||
    die "the run of $dim:$n ($order, $build) failed: $(tail -3 "$work/log")"
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
           { u += $col["contacts"] * $col["iterations"]; s += $col["solve_seconds"] }
           END { printf "%.4g\n", u / s }' "$work/out/timeseries.csv"
}

echo "lattice_speed.sh: load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-6s %-12s %-12s %-30s %12s\n" round case order build updates_per_s
for r in $(seq "$rounds"); do
  for c in "${cases[@]}"; do
    dim=${c%%:*}
    n=$(lattice_n "$dim" "${c#*:}")
    for o in "${order_list[@]}"; do
      for b in "${build_list[@]}"; do
        printf "%-6s %-12s %-12s %-30s %12s\n" "$r" "$c" "$o" "$b" "$(run "$b" "$dim" "$n" "$o")"
      done
    done
  done
done
echo "lattice_speed.sh: load average $(cut -d' ' -f1-3 /proc/loadavg)"
