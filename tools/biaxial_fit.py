#!/usr/bin/python3
"""The peak states and the Mohr-Coulomb fit of a biaxial campaign
(tools/biaxial.sh; Saint-Cyr et al. 2013, section III).

For each run RUNS/p_<P>/timeseries.csv: the axial strain eps = (H0 - H) / H0
from the top wall (the last wall: wall3_y, or wall2_y or wall1_y when
unconfined), the volumetric strain from the packing fraction,
eps_v = phi0 / phi - 1 (dilation > 0), and q/p, p, q from the analysis
columns. The peak state of a confined run is the row of largest q after the
start (axial strain above 0.5%: the wall's start is an impulse), q and p
averaged over that row and its two neighbours on each side; the fit
of eq 5, q = p sin(phi) + c cos(phi), is the least-squares line through the
peaks of the confined runs. An unconfined run (P = 0) gives the rupture
stress sigma_yy^rupt and eq 6, c^u = sigma_yy^rupt (1 - sin phi) / (2 cos
phi):
- strain-controlled: its largest sigma_yy (the analysis stress) after 0.5%
  axial strain;
- stress-controlled (the top wall's force sigma0 W (1 + load_rate t)): the
  applied stress when the axial strain first passes --rupture_strain (1%).
  Rigid grains do not deform while the sample holds; it settles by a few
  0.1% once the side walls go, then holds, creeps and breaks within a few
  per cent of stress, its strain running away (the choice of strain moves
  sigma_yy^rupt by about that much: the strains 0.5% and 2% are written
  too).

Writes RUNS/biaxial.csv, RUNS/fit.txt and RUNS/biaxial.png.
"""
import argparse
import csv
import math
import os
import sys


def read_run(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"biaxial_fit.py: error: {path} has no rows")
    # The top wall is the last one (unconfined runs have fewer side walls).
    walls = [int(k[4:-2]) for k in rows[0] if k.startswith("wall") and k.endswith("_y") and k[4:-2].isdigit()]
    if not walls:
        sys.exit(f"biaxial_fit.py: error: {path} has no wall columns")
    top = f"wall{max(walls)}_y"
    h0 = float(rows[0][top])
    phi0 = float(rows[0]["packing_fraction"])
    run = {"t": [], "eps": [], "eps_v": [], "q_over_p": [], "p": [], "q": [], "syy": []}
    for r in rows:
        run["eps"].append((h0 - float(r[top])) / h0)
        run["eps_v"].append(phi0 / float(r["packing_fraction"]) - 1.0)
        run["q_over_p"].append(float(r["q_over_p"]))
        run["p"].append(float(r["p"]))
        run["q"].append(float(r["q"]))
        run["syy"].append(float(r["stress_yy"]))
        run["t"].append(float(r["time"]))
    return run


def running_mean(x, half):
    """Mean over the window [i - half, i + half], clipped at the ends."""
    out = []
    for i in range(len(x)):
        w = x[max(0, i - half):i + half + 1]
        out.append(sum(w) / len(w))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs")
    ap.add_argument("--pressures", required=True, help="the confining pressures, comma separated")
    ap.add_argument("--unconfined", choices=("stress", "strain"), default="stress",
                    help="how the unconfined run (P = 0) was loaded")
    ap.add_argument("--sigma0", type=float, default=0.0, help="stress-controlled: the initial vertical stress")
    ap.add_argument("--load_rate", type=float, default=0.0, help="stress-controlled: the relative load rate")
    ap.add_argument("--rupture_strain", type=float, default=0.01,
                    help="stress-controlled: the axial strain that marks the rupture")
    ap.add_argument("--no-plot", action="store_true")
    a = ap.parse_args()
    labels = a.pressures.split(",")
    runs = {}
    for label in labels:
        path = os.path.join(a.runs, f"p_{label}", "timeseries.csv")
        if not os.path.exists(path):
            sys.exit(f"biaxial_fit.py: error: no {path}")
        runs[label] = read_run(path)

    table = []
    for label in labels:
        r = runs[label]
        smooth = {key: running_mean(r[key], 2) for key in ("p", "q", "syy")}
        stress_controlled = float(label) == 0 and a.unconfined == "stress"
        rows = [i for i in range(len(r["eps"])) if stress_controlled or r["eps"][i] > 0.005]
        if not rows:
            sys.exit(f"biaxial_fit.py: error: run p_{label} ends before 0.5% axial strain")
        k = max(rows, key=lambda i: smooth["q"][i])
        p, q = smooth["p"][k], smooth["q"][k]
        rupture = {}
        if stress_controlled:
            if not (a.sigma0 > 0 and a.load_rate > 0):
                sys.exit("biaxial_fit.py: error: a stress-controlled run needs --sigma0 and --load_rate")
            for strain in (0.005, a.rupture_strain, 0.02):
                i = next((i for i in rows if r["eps"][i] >= strain), None)
                if i is None:
                    sys.exit(f"biaxial_fit.py: error: the unconfined run did not reach the axial strain {strain:g}: "
                             "it did not break (raise -load_end)")
                rupture[strain] = a.sigma0 * (1 + a.load_rate * r["t"][i])
            sigma_rupt = rupture[a.rupture_strain]
            if rupture[0.005] < 1.05 * a.sigma0:
                sys.exit(f"biaxial_fit.py: error: the unconfined sample broke under sigma0 = {a.sigma0:g} itself "
                         "(0.5% axial strain before the load grew by 5%): give a smaller -sigma0")
        else:
            sigma_rupt = max(smooth["syy"][i] for i in rows)
        table.append({"pressure": float(label), "p_peak": p, "q_peak": q, "q_over_p_peak": q / p if p > 0 else 0.0,
                      "eps_peak": r["eps"][k], "sigma_rupture": sigma_rupt,
                      "sigma_rupture_0.5%": rupture.get(0.005, float("nan")),
                      "sigma_rupture_2%": rupture.get(0.02, float("nan")), "eps_v_end": r["eps_v"][-1]})
    with open(os.path.join(a.runs, "biaxial.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(table[0]))
        w.writeheader()
        w.writerows(table)

    confined = [t for t in table if t["pressure"] > 0]
    n = len(confined)
    if n < 2:
        sys.exit("biaxial_fit.py: error: the fit needs two confined runs")
    mp = sum(t["p_peak"] for t in confined) / n
    mq = sum(t["q_peak"] for t in confined) / n
    sxx = sum((t["p_peak"] - mp) ** 2 for t in confined)
    if sxx <= 0:
        sys.exit("biaxial_fit.py: error: the confined peaks share one p: no fit")
    slope = sum((t["p_peak"] - mp) * (t["q_peak"] - mq) for t in confined) / sxx
    icpt = mq - slope * mp
    if not -1 < slope < 1:
        sys.exit(f"biaxial_fit.py: error: slope {slope:g} is not a sin(phi)")
    phi = math.asin(slope)
    c = icpt / math.cos(phi)
    lines = [f"phi_deg {math.degrees(phi):.4f}", f"sin_phi {slope:.6f}", f"c {c:.6g}"]
    for t in table:
        if t["pressure"] == 0:
            cu = 0.5 * t["sigma_rupture"] * (1 - slope) / math.cos(phi)
            lines.append(f"c_unconfined {cu:.6g}")
            lines.append(f"sigma_yy_rupture {t['sigma_rupture']:.6g}")
            if a.unconfined == "stress":
                lines.append(f"sigma_yy_rupture_0.5% {t['sigma_rupture_0.5%']:.6g}")
                lines.append(f"sigma_yy_rupture_2% {t['sigma_rupture_2%']:.6g}")
    with open(os.path.join(a.runs, "fit.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))

    if a.no_plot:
        return
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(1, 4, figsize=(17, 4))
    for label in labels:
        r = runs[label]
        name = "unconfined" if float(label) == 0 else f"p = {label}"
        ax[0].plot(r["eps"], r["q_over_p"], label=name)
        ax[1].plot(r["eps"], r["eps_v"], label=name)
        # The unconfined run: a stress-controlled sample holds (no strain)
        # until it breaks, so its strain is drawn against the applied load.
        if float(label) == 0 and a.unconfined == "stress":
            ax[3].plot([a.sigma0 * (1 + a.load_rate * t) for t in r["t"]], r["eps"], label="unconfined")
        elif float(label) == 0:
            ax[3].plot(r["syy"], r["eps"], label="unconfined")
    ax[0].set_xlabel("axial strain")
    ax[0].set_ylabel("q / p")
    ax[0].set_ylim(0, 1.5)  # an unconfined sample's p falls to 0 as it breaks up
    ax[1].set_xlabel("axial strain")
    ax[1].set_ylabel("volumetric strain (dilation > 0)")
    ps = [t["p_peak"] for t in confined]
    ax[2].plot(ps, [t["q_peak"] for t in confined], "o", label="peaks")
    xs = [0, max(ps) * 1.1]
    ax[2].plot(xs, [slope * x + icpt for x in xs], "-",
               label=f"q = p sin phi + c cos phi: phi {math.degrees(phi):.1f} deg, c {c:.3g}")
    ax[2].set_xlabel("p")
    ax[2].set_ylabel("q")
    ax[3].set_xlabel("applied sigma_yy" if a.unconfined == "stress" else "sigma_yy of the packing")
    ax[3].set_ylabel("axial strain")
    ax[3].set_ylim(0, 0.03)
    for x in ax:
        x.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(a.runs, "biaxial.png"), dpi=120)


if __name__ == "__main__":
    main()
