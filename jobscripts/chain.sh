#!/bin/bash
# A run continued by a chain of jobs, for sites that do not let jobs requeue
# themselves:
#
#   jobscripts/chain.sh -n 64 -t 12:00:00 -p long -- -options_file my.opts
#
# submits jobscripts/run.sbatch with the sbatch options before "--" and the
# moreau options after it, and prints the job id. When the time limit nears,
# the run checkpoints and the job submits its successor with the same sbatch
# options (--dependency=afterany:<its id>), which continues the run from the
# checkpoint (-restart auto) in the same output directory; so on until the run
# is done or MOREAU_MAX_RESTARTS (default 20) successors have run.
# Options (before the sbatch options):
#   --dry-run    print the sbatch command instead of running it
# A time limit under 20 minutes gets its pre-timeout signal moved inside it
# (as campaign.sh does) unless a --signal is given. The sbatch options are
# given again to every successor, so they may not contain spaces. Run it from
# the directory the jobs should run in.
set -euo pipefail

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
}
die() {
  echo "chain.sh: error: $*" >&2
  exit 2
}

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=jobscripts/time_limit.sh
. "$here/time_limit.sh"
dry_run=0
case ${1:-} in
--dry-run) dry_run=1; shift ;;
"" | -h | -help | --help) usage ;;
esac
sbatch_args=()
time_limit="" has_signal=0 prev=""
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  [[ $1 =~ [[:space:]] ]] && die "sbatch option '$1' contains a space"
  case $1 in
  --time=*) time_limit=${1#--time=} ;;
  --signal | --signal=*) has_signal=1 ;;
  esac
  case $prev in -t | --time) time_limit=$1 ;; esac
  sbatch_args+=("$1")
  prev=$1
  shift
done
[ "${1:-}" = -- ] || die "no '--' before the moreau options (see --help)"
shift
if [ -n "$time_limit" ] && [ $has_signal = 0 ]; then
  signal=$(signal_for_time_limit "$time_limit") || die "-t $time_limit is not a SLURM time"
  [ -n "$signal" ] && sbatch_args+=("$signal")
fi

cmd=(sbatch --parsable "${sbatch_args[@]}" "$here/run.sbatch" "$@")
env_vars=(MOREAU_CHAIN=1 MOREAU_CHAIN_COUNT=0 "MOREAU_CHAIN_SBATCH=${sbatch_args[*]}" "MOREAU_JOBSCRIPT=$here/run.sbatch")
if [ $dry_run = 1 ]; then
  printf '%q ' env "${env_vars[@]}" "${cmd[@]}"
  printf '\n'
  exit 0
fi
job=$(env "${env_vars[@]}" "${cmd[@]}")
echo "${job%%;*}"
