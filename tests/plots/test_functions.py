"""The computations of the plotting scripts against hand values.

  python3 test_functions.py TOOLS RUNS

TOOLS is the repository's tools/ folder, RUNS the work folder of runs.sh.
Checks: the exponential fit above the mean (exact on the bin means of
exp(-f)), the bin-by-bin mean and spread of profiles, the profile panels of
the 2D and 3D columns, the contact line widths f_n/<f_n>, the default
time-series columns of a walled and of a sheared run, and the box of a
snapshot: from its attributes (its lengths are the time series' box_x,
box_y at that step) and, for a snapshot without them (as older versions
wrote), from the checkpoint (the same lengths), from the walls, or the
bodies' bounding box.
"""
import glob
import math
import os
import sys
import types

tools, runs = sys.argv[1], sys.argv[2]
sys.path.insert(0, tools)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import moreau_plots  # noqa: E402
import plot_force_pdf  # noqa: E402
import plot_forces  # noqa: E402
import plot_profiles  # noqa: E402
import plot_timeseries  # noqa: E402
import synthetic  # noqa: E402

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def close(a, b, tol=1e-12):
    return np.allclose(a, b, rtol=tol, atol=tol)


# Exponential fit: bins of 0.2 on [0, 5); the 20 bins from f = 1 on.
_, rows = synthetic.pdf(0.2, 25)
lo, hi, pdf, count = (np.array(c, dtype=float) for c in zip(*rows))
a, beta, n = plot_force_pdf.exponential_fit(lo, hi, pdf, count)
check(close(a, math.sinh(0.1) / 0.1) and close(beta, 1.0) and n == 20,
      f"fit of exp(-f): A = {a!r} (sinh(0.1)/0.1), beta = {beta!r} (1), {n} bins (20)")
below = pdf.copy()
below[lo < 1] *= 3
check(plot_force_pdf.exponential_fit(lo, hi, below, count)[:2] == (a, beta), "the bins below the mean do not count")
check(plot_force_pdf.exponential_fit(lo[:6], hi[:6], pdf[:6], count[:6]) is None, "no fit with one bin above the mean")

# Mean of the profiles of steps 100, 200, 300: vx is 2 (y - 0.5) + step/100,
# so the mean adds 2 and the spread is sqrt(2/3); the solid fraction's
# spread is sqrt(2/3) / 100.
profiles = []
for step in (100, 200, 300):
    names, rows = synthetic.profile(2, step)
    profiles.append({c: np.array(v, dtype=float) for c, v in zip(names, zip(*rows))})
mean, std = plot_profiles.mean_profile(["a", "b", "c"], profiles)
y = profiles[0]["y"]
check(close(mean["vx"], 2 * (y - 0.5) + 2) and close(std["vx"], math.sqrt(2 / 3)), "mean and spread of vx")
check(close(mean["solid_fraction"], 0.82 - 0.05 * np.sin(np.pi * y))
      and close(std["solid_fraction"], math.sqrt(2 / 3) / 100), "mean and spread of the solid fraction")
check(close(mean["y"], y) and close(std["sxy"], 0.0), "y and the constant columns unchanged")

# Panels of the documented 2D and 3D columns, and of an unknown column.
p2 = plot_profiles.panels(set(synthetic.profile(2, 0)[0]))
check(p2 == [("velocity", ["vx", "vy", "vz"]), ("solid fraction", ["solid_fraction"]), ("spin", ["spin"]),
             ("normal stress", ["sxx", "syy"]), ("shear stress", ["sxy"])], f"2D panels {p2}")
p3 = plot_profiles.panels(set(synthetic.profile(3, 0)[0]) | {"temperature"})
check(p3 == [("velocity", ["vx", "vy", "vz"]), ("solid fraction", ["solid_fraction"]),
             ("angular velocity", ["wx", "wy", "wz"]), ("normal stress", ["sxx", "syy", "szz"]),
             ("shear stress", ["sxy", "sxz", "syz"]), ("temperature", ["temperature"])], f"3D panels {p3}")

# Contact widths: <f_n> = 2 over the three loaded contacts.
loaded, widths, mean_f = plot_forces.contact_widths(np.array([0.0, 1.0, 3.0, 0.0, 2.0]), 1.5)
check(list(loaded) == [False, True, True, False, True] and mean_f == 2.0 and close(widths, [0.75, 2.25, 1.5]),
      f"contact widths {widths} (0.75, 2.25, 1.5)")

# Default time-series columns.
names, data = moreau_plots.read_csv(f"{runs}/dep/timeseries.csv")
check(plot_timeseries.default_columns(names, data) == ("time", ["kinetic_energy", "contacts"]), "walled run's defaults")
names, data = moreau_plots.read_csv(f"{runs}/shear/timeseries.csv")
check(plot_timeseries.default_columns(names, data) == ("strain", ["friction", "solid_fraction", "pressure"]),
      "sheared run's defaults")

# The box of a snapshot; old: as if it had no box attributes.
def box(path, given=None, old=False):
    s = plot_forces.read_snapshot(path)
    if old:
        s["box"] = s["periodic"] = None
    x, r = s["bodies/position"][:, :2], s["bodies/radius"]
    args = types.SimpleNamespace(snapshot=path, box=given)
    return plot_forces.find_box(args, s, [0, 1], (x - r[:, None]).min(0), (x + r[:, None]).max(0)), x, r


last = sorted(glob.glob(f"{runs}/shear/snapshots/snap_*.h5"))[-1]
steps = list(data[:, names.index("step")])
for path, old, want in ((last, False, "snapshot"), (last, True, "checkpoint"),
                        (f"{runs}/shear/snapshots/snap_000100.h5", False, "snapshot")):
    (lo, hi, periodic, estimated, source), _, _ = box(path, old=old)
    check(source == want and periodic == [True, True] and not estimated, f"sheared cell's box: {source} ({want})")
    row = data[steps.index(int(path[-9:-3]))]
    check(close(np.subtract(hi, lo), [row[names.index("box_x")], row[names.index("box_y")]]),
          f"its lengths {np.subtract(hi, lo)} are the time series' box_x, box_y at step {int(row[0])}")
(lo, hi, periodic, estimated, source), x, r = box(f"{runs}/shear/snapshots/snap_000100.h5", old=True)
check(estimated and close(lo, (x - r[:, None]).min(0)) and close(hi, (x + r[:, None]).max(0)),
      "no box attributes, no checkpoint, no walls: the bodies' bounding box")
for old in (False, True):
    check(box(f"{runs}/shear/snapshots/snap_000100.h5", "0,0,2,0.5", old)[0] ==
          ([0, 0], [2, 0.5], [True, True], False, "--box"), "--box")
# The default 2D box 0,0,2,0.5 is walled.
for step, old, want in ((400, False, "snapshot"), (200, False, "snapshot"), (400, True, "checkpoint"),
                        (200, True, "walls")):
    lo, hi, periodic, estimated, source = box(f"{runs}/dep/snapshots/snap_{step:06d}.h5", old=old)[0]
    check(source == want and close(lo, [0, 0]) and close(hi, [2, 0.5]) and periodic == [False, False] and not estimated,
          f"deposition at step {step}: box from the {source} ({want})")

sys.exit(1 if failures else 0)
