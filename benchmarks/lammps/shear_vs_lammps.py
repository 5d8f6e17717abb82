#!/usr/bin/env python3
"""Helpers of shear_vs_lammps.sh: one packing, the inputs of both codes, and
the table that compares their runs.

  shear_vs_lammps.py pack SNAPSHOT.h5 PACK.csv
      moreau's step-0 snapshot -> CSV x,y,r (what both codes read).
  shear_vs_lammps.py setup PACK.csv BOX_L OUTDIR --strain S --inertial I
      writes OUTDIR/moreau.opts, OUTDIR/lammps.data, OUTDIR/lammps.vars and
      OUTDIR/parameters.txt (every derived number with its formula).
  shear_vs_lammps.py summary OUTDIR [--moreau NAME ...]
      reads the runs under OUTDIR (moreau's in OUTDIR/NAME, timed in
      OUTDIR/NAME.time; default NAME: moreau) and prints the table.

Units: the number-mean diameter d is ~1, rho = 1000 (mass per unit area:
a disk weighs rho pi r^2), p = 1000, so the inertial time d sqrt(rho/p) is
~1 and the shear rate is I / (d sqrt(rho/p)), moreau's definition.

Bad arguments: one line on stderr, exit 2.
"""
import argparse
import csv
import json
import math
import os
import sys

# moreau's options and the physics both runs share
RHO = 1000.0
MU = 0.4
# The pistons that hold sigma_yy = p (box length M d2L/dt2 = Lx (sigma - p)).
# moreau: M = 1 x the grains' mass (-barostat_mass 1), as in the mu(I)
# campaign at I <= 0.03 (docs/validation.md); at 0.1 the light piston
# bounces on the rigid packing at I = 1e-3 (1000 disks: sigma_yy swings by
# +-30%, a third of the contacts carry force, phi overshoots to 0.827).
BAROSTAT_MASS = 1.0
# LAMMPS: M = the mass of 100 mean disks whatever N. The box strain eps
# obeys M Ly eps'' = Lx (sigma - p), and against a packing of modulus B
# (sigma - p ~ -B eps) the piston rings at sqrt(B Lx / (M Ly)): for a square
# box that depends on M alone, not on N. The contacts' dashpots damp the
# ringing only when the piston is light: 100 disks (0.1 of the grains' mass
# at 1000 disks, 0.01 at 1e4) keeps the rows of sigma_yy (means over 0.1
# inertial times) within a standard deviation of 3-7% of p at 1000 disks and
# 1-2% at 1e4; 10 times heavier bounces (sigma_yy drops to ~0 as the piston
# lifts off the packing, and the tapping compacts it).
PISTON_DISKS_MD = 100.0
# enough sweeps that NLGS meets its default tolerance (1e-4, mean relative
# force change) in all but ~0.2% of the steps at 1000 disks
NLGS_MAX_IT = 20000
CHUNK_STRAIN = 1e-3          # LAMMPS restarts fix deform from the current Ly this often
ROWS_PER_CHUNK = 10          # LAMMPS rows (block means) per chunk
BLOCKS = 5                   # blocks of the steady window for the error bars


def die(msg):
    print(f"shear_vs_lammps.py: error: {msg}", file=sys.stderr)
    sys.exit(2)


def read_pack(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        pts = [(float(r["x"]), float(r["y"]), float(r["r"])) for r in rows]
    except (OSError, KeyError, ValueError) as e:
        die(f"{path}: not a CSV with columns x,y,r ({e})")
    if not pts:
        die(f"{path}: no bodies")
    return pts


def cmd_pack(args):
    try:
        import h5py
    except ImportError:
        die("h5py is missing: run with /usr/bin/python3 (Debian's python3-h5py)")
    try:
        with h5py.File(args.snapshot, "r") as f:
            pos = f["bodies/position"][:]
            rad = f["bodies/radius"][:]
    except (OSError, KeyError) as e:
        die(f"{args.snapshot}: not a moreau snapshot ({e})")
    with open(args.csv, "w") as out:
        out.write("x,y,r\n")
        for (x, y, _), r in zip(pos, rad):
            # repr keeps every bit, so both codes start from the same numbers
            out.write(f"{float(x)!r},{float(y)!r},{float(r)!r}\n")


def derive(pts, box, strain, inertial, p, kratio, restitution, ranks):
    """Every parameter of both runs, with the reason in a comment line."""
    n = len(pts)
    radii = [r for _, _, r in pts]
    dmean = 2.0 * sum(radii) / n
    rmin = min(radii)
    t_inertial = dmean * math.sqrt(RHO / p)
    rate = inertial / t_inertial
    masses = [RHO * math.pi * r * r for r in radii]
    mass_total = sum(masses)
    solid_area = sum(math.pi * r * r for r in radii)
    v = {}
    notes = []

    def put(key, value, why):
        v[key] = value
        notes.append(f"{key} = {value:.10g}    # {why}")

    put("n", n, "bodies")
    put("box", box, "side of the square periodic cell")
    put("dmean", dmean, "number-mean diameter d (moreau's, for -inertial_number)")
    put("phi0", solid_area / box ** 2, "starting solid fraction")
    put("rate", rate, "shear rate I / (d sqrt(rho/p))")
    put("t_end", strain / rate, "time to the strain")
    # moreau: the fastest body (at the gradient faces, rate L / 2) moves at
    # most 1% of d per step, and a step is at most a tenth of the inertial
    # time, the time over which p moves a grain by its size: a grain pushed
    # by an unbalanced force p d then moves ~0.6% of d in one step.
    dt_cd = min(0.02 * dmean / (rate * box), 0.1 * t_inertial)
    steps_cd = math.ceil(strain / (rate * dt_cd) - 1e-9)
    dt_cd = strain / (rate * steps_cd)
    put("dt_cd", dt_cd, "moreau: min(0.02 d / (rate L), 0.1 d sqrt(rho/p)), trimmed to whole steps")
    put("steps_cd", steps_cd, "moreau steps")
    # LAMMPS: Hooke contacts stiff enough for near-rigid grains
    kn = kratio * p * dmean
    put("kn", kn, f"normal stiffness, k_n / (p d) = {kratio:g}")
    # 2/7: the tangential spring then rings at the normal one's frequency for
    # a sphere (its tangential effective mass is 2/7 m); Silbert et al.'s
    # (2001) choice and LAMMPS's Kt = NULL. For a disk 1/3 would match; the
    # quasi-static stress hardly depends on it.
    put("kt", 2.0 / 7.0 * kn, "tangential stiffness 2/7 k_n (Silbert et al. 2001; LAMMPS's default)")
    # restitution e of a pair of mean disks: damped oscillator of reduced
    # mass m*, f_n = k_n delta - m* gamma_n delta', zeta = gamma_n / (2 w0)
    m_ref = 0.5 * RHO * math.pi * (dmean / 2) ** 2
    lne = math.log(restitution)
    zeta = -lne / math.sqrt(math.pi ** 2 + lne ** 2)
    gamma_n = 2.0 * zeta * math.sqrt(kn / m_ref)
    put("restitution", restitution, "normal restitution of two mean disks")
    put("gamma_n", gamma_n, "2 zeta sqrt(k_n / m*), zeta = -ln e / sqrt(pi^2 + ln^2 e), m* of two mean disks")
    put("gamma_t", 0.5 * gamma_n, "gamma_n / 2 (LAMMPS's default)")
    m_light = 0.5 * RHO * math.pi * rmin ** 2
    w0 = math.sqrt(kn / m_light)
    t_c = math.pi / math.sqrt(w0 ** 2 - gamma_n ** 2 / 4.0)
    e_light = math.exp(-gamma_n / 2.0 * t_c)
    m_heavy = 0.5 * RHO * math.pi * max(radii) ** 2
    z_heavy = gamma_n / (2.0 * math.sqrt(kn / m_heavy))
    e_heavy = math.exp(-math.pi * z_heavy / math.sqrt(1 - z_heavy ** 2)) if z_heavy < 1 else 0.0
    put("e_lightest_pair", e_light, "restitution of the two lightest disks (gamma_n fixed, so e varies with mass)")
    put("e_heaviest_pair", e_heavy, "restitution of the two heaviest disks")
    put("t_c", t_c, "collision time of the lightest pair, pi / sqrt(k_n / m* - gamma_n^2 / 4)")
    chunk_est = CHUNK_STRAIN / (rate * t_c / 50.0)
    nout = max(1, math.ceil(chunk_est / ROWS_PER_CHUNK))
    chunk_steps = nout * ROWS_PER_CHUNK
    nchunks = max(1, math.ceil(strain / (rate * chunk_steps * t_c / 50.0) - 1e-9))
    dt_md = strain / (rate * chunk_steps * nchunks)
    put("dt_md", dt_md, "LAMMPS: t_c / 50 or a little less, so that whole chunks end at the strain")
    put("steps_md", chunk_steps * nchunks, "LAMMPS steps")
    put("nchunks", nchunks, f"runs of ~{CHUNK_STRAIN:g} strain, each restarting fix deform from the current Ly")
    put("chunk_steps", chunk_steps, "steps per run")
    put("nout", nout, "LAMMPS steps per row (each row the mean of its steps)")
    # the piston: M d2L/dt2 = Lx (sigma - p) is fix nph's
    # W d(omega)/dt = V (P - p), omega = d ln(Ly)/dt, when W = M Ly^2;
    # W = (N + 1) ptemp / Pdamp^2 with Pdamp = 1
    put("piston_cd", BAROSTAT_MASS * mass_total, f"moreau's piston mass, {BAROSTAT_MASS:g} x the grains' mass")
    piston = PISTON_DISKS_MD * mass_total / n
    put("piston_md", piston, f"LAMMPS's piston mass, that of {PISTON_DISKS_MD:g} mean disks "
        f"({piston / mass_total:.3g} x the grains' mass)")
    put("ptemp", piston * box ** 2 / (n + 1), "so that fix nph's W = (N+1) ptemp / Pdamp^2 = M Ly^2, Pdamp = 1")
    put("skin", 0.1 * dmean, "neighbour skin, a tenth of d")
    put("solid_area", solid_area, "sum of pi r^2")
    put("p", p, "normal stress sigma_yy held by both barostats")
    put("inertial", inertial, "inertial number")
    put("strain", strain, "shear strain of both runs")
    put("ranks", ranks, "MPI ranks of each code")
    return v, notes


def cmd_setup(args):
    for name in ("strain", "inertial", "p", "kratio"):
        if not getattr(args, name) > 0:
            die(f"--{name} must be > 0")
    if not 0 < args.restitution < 1:
        die("--restitution must be in (0, 1)")
    pts = read_pack(args.csv)
    box = args.box
    for x, y, r in pts:
        if not (0 <= x <= box and 0 <= y <= box):
            die(f"{args.csv}: body at {x},{y} outside the box [0, {box}]^2")
    v, notes = derive(pts, box, args.strain, args.inertial, args.p, args.kratio, args.restitution, args.ranks)
    os.makedirs(args.outdir, exist_ok=True)
    out = lambda name: os.path.join(args.outdir, name)  # noqa: E731
    with open(out("parameters.txt"), "w") as f:
        f.write("\n".join(notes) + "\n")
    with open(out("parameters.json"), "w") as f:
        json.dump(v, f, indent=1)
    csv_abs = os.path.abspath(args.csv)
    opts = [
        "-dim 2", f"-particles_file {csv_abs}", f"-box 0,0,{box!r},{box!r}", "-gravity 0,0",
        f"-density {RHO:g}", f"-mu {MU:g}", "-e_n 0", f"-pressure {args.p!r}",
        f"-barostat_mass {BAROSTAT_MASS:g}", f"-inertial_number {args.inertial!r}",
        f"-strain_end {args.strain!r}", "-t_end 1e9", f"-dt {v['dt_cd']!r}",
        f"-nlgs_max_it {NLGS_MAX_IT}", "-output_every 1", "-snapshot_every 0",
        f"-status_every {max(1, v['steps_cd'] // 20)}",
    ]
    with open(out("moreau.opts"), "w") as f:
        f.write("# written by shear_vs_lammps.py setup; see parameters.txt\n" + "\n".join(opts) + "\n")
    with open(out("lammps.data"), "w") as f:
        f.write(f"moreau packing {csv_abs}\n\n{len(pts)} atoms\n1 atom types\n\n")
        f.write(f"0 {box!r} xlo xhi\n0 {box!r} ylo yhi\n-0.5 0.5 zlo zhi\n0 0 0 xy xz yz\n\nAtoms # sphere\n\n")
        for i, (x, y, r) in enumerate(pts, 1):
            # the density column is overwritten by "set density/disc"
            f.write(f"{i} 1 {2 * r!r} {RHO:g} {x!r} {y!r} 0\n")
    keys = ("rate", "kn", "kt", "gamma_n", "gamma_t", "skin", "ptemp", "solid_area", "p", "nout",
            "nchunks", "chunk_steps")
    with open(out("lammps.vars"), "w") as f:
        f.write("# written by shear_vs_lammps.py setup; see parameters.txt\n")
        f.write(f"variable data string {os.path.abspath(out('lammps.data'))}\n")
        f.write(f"variable series string {os.path.abspath(out('lammps_series.txt'))}\n")
        f.write(f"variable rho equal {RHO:g}\nvariable mu equal {MU:g}\nvariable pdamp equal 1\n")
        f.write(f"variable dt equal {v['dt_md']!r}\nvariable nthermo equal {v['chunk_steps']}\n")
        for k in keys:
            f.write(f"variable {k} equal {v[k]!r}\n")


def mean(xs):
    return sum(xs) / len(xs)


def blocks_of(rows, lo, hi, nblocks):
    """rows: (strain, tau, syy, phi); the rows of [lo, hi] cut into nblocks."""
    width = (hi - lo) / nblocks
    out = [[] for _ in range(nblocks)]
    for row in rows:
        if lo <= row[0] <= hi + 1e-12:
            out[min(nblocks - 1, int((row[0] - lo) / width))].append(row)
    return out


def steady(rows, strain, nblocks):
    """mu = <tau>/<sigma_yy> over the second half of the strain, the standard
    error of the block values, <phi> and <sigma_yy>."""
    blocks = blocks_of(rows, strain / 2, strain, nblocks)
    if any(not b for b in blocks):
        return None
    window = [r for b in blocks for r in b]
    mu = mean([r[1] for r in window]) / mean([r[2] for r in window])
    mus = [mean([r[1] for r in b]) / mean([r[2] for r in b]) for b in blocks]
    sd = math.sqrt(sum((m - mean(mus)) ** 2 for m in mus) / (len(mus) - 1))
    # the least-squares change of the block values across the window: a
    # window still in the transient shows a change well beyond the error bar
    k = len(mus)
    xs = [i - (k - 1) / 2 for i in range(k)]
    drift = (k - 1) * sum(x * m for x, m in zip(xs, mus)) / sum(x * x for x in xs)
    return {"mu": mu, "mu_err": sd / math.sqrt(k), "phi": mean([r[3] for r in window]),
            "syy": mean([r[2] for r in window]), "rows": len(window), "drift": drift, "blocks": mus}


def read_time(path):
    try:
        with open(path) as f:
            wall, user, sys_ = (float(x) for x in f.read().split()[-3:])
        return wall, user + sys_
    except (OSError, ValueError):
        return float("nan"), float("nan")


def moreau_rows(outdir, v, name):
    path = os.path.join(outdir, name, "timeseries.csv")
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        die(f"{path}: empty")
    series = [(float(r["strain"]), float(r["shear_stress"]), float(r["normal_stress"]), float(r["solid_fraction"]))
              for r in rows]
    half = [r for r in rows if float(r["strain"]) >= v["strain"] / 2]
    extra = {
        "steps": int(float(rows[-1]["step"])),
        "final_strain": float(rows[-1]["strain"]),
        "sweeps": mean([float(r["iterations"]) for r in rows]),
        "capped": sum(1 for r in rows if float(r["converged"]) == 0) / len(rows),
        # z counts the force-bearing neighbours; "contacts" the NLGS rows
        # (pairs within the alert distance)
        "contacts": mean([float(r["z"]) for r in half]) * v["n"] / 2 if half else float("nan"),
        "rows": mean([float(r["contacts"]) for r in half]) if half else float("nan"),
        "max_overlap": max(float(r["max_overlap"]) for r in half) / v["dmean"] if half else float("nan"),
    }
    return series, extra


def lammps_rows(outdir, v, _name):
    path = os.path.join(outdir, "lammps_series.txt")
    series = []
    last_step = 0
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            step, _lx, _ly, _tilt, _sxx, syy, sxy, phi = (float(x) for x in line.split())
            # a row is the mean over its nout steps: its strain is their middle
            strain = v["rate"] * v["dt_md"] * (step - (v["nout"] - 1) / 2)
            # P is compressive: a positive shear rate is resisted by P_xy < 0
            series.append((strain, -math.copysign(1.0, v["rate"]) * sxy, syy, phi))
            last_step = int(step)
    if not series:
        die(f"{path}: no rows")
    # thermo lines: a run ends and the next one starts on the same step; the
    # first of the two is the end of the run (contact/atom's count at a
    # run's setup is not kept)
    contacts = {}
    header = None
    try:
        with open(os.path.join(outdir, "lammps.log")) as f:
            for line in f:
                words = line.split()
                if words[:1] == ["Step"]:
                    header = words
                elif header and len(words) == len(header) and words[0].isdigit():
                    step = int(words[0])
                    if step not in contacts and step * v["rate"] * v["dt_md"] >= v["strain"] / 2:
                        contacts[step] = float(words[header.index("c_contacts")]) / 2
                else:
                    header = None
    except (OSError, ValueError):
        pass
    contacts = list(contacts.values())
    extra = {
        "steps": last_step,
        "final_strain": v["rate"] * v["dt_md"] * last_step,
        "contacts": mean(contacts) if contacts else float("nan"),
    }
    return series, extra


def cmd_summary(args):
    try:
        with open(os.path.join(args.outdir, "parameters.json")) as f:
            v = json.load(f)
    except (OSError, ValueError) as e:
        die(f"{args.outdir}: no parameters.json from the setup step ({e})")
    table = []
    for code, reader in [(name, moreau_rows) for name in args.moreau] + [("lammps", lammps_rows)]:
        try:
            series, extra = reader(args.outdir, v, code)
        except OSError as e:
            print(f"shear_vs_lammps.py: {code}: no output ({e})", file=sys.stderr)
            continue
        wall, cpu = read_time(os.path.join(args.outdir, f"{code}.time"))
        st = steady(series, v["strain"], args.blocks)
        table.append((code, wall, cpu, extra, st))
    print(f"{v['n']} disks, strain {v['strain']:g}, I = {v['inertial']:g}, p = {v['p']:g}, "
          f"{v['ranks']} rank(s) each; steady window: strain {v['strain'] / 2:g}-{v['strain']:g} "
          f"in {args.blocks} blocks")
    head = ("code", "wall s", "cpu s", "steps", "final strain", "tau/p", "+-", "<sigma_yy>/p", "phi", "contacts carrying force")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for code, wall, cpu, extra, st in table:
        cells = [code, f"{wall:.1f}", f"{cpu:.1f}", str(extra["steps"]), f"{extra['final_strain']:.4g}"]
        if st:
            cells += [f"{st['mu']:.4f}", f"{st['mu_err']:.4f}", f"{st['syy'] / v['p']:.3f}", f"{st['phi']:.4f}"]
        else:
            cells += ["-", "-", "-", "-"]
        cells.append(f"{extra['contacts']:.0f}")
        print("| " + " | ".join(cells) + " |")
    for code, wall, cpu, extra, st in table:
        per = v["strain"] if extra["final_strain"] <= 0 else extra["final_strain"]
        line = f"{code}: {cpu / per:.4g} cpu s and {wall / per:.4g} wall s per unit strain"
        if st:
            line += (f"; tau/p of the blocks {' '.join(f'{m:.3f}' for m in st['blocks'])} "
                     f"(change across the window {st['drift']:+.3f})")
        if code != "lammps":
            line += (f"; {extra['sweeps']:.0f} NLGS sweeps per step on average, {100 * extra['capped']:.1f}% of "
                     f"steps at the cap of {NLGS_MAX_IT}, {extra['rows']:.0f} contact rows; largest overlap "
                     f"in the window {100 * extra['max_overlap']:.2f}% of d")
        else:
            line += f"; dt = {v['dt_md']:.4g} (t_c / {v['t_c'] / v['dt_md']:.1f}), k_n / (p d) = {v['kn'] / (v['p'] * v['dmean']):.4g}"
        print(line)


class Parser(argparse.ArgumentParser):
    def error(self, message):
        die(message)


def main():
    ap = Parser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True, parser_class=Parser)
    a = sub.add_parser("pack")
    a.add_argument("snapshot")
    a.add_argument("csv")
    a = sub.add_parser("setup")
    a.add_argument("csv")
    a.add_argument("box", type=float)
    a.add_argument("outdir")
    a.add_argument("--strain", type=float, required=True)
    a.add_argument("--inertial", type=float, required=True)
    a.add_argument("--p", type=float, default=1000.0)
    a.add_argument("--kratio", type=float, default=1e4, help="k_n / (p d)")
    a.add_argument("--restitution", type=float, default=0.1)
    a.add_argument("--ranks", type=int, default=1)
    a = sub.add_parser("summary")
    a.add_argument("outdir")
    a.add_argument("--blocks", type=int, default=BLOCKS)
    a.add_argument("--moreau", nargs="+", default=["moreau"], help="moreau's run directories under OUTDIR")
    args = ap.parse_args()
    if args.cmd == "summary" and args.blocks < 2:
        die("--blocks must be >= 2")
    {"pack": cmd_pack, "setup": cmd_setup, "summary": cmd_summary}[args.cmd](args)


if __name__ == "__main__":
    main()
