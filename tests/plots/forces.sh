# sh forces.sh TOOLS WORKDIR RUNS
#
# tools/plot_forces.py on the snapshots of runs.sh, and what each PNG shows,
# told by its colours: contacts (firebrick) always; the walls (brown) of the
# deposition and no periodic face; the periodic faces (dashed blue) of the
# shear cell, whose snapshots carry the box, and no wall; for a snapshot
# without the box attributes (as older versions wrote them), the periodic
# faces when the box is known otherwise (the checkpoint of its step, or
# --box), not when only the bodies' bounding box stands for it; 3D slabs on
# two planes.
# shellcheck shell=sh
tools=$1 work=$2 runs=$3
# shellcheck source=tests/plots/lib.sh
. "$(dirname "$0")/lib.sh"
contact=178,34,34 wall=139,69,19 periodic=31,119,180
for last in "$runs"/shear/snapshots/snap_*.h5; do :; done
[ -f "$runs/shear/checkpoints/ckpt_$(basename "$last" .h5 | sed 's/snap_/00/').h5" ] ||
  fail "no checkpoint at the step of $last"

# has PNG COLOUR WHAT / lacks PNG COLOUR WHAT
has() { [ "$(pixels "$1" "$2")" -gt 50 ] || fail "$1 shows no $3"; }
lacks() { [ "$(pixels "$1" "$2")" -eq 0 ] || fail "$1 shows $3"; }

plot plot_forces a/dep.png "$runs/dep/snapshots/snap_000400.h5" -o a/dep.png
has a/dep.png $contact contacts
has a/dep.png $wall walls
lacks a/dep.png $periodic "periodic faces"

plot plot_forces shear_last.png "$last" -o shear_last.png
has shear_last.png $contact contacts
has shear_last.png $periodic "periodic faces"
lacks shear_last.png $wall walls

plot plot_forces shear_100.png "$runs/shear/snapshots/snap_000100.h5" -o shear_100.png
has shear_100.png $contact contacts
has shear_100.png $periodic "periodic faces (the snapshot's box)"
lacks shear_100.png $wall walls

# old_snapshot SNAPSHOT COPY: COPY is SNAPSHOT without the box, its outline
# and the periodic and Lees-Edwards attributes.
old_snapshot() {
  mkdir -p "$(dirname "$2")" && cp "$1" "$2" || fail "cannot copy $1"
  "$py" - "$2" <<'PY' || fail "cannot strip the box from $2"
import sys
import h5py
with h5py.File(sys.argv[1], "r+") as f:
    for name in ("box_lo", "box_hi", "periodic", "lees_edwards_axes", "lees_edwards_offset"):
        del f.attrs[name]
    del f["box"]
PY
}
old_snapshot "$runs/shear/snapshots/snap_000100.h5" old/snapshots/snap_000100.h5
plot plot_forces old_100.png old/snapshots/snap_000100.h5 -o old_100.png
has old_100.png $contact contacts
lacks old_100.png $periodic "periodic faces (its box is not known)"
plot plot_forces old_100_box.png old/snapshots/snap_000100.h5 --box 0,0,2,0.5 -o old_100_box.png
has old_100_box.png $periodic "periodic faces"
old_snapshot "$last" old/snapshots/last.h5
mkdir -p old/checkpoints && cp "$runs"/shear/checkpoints/* old/checkpoints/
plot plot_forces old_last.png old/snapshots/last.h5 -o old_last.png
has old_last.png $periodic "periodic faces (the box of the checkpoint)"

plot plot_forces d3_xy.png "$runs/d3/snapshots/snap_000400.h5" -o d3_xy.png
plot plot_forces d3_xz.png "$runs/d3/snapshots/snap_000400.h5" --plane xz --width 3 -o d3_xz.png
has d3_xz.png $contact contacts
has d3_xz.png $wall walls
# Thicker lines: more contact pixels than at the default width.
plot plot_forces d3_xz_thin.png "$runs/d3/snapshots/snap_000400.h5" --plane xz -o d3_xz_thin.png
[ "$(pixels d3_xz.png $contact)" -gt "$(pixels d3_xz_thin.png $contact)" ] ||
  fail "--width 3 does not thicken the contacts"

mkdir copy && cp "$runs/dep/snapshots/snap_000400.h5" copy/
plot plot_forces copy/snap_000400.png copy/snap_000400.h5
