# shellcheck shell=bash
# Sourced by campaign.sh, chain.sh and scaling.sh.
#
# run.sbatch asks for USR1 300 s before the time limit. A shorter job would
# get it at once, so for limits under 20 minutes signal_for_time_limit prints
# an sbatch option that moves the signal to a tenth of the limit (at least
# 10 s) before the end; it prints nothing otherwise, and fails on a time SLURM
# would not accept.
time_limit_seconds() {
  local t=$1 days=0 h=0 m=0 s=0
  if [[ $t =~ ^([0-9]+)-([0-9]+)(:([0-9]+)(:([0-9]+))?)?$ ]]; then
    days=${BASH_REMATCH[1]} h=${BASH_REMATCH[2]} m=${BASH_REMATCH[4]:-0} s=${BASH_REMATCH[6]:-0}
  elif [[ $t =~ ^([0-9]+):([0-9]+):([0-9]+)$ ]]; then
    h=${BASH_REMATCH[1]} m=${BASH_REMATCH[2]} s=${BASH_REMATCH[3]}
  elif [[ $t =~ ^([0-9]+):([0-9]+)$ ]]; then
    m=${BASH_REMATCH[1]} s=${BASH_REMATCH[2]}
  elif [[ $t =~ ^[0-9]+$ ]]; then
    m=$t
  else
    return 1
  fi
  echo $((((10#$days * 24 + 10#$h) * 60 + 10#$m) * 60 + 10#$s))
}

signal_for_time_limit() {
  local seconds lead
  seconds=$(time_limit_seconds "$1") || return 1
  if [ "$seconds" -lt 1200 ]; then
    lead=$((seconds / 10))
    [ "$lead" -lt 10 ] && lead=10
    echo "--signal=B:USR1@$lead"
  fi
}
