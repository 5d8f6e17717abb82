#!/bin/bash
# Strong or weak scaling of moreau on generated packings.
#
#   jobscripts/scaling.sh strong -ranks 1,2,4,8 -gen_n 20000 -steps 200
#   jobscripts/scaling.sh weak -ranks 1,4,16,64 -gen_n 5000 -t 1:00:00
#   jobscripts/scaling.sh weak -ranks 1,2 -gen_n 200 -steps 10 --local
#   jobscripts/scaling.sh collect scaling_weak
#
# One run per rank count P, with -log_view. Strong: the same -gen_n N bodies
# in the same -gen_box for every P. Weak: N*P bodies in a box P times as wide
# (x extent times P), so the work per rank stays the same.
#
# Without --local each run is an exclusive sbatch job (jobscripts/run.sbatch,
# -n P) and a last job, started when they have all ended, collects the
# results. With
# --local the runs go one after the other through mpiexec right here.
# Either way DIR/scaling.csv ends up with
#   ranks,bodies,steps,seconds,seconds_per_step,efficiency
# where seconds is the wall time of the time steps (the MoreauStep event of
# -log_view, slowest rank) and efficiency is relative to the smallest P:
# strong t1*P1/(t*P), weak t1/t, with t the time per step.
#
# Options:
#   -ranks LIST     rank counts, comma separated (required)
#   -gen_n N        bodies (strong) or bodies per rank count 1 (weak); default 2000
#   -steps S        time steps per run; default 100
#   -dim D          2 or 3; default 2
#   -gen_box BOX    box at one rank; default 0,0,1,2 (2D) or 0,0,0,1,1,2 (3D)
#   -base FILE      options file for every run (physics, solver settings)
#   -out DIR        results; default scaling_strong or scaling_weak
#   -t TIME         sbatch --time per run
#   -sbatch "ARGS"  more sbatch arguments, e.g. "--exclusive -p bench"
#   --local         run here with $MOREAU_MPIEXEC (default: mpiexec)
#   -- OPTIONS...   more moreau options for every run
# Environment: MOREAU (the executable, default ./build/moreau), MOREAU_MPIEXEC.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=jobscripts/time_limit.sh
. "$here/time_limit.sh"

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
}
die() {
  echo "scaling.sh: error: $*" >&2
  exit 2
}

# collect DIR: DIR/runs.txt lists "ranks bodies" per run, whose -log_view
# output is DIR/np<ranks>/moreau.out.
collect() {
  local dir=$1 missing=0 ranks bodies line mode rows=""
  [ -r "$dir/runs.txt" ] || die "$dir/runs.txt not found: not a scaling directory"
  mode=$(cat "$dir/mode")
  while read -r ranks bodies; do
    line=$(grep -s '^MoreauStep ' "$dir/np$ranks/moreau.out" | head -n 1) || true
    if [ -z "$line" ]; then
      echo "scaling.sh: no MoreauStep line in $dir/np$ranks/moreau.out (did the run fail?)" >&2
      missing=1
      continue
    fi
    rows+="$ranks $bodies $line"$'\n'
  done <"$dir/runs.txt"
  printf '%s' "$rows" | awk -v mode="$mode" '
    BEGIN { print "ranks,bodies,steps,seconds,seconds_per_step,efficiency" }
    {
      # $3 is the event name, $4 its count, $6 the slowest rank time.
      ranks = $1; per_step = $6 / $4
      if (NR == 1) { ref_ranks = ranks; ref = per_step }
      eff = mode == "strong" ? ref * ref_ranks / (per_step * ranks) : ref / per_step
      printf "%d,%d,%d,%.6g,%.6g,%.4f\n", ranks, $2, $4, $6, per_step, eff
    }' >"$dir/scaling.csv"
  cat "$dir/scaling.csv"
  return $missing
}

[ $# -gt 0 ] || usage
mode=$1
shift
case $mode in
strong | weak) ;;
collect)
  collect "${1:?collect needs the results directory}"
  exit $?
  ;;
-h | -help | --help) usage ;;
*) die "the first argument is strong, weak or collect, not '$mode'" ;;
esac

ranks_list="" gen_n=2000 steps=100 dim=2 box="" base="" out="scaling_$mode" time_limit="" local_run=0
extra_sbatch=() extra_options=()
while [ $# -gt 0 ]; do
  case $1 in
  -ranks) ranks_list=${2:?-ranks needs a list}; shift 2 ;;
  -gen_n) gen_n=${2:?-gen_n needs a number}; shift 2 ;;
  -steps) steps=${2:?-steps needs a number}; shift 2 ;;
  -dim) dim=${2:?-dim needs 2 or 3}; shift 2 ;;
  -gen_box) box=${2:?-gen_box needs a box}; shift 2 ;;
  -base) base=${2:?-base needs a file}; shift 2 ;;
  -out) out=${2:?-out needs a directory}; shift 2 ;;
  -t) time_limit=${2:?-t needs a time}; shift 2 ;;
  -sbatch) read -r -a extra_sbatch <<<"${2:?-sbatch needs arguments}"; shift 2 ;;
  --local) local_run=1; shift ;;
  -h | -help | --help) usage ;;
  --) shift; extra_options=("$@"); break ;;
  *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[ -n "$ranks_list" ] || die "-ranks LIST is required"
[[ $ranks_list =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || die "-ranks wants positive integers separated by commas"
[[ $gen_n =~ ^[1-9][0-9]*$ ]] || die "-gen_n wants a positive integer"
[[ $steps =~ ^[1-9][0-9]*$ ]] || die "-steps wants a positive integer"
case $dim in
2) box=${box:-0,0,1,2} ;;
3) box=${box:-0,0,0,1,1,2} ;;
*) die "-dim is 2 or 3" ;;
esac
IFS=, read -r -a box_values <<<"$box"
[ ${#box_values[@]} -eq $((2 * dim)) ] || die "-gen_box needs $((2 * dim)) numbers in $dim D"
if [ -n "$base" ]; then
  [ -r "$base" ] || die "cannot read '$base'"
  base=$(cd "$(dirname "$base")" && pwd)/$(basename "$base")
fi
exe=${MOREAU:-$PWD/build/moreau}
[ -x "$exe" ] || die "moreau executable '$exe' not found; build it or set MOREAU"
# The jobs inherit the environment: they run the same executable, and a run
# stopped at its time limit is not requeued (a continued run's -log_view
# would time only its last part).
export MOREAU=$exe MOREAU_REQUEUE=0
IFS=, read -r -a ranks_values <<<"$ranks_list"
signal=""
if [ -n "$time_limit" ]; then
  signal=$(signal_for_time_limit "$time_limit") || die "-t $time_limit is not a SLURM time"
fi

mkdir -p "$out"
out=$(cd "$out" && pwd)
echo "$mode" >"$out/mode"
: >"$out/runs.txt"
jobs=()
for p in "${ranks_values[@]}"; do
  if [ "$mode" = weak ]; then
    n=$((gen_n * p))
    # Widen along x: the pile keeps its height, each rank its share of bodies.
    run_box=$(echo "$box" | awk -F, -v p="$p" -v d="$dim" 'BEGIN { OFS = "," } { $(d + 1) = $1 + p * ($(d + 1) - $1); print }')
  else
    n=$gen_n
    run_box=$box
  fi
  dir=$out/np$p
  rm -rf "$dir"
  mkdir -p "$dir"
  echo "$p $n" >>"$out/runs.txt"
  options=(-dim "$dim" -gen_n "$n" -gen_box "$run_box" -steps "$steps" -output_every "$steps" -snapshot_every 0
    -status_every 0 -output_dir "$dir" -log_view)
  [ -n "$base" ] && options=(-options_file "$base" "${options[@]}")
  options+=("${extra_options[@]}")
  if [ $local_run = 1 ]; then
    read -r -a mpiexec <<<"${MOREAU_MPIEXEC:-mpiexec}"
    echo "scaling.sh: $p ranks, $n bodies"
    if ! "${mpiexec[@]}" -n "$p" "$exe" "${options[@]}" >"$dir/moreau.out" 2>&1; then
      echo "scaling.sh: the run on $p ranks failed; see $dir/moreau.out" >&2
    fi
  else
    # Exclusive: a run sharing its nodes would time the other jobs too.
    sbatch_args=(--parsable --exclusive --ntasks "$p" --job-name "moreau_${mode}_np$p" --output "$dir/moreau.out")
    [ -n "$time_limit" ] && sbatch_args+=(--time "$time_limit")
    [ -n "$signal" ] && sbatch_args+=("$signal")
    job=$(sbatch "${sbatch_args[@]}" "${extra_sbatch[@]}" "$here/run.sbatch" "${options[@]}")
    jobs+=("${job%%;*}")
    echo "${job%%;*} $mode np$p $n bodies $dir"
  fi
done

if [ $local_run = 1 ]; then
  collect "$out"
else
  deps=$(IFS=:; echo "${jobs[*]}")
  job=$(sbatch --parsable --ntasks 1 --job-name "moreau_${mode}_collect" --output "$out/collect.out" \
    --dependency "afterany:$deps" "${extra_sbatch[@]}" --wrap "bash '$here/scaling.sh' collect '$out'")
  echo "${job%%;*} collect: $out/scaling.csv when all runs have ended"
fi
