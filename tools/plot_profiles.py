#!/usr/bin/env python3
"""Profiles across the gradient axis (profiles/profile_<step>.csv) as a PNG.

A profile file has a header line and one row per bin, with the columns
bin,y_lo,y_hi,y,solid_fraction,vx,vy,vz,spin,sxx,syy,sxy,bodies (3D: spin
becomes wx,wy,wz and szz,sxz,syz are added). The columns present are drawn
against the bin centre y (or (y_lo + y_hi)/2 without y), y vertical, in
panels: velocity (vx, vy, vz), solid fraction, spin (2D) or angular
velocity (3D: wx, wy, wz), normal stress (sxx, syy, szz), shear stress (sxy,
sxz, syz), and a panel for each other column but bin, y_lo, y_hi and bodies.

Several files are overlaid (one colour per file), or with --mean averaged
bin by bin (the files must have the same columns and bins), with a band of
one standard deviation between the files.

  python3 tools/plot_profiles.py out/profiles/profile_*.csv --mean -o profile.png
"""
import os

import moreau_plots as mp
from moreau_plots import fail, np, plt

PANELS = [("velocity", ["vx", "vy", "vz"]), ("solid fraction", ["solid_fraction"]),
          ("spin", ["spin"]), ("angular velocity", ["wx", "wy", "wz"]), ("normal stress", ["sxx", "syy", "szz"]),
          ("shear stress", ["sxy", "sxz", "syz"])]
NOT_DRAWN = {"bin", "y_lo", "y_hi", "y", "bodies"}
# One line style per column of a panel (colours tell the files apart).
STYLES = ["-", "--", ":"]


def read_profile(path):
    """{column: values} of a profile file, y included."""
    names, data = mp.read_csv(path)
    cols = {n: data[:, i] for i, n in enumerate(names)}
    if "y" not in cols:
        if "y_lo" not in cols or "y_hi" not in cols:
            fail(f"{path}: no column y (nor y_lo and y_hi): not a profile file")
        cols["y"] = 0.5 * (cols["y_lo"] + cols["y_hi"])
    if not set(cols) - NOT_DRAWN:
        fail(f"{path}: no column to draw besides {','.join(names)}")
    return cols


def mean_profile(paths, profiles):
    """The bin-by-bin mean over the files and the standard deviation between
    them, as two {column: values}."""
    first = profiles[0]
    for path, p in zip(paths[1:], profiles[1:]):
        if set(p) != set(first):
            fail(f"--mean: {path} has not the columns of {paths[0]}")
        if len(p["y"]) != len(first["y"]):
            fail(f"--mean: {path} has {len(p['y'])} bins, {paths[0]} {len(first['y'])}")
        if "bin" in p and np.any(p["bin"] != first["bin"]):
            fail(f"--mean: {path} has not the bins of {paths[0]}")
    mean = {c: np.mean([p[c] for p in profiles], axis=0) for c in first}
    std = {c: np.std([p[c] for p in profiles], axis=0) for c in first}
    return mean, std


def panels(columns):
    """(title, columns) of the panels for the columns present."""
    out = [(title, [c for c in cols if c in columns]) for title, cols in PANELS]
    known = {c for _, cols in PANELS for c in cols} | NOT_DRAWN
    out += [(c, [c]) for c in sorted(columns - known)]
    return [(t, cs) for t, cs in out if cs]


def main():
    parser = mp.Parser(__doc__)
    parser.add_argument("profiles", nargs="+", help="profile CSV files")
    parser.add_argument("--mean", action="store_true", help="average the files bin by bin")
    parser.add_argument("-o", dest="output", help="PNG to write (default: next to a single file, with .png; "
                        "profiles.png beside the first of several)")
    args = parser.parse_args()
    profiles = [read_profile(p) for p in args.profiles]
    columns = set().union(*profiles)
    layout = panels(columns)
    ncols = min(len(layout), 4)
    nrows = -(-len(layout) // ncols)
    fig, axes = plt.subplots(nrows, ncols, sharey=True, squeeze=False, figsize=(3.2 * ncols + 1.0, 5.0 * nrows + 0.5))
    for ax in axes.flat[len(layout):]:
        ax.set_visible(False)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    if args.mean:
        mean, std = mean_profile(args.profiles, profiles)
        curves = [(f"mean of {len(profiles)} files", mean, std)]
    else:
        curves = [(os.path.basename(path), p, None) for path, p in zip(args.profiles, profiles)]
    for ax, (title, cols) in zip(axes.flat, layout):
        for k, (label, p, sd) in enumerate(curves):
            colour = colours[k % len(colours)]
            for j, c in enumerate(cols):
                if c not in p:
                    continue
                ax.plot(p[c], p["y"], color=colour, ls=STYLES[j], lw=1.2)
                if sd is not None and len(profiles) > 1:
                    ax.fill_betweenx(p["y"], p[c] - sd[c], p[c] + sd[c], color=colour, alpha=0.2, lw=0)
        ax.set_title(title, fontsize=10)
        ax.grid(alpha=0.3)
        if len(cols) > 1:
            ax.legend([plt.Line2D([], [], color="k", ls=STYLES[j]) for j in range(len(cols))], cols, fontsize=7)
    for ax in axes[:, 0]:
        ax.set_ylabel("y")
    handles = [plt.Line2D([], [], color=colours[k % len(colours)]) for k in range(len(curves))]
    fig.legend(handles, [label for label, _, _ in curves], loc="lower center", ncol=min(len(curves), 4), fontsize=7,
               bbox_to_anchor=(0.5, 1.0))
    fig.tight_layout()
    mp.save(fig, args.output or mp.default_png(args.profiles, "profiles.png"))


if __name__ == "__main__":
    main()
