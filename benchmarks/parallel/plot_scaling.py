#!/usr/bin/env python3
"""Plot a scaling CSV written by scaling.sh (strong.csv or weak.csv) to a PNG.

usage: plot_scaling.py FILE.csv [-kind strong|weak] [-o FILE.png]

The kind defaults to the file's name (strong.csv, weak.csv). Left panel: time
per step against ranks, with the ideal line through the smallest rank count
(strong: T0 P0 / P, weak: flat). Right panel: parallel efficiency, with the
90% target, and the NLGS sweeps per step on a second axis (a change in sweeps
moves the time per step without any change in parallel overhead).
"""
import csv
import os
import sys


def fail(message):
    sys.stderr.write("plot_scaling.py: error: %s\n" % message)
    sys.exit(2)


def parse_args(argv):
    if len(argv) < 2 or argv[1] in ("-h", "-help", "--help"):
        sys.stdout.write(__doc__)
        sys.exit(0 if len(argv) >= 2 else 2)
    path, kind, png = argv[1], None, None
    rest = argv[2:]
    while rest:
        if rest[0] == "-kind" and len(rest) > 1 and rest[1] in ("strong", "weak"):
            kind = rest[1]
        elif rest[0] == "-o" and len(rest) > 1:
            png = rest[1]
        else:
            fail("unexpected argument %r (see -help)" % rest[0])
        rest = rest[2:]
    if kind is None:
        stem = os.path.splitext(os.path.basename(path))[0]
        if stem not in ("strong", "weak"):
            fail("cannot tell strong from weak by the name %r: pass -kind strong|weak" % path)
        kind = stem
    return path, kind, png or os.path.splitext(path)[0] + ".png"


def read_rows(path):
    needed = ("ranks", "bodies", "seconds_per_step", "efficiency", "sweeps_per_step")
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail("%s: %s" % (path, e.strerror))
    if not rows:
        fail("%s: no data rows" % path)
    missing = [c for c in needed if c not in rows[0]]
    if missing:
        fail("%s: missing column(s) %s" % (path, ", ".join(missing)))
    try:
        data = {c: [float(r[c]) for r in rows] for c in needed}
    except ValueError as e:
        fail("%s: %s" % (path, e))
    order = sorted(range(len(rows)), key=lambda i: data["ranks"][i])
    return {c: [v[i] for i in order] for c, v in data.items()}


def main(argv):
    path, kind, png = parse_args(argv)
    data = read_rows(path)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail("matplotlib is not installed; on Debian: apt-get install python3-matplotlib "
             "(and run this script with /usr/bin/python3)")

    p, t = data["ranks"], data["seconds_per_step"]
    fig, (ax_t, ax_e) = plt.subplots(1, 2, figsize=(11, 4.2))
    ax_t.loglog(p, t, "o-", label="measured (median)")
    ideal = [t[0] * p[0] / q for q in p] if kind == "strong" else [t[0] for _ in p]
    ax_t.loglog(p, ideal, "k--", lw=1, label="ideal")
    ax_t.set_xlabel("MPI ranks")
    ax_t.set_ylabel("seconds per time step")
    if kind == "strong":
        title = "strong scaling, %d bodies" % data["bodies"][0]
    else:
        title = "weak scaling, %d bodies per rank" % round(data["bodies"][0] / p[0])
    ax_t.set_title(title)
    for ax in (ax_t, ax_e):
        ax.set_xscale("log", base=2)
        ax.set_xticks(p)
        ax.set_xticklabels(["%d" % q for q in p])
    ax_t.legend()
    ax_t.grid(True, which="both", alpha=0.3)

    ax_e.plot(p, data["efficiency"], "o-", color="C1", label="efficiency")
    ax_e.axhline(0.9, color="k", ls=":", lw=1, label="90% target")
    ax_e.set_ylim(0, max(1.1, max(data["efficiency"]) * 1.1))
    ax_e.set_xlabel("MPI ranks")
    ax_e.set_ylabel("parallel efficiency (%s)" % kind)
    ax_e.set_title("efficiency relative to %d rank%s" % (p[0], "" if p[0] == 1 else "s"))
    ax_e.grid(True, alpha=0.3)
    ax_s = ax_e.twinx()
    ax_s.plot(p, data["sweeps_per_step"], "s--", color="C2", label="NLGS sweeps per step")
    ax_s.set_ylabel("NLGS sweeps per step")
    ax_s.set_ylim(0, max(data["sweeps_per_step"]) * 1.3)
    lines = ax_e.get_legend_handles_labels()
    more = ax_s.get_legend_handles_labels()
    ax_e.legend(lines[0] + more[0], lines[1] + more[1], loc="lower left")

    fig.tight_layout()
    fig.savefig(png, dpi=110)
    print("plot_scaling.py: wrote %s" % png)


if __name__ == "__main__":
    main(sys.argv)
