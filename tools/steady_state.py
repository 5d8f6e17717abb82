#!/usr/bin/env python3
"""Steady state of a sheared periodic cell, with block-average error bars.

Reads moreau's timeseries.csv of a run under pressure control (-pressure,
-inertial_number). Figures of a stretch of rows: the friction
mu = <shear_stress> / <normal_stress> (tau / sigma_yy, sigma_yy being the
stress the pressure control holds at -pressure; a ratio of means), the mean
solid fraction phi and the mean sigma_yy.

Transient. The rows are cut into windows of half a block (--block / 2
strain, from strain 0; a last window short by more than 2% is left out).
The flow is steady from the first window k such that, for mu and for phi,
  (a) window k lies within 2 standard deviations of the mean of the windows
      after it (the standard deviation of those later windows' values), and
  (b) the windows from k on show no trend: the least-squares slope of their
      values against strain is within 3 of its standard errors of zero,
with at least 2 --min_blocks windows (--min_blocks blocks; default 3) from
k on. (a) cuts the transient off; (b) refuses a part that still drifts,
which (a) alone lets through (a linear drift over n windows puts the first
one only sqrt(3 (n+1) / n) later standard deviations from the rest). Random
scatter fails (b) in a few per cent of steady runs; the next windows are
then tried. A run with no such window is flagged "steady": false and its
figures are taken over its last --min_blocks blocks (or all of it), for
inspection only.

Averages and error bars, over the steady part: cut into blocks of --block
strain (default 1) from its first window on, whole blocks only (so up to
half a block at the end is left out): mu, phi and sigma_yy over the rows of
those blocks, the measured inertial number
I_measured = I_target sqrt(p / <sigma_yy>) (the shear rate is imposed as
I_target sqrt(p / rho) / d, so only the stress differs from the target), and
the error bars: the standard error of the blocks' values,
sd / sqrt(n_blocks), sd with n - 1. These error bars hold when the blocks are
longer than the flow's correlation strain, which is why they are a strain
unit or more.

  python3 tools/steady_state.py out/timeseries.csv --inertial_number 0.1 [--block 1] [--json]

With --cases, the table of a mu(I) campaign (tools/campaign.sh) instead: one
CSV row per line of the cases file of jobscripts/campaign.sh (index, option
inertial_number, its value, output directory, then "option value" pairs
such as dt and strain_end):

  python3 tools/steady_state.py --cases runs/muI.cases -o runs/muI_table.csv

columns I_target, I_measured, mu, mu_err, phi, phi_err, steady_from (empty
when not steady), strain (the last row's), n_bodies (from the last
snapshot's .xmf), wall_seconds (moreau's "done, N steps in X s" in the case's
log DIR.out, or RUNS/<campaign>_<index>.out for a job array: the last part
only, if the run was requeued), then steady (1/0), blocks, dt,
max_overlap_d (the largest overlap in the steady part over the mean
diameter of the last snapshot, from h5dump), output_dir. A case without a
time series gets a row with only I_target and output_dir, and the exit
status is then 1 (the CSV is still written).

Bad input: one line on stderr, exit 2.
"""
import argparse
import csv
import glob
import json
import math
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from shear_windows import read_rows  # noqa: E402

NEEDED = ("strain", "solid_fraction", "pressure_target", "normal_stress", "shear_stress", "max_overlap")


def die(msg):
    print(f"steady_state: error: {msg}", file=sys.stderr)
    sys.exit(2)


def sample_sd(values):
    n = len(values)
    if n < 2:
        return float("nan")
    m = sum(values) / n
    return math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))


def blocks_of(rows, width, origin=0.0):
    """Rows split into consecutive blocks [origin + k w, origin + (k+1) w) of strain; only whole ones
    (a run stopped by -strain_end may write its last row a few steps short of it: 2% of a block may
    lack)."""
    n = int(math.floor((rows[-1]["strain"] - origin) / width + 0.02))
    blocks = [[] for _ in range(n)]
    for r in rows:
        k = math.floor((r["strain"] - origin) / width)
        if 0 <= k < n:
            blocks[k].append(r)
    return [b for b in blocks if b]


def block_figures(b):
    tau = sum(r["shear_stress"] for r in b) / len(b)
    syy = sum(r["normal_stress"] for r in b) / len(b)
    phi = sum(r["solid_fraction"] for r in b) / len(b)
    return {"friction": tau / syy, "solid_fraction": phi, "normal_stress": syy, "rows": len(b)}


def trend_t(values):
    """|slope| / its standard error of a least-squares line through (i, values[i]); 0 for no slope."""
    n = len(values)
    xm, ym = (n - 1) / 2, sum(values) / n
    sxx = sum((i - xm) ** 2 for i in range(n))
    slope = sum((i - xm) * (v - ym) for i, v in enumerate(values)) / sxx
    res = sum((v - ym - slope * (i - xm)) ** 2 for i, v in enumerate(values))
    scale = max(abs(v) for v in values) or 1.0
    if abs(slope) <= 1e-12 * scale:
        return 0.0
    se = math.sqrt(res / (n - 2) / sxx) if n > 2 else 0.0
    return abs(slope) / se if se > 0 else math.inf


def steady_start(figs, min_windows):
    """First window index from which the flow counts as steady ((a) and (b) above), or None."""
    for k in range(len(figs) - min_windows + 1):
        ok = True
        for key in ("friction", "solid_fraction"):
            vals = [f[key] for f in figs[k:]]
            later = vals[1:]
            m = sum(later) / len(later)
            if abs(vals[0] - m) > 2 * sample_sd(later) or trend_t(vals) > 3:
                ok = False
        if ok:
            return k
    return None


def analyse(rows, inertial, width, min_blocks):
    windows = blocks_of(rows, width / 2)
    if len(windows) < 4:
        raise ValueError(f"the run reaches strain {rows[-1]['strain']:.3g}: fewer than 2 blocks of {width} strain")
    figs = [block_figures(b) for b in windows]
    k = steady_start(figs, 2 * min_blocks)
    steady = k is not None
    first = k if steady else max(0, len(windows) - 2 * min_blocks)
    blocks = blocks_of(rows, width, first * width / 2)
    kept = [r for b in blocks for r in b]
    used = [block_figures(b) for b in blocks]
    nb = len(used)
    p = kept[0]["pressure_target"]
    syy = sum(r["normal_stress"] for r in kept) / len(kept)
    tau = sum(r["shear_stress"] for r in kept) / len(kept)
    phi = sum(r["solid_fraction"] for r in kept) / len(kept)
    se = {key: sample_sd([f[key] for f in used]) / math.sqrt(nb) for key in ("friction", "solid_fraction", "normal_stress")}
    i_meas = inertial * math.sqrt(p / syy) if syy > 0 else float("nan")
    return {
        "steady": steady,
        "steady_from": first * width / 2 if steady else None,
        "strain": rows[-1]["strain"],
        "block": width,
        "blocks": nb,
        "I_target": inertial,
        "I_measured": i_meas,
        "I_err": 0.5 * i_meas * se["normal_stress"] / syy,
        "mu": tau / syy,
        "mu_err": se["friction"],
        "phi": phi,
        "phi_err": se["solid_fraction"],
        "normal_stress": syy,
        "pressure_target": p,
        "max_overlap": max(r["max_overlap"] for r in kept),
        "windows": [dict(f, strain=i * width / 2) for i, f in enumerate(figs)],
    }


COLUMNS = ("I_target", "I_measured", "mu", "mu_err", "phi", "phi_err", "steady_from", "strain", "n_bodies",
           "wall_seconds", "steady", "blocks", "dt", "max_overlap_d", "output_dir")


def last_file(pattern):
    files = sorted(glob.glob(pattern))
    return files[-1] if files else None


def n_bodies_of(run_dir):
    xmf = last_file(os.path.join(run_dir, "snapshots", "snap_*.xmf"))
    if xmf:
        with open(xmf, errors="replace") as f:
            m = re.search(r"n_bodies=(\d+)", f.read(4096))
        if m:
            return int(m.group(1))
    return None


def mean_diameter_of(run_dir):
    """2 <r> over the bodies of the last snapshot (h5dump), or None."""
    h5 = last_file(os.path.join(run_dir, "snapshots", "snap_*.h5"))
    if not h5:
        return None
    try:
        text = subprocess.run(["h5dump", "-d", "/bodies/radius", "-y", "-w", "0", h5], capture_output=True, text=True,
                              check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    data = text.split("DATA {", 1)[-1]
    radii = [float(v) for v in re.findall(r"[-+]?\d+\.?\d*(?:[eE][-+]?\d+)?", data)]
    return 2 * sum(radii) / len(radii) if radii else None


def wall_seconds_of(logs):
    for log in logs:
        try:
            with open(log, errors="replace") as f:
                found = re.findall(r"moreau: done, \d+ steps in ([0-9.]+) s", f.read())
        except OSError:
            continue
        if found:
            return float(found[-1])
    return None


def campaign_table(cases_path, out_path, width, min_blocks):
    try:
        with open(cases_path) as f:
            cases = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    except OSError as e:
        die(f"{cases_path}: {e}")
    if not cases:
        die(f"{cases_path} has no cases")
    campaign = os.path.splitext(os.path.basename(cases_path))[0]
    runs = os.path.dirname(cases_path)
    rows, missing = [], 0
    for fields in cases:
        if len(fields) < 4 or len(fields) % 2 or fields[1] != "inertial_number":
            die(f"{cases_path}: '{' '.join(fields)}' is not a case of a campaign over inertial_number")
        index, _, value, run_dir = fields[:4]
        extra = dict(zip(fields[4::2], fields[5::2]))
        try:
            inertial = float(value)
        except ValueError:
            die(f"{cases_path}: inertial number '{value}' is not a number")
        row = {"I_target": value, "output_dir": run_dir}
        ts = os.path.join(run_dir, "timeseries.csv")
        try:
            with open(ts, newline="") as f:
                raw = list(csv.DictReader(f))
            if not raw:
                raise ValueError("no rows")
            s = analyse([{c: float(r[c]) for c in NEEDED} for r in raw], inertial, width, min_blocks)
        except (OSError, KeyError, TypeError, ValueError) as e:
            print(f"steady_state: case {index} (I = {value}): {ts}: {e}", file=sys.stderr)
            missing = 1
            rows.append(row)
            continue
        d = mean_diameter_of(run_dir)
        wall = wall_seconds_of([run_dir + ".out", os.path.join(runs, f"{campaign}_{index}.out")])
        row.update({k: f"{s[k]:.6g}" for k in ("I_measured", "mu", "mu_err", "phi", "phi_err", "strain")})
        row.update({"steady_from": "" if s["steady_from"] is None else f"{s['steady_from']:g}",
                    "n_bodies": n_bodies_of(run_dir) or "", "wall_seconds": "" if wall is None else f"{wall:.1f}",
                    "steady": int(s["steady"]), "blocks": s["blocks"], "dt": extra.get("dt", ""),
                    "max_overlap_d": "" if d is None else f"{s['max_overlap'] / d:.4f}"})
        rows.append(row)
    with open(out_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    with open(out_path) as f:
        sys.stdout.write(f.read())
    return missing


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("timeseries", nargs="?")
    parser.add_argument("--inertial_number", type=float, help="the run's -inertial_number")
    parser.add_argument("--cases", help="a campaign's cases file: write its table (-o) instead")
    parser.add_argument("-o", dest="output", help="the table written with --cases")
    parser.add_argument("--block", type=float, default=1.0, help="strain per block (default 1)")
    parser.add_argument("--min_blocks", type=int, default=3, help="fewest blocks in a steady part (default 3)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not args.block > 0:
        die("--block must be positive")
    if args.min_blocks < 2:
        die("--min_blocks must be at least 2")
    if args.cases:
        if not args.output or args.timeseries:
            die("--cases takes -o TABLE.csv and no time series")
        sys.exit(campaign_table(args.cases, args.output, args.block, args.min_blocks))
    if not args.timeseries:
        die("no time series given (or --cases)")
    if args.inertial_number is None or not args.inertial_number > 0:
        die("--inertial_number must be positive")
    raw = read_rows(args.timeseries, "steady_state")
    missing = [c for c in NEEDED if c not in raw[0]]
    if missing:
        die(f"{args.timeseries} has no column {missing[0]} (not a pressure-controlled shear run's time series)")
    try:
        rows = [{c: float(r[c]) for c in NEEDED} for r in raw]
    except (TypeError, ValueError):
        die(f"{args.timeseries}: a value of {', '.join(NEEDED)} is not a number")
    try:
        out = analyse(rows, args.inertial_number, args.block, args.min_blocks)
    except ValueError as e:
        die(f"{args.timeseries}: {e}")
    if args.json:
        json.dump(out, sys.stdout)
        print()
        return
    print(f"{'strain':>7} {'rows':>5} {'mu':>8} {'phi':>8} {'sigma_yy':>10}")
    for w in out["windows"]:
        print(f"{w['strain']:7.2f} {w['rows']:5d} {w['friction']:8.4f} {w['solid_fraction']:8.4f} {w['normal_stress']:10.4g}")
    where = f"steady from strain {out['steady_from']:g}" if out["steady"] else "NOT STEADY (last blocks shown)"
    print(f"{where}: {out['blocks']} blocks, mu {out['mu']:.4f} +- {out['mu_err']:.4f}, phi {out['phi']:.4f} +- "
          f"{out['phi_err']:.4f}, I {out['I_measured']:.4g} (target {out['I_target']:g})")


if __name__ == "__main__":
    main()
