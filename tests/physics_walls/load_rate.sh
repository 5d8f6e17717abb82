# sh load_rate.sh MOREAU WORKDIR [MPIEXEC NP]
#
# -wall<i>_load_rate r: a force wall's force and pressure grow as 1 + r t.
#
# 1. A free force wall (no body reaches it) of mass M under F0 (1 + r t)
#    from rest. Its velocity gets one impulse per step, taken at the middle
#    of the step, which is exact for a load linear in t, and its position
#    moves by the mean of the step's two end velocities, so after N steps of
#    dt (T = N dt) it has moved exactly
#      F0 / M (T^2 / 2 + r / 2 (T^3 / 3 + dt^2 T / 6))
#    (the trapezoid sum of t^2 on the grid is T^3 / 3 + dt^2 T / 6).
#    Taking the load at the start of the step instead is r dt T^2 / 4 (5e-3
#    here) off; the test asks for 1e-10.
# 2. A rigid column of frictionless disks between fixed side walls, under a
#    top wall with pressure P and load rate r, no gravity: the column holds
#    the wall still, so the wall's reaction over the step ending at t is the
#    drive at the step's middle, P W (1 + r (t - dt / 2)), W the distance
#    between the side walls. Checked at every output row to 1e-8.
# 3. -wall<i>_stop_travel (below).
# shellcheck shell=sh
exe=$1 work=$2 mpiexec=${3:-} np=${4:-}
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/../app/lib.sh"
enter_workdir
moreau() {
  if [ -n "$np" ]; then run "$mpiexec" -n "$np" --oversubscribe "$exe" "$@"; else run "$exe" "$@"; fi
}
common="-gravity 0,0 -dt 0.01 -steps 100 -t_end 1e30 -output_every 10 -snapshot_every 0 -status_every 0 -overwrite true"

{
  echo "x,y,r"
  echo "0.5,0.5,0.5"
  echo "3.5,0.5,0.5"
} >free.csv
# shellcheck disable=SC2086
moreau -particles_file free.csv $common -wall0_point 0,0 -wall0_normal 0,1 \
  -wall1_point 0,10 -wall1_normal 0,-1 -wall1_mode force -wall1_force 1.5 -wall1_mass 2 -wall1_load_rate 2 \
  -output_dir free
expect_rc 0 "the free wall"
python3 - <<'PY' || fail "the free wall under a growing force is off its closed form"
import csv
rows = list(csv.DictReader(open("free/timeseries.csv")))
F0, M, r, dt, bad = 1.5, 2.0, 2.0, 0.01, []
for row in rows:
    T = float(row["time"])
    moved = 10.0 - float(row["wall1_y"])
    exact = F0 / M * (T**2 / 2 + r / 2 * (T**3 / 3 + dt**2 * T / 6))
    if abs(moved - exact) > 1e-10 * max(exact, 1e-300):
        bad.append(f"t {T}: moved {moved!r}, exact {exact!r}")
print(f"{len(rows)} rows, last: t {T}, moved {moved!r}, exact {exact!r}")
raise SystemExit("\n".join(bad) if bad or len(rows) != 10 else 0)
PY

# 3. -wall1_stop_travel 0.3: the same free wall ends the run at the first step
#    its closed-form travel reaches 0.3 (step 74 of 100), with a note.
# shellcheck disable=SC2086
moreau -particles_file free.csv $common -wall0_point 0,0 -wall0_normal 0,1 \
  -wall1_point 0,10 -wall1_normal 0,-1 -wall1_mode force -wall1_force 1.5 -wall1_mass 2 -wall1_load_rate 2 \
  -wall1_stop_travel 0.3 -output_dir stop
expect_rc 0 "the free wall with a stop travel"
steps=$(python3 -c "
F0, M, r, dt = 1.5, 2.0, 2.0, 0.01
n = 1
while F0 / M * ((n * dt)**2 / 2 + r / 2 * ((n * dt)**3 / 3 + dt**2 * n * dt / 6)) < 0.3:
    n += 1
print(n)")
grep -q "^moreau: wall 1 has moved its -wall1_stop_travel$" "$work/stdout" || fail "no note of the stop travel"
grep -q "^moreau: done, $steps steps " "$work/stdout" || fail "the stop travel did not end the run at step $steps"
{
  echo "x,y,r"
  for i in 0 1 2 3; do echo "1.5,$i.5,0.5"; done
} >column.csv
# shellcheck disable=SC2086
moreau -particles_file column.csv $common -mu 0 -nlgs_tol 1e-12 -nlgs_max_it 100000 \
  -wall0_point 0,0 -wall0_normal 0,1 -wall1_point 0,0 -wall1_normal 1,0 -wall2_point 3,0 -wall2_normal -1,0 \
  -wall3_point 0,4 -wall3_normal 0,-1 -wall3_mode force -wall3_pressure 7 -wall3_load_rate 0.5 \
  -output_dir column
expect_rc 0 "the column under a growing pressure"
python3 - <<'PY' || fail "the column's reaction is not the pressure ramp at the middle of each step"
import csv
rows = list(csv.DictReader(open("column/timeseries.csv")))
P, W, r, dt, bad = 7.0, 3.0, 0.5, 0.01, []
for row in rows:
    t = float(row["time"])
    expect = P * W * (1 + r * (t - dt / 2))
    got = float(row["wall3_fy"])
    if abs(got / expect - 1) > 1e-8:
        bad.append(f"t {t}: reaction {got!r}, expected {expect!r}")
print(f"{len(rows)} rows, last: t {t}, reaction {got!r}, expected {expect!r}")
raise SystemExit("\n".join(bad) if bad or len(rows) != 10 else 0)
PY
echo "PASS: force and pressure walls follow their load rate"
