# sh profile_files.sh MOREAU WORKDIR [MPIEXEC NP]
#
# The profile and force-PDF files of a small periodic shear run (200 disks,
# pressure 1000, I = 0.1, strain 0.3) with -profile_bins 8 and a profile,
# a sample and a row every 10 steps: every profiles/profile_<step>.csv has
# the documented 2D columns (y, bodies, solid_fraction, vx, vy, spin, sxx,
# sxy, syy) and 8 bins of equal width tiling the box along y (centred on 0.5
# as it shrinks); in each, the bodies add up to
# 200, and the bin solid fractions weighted by the bin widths average to the
# packing_fraction of the same step's row, the bin stresses to its
# stress_xx, stress_xy, stress_yy (every contact point and body centre lies
# in one bin), to 1e-12 relative. forces/force_pdf_<step>.csv exists with
# each snapshot, columns f_lo, f_hi, pdf, count, 30 bins on [0, 6), with
# sum pdf width <= 1 and count / (pdf width) the same for every bin (but
# at step 0, before any contact).
# shellcheck shell=sh
exe=$1 work=$2 mpiexec=$3 np=$4
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/../app/lib.sh"
enter_workdir
set -- -gen_type random -gen_n 200 -gen_fraction 0.6 -gen_box 0,0,1,1 -gravity 0,0 -pressure 1000 \
  -inertial_number 0.1 -dt 2e-4 -t_end 1e9 -strain_end 0.3 -output_every 10 -snapshot_every 100 -status_every 0 \
  -profile_bins 8 -profile_every 10 -output_dir out
if [ -n "$np" ]; then run "$mpiexec" -n "$np" --oversubscribe "$exe" "$@"; else run "$exe" "$@"; fi
expect_rc 0 "the shear run"
python3 - <<'PY' || fail "profiles or force PDFs"
import csv, glob, os, sys
bad = []
rows = {int(r["step"]): r for r in csv.DictReader(open("out/timeseries.csv"))}
fields = ["bodies", "solid_fraction", "vx", "vy", "spin", "sxx", "sxy", "syy"]
profiles = sorted(glob.glob("out/profiles/profile_*.csv"))
steps = sorted(int(os.path.basename(p)[8:-4]) for p in profiles)
if steps != sorted(rows):
    bad.append(f"profiles at steps {steps[:5]}..., rows at {sorted(rows)[:5]}...")
worst = 0.0
for path in profiles:
    step = int(os.path.basename(path)[8:-4])
    table = list(csv.reader(open(path)))
    if table[0] != ["y"] + fields:
        bad.append(f"{path}: columns {table[0]}")
        continue
    bins = [[float(x) for x in r] for r in table[1:]]
    if len(bins) != 8:
        bad.append(f"{path}: {len(bins)} bins")
        continue
    row = rows.get(step)
    if row is None:
        continue
    box = float(row["box_y"])
    width = box / 8
    centres = [b[0] for b in bins]
    # The pressure control keeps the box centred on 0.5 (the generator's).
    if any(abs(c - (0.5 - box / 2 + (k + 0.5) * width)) > 1e-12 for k, c in enumerate(centres)):
        bad.append(f"{path}: bin centres {centres}, box {box}")
    if sum(b[1] for b in bins) != 200:
        bad.append(f"{path}: {sum(b[1] for b in bins)} bodies")
    for col, name in ((2, "packing_fraction"), (6, "stress_xx"), (7, "stress_xy"), (8, "stress_yy")):
        mean = sum(b[col] * width for b in bins) / box
        ref = float(row[name])
        scale = abs(ref) if name == "packing_fraction" else abs(float(row["p"]))
        diff = abs(mean - ref) / scale
        worst = max(worst, diff)
        if diff > 1e-12:
            bad.append(f"step {step}: bins give {name} {mean!r}, the row {ref!r}")
pdfs = sorted(glob.glob("out/forces/force_pdf_*.csv"))
snaps = sorted(glob.glob("out/snapshots/*.h5"))
if not pdfs or len(pdfs) != len(snaps):
    bad.append(f"{len(pdfs)} force PDF files for {len(snaps)} snapshots")
for path in pdfs:
    table = list(csv.reader(open(path)))
    if table[0] != ["f_lo", "f_hi", "pdf", "count"] or len(table) != 31:
        bad.append(f"{path}: columns {table[0]}, {len(table) - 1} bins")
        continue
    b = [[float(x) for x in r] for r in table[1:]]
    total = sum(r[2] * (r[1] - r[0]) for r in b)
    ns = {round(r[3] / (r[2] * (r[1] - r[0]))) for r in b if r[3] > 0}
    empty = all(r[2] == 0 and r[3] == 0 for r in b)  # step 0: no contacts yet
    if empty and int(os.path.basename(path)[10:-4]) != 0:
        bad.append(f"{path}: no contacts")
    if b[0][0] != 0 or abs(b[-1][1] - 6) > 1e-12 or not (empty or (0.9 < total <= 1 + 1e-12 and len(ns) == 1)):
        bad.append(f"{path}: edges {b[0][0]}..{b[-1][1]}, sum pdf width {total}, contacts {ns}")
print(f"{len(profiles)} profiles, {len(pdfs)} force PDFs, largest relative difference {worst:.3g}")
for m in bad[:10]:
    print("FAIL: " + m, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
