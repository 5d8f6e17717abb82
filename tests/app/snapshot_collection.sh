# snapshots.xmf, the time collection ParaView opens: a new snapshot is
# appended in place (one entry per snapshot, in step order, valid XML), and
# a restart from an earlier step rebuilds it without the snapshots of the
# abandoned steps.
exe=$1 work=$2
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/lib.sh"
enter_workdir
steps_listed() {
  grep -o 'Name="step_[0-9]*"' out/snapshots.xmf | tr -dc '0-9\n' | sed 's/^0*\([0-9]\)/\1/' | tr '\n' ' '
}

run "$exe" -gen_n 60 -steps 30 -snapshot_every 10 -checkpoint_every 10 -checkpoint_keep 4 -status_every 0 -output_dir out
expect_rc 0 "a run with 4 snapshots"
xmllint --noout out/snapshots.xmf || fail "snapshots.xmf is not valid XML"
[ "$(steps_listed)" = "0 10 20 30 " ] || fail "collection lists steps '$(steps_listed)', expected 0 10 20 30"
# The whole contact frame is in the file, so the friction vector can be rebuilt.
for d in normal tangent binormal force; do
  h5ls out/snapshots/snap_000030.h5/contacts | grep -q "^$d " || fail "snapshots lack /contacts/$d"
done

# A snapshot killed while being written leaves its temporary files; the next
# run in the directory removes them, with a note.
: >out/snapshots/snap_000031.h5.tmp
: >out/snapshots/snap_000031.xmf.tmp
run "$exe" -restart out/checkpoints/ckpt_00000010.h5 -steps 20 -output_dir out
expect_rc 0 "a restart from step 10"
[ -e out/snapshots/snap_000031.h5.tmp ] && fail "a partial snapshot was left behind"
[ "$(grep -c 'note: removed .*snap_000031.*interrupted' "$work/stderr")" -eq 2 ] || fail "no note on the removed partial files"
xmllint --noout out/snapshots.xmf || fail "snapshots.xmf is not valid XML after the restart"
[ "$(steps_listed)" = "0 10 20 " ] || fail "after the restart the collection lists '$(steps_listed)', expected 0 10 20"

run "$exe" -restart auto -steps 50 -output_dir out
expect_rc 0 "a second restart, on to step 50"
xmllint --noout out/snapshots.xmf || fail "snapshots.xmf is not valid XML after appending"
[ "$(steps_listed)" = "0 10 20 30 40 50 " ] || fail "the collection lists '$(steps_listed)', expected 0 to 50 by 10"
echo "PASS"
