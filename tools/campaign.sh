#!/bin/bash
# A mu(I) / phi(I) campaign: one steady plane-shear run per inertial number,
# then the table of the steady figures and the plot with the fits.
#
#   tools/campaign.sh -local -base examples/shear2d.opts -I 0.001,0.01,0.1 -dt 0.01,1e-3,1e-4 -strain 5,5,8 -n 2
#   tools/campaign.sh -base shear.opts -I 0.001,0.01,0.1 -dt 0.01,1e-3,1e-4 -strain 5 -n 16 -t 2:00:00 [-array]
#   tools/campaign.sh collect runs/muI.cases [-block 1]
#
# The runs are those of jobscripts/campaign.sh -vary inertial_number I
# -with dt DT -with strain_end S: with -local one after another on this
# machine (mpiexec -n N), else SLURM jobs and a collect job after them. The
# collect step then runs "tools/campaign.sh collect", which writes
#   RUNS/NAME_table.csv  tools/steady_state.py --cases: I_target, I_measured,
#                        mu, mu_err, phi, phi_err, steady_from, strain,
#                        n_bodies, wall_seconds, steady, ...
#   RUNS/NAME.png        tools/plot_muI.py: mu(I), phi(I) and their fits
# (RUNS/NAME.csv is jobscripts/campaign.sh's own table: means over the last
# half of each time series.)
# Options:
#   -I LIST        inertial numbers, comma separated (required)
#   -dt LIST       time step per case, or one for all (default: the base file's)
#   -strain LIST   -strain_end per case, or one for all (default: the base file's)
#   -block W       strain per block of tools/steady_state.py (default 1)
#   -runs DIR      parent of the output directories (default runs)
#   -name NAME     names RUNS/NAME.cases, _table.csv, .png (default muI)
# Every other argument (-base, -n, -t, -array, -sbatch, --dry-run, -local,
# -- OPTIONS...) goes to jobscripts/campaign.sh unchanged.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
die() {
  echo "tools/campaign.sh: error: $*" >&2
  exit 2
}

if [ "${1:-}" = collect ]; then
  cases=${2:?collect needs the cases file}
  block=1
  shift 2
  while [ $# -gt 0 ]; do
    case $1 in
    -block) block=${2:?-block needs a strain}; shift 2 ;;
    *) die "collect: unknown argument '$1'" ;;
    esac
  done
  stem=${cases%.cases}
  rc=0
  python3 "$here/steady_state.py" --cases "$cases" -o "${stem}_table.csv" --block "$block" || rc=$?
  [ $rc -le 1 ] || exit $rc
  python3 "$here/plot_muI.py" "${stem}_table.csv" -o "$stem.png" || exit $?
  exit $rc
fi

inertial="" dt="" strain="" block=1 runs=runs name=muI pass=()
while [ $# -gt 0 ]; do
  case $1 in
  -I) inertial=${2:?-I needs a list}; shift 2 ;;
  -dt) dt=${2:?-dt needs a list}; shift 2 ;;
  -strain) strain=${2:?-strain needs a list}; shift 2 ;;
  -block) block=${2:?-block needs a strain}; shift 2 ;;
  -runs) runs=${2:?-runs needs a directory}; shift 2 ;;
  -name) name=${2:?-name needs a name}; shift 2 ;;
  -h | -help | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
  --) pass+=("$@"); break ;;
  *) pass+=("$1"); shift ;;
  esac
done
[ -n "$inertial" ] || die "-I LIST is required"
[[ $block =~ ^[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$ ]] || die "-block '$block' is not a positive number"
with=()
[ -z "$dt" ] || with+=(-with dt "$dt")
[ -z "$strain" ] || with+=(-with strain_end "$strain")
case $runs in /*) abs=$runs ;; *) abs=$PWD/$runs ;; esac
post=$(printf 'bash %q collect %q -block %q' "$here/campaign.sh" "$abs/$name.cases" "$block")
exec bash "$here/../jobscripts/campaign.sh" -vary inertial_number "$inertial" "${with[@]}" -runs "$runs" -name "$name" \
  -columns strain,friction,solid_fraction,max_overlap -post "$post" "${pass[@]}"
