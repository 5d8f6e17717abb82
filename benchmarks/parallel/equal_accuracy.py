#!/usr/bin/env python3
"""Summary of equal_accuracy.sh: every run's distance to the reference.

    equal_accuracy.py DIR

Reads DIR/runs.csv and DIR/forces/<label>.csv. For each run: the sweeps,
the law residual of its forces, the force error (the 2-norm of f - f_ref
over all contacts, matched by key, over that of f_ref) and the wall error
(the largest difference of a wall's summed normal force from the
reference's, over the largest wall force). Then, per partition and norm,
the sweeps each P needs to reach given force errors, interpolated between
its tolerances (log error linear in sweeps), and their ratio to P = 1: the
sweeps to equal accuracy."""
import csv
import math
import re
import sys


def forces(path):
    out = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            key = (int(row["gid_a"]), int(row["gid_b"]), int(row["point"]))
            out[key] = (float(row["f_n"]), float(row["f_t"]), float(row["f_s"]))
    return out


def walls(fs):
    total = {}
    for (a, b, _), f in fs.items():
        if b < 0:
            total[b] = total.get(b, 0.0) + f[0]
    return total


def errors(fs, ref):
    num = sum(sum((x - y) ** 2 for x, y in zip(fs.get(k, (0, 0, 0)), ref.get(k, (0, 0, 0)))) for k in set(fs) | set(ref))
    den = sum(sum(x * x for x in f) for f in ref.values())
    w, wr = walls(fs), walls(ref)
    if not wr:
        return math.sqrt(num / den), float("nan")
    scale = max(abs(v) for v in wr.values())
    wall = max(abs(w.get(k, 0.0) - wr.get(k, 0.0)) for k in set(w) | set(wr)) / scale
    return math.sqrt(num / den), wall


def sweeps_to(points, target):
    """Sweeps at which the force error reaches target, from (sweeps, error)
    points: log(error) linear between the two bracketing points."""
    points = sorted(points)
    for (s0, e0), (s1, e1) in zip(points, points[1:]):
        if e0 >= target >= e1 and e0 > 0 and e1 > 0 and e0 != e1:
            t = (math.log(e0) - math.log(target)) / (math.log(e0) - math.log(e1))
            return s0 + t * (s1 - s0)
    return None


def main():
    d = sys.argv[1]
    runs = list(csv.DictReader(open(f"{d}/runs.csv")))
    ref = forces(f"{d}/forces/ref.csv")
    rows = []
    print("Reference: 1 rank, law norm; other tightly converged solutions against it:")
    for r in runs:
        fe, we = errors(forces(f"{d}/forces/{r['label']}.csv"), ref)
        m = re.match(r"(\w+?)_(\w+?)_([0-9.e+-]+)_p(\d+)_s(\d+)$", r["label"])
        if not m:
            print(f"  {r['label']:>10}: ranks {r['ranks']:>3} sweeps {r['iterations']:>7} law residual "
                  f"{float(r['law_residual']):.2e} force error {fe:.2e} wall error {we:.2e}")
            continue
        rows.append(dict(part=m[1], norm=m[2], tol=float(m[3]), p=int(m[4]), seed=int(m[5]),
                         sweeps=int(r["iterations"]), law=float(r["law_residual"]), fe=fe, we=we,
                         copies=int(r["interface_copies"])))
    print()
    print(f"{'part':>5} {'norm':>4} {'tol':>7} {'P':>3} {'sweeps':>7} {'/P=1':>6} {'law res':>8} "
          f"{'force err':>9} {'wall err':>8} {'copies':>6}")
    groups = sorted({(r["part"], r["norm"], r["tol"]) for r in rows}, key=lambda g: (g[0], g[1], -g[2]))
    for g in groups:
        sel = sorted((r for r in rows if (r["part"], r["norm"], r["tol"]) == g), key=lambda r: (r["p"], r["seed"]))
        base = [r["sweeps"] for r in sel if r["p"] == min(x["p"] for x in sel)]
        base = sum(base) / len(base)
        for r in sel:
            print(f"{r['part']:>5} {r['norm']:>4} {r['tol']:7.0e} {r['p']:3d} {r['sweeps']:7d} "
                  f"{r['sweeps'] / base:6.3f} {r['law']:8.2e} {r['fe']:9.2e} {r['we']:8.2e} {r['copies']:6d}")
        print()
    targets = [1e-2, 1e-3, 1e-4]
    print("Sweeps to equal accuracy (force error), interpolated between tolerances; ratio to P = 1:")
    print(f"{'part':>5} {'norm':>4} {'P':>3} " + " ".join(f"{'err ' + format(t, '.0e'):>16}" for t in targets))
    for part, norm in sorted({(r["part"], r["norm"]) for r in rows}):
        ps = sorted({r["p"] for r in rows if r["part"] == part and r["norm"] == norm})
        base = {}
        for p in ps:
            pts = [(r["sweeps"], r["fe"]) for r in rows if (r["part"], r["norm"], r["p"]) == (part, norm, p)]
            cells = []
            for t in targets:
                s = sweeps_to(pts, t)
                if p == ps[0]:
                    base[t] = s
                cells.append("-" if s is None else f"{s:8.0f} ({s / base[t]:.3f})" if base.get(t) else f"{s:8.0f}")
            print(f"{part:>5} {norm:>4} {p:3d} " + " ".join(f"{c:>16}" for c in cells))


if __name__ == "__main__":
    main()
