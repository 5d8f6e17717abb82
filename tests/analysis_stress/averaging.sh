# sh averaging.sh MOREAU WORKDIR
#
# -analysis_every: two runs of the same sheared periodic packing (same seed,
# one rank: the same dynamics to the bit), one sampling every step with a
# row every 10 steps, one with a row every step. Each row of the first must
# be the mean of the 10 rows of the second since the row before, in every
# analysis column (stress_xx to fabric_angle), to 1e-12 of the column's
# largest magnitude (the CSV keeps 17 digits; both sums add the same
# doubles in the same order). The dynamics columns must agree exactly.
# shellcheck shell=sh
exe=$1 work=$2
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/../app/lib.sh"
enter_workdir
args="-gen_type random -gen_n 200 -gen_fraction 0.6 -gen_box 0,0,1,1 -gravity 0,0 -pressure 1000 -inertial_number 0.1
  -dt 2e-4 -t_end 1e9 -steps 60 -snapshot_every 0 -status_every 0 -analysis_every 1"
# shellcheck disable=SC2086
run "$exe" $args -output_every 10 -output_dir rows10
expect_rc 0 "the run with a row every 10 steps"
# shellcheck disable=SC2086
run "$exe" $args -output_every 1 -output_dir rows1
expect_rc 0 "the run with a row every step"
python3 - <<'PY' || fail "the rows are not the means of the samples"
import csv, sys
coarse = list(csv.DictReader(open("rows10/timeseries.csv")))
fine = {int(r["step"]): r for r in csv.DictReader(open("rows1/timeseries.csv"))}
names = list(coarse[0].keys())
first, last = names.index("stress_xx"), names.index("fabric_angle")
analysis = names[first:last + 1]
bad = []
assert len(coarse) == 6 and len(fine) == 60, (len(coarse), len(fine))
scale = {c: max(abs(float(r[c])) for r in fine.values()) for c in analysis}
worst = 0.0
for row in coarse:
    step = int(row["step"])
    window = [fine[s] for s in range(step - 9, step + 1)]
    if row["kinetic_energy"] != fine[step]["kinetic_energy"]:
        bad.append(f"step {step}: the dynamics differ (kinetic energy)")
    for c in analysis:
        mean = 0.0
        for r in window:
            mean += float(r[c])
        mean /= len(window)
        diff = abs(float(row[c]) - mean) / (scale[c] or 1.0)
        worst = max(worst, diff)
        if diff > 1e-12:
            bad.append(f"step {step} {c}: {row[c]}, mean of the samples {mean!r}")
# The columns must move over a window, or the check says nothing.
moving = [c for c in ("stress_xx", "p", "packing_fraction", "z") if len({fine[s][c] for s in range(1, 11)}) < 5]
if moving:
    bad.append(f"columns constant over the first window: {moving}")
print(f"{len(coarse)} rows, {len(analysis)} analysis columns, largest relative difference {worst:.3g}")
for m in bad[:10]:
    print("FAIL: " + m, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
