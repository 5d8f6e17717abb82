"""Synthetic input of the plotting scripts, in the documented formats.

  python3 synthetic.py profile DIM STEP OUT.csv   a profile across y in [0, 1]
  python3 synthetic.py pdf WIDTH BINS OUT.csv     the force PDF exp(-f)

A profile has 10 bins; its values are simple functions of y and the step
(the step shifts vx by step/100 and the solid fraction by step/10000), so
the mean of several files is known by hand. The PDF is the mean of exp(-f)
over each bin [k w, (k + 1) w): e^-c sinh(w/2) / (w/2) at the centre c, an
exponential of rate 1 and prefactor sinh(w/2) / (w/2) exactly; counts are
those of 10000 contacts.
"""
import math
import sys

BINS = 10


def profile(dim, step):
    """The columns and rows of a synthetic profile."""
    names = ["bin", "y_lo", "y_hi", "y", "solid_fraction", "vx", "vy", "vz"]
    names += ["spin"] if dim == 2 else ["wx", "wy", "wz"]
    names += ["sxx", "syy", "sxy"] + (["szz", "sxz", "syz"] if dim == 3 else []) + ["bodies"]
    rows = []
    for k in range(BINS):
        lo, hi = k / BINS, (k + 1) / BINS
        y = 0.5 * (lo + hi)
        v = {"bin": k, "y_lo": lo, "y_hi": hi, "y": y,
             "solid_fraction": 0.8 - 0.05 * math.sin(math.pi * y) + step / 1e4, "vx": 2 * (y - 0.5) + step / 100,
             "vy": 0.0, "vz": 0.0, "spin": -1.0, "wx": 0.0, "wy": 0.0, "wz": -1.0,
             "sxx": -100 + y, "syy": -100.0, "sxy": 40.0, "szz": -90.0, "sxz": 0.0, "syz": 0.0, "bodies": 30}
        rows.append([v[n] for n in names])
    return names, rows


def pdf(width, bins):
    rows = []
    for k in range(bins):
        lo, hi = k * width, (k + 1) * width
        p = (math.exp(-lo) - math.exp(-hi)) / width
        rows.append([lo, hi, p, round(1e4 * p * width)])
    return ["f_lo", "f_hi", "pdf", "count"], rows


def write(path, names, rows):
    with open(path, "w") as f:
        f.write(",".join(names) + "\n")
        for r in rows:
            f.write(",".join(repr(x) for x in r) + "\n")


if __name__ == "__main__":
    if sys.argv[1] == "profile":
        write(sys.argv[4], *profile(int(sys.argv[2]), int(sys.argv[3])))
    else:
        write(sys.argv[4], *pdf(float(sys.argv[2]), int(sys.argv[3])))
