#!/usr/bin/env python3
"""mu(I) and phi(I) of a shear campaign, with linear fits.

Reads the table of tools/campaign.sh (tools/steady_state.py --cases: columns
I_measured, mu, mu_err, phi, phi_err, steady, ...), fits

    mu(I)  = mu_1 + b I        phi(I) = phi_max - a I

by least squares weighted by the error bars (weights 1 / err^2) over the
steady cases, prints the constants with their standard errors (from the
weighted normal equations, multiplied by sqrt(chi2 / dof) when that exceeds
1, i.e. when the points scatter more than their error bars say), and draws
both laws against I (log axis) with the fits into a PNG (matplotlib, Agg: no
display needed). Cases flagged not steady are drawn hollow and left out of
the fits; cases without figures (a failed run) are skipped.

  python3 tools/plot_muI.py runs/muI_table.csv -o muI.png [--reference 0.25,1.1,0.82,0.3 --reference_label "..."]

--reference MU1,B,PHIMAX,A draws another pair of laws as dashed lines.
A table it cannot use: one line on stderr, exit 2.
"""
import argparse
import csv
import math
import os
import sys

REQUIRED = ("I_measured", "mu", "mu_err", "phi", "phi_err", "steady")


def die(msg):
    print(f"plot_muI: error: {msg}", file=sys.stderr)
    sys.exit(2)


def weighted_line(x, y, err):
    """Least squares y = c0 + c1 x, weights 1/err^2: (c0, c1, se0, se1, chi2/dof)."""
    w = [1 / e**2 for e in err]
    s, sx, sxx = sum(w), sum(wi * xi for wi, xi in zip(w, x)), sum(wi * xi * xi for wi, xi in zip(w, x))
    sy, sxy = sum(wi * yi for wi, yi in zip(w, y)), sum(wi * xi * yi for wi, xi, yi in zip(w, x, y))
    det = s * sxx - sx * sx
    if not det > 0:
        die("the steady cases do not span two inertial numbers: no line to fit")
    c0 = (sxx * sy - sx * sxy) / det
    c1 = (s * sxy - sx * sy) / det
    dof = len(x) - 2
    chi2 = sum(wi * (yi - c0 - c1 * xi) ** 2 for wi, xi, yi in zip(w, x, y))
    red = chi2 / dof if dof > 0 else float("nan")
    scale = math.sqrt(red) if dof > 0 and red > 1 else 1.0
    return c0, c1, math.sqrt(sxx / det) * scale, math.sqrt(s / det) * scale, red


def read_table(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        die(f"{path}: {e}")
    if not rows:
        die(f"{path} has no rows")
    missing = [c for c in REQUIRED if c not in rows[0]]
    if missing:
        die(f"{path} has no column {missing[0]} (not a table of tools/campaign.sh)")
    points = []
    for n, r in enumerate(rows, start=2):
        if not r["mu"]:
            print(f"plot_muI: line {n}: no figures (run {r.get('output_dir', '?')} failed?), skipped")
            continue
        try:
            p = {c: float(r[c]) for c in REQUIRED}
        except (TypeError, ValueError):
            die(f"{path}, line {n}: a value of {', '.join(REQUIRED)} is not a number")
        if not (p["I_measured"] > 0 and p["mu_err"] >= 0 and p["phi_err"] >= 0):
            die(f"{path}, line {n}: I_measured must be positive and the errors not negative")
        points.append(p)
    return points


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("table")
    parser.add_argument("-o", dest="output", required=True, help="the PNG to write")
    parser.add_argument("--reference", help="MU1,B,PHIMAX,A of laws drawn dashed for comparison")
    parser.add_argument("--reference_label", default="reference")
    args = parser.parse_args()
    try:
        import matplotlib
    except ImportError:
        # Debian's python3-matplotlib belongs to /usr/bin/python3, which another python3 first on PATH
        # (pyenv, a virtualenv) hides: run again with it.
        system = "/usr/bin/python3"
        if os.path.exists(system) and os.path.realpath(sys.executable) != os.path.realpath(system):
            os.execv(system, [system, os.path.abspath(__file__)] + sys.argv[1:])
        die("matplotlib is not installed (Debian: apt-get install python3-matplotlib)")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    ref = None
    if args.reference:
        try:
            ref = [float(v) for v in args.reference.split(",")]
        except ValueError:
            ref = []
        if len(ref) != 4:
            die("--reference wants four numbers MU1,B,PHIMAX,A")
    points = read_table(args.table)
    steady = [p for p in points if p["steady"] == 1]
    if len(steady) < 2:
        die(f"{args.table}: {len(steady)} steady case(s); the fits need 2 or more")
    if any(p["mu_err"] == 0 or p["phi_err"] == 0 for p in steady):
        die(f"{args.table}: a steady case has a zero error bar: the weights are undefined")
    x = [p["I_measured"] for p in steady]
    mu1, b, mu1_se, b_se, mu_red = weighted_line(x, [p["mu"] for p in steady], [p["mu_err"] for p in steady])
    phim, slope, phim_se, slope_se, phi_red = weighted_line(x, [p["phi"] for p in steady],
                                                          [p["phi_err"] for p in steady])
    a, a_se = -slope, slope_se
    print(f"mu(I) = mu_1 + b I: mu_1 = {mu1:.4f} +- {mu1_se:.4f}, b = {b:.3f} +- {b_se:.3f} "
          f"(chi2/dof {mu_red:.2f}, {len(steady)} steady cases)")
    print(f"phi(I) = phi_max - a I: phi_max = {phim:.4f} +- {phim_se:.4f}, a = {a:.3f} +- {a_se:.3f} "
          f"(chi2/dof {phi_red:.2f})")

    lo, hi = min(p["I_measured"] for p in points), max(p["I_measured"] for p in points)
    grid = [lo * (hi / lo) ** (k / 100) for k in range(101)] if hi > lo else [lo]
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.4), dpi=100)
    for ax, key, fit, name in ((axes[0], "mu", lambda i: mu1 + b * i, r"$\mu = \tau/\sigma_{yy}$"),
                               (axes[1], "phi", lambda i: phim - a * i, r"$\phi$")):
        for group, face in ((steady, None), ([p for p in points if p["steady"] != 1], "none")):
            if group:
                ax.errorbar([p["I_measured"] for p in group], [p[key] for p in group],
                            yerr=[p[key + "_err"] for p in group], fmt="o", ms=4, capsize=2, color="C0",
                            mfc=face, label="not steady" if face else "moreau")
        ax.plot(grid, [fit(i) for i in grid], "-", color="C1", label="fit")
        if ref:
            law = (lambda i: ref[0] + ref[1] * i) if key == "mu" else (lambda i: ref[2] - ref[3] * i)
            ax.plot(grid, [law(i) for i in grid], "--", color="C2", label=args.reference_label)
        ax.set_xscale("log")
        ax.set_xlabel("inertial number $I$")
        ax.set_ylabel(name)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8)
    axes[0].set_title(rf"$\mu_1$ = {mu1:.3f}, $b$ = {b:.2f}", fontsize=9)
    axes[1].set_title(rf"$\phi_{{max}}$ = {phim:.3f}, $a$ = {a:.3f}", fontsize=9)
    fig.tight_layout()
    try:
        fig.savefig(args.output)
    except (OSError, ValueError) as e:
        die(f"cannot write {args.output}: {e}")
    print(f"plot_muI: wrote {args.output}")


if __name__ == "__main__":
    main()
