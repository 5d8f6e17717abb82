#!/bin/bash
# A parameter campaign: one SLURM job per value of one option, each from the
# same base options file and with its own output directory.
#
#   jobscripts/campaign.sh -base shear.opts -vary mu 0.1,0.3,0.5 -n 16 -t 2:00:00
#
# submits, for each value v, `sbatch ... jobscripts/run.sbatch -options_file
# shear.opts -mu v -output_dir runs/mu_v` and prints "<job id> mu=v runs/mu_v".
# Options:
#   -base FILE          base options file (required)
#   -vary NAME VALUES   the option (with or without its dash) and its values,
#                       separated by commas (or by -sep)
#   -sep C              separator of VALUES, e.g. ';' for vector values
#   -n N, -t TIME       sbatch --ntasks and --time
#   -runs DIR           parent of the output directories (default: runs)
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
base="" name="" values="" sep="," ntasks="" time_limit="" runs="runs" dry_run=0
extra_sbatch=() extra_options=()
while [ $# -gt 0 ]; do
  case $1 in
  -base) base=${2:?-base needs a file}; shift 2 ;;
  -vary) name=${2:?-vary needs an option name}; values=${3:?-vary needs values}; shift 3 ;;
  -sep) sep=${2:?-sep needs a character}; shift 2 ;;
  -n) ntasks=${2:?-n needs a number}; shift 2 ;;
  -t) time_limit=${2:?-t needs a time}; shift 2 ;;
  -runs) runs=${2:?-runs needs a directory}; shift 2 ;;
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
base=$(cd "$(dirname "$base")" && pwd)/$(basename "$base")
IFS=$sep read -r -a list <<<"$values"
[ ${#list[@]} -gt 0 ] || die "no values given for -$name"

sbatch_args=(--parsable)
[ -n "$ntasks" ] && sbatch_args+=(--ntasks "$ntasks")
if [ -n "$time_limit" ]; then
  sbatch_args+=(--time "$time_limit")
  signal=$(signal_for_time_limit "$time_limit") || die "-t $time_limit is not a SLURM time"
  [ -n "$signal" ] && sbatch_args+=("$signal")
fi
sbatch_args+=("${extra_sbatch[@]}")

# Refuse before submitting anything: a second campaign into the same
# directories would overwrite the first one's results.
for value in "${list[@]}"; do
  [ -n "$value" ] || die "empty value in '$values'"
  dir=$runs/${name}_$(printf '%s' "$value" | tr -c 'A-Za-z0-9._+-' '_')
  [ -e "$dir" ] && die "$dir already exists; remove it or choose another -runs"
done

for value in "${list[@]}"; do
  dir=$runs/${name}_$(printf '%s' "$value" | tr -c 'A-Za-z0-9._+-' '_')
  cmd=(sbatch "${sbatch_args[@]}" --job-name "moreau_${name}_$value" --output "$dir.out"
    "$here/run.sbatch" -options_file "$base" "-$name" "$value" -output_dir "$dir" "${extra_options[@]}")
  if [ $dry_run = 1 ]; then
    printf '%q ' "${cmd[@]}"
    printf '\n'
  else
    # Made now, so that a second campaign finds it even before the job runs.
    mkdir -p "$dir"
    job=$("${cmd[@]}")
    echo "${job%%;*} $name=$value $dir"
  fi
done
