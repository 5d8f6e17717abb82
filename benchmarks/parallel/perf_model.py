#!/usr/bin/env python3
"""Performance model of a moreau run on a cluster (issue 13 item 5).

Projects the time per step of weak scaling (a fixed number of bodies per
rank) and strong scaling (a fixed total) to 10^4 ranks, in 2D and 3D, from
figures measured on this machine (benchmarks/parallel/RESULTS.md section 8)
and stated interconnect parameters. A step is

  sweeps x (sweep + exposed interface exchange)          per sweep
  + lag: check_every more sweeps on several ranks         the lagged check
  + ghost/migration exchange + small reductions           per step
  + local step work (detection, rows, merge)              per step
  + repartition / repartition_every                       amortised

with, per rank holding n bodies in a cube-like subdomain:
  contacts       n_c = contacts_per_body x n
  sweep          n_c x t_update(n_c)   (t_update grows when the rows leave the cache)
  interface      n_if = c_if x 2 x boundary / v   (bodies within one diameter of
                 the subdomain boundary, both sides; c_if fitted to the counts)
  per sweep      2 messages per neighbour, n_if x width x 8 bytes sent
  overlap        the exchange is in flight while the interior rows
                 ((1 - n_if / n) of them) are swept: only the excess is exposed
  per step       one ghost message per neighbour of ghost_bytes per boundary
                 body, 12 allreduces and 2 nonblocking barriers (2 log2 P
                 and log2 P latencies; the audit test counts them)
  sweep count    x (1 + a x n_if / n): the glued iteration's extra
                 sweeps to equal accuracy, a fitted to section 7 (0.2;
                 --extra-sweeps)
  repartition    the parallel bisection (--partitioner rcb, the default):
                 log2 P levels of 3 passes, each binning the rank's bodies
                 (measured time per body and level) and one allreduce of the
                 level's bins (min(2^l, P/2) nodes x 66 int64), + moving the
                 bodies; or (--partitioner metis) serial METIS on rank 0
                 (measured times for 1024 and 10^4 parts on 10^6 cells,
                 scaled by the cell count) + the map's broadcast + moving
                 the bodies that change rank

Efficiency (weak) = step time on 1 rank / step time on P ranks with the same
bodies per rank; (strong) = T(P0) P0 / (T(P) P). Nothing here is fitted to
the efficiency it predicts: `--check FILE.csv` compares the counts the model
uses with bench_parallel_step's, and the 1 -> 2 rank prediction with the
measured one.

  perf_model.py [--latency 1.5e-6] [--node-bandwidth 12e9] [--ranks-per-node 48]
                [--repartition-every 1000] [--partitioner rcb|metis] [--extra-sweeps 0.2]
                [--check counts.csv]
"""
import argparse
import csv
import math
import sys

# Measured here (RESULTS.md sections 2, 3, 7, 8; benchmarks/README.md).
DIM = {
    2: dict(
        volume_per_body=math.pi / 4 / 0.82,  # unit-diameter disks at packing fraction 0.82
        contacts_per_body=2.09,  # 20 900 contacts for 10^4 disks (settled pile)
        # ns per contact update against contacts per rank: 1e4 pile (in cache),
        # 1e5 (records out of cache), section 8 quiet runs
        t_update=[(2.09e4, 25e-9), (2.09e5, 131e-9)],
        width=3,  # doubles per interface body per message (vx, vy, wz)
        ghost_bytes=208,  # one ghost record (26 doubles)
        neighbours=6,  # METIS parts of a 2D grid
        boundary=lambda side: 4 * side,
        metis=[(1024, 2.5), (1e4, 15.6)],  # s for P parts, 10^6 cells (issue 13)
        cells_per_body=0.57,  # cell edge 2 rmax = 1.3 d
    ),
    3: dict(
        volume_per_body=math.pi / 6 / 0.62,
        contacts_per_body=3.0,
        t_update=[(5.5e3, 40e-9), (3.0e4, 70e-9)],  # benchmarks/README.md, 3D runs
        width=6,
        ghost_bytes=208,
        neighbours=14,
        boundary=lambda side: 6 * side * side,
        metis=[(1024, 34.0 * 2.5 / 15.6), (1e4, 34.0)],
        cells_per_body=0.26,
    ),
}
C_IF = 0.62  # fitted: tiled 10^4 pile, 96 interface bodies per rank on a boundary 72 disks long
# The glued iteration's extra sweeps, 1 + a f at interface fraction f
# (RESULTS.md section 7, "The copy split": tall piles, mu 0.4, P = 16, the
# default -nlgs_copy_split 0.55). For errors down to half the initial one,
# a = 0.07-0.18 in 2D (f = 0.15) and 0.08-0.16 in 3D (f = 0.53-0.59); the
# 2D pile's highest accuracy gave up to 0.6 (--extra-sweeps). With the
# plain mass split (-nlgs_copy_split 1) a was 0.4-0.6, up to 1.2.
A_SWEEPS = 0.2
MAX_CELLS = 2**20
# RCB (src/part/partition_rcb.c): passes per level, int64 slots per node, and
# the time per body and level (the partition event of a 2-rank run of 10^6
# bodies, one level, over the 5e5 bodies of a rank; it also holds the grid's
# and the box's reductions and the weights: RESULTS.md section 10).
RCB_PASSES = 3
RCB_SLOTS = 66
RCB_BODY_LEVEL = {2: 33e-9, 3: 37e-9}
STEP_LOCAL = 0.10  # local step work over the sweeps' time at 50 sweeps per step (issue 14 item 4)
REDUCTIONS = 12  # blocking allreduces per step (parallel_comm_audit)
BARRIERS = 2  # nonblocking barriers per step (ghosts, migration)
IMBALANCE = 1.05  # slowest rank over mean, below the 1.2 repartition threshold


def loglog(points, x):
    """Piecewise log-log interpolation, flat beyond the ends."""
    if x <= points[0][0]:
        return points[0][1]
    if x >= points[-1][0]:
        return points[-1][1]
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        if x0 <= x <= x1:
            t = math.log(x / x0) / math.log(x1 / x0)
            return math.exp(math.log(y0) + t * math.log(y1 / y0))
    raise ValueError(x)


def metis_seconds(d, parts, cells):
    if parts <= 1:
        return 0.0
    pts = [(2, d["metis"][0][1] / 5)] + d["metis"]  # a 2-way split costs a fifth of 1024 (METIS k-way is log k)
    return loglog(pts, parts) * cells / 1e6


def rcb_seconds(dim, n, P, a):
    """One parallel bisection with n bodies per rank on P ranks."""
    levels = math.ceil(math.log2(P))
    t = levels * n * RCB_BODY_LEVEL[dim]
    per_rank_bandwidth = a.node_bandwidth / a.ranks_per_node
    for level in range(levels):
        nbytes = min(2**level, P // 2) * RCB_SLOTS * 8
        # A large allreduce is a reduce-scatter and an all-gather: 2 x bytes per rank.
        t += RCB_PASSES * (2 * math.log2(P) * a.latency + 2 * nbytes / per_rank_bandwidth)
    return t


def step_time(dim, n, P, a):
    """Seconds per step and their parts for n bodies per rank on P ranks."""
    d = DIM[dim]
    v = d["volume_per_body"]
    n_c = d["contacts_per_body"] * n
    sweep = n_c * loglog(d["t_update"], n_c) * (IMBALANCE if P > 1 else 1.0)
    parts = dict(sweep=0.0, exchange=0.0, lag=0.0, step_comm=0.0, local=0.0, repartition=0.0)
    sweeps = a.sweeps
    if P > 1:
        side = (n * v) ** (1.0 / dim)
        boundary = d["boundary"](side) / v ** ((dim - 1.0) / dim)  # in bodies
        n_if = min(n, C_IF * 2 * boundary)
        f_if = n_if / n
        nb = min(d["neighbours"], P - 1)
        sweeps *= 1 + a.extra_sweeps * f_if
        per_rank = n_if * d["width"] * 8
        # The node's ranks share its link; latencies are paid once per message.
        exch = 2 * nb * a.latency + per_rank * a.ranks_per_node / a.node_bandwidth
        interior = (1 - f_if) * sweep
        parts["exchange"] = sweeps * max(0.0, exch - interior)
        parts["lag"] = a.check_every * sweep
        logp = math.log2(P)
        ghost = nb * a.latency + n_if * d["ghost_bytes"] * a.ranks_per_node / a.node_bandwidth
        parts["step_comm"] = ghost + REDUCTIONS * 2 * logp * a.latency + BARRIERS * logp * a.latency
        if a.repartition_every > 0:
            move = 0.2 * n * d["ghost_bytes"] * a.ranks_per_node / a.node_bandwidth
            if a.partitioner == "rcb":
                split = rcb_seconds(dim, n, P, a)
            else:
                cells = min(MAX_CELLS, d["cells_per_body"] * n * P)
                bcast = logp * (a.latency + 4 * cells / a.node_bandwidth)
                split = metis_seconds(d, P, cells) + bcast
            parts["repartition"] = (split + move) / a.repartition_every
    parts["sweep"] = sweeps * sweep
    parts["local"] = STEP_LOCAL * a.sweeps * n_c * loglog(d["t_update"], n_c)
    return sum(parts.values()), parts


def table(title, rows):
    print(title)
    print("| P | bodies per rank | s/step | efficiency | sweeps | exchange | lag | step comm | local | repartition |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for P, n, t, eff, p in rows:
        print(
            f"| {P} | {n:.3g} | {t:.4g} | **{eff:.2f}** | "
            + " | ".join(f"{p[k] / t:.1%}" for k in ("sweep", "exchange", "lag", "step_comm", "local", "repartition"))
            + " |"
        )
    print()


def project(a):
    ranks = [1, 2, 16, 128, 1024, 10000]
    every = f"every {a.repartition_every:g} steps, {a.partitioner}" if a.repartition_every > 0 else "never"
    for dim in (2, 3):
        n = a.weak_bodies
        t1, _ = step_time(dim, n, 1, a)
        rows = []
        for P in ranks:
            t, p = step_time(dim, n, P, a)
            rows.append((P, n, t, t1 / t, p))
        table(f"Weak scaling, {dim}D, {n:.0e} bodies per rank (repartition {every}):", rows)
        N = a.strong_bodies
        P0 = 100
        t0, _ = step_time(dim, N / P0, P0, a)
        rows = []
        for P in (100, 1000, 10000):
            t, p = step_time(dim, N / P, P, a)
            rows.append((P, N / P, t, t0 * P0 / (t * P), p))
        table(f"Strong scaling, {dim}D, {N:.0e} bodies (efficiency against {P0} ranks):", rows)


def check(a, path):
    """The model's per-rank counts against bench_parallel_step's (2D strips of
    the tiled pile: 2 neighbours, boundary = pile height on each side)."""
    d = DIM[2]
    height = a.pile_height
    with open(path) as f:
        rows = [r for r in csv.DictReader(f) if r["step"] == "1"]
    print("| P | interface bodies (mean, measured / model) | sweep bytes (mean) | step bytes (mean) | sweep messages (mean) |")
    print("|---|---|---|---|---|")
    for r in rows:
        P = int(r["ranks"])
        sides = 2 * (P - 1) / P  # the two end strips have one neighbour
        n_if = C_IF * 2 * sides * height / d["volume_per_body"] ** 0.5
        print(
            f"| {P} | {float(r['interface_bodies_mean']):.0f} / {n_if:.0f} | "
            f"{float(r['sweep_bytes_mean']):.0f} / {n_if * d['width'] * 8:.0f} | "
            f"{float(r['step_bytes_mean']):.0f} / {n_if * d['ghost_bytes']:.0f} | "
            f"{float(r['sweep_messages_mean']):.2f} / {2 * sides:.2f} |"
        )
    print()
    # The quiet 1 -> 2 rank runs of section 2 (fixed 200 sweeps per step, so
    # no extra sweeps and no lag), with this machine's transport.
    for n in (1e4, 1e5):
        n_c = d["contacts_per_body"] * n
        t1 = 200 * n_c * loglog(d["t_update"], n_c)
        n_if = C_IF * 2 * height / d["volume_per_body"] ** 0.5
        exch = 2 * a.here_latency + n_if * d["width"] * 8 / a.here_bandwidth
        interior = (1 - n_if / n) * t1 / 200
        t2 = t1 * IMBALANCE + 200 * max(0.0, exch - interior)
        t2 += 2 * a.here_latency + n_if * d["ghost_bytes"] / a.here_bandwidth
        t2 += (REDUCTIONS * 2 + BARRIERS) * a.here_latency
        print(f"1 -> 2 ranks, {n:.0e} disks per rank, 200 sweeps per step: model efficiency {t1 / t2:.3f}")
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--latency", type=float, default=1.5e-6, help="s per message (default 1.5e-6)")
    ap.add_argument("--node-bandwidth", type=float, default=12e9, help="bytes/s per node (default 12e9)")
    ap.add_argument("--ranks-per-node", type=int, default=48)
    ap.add_argument("--sweeps", type=float, default=50, help="sweeps per step on one rank (default 50)")
    ap.add_argument("--check-every", type=int, default=1, help="-nlgs_check_every (default 1)")
    ap.add_argument("--repartition-every", type=float, default=1000, help="steps between repartitions; 0: never")
    ap.add_argument("--partitioner", choices=("rcb", "metis"), default="rcb", help="-part_type (default rcb, as moreau)")
    ap.add_argument("--extra-sweeps", type=float, default=A_SWEEPS,
                    help=f"a in the sweep count's 1 + a f (default {A_SWEEPS})")
    ap.add_argument("--weak-bodies", type=float, default=1e4)
    ap.add_argument("--strong-bodies", type=float, default=1e8)
    ap.add_argument("--check", metavar="CSV", help="bench_parallel_step CSV of the tiled pile to compare counts with")
    ap.add_argument("--pile-height", type=float, default=72, help="the tiled pile's height in diameters (72)")
    ap.add_argument("--here-latency", type=float, default=1.1e-7, help="this machine's, for --check (bench_pingpong)")
    ap.add_argument("--here-bandwidth", type=float, default=1e10, help="this machine's, for --check (bench_pingpong)")
    a = ap.parse_args()
    if (a.latency <= 0 or a.node_bandwidth <= 0 or a.ranks_per_node < 1 or a.sweeps <= 0 or a.check_every < 1
            or a.extra_sweeps < 0):
        print("perf_model.py: error: latency, bandwidth, ranks per node, sweeps and check_every must be positive, "
              "extra sweeps not negative",
              file=sys.stderr)
        sys.exit(2)
    if a.check:
        check(a, a.check)
    project(a)


if __name__ == "__main__":
    main()
