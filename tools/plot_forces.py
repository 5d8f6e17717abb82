#!/usr/bin/env python3
"""Force chains of a moreau snapshot (snapshots/snap_<step>.h5) as a PNG.

Bodies are light disks; each contact carrying a normal force is a segment
between its end points (centre of body a to centre of body b, or to the
contact point on a wall) of width --width x f_n / <f_n>, where <f_n> is the
mean over the contacts with f_n > 0.

The box: taken from --box, else from the snapshot's root attributes box_lo
and box_hi (snapshots of runs with a box have them). Older snapshots lack
them: then the box comes from the checkpoint of the same step in
../checkpoints/ (moreau writes one at the end of a run, so the last snapshot
has it), else from the walls when every axis has a wall on both sides;
otherwise the axes without are given the bounding box of the bodies (centre
+- radius), and the box is drawn dotted and said to be estimated in the
title. Walls are drawn in brown; the periodic faces dashed in blue. The
periodic axes are the snapshot's attribute periodic; an older snapshot has
none, and there the axes without walls are taken as periodic (moreau puts
walls on every face that is not periodic, unless walls are given one by
one).

3D snapshots: the projection on the --plane (x-y by default; x-z for a pile
under the default 3D gravity along z) of a slab of bodies whose centre lies
in --slab lo,hi along the third axis (default: one mean diameter either side
of the middle of the bodies' range); a contact is drawn when the middle of
its segment lies in the slab. 2D snapshots are drawn in the x-y plane.

  python3 tools/plot_forces.py out/snapshots/snap_000500.h5 -o chains.png
"""
import os

import moreau_plots as mp
from moreau_plots import fail, np, plt

try:
    import h5py
except ImportError:
    fail("Python module h5py is missing (Debian: apt-get install python3-h5py)")

from matplotlib.collections import EllipseCollection, LineCollection


def reals(text, n, option):
    try:
        v = [float(s) for s in text.split(",")]
    except ValueError:
        v = []
    if len(v) != n or not all(np.isfinite(v)):
        fail(f"{option} {text}: expected {n} comma-separated numbers")
    return v


def box_attributes(path, attrs):
    """The box corners (box_lo, box_hi) of a snapshot, or None when it has
    none (a run without a box, or a snapshot older than these attributes)."""
    if "box_lo" not in attrs or "box_hi" not in attrs:
        return None
    lo, hi = attrs["box_lo"].ravel(), attrs["box_hi"].ravel()
    if len(lo) != 3 or len(hi) != 3 or not np.all(np.isfinite(lo)) or not np.all(np.isfinite(hi)):
        fail(f"{path}: attributes box_lo and box_hi are not 3 finite values each")
    return lo, hi


def read_snapshot(path):
    try:
        open(path, "rb").close()
    except OSError as e:
        fail(f"{path}: cannot read ({e.strerror or e})")
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        fail(f"{path}: not an HDF5 file ({str(e).split('(')[-1].rstrip(')')})")
    with f:
        s = {}
        for name in ("dim", "step", "time"):
            if name not in f.attrs:
                fail(f"{path}: not a moreau snapshot (no root attribute {name})")
            s[name] = f.attrs[name].item()
        for name in ("bodies/position", "bodies/radius", "contacts/endpoints", "contacts/normal_force"):
            if name not in f or not isinstance(f[name], h5py.Dataset):
                fail(f"{path}: not a moreau snapshot (no dataset /{name})")
            s[name] = f[name][()]
        s["walls"] = (f["walls/point"][()], f["walls/normal"][()]) if "walls/normal" in f else ([], [])
        s["box"] = box_attributes(path, f.attrs)
        s["periodic"] = f.attrs["periodic"].ravel() if "periodic" in f.attrs else None
        if s["periodic"] is not None and len(s["periodic"]) != 3:
            fail(f"{path}: attribute periodic has {len(s['periodic'])} values, expected 3")
    n, nc = len(s["bodies/radius"]), len(s["contacts/normal_force"])
    if s["dim"] not in (2, 3) or s["bodies/position"].shape != (n, 3) or s["contacts/endpoints"].shape != (2 * nc, 3):
        fail(f"{path}: not a moreau snapshot (dim {s['dim']}, dataset shapes do not match)")
    if n == 0:
        fail(f"{path}: no bodies")
    return s


def checkpoint_box(snapshot, step, dim):
    """The box corners in the checkpoint of the snapshot's step, or None."""
    path = os.path.join(os.path.dirname(os.path.abspath(snapshot)), "..", "checkpoints", f"ckpt_{step:08d}.h5")
    if not os.path.exists(path):
        return None
    try:
        with h5py.File(path, "r") as f:
            ints, re = f["run/header_ints"][()].ravel(), f["run/header_reals"][()].ravel()
    except (OSError, KeyError):
        return None
    # docs/file-formats.md: ints[1] the dimension, ints[13] whether the domain
    # has a box; reals[6:9] and [9:12] its lower and upper corners.
    if len(ints) < 14 or len(re) < 12 or ints[1] != dim or ints[13] != 1:
        return None
    return re[6:9], re[9:12]


def find_box(args, s, plane, bodies_lo, bodies_hi):
    """The box in the plane's two axes: lo, hi, whether each axis is
    periodic, whether it is only the bodies' bounding box, and its source."""
    wall_lo, wall_hi = [None, None], [None, None]
    for p, n in zip(*s["walls"]):
        for k, a in enumerate(plane):
            if abs(abs(n[a]) - 1) < 1e-12:
                if n[a] > 0:
                    wall_lo[k] = p[a]
                else:
                    wall_hi[k] = p[a]
    if s["periodic"] is not None:
        periodic = [s["periodic"][a] != 0 for a in plane]
    else:
        periodic = [wall_lo[k] is None and wall_hi[k] is None for k in range(2)]
    if args.box:
        v = reals(args.box, 4, "--box")
        return v[:2], v[2:], periodic, False, "--box"
    if s["box"] is not None:
        return [s["box"][0][a] for a in plane], [s["box"][1][a] for a in plane], periodic, False, "snapshot"
    ck = checkpoint_box(args.snapshot, s["step"], s["dim"])
    if ck:
        return [ck[0][a] for a in plane], [ck[1][a] for a in plane], periodic, False, "checkpoint"
    if None not in wall_lo + wall_hi:
        return wall_lo, wall_hi, periodic, False, "walls"
    lo = [bodies_lo[k] if wall_lo[k] is None else wall_lo[k] for k in range(2)]
    hi = [bodies_hi[k] if wall_hi[k] is None else wall_hi[k] for k in range(2)]
    return lo, hi, periodic, True, "bounding box of the bodies: the snapshot has no box"


def select_slab(args, normal_axis, x, r, ends):
    """For 3D: the bodies and contacts of the slab, and its description."""
    z = x[:, normal_axis]
    if args.slab:
        zlo, zhi = reals(args.slab, 2, "--slab")
    else:
        mid, d = 0.5 * (z.min() + z.max()), 2 * r.mean()
        zlo, zhi = mid - d, mid + d
    zc = 0.5 * (ends[:, 0, normal_axis] + ends[:, 1, normal_axis])
    return (z >= zlo) & (z <= zhi), (zc >= zlo) & (zc <= zhi), f"slab {zlo:.4g} <= {AXES[normal_axis]} <= {zhi:.4g}"


def contact_widths(fn, width):
    """Which contacts carry a force (f_n > 0), their line widths
    width x f_n / <f_n>, and <f_n>, the mean over them."""
    loaded = fn > 0
    mean_f = fn[loaded].mean() if loaded.any() else 0.0
    return loaded, width * fn[loaded] / mean_f if loaded.any() else np.zeros(0), mean_f


def draw_box(ax, lo, hi, periodic, estimated):
    faces = [(([lo[0], lo[0]], [lo[1], hi[1]]), 0), (([hi[0], hi[0]], [lo[1], hi[1]]), 0),
             (([lo[0], hi[0]], [lo[1], lo[1]]), 1), (([lo[0], hi[0]], [hi[1], hi[1]]), 1)]
    labelled = set()
    for (xs, ys), k in faces:
        if estimated:
            style, label = dict(color="0.3", ls=":", lw=1.0), "bounding box of the bodies"
        elif periodic[k]:
            style, label = dict(color="tab:blue", ls="--", lw=1.0), "periodic faces"
        else:
            style, label = dict(color="k", lw=0.8), "box"
        ax.plot(xs, ys, label=None if label in labelled else label, **style)
        labelled.add(label)


def draw_walls(ax, s, plane):
    label = "walls"
    for p, n in zip(*s["walls"]):
        u, v = n[plane[0]], n[plane[1]]
        if np.hypot(u, v) > 1e-12:
            pa, pb = p[plane[0]], p[plane[1]]
            ax.axline((pa, pb), (pa - v, pb + u), color="saddlebrown", lw=2.0, label=label)
            label = None


AXES = "xyz"


def main():
    parser = mp.Parser(__doc__)
    parser.add_argument("snapshot", help="a snapshot .h5 written by moreau")
    parser.add_argument("-o", dest="output", help="PNG to write (default: the snapshot's path with .png)")
    parser.add_argument("--box", metavar="LO1,LO2,HI1,HI2",
                        help="the box to draw, in the plane's axes (default: see above)")
    parser.add_argument("--plane", choices=["xy", "xz", "yz"], help="3D: the plane of the projection (default xy)")
    parser.add_argument("--slab", metavar="LO,HI", help="3D: the slab to project (default: see above)")
    parser.add_argument("--width", type=float, default=1.5,
                        help="line width (points) of a contact of mean force (default 1.5)")
    args = parser.parse_args()
    if not args.width > 0:
        fail(f"--width {args.width}: must be positive")
    s = read_snapshot(args.snapshot)
    if s["dim"] == 2 and (args.plane not in (None, "xy") or args.slab):
        fail(f"{args.snapshot}: a 2D snapshot is drawn in the x-y plane only (no --plane, --slab)")
    plane = [AXES.index(c) for c in (args.plane or "xy")]
    x, r = s["bodies/position"], s["bodies/radius"]
    ends = s["contacts/endpoints"].reshape(-1, 2, 3)
    fn = s["contacts/normal_force"]
    slab = ""
    if s["dim"] == 3:
        keep, keep_c, slab = select_slab(args, 3 - sum(plane), x, r, ends)
        if not keep.any():
            fail(f"{args.snapshot}: no body has its centre in the {slab}")
        x, r, ends, fn = x[keep], r[keep], ends[keep_c], fn[keep_c]
    x, ends = x[:, plane], ends[:, :, plane]
    all_x, all_r = s["bodies/position"][:, plane], s["bodies/radius"]
    bodies_lo, bodies_hi = (all_x - all_r[:, None]).min(0), (all_x + all_r[:, None]).max(0)
    lo, hi, periodic, estimated, source = find_box(args, s, plane, bodies_lo, bodies_hi)
    loaded, widths, mean_f = contact_widths(fn, args.width)

    span = np.maximum(np.array(hi) - np.array(lo), 1e-300)
    # The longer side of the box takes 9 inches.
    aspect = span[1] / span[0]
    size = (9.0, max(9.0 * aspect, 2.0) + 1.0) if aspect <= 1 else (max(9.0 / aspect, 3.0), 10.0)
    fig, ax = plt.subplots(figsize=size)
    ax.add_collection(EllipseCollection(2 * r, 2 * r, np.zeros_like(r), units="xy", offsets=x,
                                        offset_transform=ax.transData, facecolors="0.88", edgecolors="0.7",
                                        linewidths=0.3))
    if loaded.any():
        ax.add_collection(LineCollection(ends[loaded], linewidths=widths, colors="firebrick", capstyle="round"))
    draw_walls(ax, s, plane)
    draw_box(ax, lo, hi, periodic, estimated)
    pad = 0.05 * span.max()
    ax.set_xlim(min(lo[0], bodies_lo[0]) - pad, max(hi[0], bodies_hi[0]) + pad)
    ax.set_ylim(min(lo[1], bodies_lo[1]) - pad, max(hi[1], bodies_hi[1]) + pad)
    ax.set_aspect("equal")
    ax.set_xlabel(AXES[plane[0]])
    ax.set_ylabel(AXES[plane[1]])
    ax.legend(loc="upper right", fontsize=7)
    ax.set_title(f"{args.snapshot}: step {s['step']}, t = {s['time']:.6g}{', ' + slab if slab else ''}\n"
                 f"{len(r)} bodies, {int(loaded.sum())} contacts with f_n > 0, <f_n> = {mean_f:.4g}; box: {source}",
                 fontsize=8)
    mp.save(fig, args.output or mp.default_png([args.snapshot], None))


if __name__ == "__main__":
    main()
