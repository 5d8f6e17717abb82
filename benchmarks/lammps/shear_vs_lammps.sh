#!/usr/bin/env bash
# bash benchmarks/lammps/shear_vs_lammps.sh [-side_by_side] [-moreau_tols T1,T2,...] [-moreau_dt DT]
#                                            MOREAU_EXE WORKDIR [N STRAIN I RANKS]
#
# The same quasi-static 2D plane shear, end to end, with moreau (rigid
# disks, contact dynamics) and with LAMMPS's granular MD (pair_style
# gran/hooke/history): N disks (default 10000) in a bi-periodic Lees-Edwards
# cell sheared to STRAIN (0.1) at the inertial number I (1e-3) under the
# normal stress p = 1000, on RANKS MPI ranks each (1). Prints the wall and
# CPU time of each code to the same strain and the steady tau/p of each
# (mean and standard error of 5 blocks over the second half of the strain).
#
# 1. moreau's generator makes one random packing (radii 0.5 (1 +- 0.2),
#    solid fraction ~0.775 of a square box); both codes start from it.
# 2. shear_vs_lammps.py setup derives every parameter (WORKDIR/parameters.txt
#    lists them with their formulas) and writes WORKDIR/moreau.opts and the
#    LAMMPS data and variables files for in.shear2d.
# 3. moreau, then LAMMPS (or both at once with -side_by_side: nothing is
#    bound, so on an idle machine each gets its own cores), each timed by
#    /usr/bin/time (CPU time summed over its ranks). moreau runs once per
#    NLGS tolerance of -moreau_tols (default 1e-4, its default), one after
#    the other, into WORKDIR/moreau_tol<T>: the table then shows what the
#    stopping rule buys at each tolerance. -moreau_dt replaces the time
#    step that setup derives for moreau (parameters.txt says how).
# 4. shear_vs_lammps.py summary prints the table.
#
# LAMMPS: the binary lmp (Debian package lammps), or $LMP.
set -euo pipefail

usage="usage: shear_vs_lammps.sh [-side_by_side] [-moreau_tols T1,T2,...] [-moreau_dt DT] MOREAU_EXE WORKDIR [N STRAIN I RANKS]"
bad() { echo "shear_vs_lammps.sh: $1 ($usage)" >&2; exit 2; }

side_by_side=0 tols=1e-4 moreau_dt=
while [ $# -gt 0 ]; do
  case $1 in
    -side_by_side) side_by_side=1; shift ;;
    -moreau_tols) [ $# -ge 2 ] || bad "-moreau_tols needs a value"; tols=$2; shift 2 ;;
    -moreau_dt) [ $# -ge 2 ] || bad "-moreau_dt needs a value"; moreau_dt=$2; shift 2 ;;
    *) break ;;
  esac
done
case ${1:-} in -*) bad "unknown option '$1'" ;; esac
[ $# -ge 2 ] && [ $# -le 6 ] || bad "expected 2 to 6 arguments, got $#"
exe=$1 work=$2 n=${3:-10000} strain=${4:-0.1} inertial=${5:-1e-3} ranks=${6:-1}
[ -x "$exe" ] && [ -f "$exe" ] || bad "MOREAU_EXE '$exe' is not an executable file"
[[ $n =~ ^[0-9]+$ ]] && [ "$n" -ge 100 ] || bad "N must be an integer >= 100, got '$n'"
py=/usr/bin/python3
real='^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$'
[[ $strain =~ $real ]] && "$py" -c "import sys; sys.exit(not 0 < float('$strain') <= 0.4)" ||
  bad "STRAIN must be a number in (0, 0.4], got '$strain'"
[[ $inertial =~ $real ]] && "$py" -c "import sys; sys.exit(not 0 < float('$inertial') <= 0.1)" ||
  bad "I must be a number in (0, 0.1], got '$inertial'"
[[ $ranks =~ ^[0-9]+$ ]] && [ "$ranks" -ge 1 ] || bad "RANKS must be an integer >= 1, got '$ranks'"
if [ -n "$moreau_dt" ]; then
  [[ $moreau_dt =~ $real ]] && "$py" -c "import sys; sys.exit(not 0 < float('$moreau_dt') <= 10)" ||
    bad "-moreau_dt must be a number in (0, 10], got '$moreau_dt'"
fi
IFS=, read -r -a tol_list <<<"$tols"
[ ${#tol_list[@]} -ge 1 ] || bad "-moreau_tols: no tolerance given"
for t in "${tol_list[@]}"; do
  [[ $t =~ $real ]] && "$py" -c "import sys; sys.exit(not 0 < float('$t') < 1)" ||
    bad "-moreau_tols: each tolerance must be a number in (0, 1), got '$t'"
done
lmp=${LMP:-lmp}
if ! command -v "$lmp" >/dev/null; then
  echo "shear_vs_lammps.sh: LAMMPS ('$lmp') not found: install it with 'apt-get install -y lammps' (Debian 12), or set LMP to its binary" >&2
  exit 2
fi
# the packing is read from moreau's HDF5 snapshot
"$py" -c "import h5py" 2>/dev/null || { echo "shear_vs_lammps.sh: $py has no h5py: apt-get install -y python3-h5py" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "shear_vs_lammps.sh: /usr/bin/time is missing: apt-get install -y time" >&2; exit 2; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
exe=$(readlink -f "$exe")
mkdir -p "$work" && cd "$work"
if [ "$(id -u)" = 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
# the transport settings this project's containers need (no CMA); an
# environment that sets them keeps its own
export OMPI_MCA_pml=${OMPI_MCA_pml:-ob1} OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
# two separate mpiexec jobs would each bind their rank 0 to core 0
mpi=(mpiexec --oversubscribe --bind-to none)

echo "start: $(uptime)"
# Step 1: a square box of side L holds N disks (mean r^2 = 0.25 (1 + 0.2^2/3))
# at solid fraction 0.78; the generator keeps each disk a radius from the
# faces, which leaves ~0.773 and a seam that the first compaction closes.
box=$("$py" -c "import math; print(repr(math.sqrt($n * math.pi * 0.25 * (1 + 0.04 / 3) / 0.78)))")
rm -rf gen
"${mpi[@]}" -n 1 "$exe" -dim 2 -gen_type random -gen_n "$n" -gen_radius 0.5 -gen_polydispersity 0.2 \
  -gen_box "0,0,$box,$box" -periodic x,y -gravity 0,0 -steps 0 -snapshot_every 0 -status_every 0 \
  -output_dir gen >gen.log
"$py" "$here/shear_vs_lammps.py" pack gen/snapshots/snap_000000.h5 pack.csv
"$py" "$here/shear_vs_lammps.py" setup pack.csv "$box" . --strain "$strain" --inertial "$inertial" --ranks "$ranks"
if [ -n "$moreau_dt" ]; then
  sed -i "s/^-dt .*/-dt $moreau_dt/" moreau.opts
  echo "dt_cd = $moreau_dt    # moreau: given by -moreau_dt, replacing the value above" >>parameters.txt
fi

run_moreau() {
  for t in "${tol_list[@]}"; do
    /usr/bin/time -f "%e %U %S" -o "moreau_tol$t.time" "${mpi[@]}" -n "$ranks" "$exe" -options_file moreau.opts \
      -nlgs_tol "$t" -output_dir "moreau_tol$t" -overwrite >"moreau_tol$t.log" 2>&1 || return 1
  done
}
run_lammps() {
  rm -f lammps_series.txt lammps.log
  /usr/bin/time -f "%e %U %S" -o lammps.time "${mpi[@]}" -n "$ranks" "$lmp" -in "$here/in.shear2d" \
    -var params lammps.vars -log lammps.log -screen none >lammps.out 2>&1
}
status=0
if [ $side_by_side = 1 ]; then
  run_moreau & pm=$!
  run_lammps & pl=$!
  wait $pm || { status=1; echo "shear_vs_lammps.sh: moreau failed, see $work/moreau_tol*.log" >&2; }
  wait $pl || { status=1; echo "shear_vs_lammps.sh: LAMMPS failed, see $work/lammps.log and lammps.out" >&2; }
else
  run_moreau || { status=1; echo "shear_vs_lammps.sh: moreau failed, see $work/moreau_tol*.log" >&2; }
  run_lammps || { status=1; echo "shear_vs_lammps.sh: LAMMPS failed, see $work/lammps.log and lammps.out" >&2; }
fi
"$py" "$here/shear_vs_lammps.py" summary . --moreau "${tol_list[@]/#/moreau_tol}" | tee summary.md || status=1
echo "end: $(uptime)"
exit $status
