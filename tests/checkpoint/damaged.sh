# bash damaged.sh MOREAU WORKDIR MPIEXEC NP [short]
#
# Damaged, foreign and missing checkpoints: exit code 2 and one line saying
# which file and why, never a crash, an MPI abort or HDF5's error stack:
#  - a byte flipped inside the data of /bodies/position (-restart FILE):
#    the checksum fails;
#  - a byte flipped at 24 places spread over the file (headers, B-trees,
#    heaps, data): refused in one line, or accepted only when the file's
#    contents (h5dump) did not change (the byte was unused);
#  - a byte flipped in the middle of each dataset's data: refused;
#  - truncated files (to 0, 512 bytes, half, all but the last byte);
#  - a file that is not a checkpoint (a snapshot), and a missing file;
#  - a 3D run's checkpoint with -dim 2 (and a 2D one with -dim 3): the
#    options come from the checkpoint, so this is an unsafe change, named;
#  - -restart auto in a directory without checkpoints, and in one whose
#    only checkpoint is damaged (one warning line, then the error line);
#  - -restart auto with the newest checkpoint damaged (a flipped byte, or
#    truncated) and an older one good: the older one is taken, the damaged
#    one is reported in one warning line, and the run ends as an
#    uninterrupted one does (bit for bit).
# With "short" (for several ranks, where every refused run costs mpiexec
# 1-2 s), only the flipped data byte, a truncation to half, a missing
# checkpoint directory and the damaged newest checkpoints.
# shellcheck source=tests/checkpoint/lib.sh
. "$(dirname "$0")/lib.sh"
np=$1 short=${2:-}
opts="$SCENE -output_every 5"

# shellcheck disable=SC2086
run "$np" $opts -steps 30 -checkpoint_every 10 -output_dir good
expect_rc 0 "run with checkpoints at 20 and 30"
good20=good/checkpoints/ckpt_00000020.h5 good30=good/checkpoints/ckpt_00000030.h5
[ -f $good20 ] && [ -f $good30 ] || fail "the run did not keep the checkpoints of steps 20 and 30"
size=$(stat -c %s $good30)

# flip FILE OFFSET: the byte at OFFSET, inverted.
flip() {
  local byte
  byte=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
  [ -n "$byte" ] || fail "flip: $1 has no byte $2"
  # shellcheck disable=SC2059
  printf "$(printf '\\%03o' $((byte ^ 255)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
# offset FILE DATASET: where the dataset's data starts in the file.
offset() {
  h5dump -p -H -d "$2" "$1" | awk '$1 == "OFFSET" { print $2 }'
}

# A byte of body 100's x coordinate.
pos=$(offset $good30 /bodies/position)
[ -n "$pos" ] && [ "$pos" -gt 0 ] || fail "no offset of /bodies/position in $good30"
cp $good30 flipped.h5
flip flipped.h5 $((pos + 100 * 24 + 5))
cmp -s flipped.h5 $good30 && fail "the flip did not change the file"
run "$np" -restart flipped.h5 -output_dir x
expect_rc 2 "a flipped byte in /bodies/position"
expect_one_error "a flipped byte in /bodies/position" flipped.h5 checksum
echo "flipped data byte: $(grep 'moreau: error' stderr)"

if [ "$short" != short ]; then
  # Bytes all over the file.
  h5dump $good30 >good.dump 2>&1 || fail "h5dump cannot read $good30"
  refused=0 accepted=0
  for k in $(seq 0 23); do
    at=$((k == 0 ? 0 : size * k / 24 + k))
    cp $good30 "flip$k.h5"
    flip "flip$k.h5" $at
    mkdir -p "x$k" # (a restart into a new directory is another test's)
    run "$np" -restart "flip$k.h5" -output_dir "x$k"
    if [ "$rc" = 2 ]; then
      expect_one_error "byte $at of $size flipped" "flip$k.h5"
      refused=$((refused + 1))
    else
      expect_rc 0 "byte $at of $size flipped"
      h5dump "flip$k.h5" 2>&1 | sed "s|flip$k.h5|$good30|" | cmp -s - good.dump ||
        fail "byte $at flipped changes the file's contents, and the restart accepted it"
      accepted=$((accepted + 1))
    fi
  done
  echo "a byte flipped at 24 places: $refused refused in one line, $accepted accepted (unused bytes, contents unchanged)"
  [ $refused -ge 12 ] || fail "only $refused of 24 flips refused"

  # A byte in the middle of every dataset's data: each is under the checksum.
  n=0
  for d in $(h5ls -r $good30 | awk '$2 == "Dataset" { print $1 }'); do
    at=$(offset $good30 "$d") len=$(h5dump -p -H -d "$d" $good30 | awk '$1 == "SIZE" { print $2 }')
    [ -n "$at" ] && [ -n "$len" ] || fail "$d: no offset or size of its data"
    cp $good30 ds.h5
    flip ds.h5 $((at + len / 2))
    run "$np" -restart ds.h5 -output_dir x
    expect_rc 2 "a byte flipped in the middle of $d"
    expect_one_error "a byte flipped in the middle of $d" ds.h5
    n=$((n + 1))
  done
  echo "a byte flipped in each of the $n datasets: each refused in one line"
fi

# Truncated.
lengths="0 512 $((size / 2)) $((size - 1))"
[ "$short" = short ] && lengths=$((size / 2))
for len in $lengths; do
  cp $good30 "cut$len.h5"
  truncate -s "$len" "cut$len.h5"
  run "$np" -restart "cut$len.h5" -output_dir x
  expect_rc 2 "a checkpoint truncated to $len of $size bytes"
  expect_one_error "a checkpoint truncated to $len bytes" "cut$len.h5"
done
echo "truncated: $(grep 'moreau: error' stderr)"

if [ "$short" != short ]; then
  # Not a checkpoint; no file.
  # shellcheck disable=SC2086
  run "$np" ${opts%%-snapshot_every 0*}-snapshot_every 5${opts#*-snapshot_every 0} -steps 5 -output_dir snap
  expect_rc 0 "a run writing a snapshot"
  run "$np" -restart snap/snapshots/snap_000005.h5 -output_dir x
  expect_rc 2 "a snapshot given as a checkpoint"
  expect_one_error "a snapshot given as a checkpoint" snap_000005.h5
  echo "a snapshot: $(grep 'moreau: error' stderr)"
  run "$np" -restart nothere.h5 -output_dir x
  expect_rc 2 "a missing checkpoint file"
  expect_one_error "a missing checkpoint file" nothere.h5

  # Another dimension.
  run "$np" -dim 3 -gen_n 100 -status_every 0 -snapshot_every 0 -steps 5 -output_dir d3
  expect_rc 0 "a 3D run"
  [ -f d3/checkpoints/ckpt_00000005.h5 ] || fail "the 3D run left no checkpoint"
  run "$np" -restart d3/checkpoints/ckpt_00000005.h5 -dim 2 -output_dir x
  expect_rc 2 "a 3D checkpoint with -dim 2"
  expect_one_error "a 3D checkpoint with -dim 2" -dim
  echo "3D checkpoint, -dim 2: $(grep 'moreau: error' stderr)"
  run "$np" -restart auto -dim 2 -output_dir d3
  expect_rc 2 "-restart auto of a 3D run with -dim 2"
  expect_one_error "-restart auto of a 3D run with -dim 2" -dim
  run "$np" -restart $good30 -dim 3 -output_dir x
  expect_rc 2 "a 2D checkpoint with -dim 3"
  expect_one_error "a 2D checkpoint with -dim 3" -dim
  # Without -dim the checkpoint's dimension is the run's.
  run "$np" -restart d3/checkpoints/ckpt_00000005.h5 -steps 7 -output_dir d3
  expect_rc 0 "a 3D checkpoint without -dim"
  expect_quiet "a 3D checkpoint without -dim"
  [ -f d3/checkpoints/ckpt_00000007.h5 ] || fail "the 3D restart did not reach step 7"
fi

# No checkpoint at all.
run "$np" -restart auto -output_dir nowhere
expect_rc 2 "-restart auto without a checkpoint directory"
expect_one_error "-restart auto without a checkpoint directory" nowhere/checkpoints
echo "no checkpoint: $(grep 'moreau: error' stderr)"
if [ "$short" != short ]; then
  mkdir -p empty/checkpoints
  touch empty/checkpoints/ckpt_00000007.h5.tmp empty/checkpoints/notes.txt
  run "$np" -restart auto -output_dir empty
  expect_rc 2 "-restart auto with an empty checkpoint directory"
  grep -v '^moreau: note: removed empty/checkpoints/ckpt_00000007.h5.tmp' stderr >stderr.rest
  mv stderr.rest stderr
  expect_one_error "-restart auto with an empty checkpoint directory" empty/checkpoints
  [ -e empty/checkpoints/ckpt_00000007.h5.tmp ] && fail "the partial checkpoint was not removed"
  # The only checkpoint damaged: the warning, then the error.
  mkdir -p onlybad/checkpoints
  cp flipped.h5 onlybad/checkpoints/ckpt_00000030.h5
  run "$np" -restart auto -output_dir onlybad
  expect_rc 2 "-restart auto whose only checkpoint is damaged"
  [ "$(grep -c 'moreau: warning:' stderr)" -eq 1 ] || fail "the damaged checkpoint is not reported in one warning line"
  grep 'moreau: warning:' stderr | grep -q 'ckpt_00000030.h5.*skipped' || fail "the warning does not name the file"
  grep -v 'moreau: warning:' stderr >stderr.rest
  mv stderr.rest stderr
  expect_one_error "-restart auto whose only checkpoint is damaged" onlybad/checkpoints
fi

# The newest damaged, an older one good: the older one is taken.
# shellcheck disable=SC2086
run "$np" $opts -steps 40 -output_dir straight
expect_rc 0 "uninterrupted run to 40"
for damage in flip cut; do
  rm -rf "$damage"
  cp -r good "$damage"
  if [ $damage = flip ]; then
    flip $damage/checkpoints/ckpt_00000030.h5 $((pos + 7 * 24 + 2))
  else
    truncate -s $((size * 3 / 4)) $damage/checkpoints/ckpt_00000030.h5
  fi
  run "$np" -restart auto -steps 40 -output_dir $damage
  expect_rc 0 "-restart auto with a damaged newest ($damage) and a good older checkpoint"
  # One warning for the damaged file, then one note: the run from step 20
  # replaces it, so it is removed.
  [ "$(wc -l <stderr)" -eq 2 ] || fail "$damage: stderr is not exactly a warning and a note"
  grep -q "^moreau: warning: $damage/checkpoints/ckpt_00000030.h5: .*; skipped$" stderr ||
    fail "$damage: no one-line warning naming the damaged checkpoint"
  grep -qx "moreau: note: removed $damage/checkpoints/ckpt_00000030.h5, a checkpoint after step 20 that this run replaces" stderr ||
    fail "$damage: no note on the removal of the damaged checkpoint"
  echo "newest damaged ($damage): $(cat stderr)"
  expect_no_crash "$damage"
  same_group straight/checkpoints/ckpt_00000040.h5 $damage/checkpoints/ckpt_00000040.h5 /bodies
  same_group straight/checkpoints/ckpt_00000040.h5 $damage/checkpoints/ckpt_00000040.h5 /history
  [ "$(steps_contiguous $damage/timeseries.csv 5)" = 8 ] || fail "$damage: the time series is not steps 5..40 once each"
  cut -d, -f1-6,9- straight/timeseries.csv >a.cols
  cut -d, -f1-6,9- $damage/timeseries.csv >b.cols
  cmp -s a.cols b.cols || fail "$damage: the time series differs from the uninterrupted run's"
done
echo "damaged np $np: ok"
