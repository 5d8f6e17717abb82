#!/usr/bin/env bash
# Peak memory per body and steps per second of large lattices (issue 14,
# item 3):
#
#   memory_runs.sh [-build DIR] [-ranks P] [-steps S] [-sweeps N] DIM:N ...
#
# Each case is a square (cubic) lattice of about N disks (DIM 2) or spheres
# (DIM 3; k^DIM bodies for the nearest whole k) of radius 0.5 whose neighbours sit 0.322 (0.324) apart, inside the alert
# distance 0.4: 1.46 contacts per disk in 2D, 2.19 per sphere in 3D (the
# counts of the run's time series at 10^5). S steps of exactly
# N sweeps on P ranks under gravity, with the program's default outputs
# (timeseries, the first and last snapshots and forces).
# Peak RSS is each rank's own (/usr/bin/time -f %M around each rank), summed
# over the ranks, less the same sum for a run of 16 disks (27 spheres): the
# libraries' share. Steps per second: MoreauStep's count over its time in
# -log_view (setup and the final output excluded).
set -euo pipefail
die() {
  echo "memory_runs.sh: error: $*" >&2
  exit 2
}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build="$here/../build" ranks=1 steps=3 sweeps=50 cases=()
while [ $# -gt 0 ]; do
  case "$1" in
    -build) build=${2:?-build needs a value}; shift 2 ;;
    -ranks) ranks=${2:?-ranks needs a value}; shift 2 ;;
    -steps) steps=${2:?-steps needs a value}; shift 2 ;;
    -sweeps) sweeps=${2:?-sweeps needs a value}; shift 2 ;;
    -*) die "unknown option '$1'" ;;
    *) [[ "$1" =~ ^[23]:[1-9][0-9]*$ ]] || die "a case is DIM:N with DIM 2 or 3, got '$1'"; cases+=("$1"); shift ;;
  esac
done
[ ${#cases[@]} -gt 0 ] || die "no case given (e.g. 2:1000000)"
for v in ranks steps sweeps; do
  [[ "${!v}" =~ ^[1-9][0-9]*$ ]] || die "-$v: a positive integer, got '${!v}'"
done
[ -x "$build/moreau" ] || die "$build/moreau not found"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=lattice_case.sh
. "$here/lattice_case.sh"

# run DIM N (N = k^DIM): prints "summed peak RSS in kB, steps per second".
run() {
  local dim=$1 n=$2 box
  box=$(lattice_box "$dim" "$n")
  rm -rf "$work/out"
  mpiexec -n "$ranks" /usr/bin/time -f "peak_rss_kB %M" -a -o "$work/rss" "$build/moreau" -dim "$dim" \
    -gen_type lattice -gen_n "$n" -gen_box "$box" -gen_radius 0.5 -alert 0.4 -steps "$steps" -t_end 1e30 \
    -dt 1e-3 -nlgs_min_it "$sweeps" -nlgs_max_it "$sweeps" -output_dir "$work/out" -log_view >"$work/log" 2>&1 ||
    die "the run of $dim:$n failed: $(tail -3 "$work/log")"
  awk '/^peak_rss_kB/ { s += $2 } END { printf "%d ", s }' "$work/rss"
  rm -f "$work/rss"
  awk '$1 == "MoreauStep" { printf "%.4g\n", $2 / $4 }' "$work/log"
}

echo "memory_runs.sh: $ranks ranks, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-12s %10s %12s %12s %14s %10s\n" case bodies peak_MB base_MB bytes_per_body steps_per_s
for c in "${cases[@]}"; do
  dim=${c%%:*}
  n=$(lattice_n "$dim" "${c#*:}")
  read -r base _ < <(run "$dim" "$([ "$dim" = 2 ] && echo 16 || echo 27)")
  read -r peak rate < <(run "$dim" "$n")
  awk -v c="$c" -v p="$peak" -v b="$base" -v n="$n" -v r="$rate" \
    'BEGIN { printf "%-12s %10d %12.1f %12.1f %14.0f %10s\n", c, n, p / 1024, b / 1024, (p - b) * 1024 / n, r }'
done
echo "memory_runs.sh: load average $(cut -d' ' -f1-3 /proc/loadavg)"
