#!/usr/bin/env bash
# Contact updates per second of the sweep orders on one rank (issue 14, item 1):
#
#   order_speed.sh -particles FILE -out CSV [-tiles 1,10] [-orders random,blocks:32,...] [-renumber 100]
#                  [-sweeps 200] [-steps 4] [-rounds 2] [-build DIR[,DIR...]]
#
# The settled pile of FILE (the 10^4-disk pile of RESULTS.md, box 0,0,140,129)
# tiled T times along x, S steps of exactly N sweeps, for every order
# (random, or blocks:B / layers:B for -nlgs_order blocks / layers
# -nlgs_block B; the pile is under the default gravity) and every
# -part_renumber_every of the -renumber list (0: bodies in input order,
# else along the Morton curve from the start; none: the option not given,
# for builds older than it) and every build directory of -build (A/B of
# builds), in rounds so that the variants are measured side by side; one
# CSV row per step (bench_parallel_step columns, label
# r<round>_t<T>_<order>_n<renumber>, prefixed with the build directory's
# name when there are several).
# Updates per second = contacts x iterations / solve_seconds, summed over a
# run's steps.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=pile_alert.sh
. "$here/pile_alert.sh"
die() {
  echo "order_speed.sh: error: $*" >&2
  exit 2
}
particles="" out="" tiles=1,10 orders=random,blocks:32,blocks:128,blocks:512,blocks:2048 rounds=2 build="$repo/build"
renumber=100 sweeps=200 steps=4
while [ $# -gt 0 ]; do
  case "$1" in
    -particles) particles=${2:?-particles needs a value}; shift 2 ;;
    -out) out=${2:?-out needs a value}; shift 2 ;;
    -tiles) tiles=${2:?-tiles needs a value}; shift 2 ;;
    -orders) orders=${2:?-orders needs a value}; shift 2 ;;
    -rounds) rounds=${2:?-rounds needs a value}; shift 2 ;;
    -renumber) renumber=${2:?-renumber needs a value}; shift 2 ;;
    -sweeps) sweeps=${2:?-sweeps needs a value}; shift 2 ;;
    -steps) steps=${2:?-steps needs a value}; shift 2 ;;
    -build) build=${2:?-build needs a value}; shift 2 ;;
    *) die "unknown argument '$1'" ;;
  esac
done
[ -f "$particles" ] || die "-particles: no such file '$particles'"
[ -n "$out" ] || die "-out is required"
[[ "$tiles" =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || die "-tiles: comma-separated positive integers, got '$tiles'"
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || die "-rounds: a positive integer, got '$rounds'"
[[ "$sweeps" =~ ^[1-9][0-9]*$ ]] || die "-sweeps: a positive integer, got '$sweeps'"
[[ "$steps" =~ ^[1-9][0-9]*$ ]] || die "-steps: a positive integer, got '$steps'"
[[ "$renumber" =~ ^(none|[0-9]+)(,(none|[0-9]+))*$ ]] || die "-renumber: comma-separated integers >= 0 or none, got '$renumber'"
[[ "$orders" =~ ^(random|(blocks|layers):[1-9][0-9]*)(,(random|(blocks|layers):[1-9][0-9]*))*$ ]] ||
  die "-orders: comma-separated random, blocks:B or layers:B, got '$orders'"
IFS=, read -r -a build_list <<<"$build"
for b in "${build_list[@]}"; do
  [ -x "$b/benchmarks/bench_parallel_step" ] || die "$b/benchmarks/bench_parallel_step not found"
done
alert=$(pile_alert "$particles") || die "-particles: not a snapshot with body radii"
IFS=, read -r -a tile_list <<<"$tiles"
IFS=, read -r -a order_list <<<"$orders"
IFS=, read -r -a renumber_list <<<"$renumber"
echo "order_speed.sh: load average $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "$rounds"); do
  for tile in "${tile_list[@]}"; do
    topt=()
    [ "$tile" -gt 1 ] && topt=(-bench_tile "$tile" -bench_tile_x 0,140)
    for ord in "${order_list[@]}"; do
      o=${ord%%:*} b=128
      [ "$o" != random ] && b=${ord#*:}
      for k in "${renumber_list[@]}"; do
        kopt=(-part_renumber_every "$k")
        [ "$k" = none ] && kopt=()
        for bdir in "${build_list[@]}"; do
          prefix=""
          [ ${#build_list[@]} -gt 1 ] && prefix="$(basename "$bdir")_"
          mpiexec -n 1 "$bdir/benchmarks/bench_parallel_step" -particles_file "$particles" \
            -box "0,0,$((140 * tile)),129" "${topt[@]}" -dt 5e-3 -alert "$alert" -overlap_tol 0.3 \
            -nlgs_min_it "$sweeps" -nlgs_max_it "$sweeps" -bench_steps "$steps" -nlgs_order "$o" -nlgs_block "$b" \
            "${kopt[@]}" -bench_csv "$out" -bench_label "${prefix}r${round}_t${tile}_${ord}_n${k}" >/dev/null
        done
      done
    done
  done
done
echo "order_speed.sh: load average $(cut -d' ' -f1-3 /proc/loadavg)"
awk -F, 'NR > 1 { u[$1] += $5 * $6; t[$1] += $10 } END { for (k in u) printf "%s %.3e updates/s\n", k, u[k] / t[k] }' "$out" | sort
