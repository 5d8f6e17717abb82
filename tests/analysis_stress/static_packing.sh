# sh static_packing.sh MOREAU WORKDIR
#
# The stress of a static 2D packing (100 disks) equals the tractions of the
# walls that hold it. Frictionless walls (material 1, law 0-1 with mu = 0),
# no gravity, frictional bodies (mu = 0.3) generated loose in the unit box;
# the walls through the origin are fixed, the opposite ones pushed by a
# pressure of 1000 until the packing is static (t = 2.4, step 12000: it
# settles by step 6000 to 10000, depending on the rounding of the arithmetic
# that leads there, as in any dense packing; the time series shows when). For a
# body in equilibrium the Love-Weber sum over its contacts reduces to the
# boundary term, so over the walls' box
# (the default analysis region) sigma_kk = F_k / A_k, F_k the force on the
# driven wall of normal -e_k and A_k the face it spans (the product of the
# other walls' positions). Checked on the last row: |sigma_kk / (F_k / A_k)
# - 1| < 1e-3 and the kinetic energy below 1e-4 p V. Why these bounds: the
# contact forces converge to a relative change of 1e-6 (-nlgs_tol), so the
# bodies' force balance, hence sigma, is exact to about 1e-6 relative; what
# remains is the motion left: the kinetic term and sum m a x, both of the
# order of the kinetic energy over p V (1e-5 relative seen, with a rattler
# spinning). 1e-3 leaves that margin two orders of magnitude, and a
# missing wall term (about d / L = 10% of the sum), a missing contact (1% of
# some 200) or a wrong volume fails it.
# shellcheck shell=sh
exe=$1 work=$2 dim=2
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/../app/lib.sh"
enter_workdir
set -- -gen_type random -gen_n 100 -gen_fraction 0.6 -gen_box 0,0,1,1 -gravity 0,0 -dt 2e-4 -t_end 2.4 \
  -output_every 1000 \
  -wall0_point 0,0 -wall0_normal 1,0 -wall1_point 0,0 -wall1_normal 0,1 \
  -wall2_point 1,1 -wall2_normal -1,0 -wall2_mode force -wall2_pressure 1000 \
  -wall3_point 1,1 -wall3_normal 0,-1 -wall3_mode force -wall3_pressure 1000
set -- "$@" -mu 0.3 -materials 2 -pair_law 0,1,0,0,0 -wall0_material 1 -wall1_material 1 -wall2_material 1 \
  -wall3_material 1 -nlgs_tol 1e-6 -snapshot_every 0 -status_every 0 -output_dir out
run "$exe" "$@"
expect_rc 0 "the 2D packing"
python3 - "$dim" <<'PY' || fail "the stress of the static packing is not the wall tractions"
import csv, sys
dim = int(sys.argv[1])
rows = list(csv.DictReader(open("out/timeseries.csv")))
r = {k: float(v) for k, v in rows[-1].items()}
axes = "xyz"[:dim]
# The box of the walls: the fixed ones at 0, the driven wall of normal -e_k
# (wall dim + k) at its position along k.
edge = [r[f"wall{dim + k}_{axes[k]}"] for k in range(dim)]
volume = 1.0
for e in edge:
    volume *= e
bad = []
for k, a in enumerate(axes):
    traction = r[f"wall{dim + k}_f{a}"] * edge[k] / volume
    sigma = r[f"stress_{a}{a}"]
    rel = sigma / traction - 1.0
    print(f"step {int(r['step'])}: stress_{a}{a} {sigma:.6f}, wall traction {traction:.6f} (relative {rel:.2e})")
    if not abs(rel) < 1e-3:
        bad.append(f"stress_{a}{a} {sigma} against the traction {traction}")
ke = r["kinetic_energy"]
print(f"kinetic energy {ke:.3g}, p V {r['p'] * volume:.4g}")
if not ke < 1e-4 * 1000 * volume:
    bad.append(f"kinetic energy {ke}: not static")
for m in bad:
    print("FAIL: " + m, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
