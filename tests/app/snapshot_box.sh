# Snapshots carry the box: a 2D Lees-Edwards cell and a 3D walled box give
# /box and a box grid of 4 and 12 edges in the snapshot's .xmf and in the
# collection; both snapshots read back as -particles_file; a run with
# neither box nor walls (bodies from a CSV file) has no box grid and no /box.
exe=$1 work=$2
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/lib.sh"
enter_workdir

# box_grids XMF EDGES: the number of box grids in XMF, failing unless each is
# a Polyline of EDGES two-node elements.
box_grids() {
  n=$(grep -c '<Grid Name="box"' "$1")
  [ "$(grep -c "<Topology TopologyType=\"Polyline\" NumberOfElements=\"$2\" NodesPerElement=\"2\">" "$1")" -eq "$n" ] ||
    fail "$1: a box grid is not a Polyline of $2 edges"
  echo "$n"
}

run "$exe" -gen_type random -gen_n 40 -gen_fraction 0.5 -gravity 0,0 -lees_edwards 1 -steps 20 -snapshot_every 10 \
  -status_every 0 -output_dir le
expect_rc 0 "a Lees-Edwards cell"
[ "$(box_grids le/snapshots/snap_000020.xmf 4)" -eq 1 ] || fail "the snapshot of the Lees-Edwards cell has no box grid"
[ "$(box_grids le/snapshots.xmf 4)" -eq 3 ] || fail "the collection lacks box grids (steps 0, 10, 20)"
xmllint --noout le/snapshots.xmf || fail "snapshots.xmf is not valid XML"
h5ls le/snapshots/snap_000020.h5/box | grep -q '^edges ' || fail "no /box/edges"
run "$exe" -particles_file le/snapshots/snap_000020.h5 -box 0,0,2,0.5 -gravity 0,0 -lees_edwards 1 -steps 2 \
  -snapshot_every 2 -status_every 0 -output_dir le_again
expect_rc 0 "reading back the snapshot of the Lees-Edwards cell"
[ "$(box_grids le_again/snapshots/snap_000002.xmf 4)" -eq 1 ] || fail "the run from the snapshot has no box grid"

run "$exe" -dim 3 -gen_n 30 -steps 10 -dt 5e-4 -snapshot_every 10 -status_every 0 -output_dir d3
expect_rc 0 "a 3D walled box"
[ "$(box_grids d3/snapshots/snap_000010.xmf 12)" -eq 1 ] || fail "the 3D snapshot has no box grid"
run "$exe" -dim 3 -particles_file d3/snapshots/snap_000010.h5 -steps 2 -dt 5e-4 -status_every 0 -output_dir d3_again
expect_rc 0 "reading back the 3D snapshot"

printf 'x,y,r\n0,0,0.5\n1.2,0,0.5\n' >two.csv
run "$exe" -particles_file two.csv -gravity 0,0 -steps 10 -snapshot_every 10 -status_every 0 -output_dir free
expect_rc 0 "two free disks"
[ "$(box_grids free/snapshots/snap_000010.xmf 4)" -eq 0 ] || fail "a run without a box has a box grid"
[ "$(box_grids free/snapshots.xmf 4)" -eq 0 ] || fail "the collection of a run without a box has a box grid"
h5ls free/snapshots/snap_000010.h5 | grep -q '^box ' && fail "a run without a box has /box"
echo "PASS"
