#!/usr/bin/env bash
# Sweeps to equal accuracy against the number of subdomains (issue 13, item 1).
#
#   equal_accuracy.sh -particles FILE -box x0,y0,x1,y1 -out DIR [-ranks 1,2,4,8,16,32,64]
#                     [-tols 1e-3,1e-4,1e-5] [-norms mean,law] [-parts metis,block] [-seeds 1]
#                     [-ref_tol 1e-7] [-no_spread] [-sweeps 1000,4000,...] [-limits 2,16] [-dt 2e-3]
#                     [-launcher mpiexec] [-build DIR] [-- more options]
#
# One cold time step (every force starts at zero) of a settled pile read from
# FILE, solved on P ranks for every P, partition (-part_type: METIS's 2D
# split, blocks, i.e. horizontal slabs of a pile taller than wide, or rcb,
# the recursive bisection), norm (-nlgs_norm: the increment norm `mean` or
# the law residual `law`) and tolerance, the convergence checked every 10
# sweeps. First a reference: the same step on 1 rank, law norm at -ref_tol,
# and (not with -no_spread) two more at that tolerance (1 rank with seed 2,
# 2 ranks) to show how far apart tightly converged solutions of a
# frictional pile are (its forces need not be unique). With -sweeps, every
# P and partition also runs exactly each listed number of sweeps
# (-nlgs_min_it = -nlgs_max_it), which traces its error against sweeps; the
# summary then reads off the sweeps each P needs to reach the error P = 1
# has at each of those counts: the sweeps to equal accuracy. Each run's
# forces go to DIR/forces/<run>.csv (bench_parallel_step -bench_forces) and
# a row to DIR/runs.csv; equal_accuracy.py then compares every run with the
# reference (forces, wall reactions) and writes DIR/summary.txt. Runs
# already in DIR are not repeated.
#
# With -limits, each listed P > 1 and partition also gets its own
# reference: the same seed and partition at -ref_tol, i.e. the limit of the
# very iteration whose first n sweeps the fixed-sweep runs are (the law
# norm's check only reads the state). A frictional pile has many solutions,
# and a glued iteration need not head for the one 1 rank finds; the
# distance to its own limit measures how far each run still is from
# converged, whichever solution it converges to.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=pile_alert.sh
. "$here/pile_alert.sh"

die() {
  echo "equal_accuracy.sh: error: $*" >&2
  exit 2
}

particles="" box="" out="" ranks="1,2,4,8,16,32,64" tols="1e-3,1e-4,1e-5" norms="mean,law" parts="metis,block"
seeds=1 ref_tol=1e-7 sweeps="" limits="" spread=1 dt=2e-3 launcher="mpiexec" build="$repo/build" extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    -particles) particles=${2:?-particles needs a value}; shift 2 ;;
    -box) box=${2:?-box needs a value}; shift 2 ;;
    -out) out=${2:?-out needs a value}; shift 2 ;;
    -ranks) ranks=${2:?-ranks needs a value}; shift 2 ;;
    -tols) tols=${2:?-tols needs a value}; shift 2 ;;
    -norms) norms=${2:?-norms needs a value}; shift 2 ;;
    -parts) parts=${2:?-parts needs a value}; shift 2 ;;
    -seeds) seeds=${2:?-seeds needs a value}; shift 2 ;;
    -ref_tol) ref_tol=${2:?-ref_tol needs a value}; shift 2 ;;
    -sweeps) sweeps=${2:?-sweeps needs a value}; shift 2 ;;
    -limits) limits=${2:?-limits needs a value}; shift 2 ;;
    -no_spread) spread=0; shift ;;
    -dt) dt=${2:?-dt needs a value}; shift 2 ;;
    -launcher) launcher=${2:?-launcher needs a value}; shift 2 ;;
    -build) build=${2:?-build needs a value}; shift 2 ;;
    -h | -help | --help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "${BASH_SOURCE[0]}"; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    *) die "unknown argument '$1' (see equal_accuracy.sh -help)" ;;
  esac
done
[ -f "$particles" ] || die "-particles: no such file '$particles'"
[[ "$box" =~ ^[-0-9.eE+]+(,[-0-9.eE+]+){3}$ || "$box" =~ ^[-0-9.eE+]+(,[-0-9.eE+]+){5}$ ]] ||
  die "-box: x0,y0,x1,y1 or (3D, with -- -dim 3) x0,y0,z0,x1,y1,z1, got '$box'"
[[ "$ranks" =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || die "-ranks: comma-separated positive integers, got '$ranks'"
[[ "$seeds" =~ ^[0-9]+(,[0-9]+)*$ ]] || die "-seeds: comma-separated integers, got '$seeds'"
[[ "$norms" =~ ^(mean|quad|max|law)(,(mean|quad|max|law))*$ ]] || die "-norms: from mean,quad,max,law, got '$norms'"
[[ "$parts" =~ ^(metis|block|rcb)(,(metis|block|rcb))*$ ]] || die "-parts: from metis,block,rcb, got '$parts'"
[[ -z "$limits" || "$limits" =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || die "-limits: comma-separated rank counts, got '$limits'"
[[ -z "$sweeps" || "$sweeps" =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || die "-sweeps: comma-separated positive integers, got '$sweeps'"
[ -n "$out" ] || die "-out is required"
bench="$build/benchmarks/bench_parallel_step"
[ -x "$bench" ] || die "$bench not found: build the benchmarks first or pass -build DIR"
alert=$(pile_alert "$particles") || die "-particles: not a snapshot with body radii"
mkdir -p "$out/forces" "$out/logs"

# run LABEL P SEED OPTIONS...: one cold step; its forces and CSV row. A run
# already in DIR (its forces file and its row) is kept, so a campaign can be
# extended or resumed.
run() {
  local label=$1 p=$2 seed=$3
  shift 3
  if [ -f "$out/forces/$label.csv" ] && grep -q "^$label," "$out/runs.csv" 2>/dev/null; then
    return 0
  fi
  # shellcheck disable=SC2086  # the launcher is a command line to split
  if ! $launcher -n "$p" "$bench" -particles_file "$particles" -box "$box" -dt "$dt" -alert "$alert" \
    -overlap_tol 0.2 -nlgs_max_it 10000000 -nlgs_check_every 10 -seed "$seed" -bench_steps 1 \
    -bench_label "$label" -bench_csv "$out/runs.csv" -bench_forces "$out/forces/$label.csv" "$@" "${extra[@]}" \
    >"$out/logs/$label.log" 2>&1; then
    echo "equal_accuracy.sh: run $label failed; see $out/logs/$label.log:" >&2
    tail -5 "$out/logs/$label.log" >&2
    exit 1
  fi
  grep '^step' "$out/logs/$label.log" | sed "s/^/  $label: /" | cut -c1-140
}

echo "equal_accuracy.sh: load average $(cut -d' ' -f1-3 /proc/loadavg)"
run ref 1 1 -nlgs_norm law -nlgs_tol "$ref_tol"
if [ "$spread" = 1 ]; then
  run ref_seed2 1 2 -nlgs_norm law -nlgs_tol "$ref_tol"
  run ref_p2 2 1 -nlgs_norm law -nlgs_tol "$ref_tol"
fi
IFS=, read -r -a rank_list <<<"$ranks"
IFS=, read -r -a tol_list <<<"$tols"
IFS=, read -r -a norm_list <<<"$norms"
IFS=, read -r -a part_list <<<"$parts"
IFS=, read -r -a seed_list <<<"$seeds"
for part in "${part_list[@]}"; do
  for norm in "${norm_list[@]}"; do
    for tol in "${tol_list[@]}"; do
      for p in "${rank_list[@]}"; do
        for s in "${seed_list[@]}"; do
          run "${part}_${norm}_${tol}_p${p}_s${s}" "$p" "$s" -part_type "$part" -nlgs_norm "$norm" -nlgs_tol "$tol"
        done
      done
    done
  done
done
IFS=, read -r -a sweep_list <<<"$sweeps"
for part in "${part_list[@]}"; do
  for n in "${sweep_list[@]}"; do
    for p in "${rank_list[@]}"; do
      run "${part}_fixed_${n}_p${p}_s1" "$p" 1 -part_type "$part" -nlgs_tol 1e-15 -nlgs_min_it "$n" -nlgs_max_it "$n"
    done
  done
done
if [ -n "$limits" ]; then
  IFS=, read -r -a limit_list <<<"$limits"
  for part in "${part_list[@]}"; do
    for p in "${limit_list[@]}"; do
      [ "$p" -gt 1 ] || continue
      run "${part}_limit_p${p}" "$p" 1 -part_type "$part" -nlgs_norm law -nlgs_tol "$ref_tol"
    done
  done
fi
echo "equal_accuracy.sh: load average $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/python3 "$here/equal_accuracy.py" "$out" | tee "$out/summary.txt"
