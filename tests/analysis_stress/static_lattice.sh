# sh static_lattice.sh MOREAU WORKDIR [MPIEXEC NP]
#
# The stress of a static 3D packing equals the tractions of the walls that
# hold it: 64 spheres of radius 0.5 on a simple cubic lattice filling the box
# [0, 4]^3 exactly (every neighbour and wall touching at zero gap), held by
# frictionless walls (material 1, law 0-1 with mu = 0), no gravity; the walls
# through the origin are fixed, the opposite ones pushed by pressures of
# 1000, 2000 and 3000 along x, y and z. The packing is static from the first
# step: its contact forces balance every body (and, the walls being
# frictionless, no tangential wall force enters the boundary term), so over
# the walls' box sigma_kk = F_k / A_k, F_k the force on the driven wall of
# normal -e_k and A_k the face it spans. After 20 steps: |sigma_kk / (F_k /
# A_k) - 1| < 1e-6 on each axis (the contacts converge to a relative change
# of 1e-8; 7e-9 to 4e-8 seen) and the kinetic energy below 1e-9 p V. A
# missing wall term (l = 0.5 of each chain's l = 4), or a wrong volume,
# fails it by far.
# shellcheck shell=sh
exe=$1 work=$2 mpiexec=${3:-} np=${4:-}
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/../app/lib.sh"
enter_workdir
{
  echo "x,y,z,r"
  for i in 0 1 2 3; do for j in 0 1 2 3; do for k in 0 1 2 3; do echo "$i.5,$j.5,$k.5,0.5"; done; done; done
} >lattice.csv
set -- -dim 3 -particles_file lattice.csv -gravity 0,0,0 -dt 1e-3 -steps 20 -output_every 10 -nlgs_tol 1e-8 \
  -wall0_point 0,0,0 -wall0_normal 1,0,0 -wall1_point 0,0,0 -wall1_normal 0,1,0 -wall2_point 0,0,0 -wall2_normal 0,0,1 \
  -wall3_point 4,4,4 -wall3_normal -1,0,0 -wall3_mode force -wall3_pressure 1000 \
  -wall4_point 4,4,4 -wall4_normal 0,-1,0 -wall4_mode force -wall4_pressure 2000 \
  -wall5_point 4,4,4 -wall5_normal 0,0,-1 -wall5_mode force -wall5_pressure 3000 \
  -materials 2 -pair_law 0,1,0,0,0 -snapshot_every 0 -status_every 0 -output_dir out
for i in 0 1 2 3 4 5; do set -- "$@" "-wall${i}_material" 1; done
if [ -n "$np" ]; then run "$mpiexec" -n "$np" --oversubscribe "$exe" "$@"; else run "$exe" "$@"; fi
expect_rc 0 "the 3D lattice"
python3 - <<'PY' || fail "the stress of the static lattice is not the wall tractions"
import csv
r = {k: float(v) for k, v in list(csv.DictReader(open("out/timeseries.csv")))[-1].items()}
length = [r[f"wall{3 + k}_{a}"] - r[f"wall{k}_{a}"] for k, a in enumerate("xyz")]
bad = []
for k, a in enumerate("xyz"):
    area = length[(k + 1) % 3] * length[(k + 2) % 3]
    traction = r[f"wall{3 + k}_f{a}"] / area
    err = r[f"stress_{a}{a}"] / traction - 1
    print(f"sigma_{a}{a} {r[f'stress_{a}{a}']:.9f}, traction {traction:.9f}, relative difference {err:.2e}")
    if not abs(err) < 1e-6:
        bad.append(a)
volume = length[0] * length[1] * length[2]
if not r["kinetic_energy"] < 1e-9 * 1000 * volume:
    bad.append(f"kinetic energy {r['kinetic_energy']}")
raise SystemExit(f"off: {bad}" if bad else 0)
PY
echo "PASS: the stress of a static 3D lattice is the wall tractions"
