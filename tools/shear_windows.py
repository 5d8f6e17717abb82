#!/usr/bin/env python3
"""Steady-state figures of a sheared periodic cell from moreau's timeseries.csv.

Splits the rows with strain >= --from into windows of --window strain and
prints, per window and over all of them, the mean and standard deviation of
the friction tau / sigma_gg (the ratio of the window's means of the columns
shear_stress and normal_stress), the solid fraction and the pressure; then
the mean of the window means and their spread. With --json, one JSON object
on stdout instead (for scripts and tests).

  python3 tools/shear_windows.py out/timeseries.csv --from 2 --window 1
"""
import argparse
import csv
import json
import math
import sys


def mean_std(values):
    n = len(values)
    if n == 0:
        return float("nan"), float("nan")
    m = sum(values) / n
    var = sum((v - m) ** 2 for v in values) / n
    return m, math.sqrt(var)


def read_rows(path, tool):
    """The rows of a time series with a strain column; one error line and exit 2 otherwise."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        print(f"{tool}: error: {path}: {e}", file=sys.stderr)
        sys.exit(2)
    if not rows or "strain" not in rows[0]:
        print(f"{tool}: error: {path} has no strain column or no rows (not a periodic cell's time series)", file=sys.stderr)
        sys.exit(2)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("timeseries")
    parser.add_argument("--from", dest="start", type=float, default=2.0, help="first strain taken (default 2)")
    parser.add_argument("--window", type=float, default=1.0, help="strain per window (default 1)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = read_rows(args.timeseries, "shear_windows")
    windows = {}
    for r in rows:
        strain = float(r["strain"])
        if strain < args.start:
            continue
        k = int((strain - args.start) // args.window)
        windows.setdefault(k, []).append(r)
    if not windows:
        sys.exit(f"shear_windows: error: no row reaches strain {args.start}")
    out = {"windows": []}
    for k in sorted(windows):
        w = windows[k]
        tau, _ = mean_std([float(r["shear_stress"]) for r in w])
        sgg, _ = mean_std([float(r["normal_stress"]) for r in w])
        phi, phi_sd = mean_std([float(r["solid_fraction"]) for r in w])
        p, p_sd = mean_std([float(r["pressure"]) for r in w])
        out["windows"].append({"strain": args.start + k * args.window, "rows": len(w), "friction": tau / sgg,
                               "solid_fraction": phi, "solid_fraction_sd": phi_sd, "pressure": p,
                               "pressure_sd": p_sd, "normal_stress": sgg})
    for key in ("friction", "solid_fraction", "pressure"):
        m, sd = mean_std([w[key] for w in out["windows"]])
        out[key] = m
        out[key + "_sd"] = sd  # spread of the window means
    if args.json:
        json.dump(out, sys.stdout)
        print()
        return
    print(f"{'strain':>8} {'rows':>5} {'friction':>9} {'phi':>8} {'pressure':>10}")
    for w in out["windows"]:
        print(f"{w['strain']:8.2f} {w['rows']:5d} {w['friction']:9.4f} {w['solid_fraction']:8.4f} {w['pressure']:10.4g}")
    print(f"{'all':>8} {len(out['windows']):5d} {out['friction']:9.4f} {out['solid_fraction']:8.4f} "
          f"{out['pressure']:10.4g}   (window means: sd {out['friction_sd']:.4f}, {out['solid_fraction_sd']:.4f}, "
          f"{out['pressure_sd']:.4g})")


if __name__ == "__main__":
    main()
