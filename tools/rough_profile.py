#!/usr/bin/env python3
"""Velocity profile and wall balance of a rough-wall shear cell (-rough_walls).

Reads a run's profiles/profile_<step>.csv files from a strain on
(--from), averages them bin by bin, and scales the flow velocity by the
top wall's V (from the snapshot of the last profile: the glued grains of
the top wall move with it) and the height by the gap H (the profile's
extent). Prints, per bin, y/H and vx/V, then: the least-squares line
vx/V = a + b y/H over the core (bins whose centres are within --core of
the middle, as fractions of H: 0.25 takes 0.25 < y/H < 0.75), its slope b
(1 for the imposed mean shear rate V/H), and the slip at each wall, the
line's value at y/H = 0 and 1 - the line's value at 1 (0: no slip).

With --stress, also the balance of the top wall along the gradient: over
the rows up to a snapshot's step S, the mean normal stress on the wall
equals p + M V_y(S) / (A t_S) exactly (M dV_y/dt = A (sigma - p), V_y(0)
= 0; M the wall's mass, -barostat_mass times the free bodies' mass, A the
cross-section), with V_y from that snapshot.

  python3 tools/rough_profile.py out --from 8 [--core 0.25] [--barostat_mass 0.1] [--stress] [-o profile.png]

The PNG (-o) draws vx/V against y/H with the core's line and the linear
profile of a uniform shear, and beside it the friction tau/sigma on the top
wall against strain (rows, and their running mean over one strain unit;
--mu_ref draws a reference line, a dotted line marks --from).
"""
import argparse
import glob
import os

import h5py
import moreau_plots as mp
from moreau_plots import fail, np, plt


def snapshot(run, step):
    """The snapshot of a step: walls, free bodies' mass, glued grains."""
    path = os.path.join(run, "snapshots", f"snap_{step:06d}.h5")
    if not os.path.exists(path):
        fail(f"{path}: no snapshot at the step of the profile (profile every snapshot: the default)")
    with h5py.File(path, "r") as f:
        inv_mass = f["bodies/inv_mass"][:]
        glued = f["bodies/glued"][:]
        return {"wall_velocity": f["walls/velocity"][:], "wall_normal": f["walls/normal"][:],
                "box": f["box/vertices"][:], "mass": np.sum(1.0 / inv_mass[(inv_mass > 0) & (glued == 0)])}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", help="the run's output directory")
    parser.add_argument("--from", dest="start", type=float, default=0.0, help="first strain of the average")
    parser.add_argument("--core", type=float, default=0.25, help="core: y/H in (core, 1 - core)")
    parser.add_argument("--stress", action="store_true", help="the top wall's normal stress balance")
    parser.add_argument("--barostat_mass", type=float, default=1.0, help="the run's -barostat_mass")
    parser.add_argument("--mu_ref", type=float, help="a friction drawn as a line (e.g. the Lees-Edwards cell's)")
    parser.add_argument("-o", dest="output", help="PNG: vx/V against y/H, and the friction against strain")
    args = parser.parse_args()

    names, rows = mp.read_csv(os.path.join(args.run, "timeseries.csv"))
    ts = {n: rows[:, i] for i, n in enumerate(names)}
    if "strain" not in ts:
        fail(f"{args.run}/timeseries.csv: no strain column: not a sheared cell")
    files = sorted(glob.glob(os.path.join(args.run, "profiles", "profile_*.csv")))
    steps = [int(os.path.basename(p)[8:-4]) for p in files]
    # A profile file holds the samples since the one before: keep those
    # whose whole span is past the strain --from.
    first = np.interp(args.start, ts["strain"], ts["step"])
    kept = [(s, p) for s, p, prev in zip(steps, files, [0] + steps) if prev >= first]
    if len(kept) < 2:
        fail(f"fewer than 2 profiles past strain {args.start} ({len(files)} in all)")
    prof = []
    for _, p in kept:
        n, d = mp.read_csv(p)
        prof.append({k: d[:, i] for i, k in enumerate(n)})
    axis = [k for k in ("y", "x", "z") if k in prof[0]][0]
    y = prof[0][axis]
    vx = np.mean([p["vx"] for p in prof], axis=0)
    sd = np.std([p["vx"] for p in prof], axis=0)
    width = y[1] - y[0]
    lo, height = y[0] - 0.5 * width, len(y) * width
    snap = snapshot(args.run, kept[-1][0])
    top = int(np.argmin(snap["wall_normal"][:, 1]))
    v_top = snap["wall_velocity"][top, 0]
    eta, u = (y - lo) / height, vx / v_top
    core = (eta > args.core) & (eta < 1 - args.core)
    b, a = np.polyfit(eta[core], u[core], 1)
    print(f"profiles {len(kept)} (steps {kept[0][0]}..{kept[-1][0]}), V = {v_top:.4g}, H = {height:.4g}")
    print("  y/H    vx/V   sd/V")
    for e, uu, s in zip(eta, u, sd / v_top):
        print(f"{e:6.3f} {uu:7.4f} {s:6.4f}")
    print(f"core {args.core:g} < y/H < {1 - args.core:g}: vx/V = {a:.4f} + {b:.4f} y/H; "
          f"slip at the bottom {a:.4f}, at the top {1 - (a + b):.4f}")
    print(f"outer bins: bottom vx/V {u[0]:.4f}, top {u[-1]:.4f}")

    if args.stress:
        # Rows are means over their steps: the mean of the rows up to S is
        # the mean over steps 1..S when every row has as many steps.
        step = kept[-1][0]
        upto = ts["step"] <= step
        t_s = ts["time"][upto][-1]
        # The cross-section: the box's extent along every axis but the
        # gradient (y; z only in 3D, where the profile has vz).
        area = np.ptp(snap["box"][:, 0]) * (np.ptp(snap["box"][:, 2]) if "vz" in prof[0] else 1.0)
        mass = args.barostat_mass * snap["mass"]
        vy = snap["wall_velocity"][top, 1]
        p = ts["pressure_target"][0]
        sigma = np.mean(ts["normal_stress"][upto])
        print(f"top wall, steps 1..{step} (t = {t_s:.4g}): mean normal stress {sigma:.4f}, p {p:g}, "
              f"p + M V_y / (A t) = {p + mass * vy / (area * t_s):.4f} (M {mass:.4g}, V_y {vy:.4g}, A {area:.4g})")

    if args.output:
        fig, (ax, bx) = plt.subplots(1, 2, figsize=(7, 3), gridspec_kw={"width_ratios": [1, 1.4]})
        ax.plot(u, eta, "o", ms=4, label="moreau")
        ax.plot([0, 1], [0, 1], "k:", lw=1, label="uniform shear")
        ee = np.array([args.core, 1 - args.core])
        ax.plot(a + b * ee, ee, "r-", lw=1, label=f"core fit, slope {b:.2f}")
        ax.set_xlabel("$v_x / V$")
        ax.set_ylabel("$y / H$")
        ax.legend(fontsize=8, loc="lower right")
        # The friction on the top wall, a running mean over one strain unit
        # (rows where the wall touched nothing, sigma = 0, left out).
        keep = ts["normal_stress"] > 0
        strain, mu = ts["strain"][keep], ts["shear_stress"][keep] / ts["normal_stress"][keep]
        n = max(1, int(round(1.0 / np.median(np.diff(strain))))) if len(strain) > 1 else 1
        bx.plot(strain, mu, color="0.8", lw=0.5, label="rows")
        # A run shorter than one strain unit has no running mean to draw.
        if len(mu) >= n:
            bx.plot(strain[n - 1:], np.convolve(mu, np.ones(n) / n, "valid"), "b-", lw=1.2, label="mean over 1 strain")
        if args.mu_ref is not None:
            bx.axhline(args.mu_ref, color="k", ls="--", lw=1, label=f"Lees-Edwards cell, {args.mu_ref:g}")
        bx.axvline(args.start, color="r", ls=":", lw=1)
        bx.set_ylim(0, 1)
        bx.set_xlabel("strain")
        bx.set_ylabel(r"$\tau / \sigma$ (top wall)")
        bx.legend(fontsize=8, loc="upper right")
        fig.tight_layout()
        mp.save(fig, args.output)

if __name__ == "__main__":
    main()
