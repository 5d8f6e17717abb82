"""Shared parts of moreau's plotting scripts (tools/plot_*.py).

Every script reports bad input as one line `<script>: error: ...` on
standard error and exits with 2 (argparse's usage errors included), draws
with matplotlib's Agg backend (no display needed) and prints the path of the
PNG it wrote.
"""
import argparse
import csv
import os
import sys

PROG = os.path.splitext(os.path.basename(sys.argv[0]))[0]


def fail(message):
    print(f"{PROG}: error: {message}", file=sys.stderr)
    sys.exit(2)


try:
    import numpy as np
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError as e:
    fail(f"Python module {e.name or e} is missing "
         "(Debian: apt-get install python3-numpy python3-matplotlib python3-h5py)")


class Parser(argparse.ArgumentParser):
    """argparse with its errors on one line (argparse prints the usage first)."""

    def __init__(self, doc):
        super().__init__(prog=PROG, description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)

    def error(self, message):
        fail(message)


def read_csv(path):
    """The header and the rows of a CSV file of numbers, as (names, array
    of shape rows x columns); blank lines are skipped."""
    try:
        with open(path, newline="") as f:
            lines = [(i + 1, row) for i, row in enumerate(csv.reader(f)) if row and any(c.strip() for c in row)]
    except OSError as e:
        fail(f"{path}: cannot read ({e.strerror or e})")
    except (UnicodeDecodeError, csv.Error):
        fail(f"{path}: not a CSV text file")
    if not lines:
        fail(f"{path}: empty file (expected a header line of column names)")
    names = [c.strip() for c in lines[0][1]]
    if any(not n or not (n[0].isalpha() or n[0] == "_") for n in names) or len(set(names)) != len(names):
        fail(f"{path}:{lines[0][0]}: not a header line of distinct column names")
    rows = []
    for lineno, row in lines[1:]:
        if len(row) != len(names):
            fail(f"{path}:{lineno}: {len(row)} values, expected {len(names)} (one per column)")
        try:
            rows.append([float(c) for c in row])
        except ValueError:
            fail(f"{path}:{lineno}: not a row of numbers")
    if not rows:
        fail(f"{path}: no data rows")
    return names, np.array(rows)


def require_columns(path, names, wanted):
    missing = [c for c in wanted if c not in names]
    if missing:
        fail(f"{path}: no column {', '.join(missing)} (columns: {','.join(names)})")


def default_png(inputs, name_for_several):
    """Where a PNG goes without -o: next to a single input, with .png for its
    extension; for several inputs, name_for_several in the first one's
    folder."""
    if len(inputs) == 1:
        return os.path.splitext(inputs[0])[0] + ".png"
    return os.path.join(os.path.dirname(inputs[0]), name_for_several)


def save(fig, path):
    """Writes fig as a PNG at path (creating its folders) and prints path."""
    try:
        if os.path.dirname(path):
            os.makedirs(os.path.dirname(path), exist_ok=True)
        fig.savefig(path, format="png", dpi=150, bbox_inches="tight")
    except OSError as e:
        fail(f"{path}: cannot write ({e.strerror or e})")
    plt.close(fig)
    print(path)
