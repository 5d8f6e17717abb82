#!/usr/bin/env python3
"""Sweeps to equal accuracy of sweep orders on one rank (issue 14, item 1).

    order_accuracy.py REF_DIR BASE_DIR OTHER_DIR...

Each DIR is an equal_accuracy.sh output run on one rank with fixed sweep
counts (-ranks 1 -sweeps ...), each with its own -nlgs_order/-nlgs_block;
REF_DIR holds the reference forces (forces/ref.csv). For every sweep count n
of BASE_DIR (the random order), the error the base has after n sweeps and
the sweeps each other order needs to reach it (log error linear in log
sweeps between its bracketing runs), as a ratio to n."""
import csv
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from equal_accuracy import errors, forces, sweeps_to  # noqa: E402


def curve(d, ref):
    pts = []
    for name in os.listdir(os.path.join(d, "forces")):
        m = re.fullmatch(r"metis_fixed_(\d+)_p1_s1\.csv", name)
        if m:
            pts.append((int(m.group(1)), errors(forces(os.path.join(d, "forces", name)), ref)[0]))
    return sorted(pts)


def main():
    if len(sys.argv) < 4:
        print("usage: order_accuracy.py REF_DIR BASE_DIR OTHER_DIR...", file=sys.stderr)
        sys.exit(2)
    ref = forces(os.path.join(sys.argv[1], "forces", "ref.csv"))
    base = curve(sys.argv[2], ref)
    others = [(d, curve(d, ref)) for d in sys.argv[3:]]
    print("| sweeps (base) | base error | " + " | ".join(os.path.basename(d.rstrip("/")) for d, _ in others) + " |")
    print("|---" * (2 + len(others)) + "|")
    for n, e in base:
        cells = []
        for _, pts in others:
            s = sweeps_to(pts, e)
            cells.append(f"{s / n:.3f}" if s else "-")
        print(f"| {n} | {e:.3g} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
