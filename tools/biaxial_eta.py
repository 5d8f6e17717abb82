#!/usr/bin/python3
"""Cohesion against nonconvexity (seed 003 Figs 8, 10 and 14) from several
tools/biaxial.sh campaigns.

    tools/biaxial_eta.py OUT ETA:RUNS [ETA:RUNS ...]

Each RUNS is a campaign directory with its fit.txt; several campaigns may
share one eta (samples of other seeds). Writes OUT.csv (one row per
campaign: eta, phi, c, c^u, sigma_yy^rupt) and OUT.png (phi, and c and c^u
against eta, each sample a point and the mean of each eta a line).
"""
import csv
import os
import sys


def read_fit(path):
    fit = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 2:
                fit[parts[0]] = float(parts[1])
    for key in ("phi_deg", "c", "c_unconfined", "sigma_yy_rupture"):
        if key not in fit:
            sys.exit(f"biaxial_eta.py: error: {path} has no {key} (a campaign without an unconfined run?)")
    return fit


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: biaxial_eta.py OUT ETA:RUNS [ETA:RUNS ...]")
    out, rows = sys.argv[1], []
    for arg in sys.argv[2:]:
        eta, sep, runs = arg.partition(":")
        try:
            eta = float(eta)
        except ValueError:
            eta = None
        if not sep or eta is None:
            sys.exit(f"biaxial_eta.py: error: '{arg}' is not ETA:RUNS")
        path = os.path.join(runs, "fit.txt")
        if not os.path.exists(path):
            sys.exit(f"biaxial_eta.py: error: no {path}")
        fit = read_fit(path)
        rows.append({"eta": eta, "runs": runs, "phi_deg": fit["phi_deg"], "c": fit["c"],
                     "c_unconfined": fit["c_unconfined"], "sigma_yy_rupture": fit["sigma_yy_rupture"]})
    rows.sort(key=lambda r: r["eta"])
    with open(out + ".csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    etas = sorted({r["eta"] for r in rows})
    mean = {key: [sum(r[key] for r in rows if r["eta"] == e) / sum(1 for r in rows if r["eta"] == e) for e in etas]
            for key in ("phi_deg", "c", "c_unconfined")}
    for e, phi, c, cu in zip(etas, mean["phi_deg"], mean["c"], mean["c_unconfined"]):
        print(f"eta {e:g}: phi {phi:.1f} deg, c {c:.4g}, c^u {cu:.4g} (mean of "
              f"{sum(1 for r in rows if r['eta'] == e)})")

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(1, 2, figsize=(10, 4))
    ax[0].plot([r["eta"] for r in rows], [r["phi_deg"] for r in rows], "o", color="C0", alpha=0.6)
    ax[0].plot(etas, mean["phi_deg"], "-", color="C0")
    ax[0].set_xlabel("eta")
    ax[0].set_ylabel("phi at the peak (degrees)")
    for key, label, color in (("c", "c (biaxial peaks, Fig 10)", "C1"),
                              ("c_unconfined", "c^u (unconfined, Fig 14)", "C2")):
        ax[1].plot([r["eta"] for r in rows], [r[key] for r in rows], "o", color=color, alpha=0.6)
        ax[1].plot(etas, mean[key], "-", color=color, label=label)
    ax[1].set_xlabel("eta")
    ax[1].set_ylabel("cohesion")
    ax[1].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out + ".png", dpi=120)


if __name__ == "__main__":
    main()
