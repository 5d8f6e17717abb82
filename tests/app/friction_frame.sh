# sh friction_frame.sh MOREAU WORKDIR [MPIEXEC NP]
#
# The snapshot's contact force and frame, as docs/file-formats.md states
# them, for a body sliding on a floor (mu 0.3, gravity 9.81): the force a
# exerts on b is f_n n + f_t t + f_s s, here a is the body and b the floor,
# so f_n is the weight m g (to 1e-6) and the friction part f_t t + f_s s
# has magnitude mu f_n (to 1e-6) and the direction of the body's sliding
# velocity (the friction on the floor; the body gets its opposite), to 1e-9:
# a 2D disk sliding along +x, and a 3D sphere along (1, 0.5, 0), whose
# friction has both a t and an s part unless t happens to lie along it.
# The frame must be orthonormal with n the floor's outward normal seen
# from the body (pointing from a to b: -e_y, -e_z).
# shellcheck shell=sh
exe=$1 work=$2 mpiexec=${3:-} np=${4:-}
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/lib.sh"
enter_workdir
moreau() {
  if [ -n "$np" ]; then run "$mpiexec" -n "$np" --oversubscribe "$exe" "$@"; else run "$exe" "$@"; fi
}
common="-mu 0.3 -steps 2 -t_end 1e30 -snapshot_every 1 -status_every 0"
printf 'x,y,r,vx,vy\n0,0.5,0.5,1,0\n' >disk.csv
# shellcheck disable=SC2086
moreau -particles_file disk.csv -wall0_point 0,0 -wall0_normal 0,1 $common -output_dir d2
expect_rc 0 "a disk sliding on a floor"
printf 'x,y,z,r,vx,vy,vz\n0,0,0.5,0.5,1,0.5,0\n' >sphere.csv
# shellcheck disable=SC2086
moreau -dim 3 -particles_file sphere.csv -wall0_point 0,0,0 -wall0_normal 0,0,1 $common -output_dir d3
expect_rc 0 "a sphere sliding on a floor"
/usr/bin/python3 - <<'PY' || fail "the contact force in the snapshot is not as docs/file-formats.md states it"
import math
import h5py
import numpy as np

bad = []
for name, mass, slide, normal in (
    ("d2", 1000 * math.pi * 0.25, np.array([1.0, 0, 0]), np.array([0, -1.0, 0])),
    ("d3", 1000 * 4 / 3 * math.pi * 0.125, np.array([1.0, 0.5, 0]), np.array([0, 0, -1.0])),
):
    with h5py.File(f"{name}/snapshots/snap_000002.h5", "r") as f:
        c = f["contacts"]
        if c["gid_a"].shape[0] != 1:
            bad.append(f"{name}: {c['gid_a'].shape[0]} contacts, expected 1")
            continue
        fn, ft, fs = c["force"][0]
        n, t, s = c["normal"][0], c["tangent"][0], c["binormal"][0]
    frame = np.array([n, t, s])
    if not np.allclose(frame @ frame.T, np.eye(3), atol=1e-12) or not np.allclose(n, normal, atol=1e-12):
        bad.append(f"{name}: frame n {n}, t {t}, s {s}")
    weight = mass * 9.81
    friction = ft * t + fs * s
    print(f"{name}: f_n {fn:.9g} (m g {weight:.9g}), friction {friction} (mu f_n {0.3 * fn:.9g})")
    if abs(fn / weight - 1) > 1e-6:
        bad.append(f"{name}: f_n {fn}, expected m g = {weight}")
    if abs(np.linalg.norm(friction) / (0.3 * fn) - 1) > 1e-6:
        bad.append(f"{name}: |friction| {np.linalg.norm(friction)}, expected mu f_n = {0.3 * fn}")
    if np.linalg.norm(friction / np.linalg.norm(friction) - slide / np.linalg.norm(slide)) > 1e-9:
        bad.append(f"{name}: friction {friction} is not along the sliding velocity {slide}")
raise SystemExit("\n".join(bad) if bad else 0)
PY
echo "PASS: the snapshot's contact force and frame in 2D and 3D"
