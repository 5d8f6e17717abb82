# sh steady.sh MOREAU WORKDIR I DT
#
# A dense 2D plane shear at inertial number I under pressure control: 300
# frictional disks (mu_p = 0.4, radii uniform in r (1 +- 0.3)), bi-periodic
# Lees-Edwards cell, p = 1000, from a random packing at solid fraction 0.6
# compressed by the pressure control while it is sheared, to a strain of 4.
# Past a strain of 1.5 the flow must be steady:
# the means of friction tau/sigma_yy over windows of 0.5 strain spread by
# less than 0.05 (300 disks fluctuate: 0.02-0.035 seen at I = 0.01, 0.1),
# those of the solid fraction by less than 0.01 (0.002-0.004 seen), the
# mean normal stress within 15% of p, overlaps below 5% of the mean
# diameter (up to 3.6% seen at I = 0.01, where NLGS stops at -nlgs_max_it).
# Leaves steady.json (tools/shear_windows.py --json) for the mu(I) test.
# shellcheck shell=sh
exe=$1 work=$2 inertial=$3 dt=$4
tools=$(cd "$(dirname "$0")/../../tools" && pwd)
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/../app/lib.sh"
enter_workdir
run "$exe" -gen_type random -gen_n 300 -gen_fraction 0.6 -gen_box 0,0,1,1 -gravity 0,0 -mu 0.4 -pressure 1000 \
  -inertial_number "$inertial" -dt "$dt" -t_end 1e9 -strain_end 4 -nlgs_max_it "${MAX_IT:-500}" -output_dir out -output_every 10 \
  -snapshot_every 0 -status_every 0
expect_rc 0 "shear at I = $inertial"
python3 "$tools/shear_windows.py" out/timeseries.csv --from 1.5 --window 0.5 >table || fail "shear_windows failed"
python3 "$tools/shear_windows.py" out/timeseries.csv --from 1.5 --window 0.5 --json >steady.json || fail "shear_windows --json"
cat table
python3 - "$inertial" <<'PY' || fail "the flow at I = $inertial is not steady"
import csv, json, sys
s = json.load(open("steady.json"))
rows = list(csv.DictReader(open("out/timeseries.csv")))
last = float(rows[-1]["strain"])
d = 0.05  # about the mean diameter of 300 disks at solid fraction 0.6 in the unit box
overlap = max(float(r["max_overlap"]) for r in rows)
checks = [
    (last >= 3.9, f"strain reached {last:.2f}, expected 4"),
    (s["friction_sd"] < 0.05, f"friction window means spread by {s['friction_sd']:.4f}"),
    (s["solid_fraction_sd"] < 0.01, f"solid fraction window means spread by {s['solid_fraction_sd']:.4f}"),
    (abs(sum(w["normal_stress"] for w in s["windows"]) / len(s["windows"]) / 1000 - 1) < 0.15,
     "normal stress not within 15% of the pressure"),
    (overlap < 0.05 * d, f"largest overlap {overlap:.3g}"),
]
bad = [m for ok, m in checks if not ok]
print(f"I = {sys.argv[1]}: friction {s['friction']:.4f} (sd {s['friction_sd']:.4f}), phi {s['solid_fraction']:.4f} "
      f"(sd {s['solid_fraction_sd']:.4f}), largest overlap {overlap:.3g}")
for m in bad:
    print("FAIL: " + m, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
