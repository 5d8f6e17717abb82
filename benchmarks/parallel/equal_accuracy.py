#!/usr/bin/env python3
"""Summary of equal_accuracy.sh: every run's distance to the reference.

    equal_accuracy.py DIR

Reads DIR/runs.csv and DIR/forces/<label>.csv. For each run: the sweeps,
the law residual of its forces, the force error (the 2-norm of f - f_ref
over all contacts, matched by key, over that of f_ref) and the wall error
(the largest difference of a wall's summed normal force from the
reference's, over the largest wall force). Runs stopped by a tolerance are
tabled per partition, norm and tolerance. Runs of a fixed number of sweeps
give each P's error against sweeps; from them, per partition, the sweeps
each P needs to reach the error P = 1 has after each of those counts (log
error linear in log sweeps between the bracketing runs), and their ratio
to P = 1's count: the sweeps to equal accuracy. Four accuracies are
tabled: the force error and the wall error against the 1-rank reference;
the force error
against the run's own limit (the <part>_limit_p<P> runs of
equal_accuracy.sh -limits, P = 1's limit being the reference), which does
not depend on which of a frictional pile's many solutions an iteration
heads for; and the law residual, which needs no reference at all."""
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
    """Sweeps at which the error falls to target, from (sweeps, error)
    points: log error linear in log sweeps between the two bracketing
    points; None if no pair brackets it."""
    points = sorted(points)
    for (s0, e0), (s1, e1) in zip(points, points[1:]):
        if e0 >= target >= e1 and e0 > e1 > 0:
            t = (math.log(e0) - math.log(target)) / (math.log(e0) - math.log(e1))
            return math.exp(math.log(s0) + t * (math.log(s1) - math.log(s0)))
    return None


MEASURES = (("fe", "force error against the 1-rank reference"),
            ("we", "wall error against the 1-rank reference"),
            ("fo", "force error against the run's own limit"),
            ("law", "law residual"))


def equal_accuracy(rows):
    fixed = [r for r in rows if r["norm"] == "fixed"]
    if not fixed:
        return
    print("Error against sweeps (runs of a fixed number of sweeps), and the sweeps P needs to reach the error")
    print("P = 1 has after n sweeps (ratio to n):")
    for key, name in MEASURES:
        for part in sorted({r["part"] for r in fixed}):
            sel = [r for r in fixed if r["part"] == part and r.get(key) is not None]
            ps = sorted({r["p"] for r in sel})
            ns = sorted({r["sweeps"] for r in sel})
            if 1 not in ps:
                continue
            curve = {p: [(r["sweeps"], r[key]) for r in sel if r["p"] == p] for p in ps}
            print(f"{part}: {name} after n sweeps")
            print(f"{'P':>4} " + " ".join(f"{n:>9d}" for n in ns))
            for p in ps:
                err = dict(curve[p])
                print(f"{p:4d} " + " ".join(f"{err[n]:9.3e}" if n in err else f"{'-':>9}" for n in ns))
            print(f"{part}: sweeps to P = 1's {name} after n sweeps (ratio)")
            print(f"{'P':>4} " + " ".join(f"{n:>16d}" for n in ns))
            base = dict(curve[1])
            for p in ps:
                cells = []
                for n in ns:
                    s = sweeps_to(curve[p], base[n]) if n in base else None
                    if s is None and n in base and p == 1:
                        s = n
                    cells.append("-" if s is None else f"{s:8.0f} ({s / n:.3f})")
                print(f"{p:4d} " + " ".join(f"{c:>16}" for c in cells))
            print()


def main():
    d = sys.argv[1]
    runs = list(csv.DictReader(open(f"{d}/runs.csv")))
    ref = forces(f"{d}/forces/ref.csv")
    limits = {}
    for r in runs:
        m = re.match(r"(metis|block|rcb)_limit_p(\d+)$", r["label"])
        if m:
            limits[(m[1], int(m[2]))] = forces(f"{d}/forces/{r['label']}.csv")
    rows = []
    print("Reference: 1 rank, law norm; other tightly converged solutions against it:")
    for r in runs:
        fs = forces(f"{d}/forces/{r['label']}.csv")
        fe, we = errors(fs, ref)
        m = re.match(r"(metis|block|rcb)_(\w+?)_([0-9.e+-]+)_p(\d+)_s(\d+)$", r["label"])
        if not m:
            print(f"  {r['label']:>14}: ranks {r['ranks']:>3} sweeps {r['iterations']:>7} law residual "
                  f"{float(r['law_residual']):.2e} force error {fe:.2e} wall error {we:.2e}")
            continue
        p = int(m[4])
        own = ref if p == 1 else limits.get((m[1], p))
        fo = errors(fs, own)[0] if own is not None and m[2] == "fixed" else None
        rows.append(dict(part=m[1], norm=m[2], tol=float(m[3]), p=p, seed=int(m[5]),
                         sweeps=int(r["iterations"]), law=float(r["law_residual"]), fe=fe, we=we, fo=fo,
                         copies=int(r["interface_copies"])))
    print()
    print(f"{'part':>5} {'norm':>4} {'tol':>7} {'P':>3} {'sweeps':>7} {'/P=1':>6} {'law res':>8} "
          f"{'force err':>9} {'wall err':>8} {'copies':>6}")
    groups = sorted({(r["part"], r["norm"], r["tol"]) for r in rows if r["norm"] != "fixed"},
                    key=lambda g: (g[0], g[1], -g[2]))
    for g in groups:
        sel = sorted((r for r in rows if (r["part"], r["norm"], r["tol"]) == g), key=lambda r: (r["p"], r["seed"]))
        base = [r["sweeps"] for r in sel if r["p"] == min(x["p"] for x in sel)]
        base = sum(base) / len(base)
        for r in sel:
            print(f"{r['part']:>5} {r['norm']:>4} {r['tol']:7.0e} {r['p']:3d} {r['sweeps']:7d} "
                  f"{r['sweeps'] / base:6.3f} {r['law']:8.2e} {r['fe']:9.2e} {r['we']:8.2e} {r['copies']:6d}")
        print()
    equal_accuracy(rows)


if __name__ == "__main__":
    main()
