# bash shape_file.sh MOREAU WORKDIR MPIEXEC NP
#
# A restart rebuilds the shapes of -shape file from the shape file its
# options name, and the checkpoint holds the shapes it ran with: with the
# file unchanged the restart continues; with the file edited in between
# (one contactor moved) it is refused with one line, exit code 2, and the
# checkpoint is left as it was.
# shellcheck source=tests/checkpoint/lib.sh
. "$(dirname "$0")/lib.sh"
np=$1
opts="$SCENE -shape file -shape_file $work/shapes.txt -checkpoint_every 20"

printf '1,0,0,0.5\n1,0.6,0,0.5\n' >shapes.txt
# shellcheck disable=SC2086
run "$np" $opts -steps 20 -output_dir out
expect_rc 0 "first run"
run "$np" -restart auto -steps 40 -output_dir out
expect_rc 0 "restart with the shape file unchanged"
grep -q "done, 40 steps" stdout || fail "the restart did not reach step 40"

printf '1,0,0,0.5\n1,0.7,0,0.5\n' >shapes.txt
before=$(md5sum out/checkpoints/ckpt_00000040.h5)
run "$np" -restart auto -steps 60 -output_dir out
expect_rc 2 "restart after the shape file changed"
expect_one_error "edited shape file" "differ from the checkpoint's" "was the shape file changed?"
[ "$(md5sum out/checkpoints/ckpt_00000040.h5)" = "$before" ] || fail "the refused restart changed the checkpoint"
[ ! -e out/checkpoints/ckpt_00000060.h5 ] || fail "the refused restart wrote a checkpoint"
echo "an edited shape file is refused at restart; an unchanged one continues"
