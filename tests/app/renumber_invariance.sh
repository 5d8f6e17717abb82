# sh renumber_invariance.sh MOREAU WORKDIR [MPIEXEC NP]
#
# No result depends on the order the bodies are stored in: runs that store
# them along the Morton curve at setup and every step (-part_renumber_every
# 1), every third step (3), or keep the input order with migrants appended
# (0) give the same time series (all but the timings), profiles and force
# distributions, and the same final snapshot (bodies by gid, contacts in key
# order; only the local indices of the connectivity differ), bit for bit,
# for a 2D pile in a box, a 3D pile, a sheared bi-periodic Lees-Edwards
# cell under a barostat, a rough-wall shear cell and a pile of trimers. A
# field a renumbering forgot to move, or a sum over bodies in storage
# order, fails it (the barostat's sums did, before they became
# order-independent).
# shellcheck shell=sh
exe=$1 work=$2 mpiexec=${3:-} np=${4:-}
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/lib.sh"
examples=$(cd "$(dirname "$0")/../../examples" && pwd)
enter_workdir
moreau() {
  if [ -n "$np" ]; then run "$mpiexec" -n "$np" --oversubscribe "$exe" "$@"; else run "$exe" "$@"; fi
}
common="-t_end 1e30 -output_every 5 -snapshot_every 0 -status_every 0 -overwrite true"
for every in 0 1 3; do
  # shellcheck disable=SC2086
  moreau -gen_type random -gen_n 500 -gen_box 0,0,20,40 -mu 0.4 -dt 1e-3 -steps 150 $common \
    -part_renumber_every $every -output_dir pile2d_$every
  expect_rc 0 "the 2D pile, -part_renumber_every $every"
  # shellcheck disable=SC2086
  moreau -dim 3 -gen_type random -gen_n 300 -gen_box 0,0,0,6,6,12 -mu 0.4 -dt 1e-3 -steps 100 $common \
    -part_renumber_every $every -output_dir pile3d_$every
  expect_rc 0 "the 3D pile, -part_renumber_every $every"
  # shellcheck disable=SC2086
  moreau -options_file "$examples/shear2d.opts" -gen_n 400 -gen_box 0,0,0.63,0.63 -strain_end 1e30 -steps 60 \
    $common -part_renumber_every $every -output_dir shear_$every
  expect_rc 0 "the sheared cell, -part_renumber_every $every"
  # shellcheck disable=SC2086
  moreau -options_file "$examples/shear2d_rough.opts" -gen_n 300 -gen_box 0,0,0.8,0.5 -strain_end 1e30 -steps 60 \
    $common -part_renumber_every $every -output_dir rough_$every
  expect_rc 0 "the rough-wall cell, -part_renumber_every $every"
  # shellcheck disable=SC2086
  moreau -gen_type random -gen_n 200 -gen_box 0,0,20,40 -shape trimer -shape_eta 0.4 -mu 0.4 -dt 1e-3 -steps 100 \
    $common -part_renumber_every $every -output_dir trimers_$every
  expect_rc 0 "the trimer pile, -part_renumber_every $every"
done
/usr/bin/python3 - <<'PY' || fail "the results depend on the order the bodies are stored in"
import csv
import glob
import os

import h5py
import numpy as np

bad = []


def series(d):
    with open(f"{d}/timeseries.csv") as f:
        rows = list(csv.reader(f))
    keep = [k for k, name in enumerate(rows[0]) if not name.endswith("seconds")]
    return [[r[k] for k in keep] for r in rows]


def last_snapshot(d):
    with h5py.File(sorted(glob.glob(f"{d}/snapshots/snap_*.h5"))[-1], "r") as f:
        out = {}
        by_gid = np.argsort(f["bodies/gid"][()], kind="stable")
        for name, ds in f["bodies"].items():
            if name != "connectivity":
                out[f"bodies/{name}"] = ds[()][by_gid]
        for name, ds in f["contacts"].items():
            if name != "connectivity":
                out[f"contacts/{name}"] = ds[()]
        return out


for case in ("pile2d", "pile3d", "shear", "rough", "trimers"):
    ref = f"{case}_0"
    if len(series(ref)) < 10:
        bad.append(f"{ref}: too few rows in the time series")
    snap = last_snapshot(ref)
    if len(snap["contacts/gid_a"]) == 0:
        bad.append(f"{ref}: no contacts at the end")
    for every in ("1", "3"):
        other = f"{case}_{every}"
        if series(other) != series(ref):
            bad.append(f"{other}: time series differs from {ref}")
        for sub in ("profiles", "forces"):
            for path in sorted(glob.glob(f"{ref}/{sub}/*")):
                twin = path.replace(ref, other, 1)
                if not os.path.exists(twin) or open(path, "rb").read() != open(twin, "rb").read():
                    bad.append(f"{twin} differs from {path}")
        snap2 = last_snapshot(other)
        for name, a in snap.items():
            if name not in snap2 or a.shape != snap2[name].shape or a.tobytes() != snap2[name].tobytes():
                bad.append(f"{other}: {name} differs from {ref}")
for b in bad:
    print(b)
raise SystemExit(1 if bad else 0)
PY
