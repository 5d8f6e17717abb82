#!/usr/bin/env python3
"""Columns of moreau's timeseries.csv against time, strain or step.

One panel per column, stacked, sharing the x axis. Without -y: friction,
solid_fraction and pressure for a sheared periodic cell (strain not all 0),
solid_fraction, pressure and kinetic_energy for a periodic cell at rest,
kinetic_energy and contacts otherwise. Without -x: strain for a sheared
cell, time otherwise.

  python3 tools/plot_timeseries.py out/timeseries.csv
  python3 tools/plot_timeseries.py out/timeseries.csv -x step -y iterations,residual -o it.png
"""
import moreau_plots as mp
from moreau_plots import fail, np, plt


def default_columns(names, data):
    sheared = "strain" in names and np.any(data[:, names.index("strain")] != 0)
    if sheared:
        return "strain", ["friction", "solid_fraction", "pressure"]
    if "solid_fraction" in names:
        return "time", ["solid_fraction", "pressure", "kinetic_energy"]
    return "time", ["kinetic_energy", "contacts"]


def main():
    parser = mp.Parser(__doc__)
    parser.add_argument("timeseries", help="a timeseries.csv written by moreau")
    parser.add_argument("-x", choices=["time", "strain", "step"], help="x axis (default: see above)")
    parser.add_argument("-y", help="comma-separated columns, one panel each (default: see above)")
    parser.add_argument("-o", dest="output", help="PNG to write (default: the CSV's path with .png)")
    args = parser.parse_args()
    names, data = mp.read_csv(args.timeseries)
    x, ys = default_columns(names, data)
    if args.x:
        x = args.x
    if args.y is not None:
        ys = [c.strip() for c in args.y.split(",")]
        if not all(ys):
            fail(f"-y {args.y}: empty column name")
    mp.require_columns(args.timeseries, names, [x] + ys)
    fig, axes = plt.subplots(len(ys), 1, sharex=True, squeeze=False, figsize=(7, 1.2 + 2.0 * len(ys)))
    xs = data[:, names.index(x)]
    for ax, col in zip(axes[:, 0], ys):
        ax.plot(xs, data[:, names.index(col)], lw=1.0)
        if col == "pressure" and "pressure_target" in names:
            ax.plot(xs, data[:, names.index("pressure_target")], "k--", lw=0.8, label="pressure_target")
            ax.legend(fontsize=8)
        ax.set_ylabel(col)
        ax.grid(alpha=0.3)
    axes[-1, 0].set_xlabel(x)
    axes[0, 0].set_title(args.timeseries, fontsize=9)
    fig.tight_layout()
    mp.save(fig, args.output or mp.default_png([args.timeseries], None))


if __name__ == "__main__":
    main()
