#!/usr/bin/env bash
# Strong or weak scaling on a settled pile at a fixed number of NLGS sweeps per
# step, with the communication share from -log_view (issue 4, items 2 and 4).
#
#   pile_scaling.sh strong|weak -particles FILE -box x0,y0,x1,y1 -ranks 1,2 -out DIR
#                   [-sweeps K] [-steps S] [-repeats R] [-tile T] [-launcher "srun"] [-build DIR]
#                   [-- more bench_parallel_step options]
#
# bench_parallel_step takes S steps (default 4) of exactly K sweeps each
# (default 200) from the pile, at dt 5e-3 and with the alert distance a tenth
# of the pile's mean radius (see pile_alert.sh): a fixed amount of solver work
# per step, so that the time per step measures parallel efficiency alone, not a
# change in the number of sweeps. strong: the pile tiled T times (default 1) on every P.
# weak: tiled T P times on P ranks (mirror copies side by side, see
# bench_parallel_step -bench_tile), the same work per rank. One discarded
# warm-up run of the first rank count, then R runs (default 3) per rank count;
# the median is reported. From PETSc's -log_view (max over ranks):
#   seconds      MoreauStep, the S steps
#   sweep/exchange/conv_seconds  MoreauNlgsSweep, MoreauExchange (interface
#                averages), MoreauNlgsConv (convergence allreduce)
#   comm_share   (exchange + conv) / (sweep + exchange + conv) from those
#                times; comm_share_pct the same from the %T column (time summed
#                over ranks, whole percents). Waiting for a slower rank counts
#                as communication in both.
# Writes DIR/pile_<kind>.csv, then DIR/pile_<kind>.png with plot_scaling.py.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=pile_alert.sh
. "$here/pile_alert.sh"

die() {
  echo "pile_scaling.sh: error: $*" >&2
  exit 2
}

[ $# -ge 1 ] || die "first argument: strong or weak (see pile_scaling.sh -help)"
case "$1" in
  strong | weak) kind=$1 ;;
  -h | -help | --help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "${BASH_SOURCE[0]}"; exit 0 ;;
  *) die "first argument must be strong or weak, got '$1'" ;;
esac
shift

particles="" box="" ranks="" out="" sweeps=200 steps=4 repeats=3 tile=1 launcher="mpiexec" build="$repo/build"
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    -particles) particles=${2:?-particles needs a value}; shift 2 ;;
    -box) box=${2:?-box needs a value}; shift 2 ;;
    -ranks) ranks=${2:?-ranks needs a value}; shift 2 ;;
    -out) out=${2:?-out needs a value}; shift 2 ;;
    -sweeps) sweeps=${2:?-sweeps needs a value}; shift 2 ;;
    -steps) steps=${2:?-steps needs a value}; shift 2 ;;
    -repeats) repeats=${2:?-repeats needs a value}; shift 2 ;;
    -tile) tile=${2:?-tile needs a value}; shift 2 ;;
    -launcher) launcher=${2:?-launcher needs a value}; shift 2 ;;
    -build) build=${2:?-build needs a value}; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    *) die "unknown argument '$1' (see pile_scaling.sh -help)" ;;
  esac
done
[ -f "$particles" ] || die "-particles: no such file '$particles'"
[[ "$box" =~ ^[-0-9.eE+]+(,[-0-9.eE+]+){3}$ ]] || die "-box: four numbers x0,y0,x1,y1, got '$box'"
[[ "$ranks" =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || die "-ranks: comma-separated positive integers, got '$ranks'"
for v in sweeps steps repeats tile; do
  [[ "${!v}" =~ ^[1-9][0-9]*$ ]] || die "-$v: a positive integer, got '${!v}'"
done
[ -n "$out" ] || die "-out is required"
bench="$build/benchmarks/bench_parallel_step"
[ -x "$bench" ] || die "$bench not found: build the benchmarks first or pass -build DIR"

alert=$(pile_alert "$particles") || die "-particles: not a snapshot with body radii"
IFS=, read -r x0 y0 x1 y1 <<<"$box"
IFS=, read -r -a rank_list <<<"$ranks"
mkdir -p "$out/runs"
out=$(cd "$out" && pwd)
csv="$out/pile_$kind.csv"

# One run on p ranks; prints "bodies step_s sweep_s exchange_s conv_s share share_pct".
run_one() {
  local p=$1 log=$2 k w
  if [ "$kind" = weak ]; then k=$((tile * p)); else k=$tile; fi
  w=$(awk -v a="$x0" -v b="$x1" -v k="$k" 'BEGIN { printf "%.17g", a + k * (b - a) }')
  local tile_opts=()
  [ "$k" -eq 1 ] || tile_opts=(-bench_tile "$k" -bench_tile_x "$x0,$x1")
  # shellcheck disable=SC2086  # the launcher is a command line to split
  if ! $launcher -n "$p" "$bench" -particles_file "$particles" -box "$x0,$y0,$w,$y1" "${tile_opts[@]}" -dt 5e-3 -alert "$alert" -overlap_tol 0.2 -nlgs_min_it "$sweeps" -nlgs_max_it "$sweeps" \
    -bench_steps "$steps" -log_view "${extra[@]}" >"$log" 2>&1; then
    echo "pile_scaling.sh: the run on $p ranks failed; see $log:" >&2
    tail -5 "$log" >&2
    exit 1
  fi
  awk '$1 == "step" && $2 == "1:" { for (i = 1; i < NF; i++) if ($i == "bodies") n = $(i + 1) }
       $1 == "MoreauStep" { t = $4 }
       $1 ~ /^MoreauNlgsSweep|^MoreauExchange|^MoreauNlgsConv/ { s[$1] = $4; pct[$1] = $(NF - 5) }
       END {
         # One rank has no exchange and no convergence reduction: zeros.
         split("MoreauNlgsSweep MoreauExchange MoreauNlgsConv", ev, " ")
         for (e in ev) if (!(ev[e] in s)) { s[ev[e]] = 0; pct[ev[e]] = 0 }
         solve = pct["MoreauNlgsSweep"] + pct["MoreauExchange"] + pct["MoreauNlgsConv"]
         comm = s["MoreauExchange"] + s["MoreauNlgsConv"]
         printf "%d %s %s %s %s %.4f %.2f\n", n, t, s["MoreauNlgsSweep"], s["MoreauExchange"], s["MoreauNlgsConv"],
                comm / (comm + s["MoreauNlgsSweep"]), (solve > 0 ? (pct["MoreauExchange"] + pct["MoreauNlgsConv"]) / solve : 0)
       }' "$log"
}

sorted() { tr ' ' '\n' | grep . | sort -g; }
median() { sorted | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "pile_scaling.sh: $kind on ranks $ranks, $steps steps of $sweeps sweeps; load average $(cut -d' ' -f1 /proc/loadavg)"
run_one "${rank_list[0]}" "$out/runs/warmup.log" >/dev/null
: >"$csv.tmp"
for p in "${rank_list[@]}"; do
  rows=""
  for r in $(seq 1 "$repeats"); do
    row=$(run_one "$p" "$out/runs/${kind}_p${p}_r${r}.log")
    echo "  ranks $p repeat $r: bodies, step s, sweep s, exchange s, conv s, comm share, from %T: $row"
    rows="$rows$row"$'\n'
  done
  # The repeat with the median step time stands for this rank count.
  med=$(printf "%s" "$rows" | awk '{ print $2 }' | median)
  printf "%s" "$rows" | awk -v p="$p" -v m="$med" -v load="$(cut -d' ' -f1 /proc/loadavg)" \
    '!done && $2 == m { print p, $0, load; done = 1 }' >>"$csv.tmp"
done
if [ "$(wc -l <"$csv.tmp")" -ne "${#rank_list[@]}" ]; then
  # An even number of repeats has a median between two runs: take the closest.
  die "could not match the median run; use an odd -repeats"
fi

sort -k1,1n "$csv.tmp" | awk -v kind="$kind" -v steps="$steps" -v sweeps="$sweeps" '
  BEGIN { print "ranks,bodies,steps,seconds,seconds_per_step,speedup,efficiency,sweeps_per_step,sweep_seconds," \
                "exchange_seconds,conv_seconds,comm_share,comm_share_pct,load" }
  {
    p = $1; t = $3
    if (NR == 1) { p0 = p; t0 = t }
    if (kind == "strong") { speedup = t0 / t; eff = speedup * p0 / p } else { eff = t0 / t; speedup = eff * p / p0 }
    printf "%d,%d,%d,%.6g,%.6g,%.4f,%.4f,%d,%s,%s,%s,%s,%s,%s\n", p, $2, steps, t, t / steps, speedup, eff, sweeps,
           $4, $5, $6, $7, $8, $9
  }' >"$csv"
rm -f "$csv.tmp"
echo "pile_scaling.sh: wrote $csv"
cat "$csv"

python=${PYTHON:-python3}
if [ -z "${PYTHON:-}" ] && ! "$python" -c 'import matplotlib' 2>/dev/null && [ -x /usr/bin/python3 ]; then
  python=/usr/bin/python3
fi
"$python" "$here/plot_scaling.py" "$csv" -kind "$kind"
