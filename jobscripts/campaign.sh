#!/bin/bash
# A parameter campaign: one moreau run per value of one option, each from the
# same base options file and with its own output directory, and a last job
# that gathers them into one CSV file.
#
#   jobscripts/campaign.sh -base shear.opts -vary mu 0.1,0.3,0.5 -n 16 -t 2:00:00
#   jobscripts/campaign.sh -array -base shear.opts -vary mu 0.1,0.3,0.5 -n 16 -t 2:00:00
#   jobscripts/campaign.sh -local -base shear.opts -vary mu 0.1,0.3 -n 2
#   jobscripts/campaign.sh collect runs/mu.cases [-columns contacts,kinetic_energy] [-post CMD]
#
# For each value v the run is jobscripts/run.sbatch -options_file shear.opts
# -mu v -output_dir runs/mu_v (requeued at the time limit like any
# run.sbatch job): one sbatch job per value, or with -array one job array
# (--array=0-(N-1), task i runs case i of runs/<campaign>.cases). It prints
# "<job id> mu=v runs/mu_v" per case, then the collect job, which starts when
# every case has ended (--dependency=afterany) and writes runs/<campaign>.csv.
# With -local, no SLURM: the runs go one after another on this machine
# (run.sbatch outside SLURM, mpiexec -n N, log in runs/mu_v.out), then the
# collect step.
# Options:
#   -base FILE          base options file (required)
#   -vary NAME VALUES   the option (with or without its dash) and its values,
#                       separated by commas (or by -sep)
#   -with NAME VALUES   one more option varied along with -vary, one value per
#                       case (or one for all); may be repeated, e.g.
#                       -vary inertial_number 0.01,0.1 -with dt 1e-3,1e-4
#   -sep C              separator of VALUES, e.g. ';' for vector values
#   -n N, -t TIME       sbatch --ntasks and --time of each run
#   -runs DIR           parent of the output directories (default: runs)
#   -name CAMPAIGN      names DIR/CAMPAIGN.cases, .csv, .collect.out (default: NAME)
#   -array              one job array instead of one job per value
#   -chain              continue stopped runs with new jobs instead of requeues
#                       (sites that refuse requeueing; see chain.sh)
#   -columns LIST       time-series columns averaged by the collect step
#                       (default: contacts,kinetic_energy)
#   -no_collect         no collect job
#   -post CMD           a shell command the collect step runs after writing
#                       the CSV (whatever the cases' states)
#   -local              run the cases here, one after another (-n: ranks,
#                       default 1), then collect; no sbatch
#   -sbatch "ARGS"      more sbatch arguments, e.g. "-p long -A myproject"
#   --dry-run           print the sbatch commands instead of running them
#   -- OPTIONS...       more moreau options for every run
# Run it from the directory the jobs should run in (their submit directory).
set -euo pipefail

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
}
die() {
  echo "campaign.sh: error: $*" >&2
  exit 2
}

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=jobscripts/time_limit.sh
. "$here/time_limit.sh"

# The collect step's command line: collect_wrap CASES COLUMNS POST.
collect_wrap() {
  printf 'bash %q collect %q -columns %q' "$here/campaign.sh" "$1" "$2"
  [ -z "$3" ] || printf ' -post %q' "$3"
}

# CSV field: quoted when it holds a comma or a quote.
csv_field() {
  case $1 in
  *[,\"]*) printf '"%s"' "${1//\"/\"\"}" ;;
  *) printf '%s' "$1" ;;
  esac
}

# collect CASES COLUMNS POST: one row per case of the cases file with the
# varied value, the last row's step and time of its timeseries.csv, the mean
# of each column over the last half of the rows (the last ceil(n/2) of n), the
# run's state (run_status: done, stopped, ...) and its output directory.
# Cases continued by a job that has not run yet (chain) put the collection off
# until it has: a new collect job is submitted after it. Then POST, if any,
# runs (bash -c), whatever the cases' states.
collect() {
  local cases=$1 columns=$2 post=$3 out name value dir index status waiting=() missing=0 header ts row
  [ -r "$cases" ] || die "cannot read the cases file '$cases'"
  out=${cases%.cases}.csv
  name=$(awk -F'\t' 'NR == 1 { print $2 }' "$cases")
  if [ -n "${SLURM_JOB_ID:-}" ]; then
    while IFS=$'\t' read -r _ _ _ dir _; do
      status=$(cat "$dir/run_status" 2>/dev/null) || status=""
      # shellcheck disable=SC2086
      set -- $status
      if [ "${1:-}" = continued ] && [ -n "${3:-}" ] && squeue -h -j "$3" 2>/dev/null | grep -q .; then
        waiting+=("$3")
      fi
    done <"$cases"
    if [ ${#waiting[@]} -gt 0 ]; then
      local deps extra=()
      deps=$(IFS=:; echo "${waiting[*]}")
      read -r -a extra <<<"${MOREAU_COLLECT_SBATCH:-}"
      job=$(sbatch --parsable --ntasks 1 --time 10 --job-name "moreau_$(basename "${cases%.cases}")_collect" \
        --output "${cases%.cases}.collect.out" --open-mode append --dependency "afterany:$deps" "${extra[@]}" \
        --wrap "$(collect_wrap "$cases" "$columns" "$post")")
      echo "campaign.sh: cases continue in jobs ${waiting[*]}: collecting after them (job ${job%%;*})"
      return 0
    fi
  fi
  header="$name,final_step,final_time"
  IFS=, read -r -a cols <<<"$columns"
  for c in "${cols[@]}"; do header+=",mean_$c"; done
  header+=",status,output_dir"
  {
    echo "$header"
    while IFS=$'\t' read -r index name value dir _; do
      ts=$dir/timeseries.csv
      status=$(cut -d' ' -f1 "$dir/run_status" 2>/dev/null) || status=""
      [ -n "$status" ] || status=unknown
      if [ -s "$ts" ] && [ "$(wc -l <"$ts")" -gt 1 ]; then
        row=$(awk -F, -v cols="$columns" '
          NR == 1 {
            n = split(cols, want, ",")
            for (i = 1; i <= NF; i++) at[$i] = i
            for (k = 1; k <= n; k++)
              if (!(want[k] in at)) { print "no column " want[k] > "/dev/stderr"; bad = 1; exit 1 }
            next
          }
          { rows++; for (k = 1; k <= n; k++) v[rows, k] = $(at[want[k]]); step = $1; time = $2 }
          END {
            if (bad) exit 1
            first = int(rows / 2) + 1
            line = step "," time
            for (k = 1; k <= n; k++) {
              s = 0
              for (r = first; r <= rows; r++) s += v[r, k]
              line = line "," sprintf("%.10g", s / (rows - first + 1))
            }
            print line
          }' "$ts") || { echo "campaign.sh: $ts: a column of '$columns' is missing" >&2; missing=1; row=""; }
      else
        echo "campaign.sh: case $index ($name=$value): no rows in $ts" >&2
        missing=1
        row=""
      fi
      [ -n "$row" ] || row=",$(printf ',%.0s' "${cols[@]}")"
      echo "$(csv_field "$value"),$row,$status,$(csv_field "$dir")"
    done <"$cases"
  } >"$out"
  cat "$out"
  if [ -n "$post" ]; then
    bash -c "$post" || return 1
  fi
  return $missing
}

if [ "${1:-}" = collect ]; then
  [ $# -ge 2 ] || die "collect needs the cases file"
  cases=$2 columns=contacts,kinetic_energy post=""
  shift 2
  while [ $# -gt 0 ]; do
    case $1 in
    -columns) columns=${2:?-columns needs a list}; shift 2 ;;
    -post) post=${2:?-post needs a command}; shift 2 ;;
    *) die "collect: unknown argument '$1'" ;;
    esac
  done
  collect "$cases" "$columns" "$post"
  exit $?
fi

base="" name="" values="" sep="," ntasks="" time_limit="" runs="runs" dry_run=0 campaign="" array=0 chain=0
columns=contacts,kinetic_energy collect_job=1 local=0 post=""
extra_sbatch=() extra_options=() with_names=() with_values=()
while [ $# -gt 0 ]; do
  case $1 in
  -base) base=${2:?-base needs a file}; shift 2 ;;
  -vary) name=${2:?-vary needs an option name}; values=${3:?-vary needs values}; shift 3 ;;
  -with) with_names+=("${2:?-with needs an option name}"); with_values+=("${3:?-with needs values}"); shift 3 ;;
  -sep) sep=${2:?-sep needs a character}; shift 2 ;;
  -n) ntasks=${2:?-n needs a number}; shift 2 ;;
  -t) time_limit=${2:?-t needs a time}; shift 2 ;;
  -runs) runs=${2:?-runs needs a directory}; shift 2 ;;
  -name) campaign=${2:?-name needs a name}; shift 2 ;;
  -array) array=1; shift ;;
  -chain) chain=1; shift ;;
  -columns) columns=${2:?-columns needs a list}; shift 2 ;;
  -no_collect) collect_job=0; shift ;;
  -post) post=${2:?-post needs a command}; shift 2 ;;
  -local) local=1; shift ;;
  -sbatch) read -r -a extra_sbatch <<<"${2:?-sbatch needs arguments}"; shift 2 ;;
  --dry-run) dry_run=1; shift ;;
  -h | -help | --help) usage ;;
  --) shift; extra_options=("$@"); break ;;
  *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[ -n "$base" ] || die "-base FILE is required"
[ -r "$base" ] || die "cannot read the base options file '$base'"
[ -n "$name" ] || die "-vary NAME VALUES is required"
name=${name#-}
[[ $name =~ ^[A-Za-z0-9_]+$ ]] || die "'$name' is not an option name"
campaign=${campaign:-$name}
[[ $campaign =~ ^[A-Za-z0-9_.+-]+$ ]] || die "-name '$campaign': letters, digits and ._+- only"
[[ $columns =~ ^[A-Za-z0-9_]+(,[A-Za-z0-9_]+)*$ ]] || die "-columns wants column names separated by commas"
base=$(cd "$(dirname "$base")" && pwd)/$(basename "$base")
IFS=$sep read -r -a list <<<"$values"
[ ${#list[@]} -gt 0 ] || die "no values given for -$name"
[ $local = 1 ] && { [ $array = 1 ] || [ $chain = 1 ]; } && die "-local runs no jobs: no -array or -chain"
# Options varied along with -vary: with_args[i] holds case i's "-NAME VALUE"
# pairs, tab-separated as in the cases file.
with_args=()
for j in "${!with_names[@]}"; do
  w=${with_names[$j]#-}
  [[ $w =~ ^[A-Za-z0-9_]+$ ]] || die "-with: '$w' is not an option name"
  [ "$w" = "$name" ] && die "-with $w: that is the option -vary varies"
  IFS=$sep read -r -a wl <<<"${with_values[$j]}"
  [ ${#wl[@]} = 1 ] && for ((i = 1; i < ${#list[@]}; i++)); do wl+=("${wl[0]}"); done
  [ ${#wl[@]} = ${#list[@]} ] || die "-with $w has ${#wl[@]} values for ${#list[@]} cases"
  for i in "${!list[@]}"; do
    [ -n "${wl[$i]}" ] && [[ ! ${wl[$i]} =~ [[:cntrl:]] ]] || die "-with $w: empty value or control character"
    with_args[$i]+=$'\t'"$w"$'\t'"${wl[$i]}"
  done
done
# case_options I: the moreau options of case I beyond the varied one.
case_options() {
  local -a f=()
  [ -n "${with_args[$1]:-}" ] && IFS=$'\t' read -r -a f <<<"${with_args[$1]#$'\t'}"
  for ((k = 0; k < ${#f[@]}; k += 2)); do printf '%s\n' "-${f[$k]}" "${f[$((k + 1))]}"; done
}

sbatch_args=(--parsable)
[ -n "$ntasks" ] && sbatch_args+=(--ntasks "$ntasks")
if [ -n "$time_limit" ]; then
  sbatch_args+=(--time "$time_limit")
  signal=$(signal_for_time_limit "$time_limit") || die "-t $time_limit is not a SLURM time"
  [ -n "$signal" ] && sbatch_args+=("$signal")
fi
sbatch_args+=("${extra_sbatch[@]}")

case_dir() { echo "$runs/${name}_$(printf '%s' "$1" | tr -c 'A-Za-z0-9._+-' '_')"; }
# Refuse before submitting anything: a second campaign into the same
# directories would overwrite the first one's results.
for value in "${list[@]}"; do
  [ -n "$value" ] || die "empty value in '$values'"
  [[ $value =~ [[:cntrl:]] ]] && die "control character in value '$value'"
  dir=$(case_dir "$value")
  [ -e "$dir" ] && die "$dir already exists; remove it or choose another -runs"
done
cases=$runs/$campaign.cases
[ -e "$cases" ] && die "$cases already exists (an earlier campaign); choose another -name or -runs"

# Continuations (MOREAU_CHAIN) need the job script and the sbatch options again.
env_vars=()
if [ $chain = 1 ]; then
  chain_sbatch=("${sbatch_args[@]:1}")
  for a in "${chain_sbatch[@]}"; do
    [[ $a =~ [[:space:]] ]] && die "-chain: sbatch argument '$a' contains a space"
  done
  env_vars+=(MOREAU_CHAIN=1 "MOREAU_CHAIN_SBATCH=${chain_sbatch[*]}" "MOREAU_JOBSCRIPT=$here/run.sbatch")
fi
show() {
  [ ${#env_vars[@]} -gt 0 ] && printf '%q ' env "${env_vars[@]}"
  printf '%q ' "$@"
  printf '\n'
}
submit() {
  local job
  if [ ${#env_vars[@]} -gt 0 ]; then job=$(env "${env_vars[@]}" "$@"); else job=$("$@"); fi
  echo "${job%%;*}"
}

if [ $dry_run = 0 ]; then
  mkdir -p "$runs"
  runs_abs=$(cd "$runs" && pwd)
  cases=$runs_abs/$campaign.cases
  : >"$cases"
else
  case $runs in /*) cases=$runs/$campaign.cases ;; *) cases=$PWD/$runs/$campaign.cases ;; esac
fi
i=0
for value in "${list[@]}"; do
  dir=$(case_dir "$value")
  [ $dry_run = 0 ] && printf '%s\t%s\t%s\t%s%s\n' "$i" "$name" "$value" "$dir" "${with_args[$i]:-}" >>"$cases"
  i=$((i + 1))
done

jobs=()
if [ $array = 1 ]; then
  cmd=(sbatch "${sbatch_args[@]}" --array "0-$((${#list[@]} - 1))" --job-name "moreau_$campaign"
    --output "$runs/${campaign}_%a.out" --export "ALL,MOREAU_CASES=$cases"
    "$here/run.sbatch" -options_file "$base" "${extra_options[@]}")
  [[ $cases == *,* ]] && die "the path of $cases contains a comma, which sbatch --export cannot pass"
  if [ $dry_run = 1 ]; then
    show "${cmd[@]}"
  else
    for value in "${list[@]}"; do mkdir -p "$(case_dir "$value")"; done
    job=$(submit "${cmd[@]}")
    jobs+=("$job")
    i=0
    for value in "${list[@]}"; do
      echo "${job}_$i $name=$value $(case_dir "$value")"
      i=$((i + 1))
    done
  fi
else
  i=0 failed=0
  for value in "${list[@]}"; do
    dir=$(case_dir "$value")
    mapfile -t more < <(case_options $i)
    i=$((i + 1))
    run_cmd=("$here/run.sbatch" -options_file "$base" "-$name" "$value" -output_dir "$dir" "${more[@]}"
      "${extra_options[@]}")
    if [ $local = 1 ]; then
      if [ $dry_run = 1 ]; then
        show env "MOREAU_NP=${ntasks:-1}" bash "${run_cmd[@]}"
        continue
      fi
      mkdir -p "$dir"
      rc=0
      MOREAU_NP=${ntasks:-1} bash "${run_cmd[@]}" >"$dir.out" 2>&1 || rc=$?
      [ $rc = 0 ] || failed=1
      echo "local (exit $rc) $name=$value $dir"
      continue
    fi
    cmd=(sbatch "${sbatch_args[@]}" --job-name "moreau_${name}_$value" --output "$dir.out" "${run_cmd[@]}")
    if [ $dry_run = 1 ]; then
      show "${cmd[@]}"
    else
      # Made now, so that a second campaign finds it even before the job runs.
      mkdir -p "$dir"
      job=$(submit "${cmd[@]}")
      jobs+=("$job")
      echo "$job $name=$value $dir"
    fi
  done
fi

[ $collect_job = 1 ] || exit 0
if [ $local = 1 ]; then
  [ $dry_run = 1 ] && { echo "$(collect_wrap "$cases" "$columns" "$post")"; exit 0; }
  rc=0
  collect "$cases" "$columns" "$post" || rc=$?
  [ $failed = 0 ] || rc=1
  exit $rc
fi
collect_cmd=(sbatch --parsable --ntasks 1 --time 10 --job-name "moreau_${campaign}_collect"
  --output "$runs/$campaign.collect.out" --open-mode append "${extra_sbatch[@]}")
if [ $dry_run = 1 ]; then
  env_vars=()
  show "${collect_cmd[@]}" --dependency "afterany:<the jobs above>" --wrap "$(collect_wrap "$cases" "$columns" "$post")"
  exit 0
fi
deps=$(IFS=:; echo "${jobs[*]}")
job=$(MOREAU_COLLECT_SBATCH="${extra_sbatch[*]}" "${collect_cmd[@]}" --dependency "afterany:$deps" \
  --wrap "$(collect_wrap "$cases" "$columns" "$post")")
echo "${job%%;*} collect: $runs/$campaign.csv when every case has ended"
