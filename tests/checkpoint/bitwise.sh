# bash bitwise.sh MOREAU WORKDIR MPIEXEC NP [mid|-] [sheared|sheared_rcb|rough|rolling|static|cohesive|trimers]
#
# A restart on the same rank count continues the run bit for bit: N steps
# straight against N/2 steps then `-restart auto -steps N`. The final
# checkpoints have equal /bodies and /history datasets (h5diff, exact), the
# time series are equal in every column but solve_seconds and
# detect_seconds (7 and 8), and the continued series has each step once.
# With "mid", also a restart from a checkpoint in the middle of a run that
# went on to N (-restart FILE): the rows after it are dropped and written
# again, and the end is again the same. With "sheared", the scene is a dense
# periodic packing sheared by Lees-Edwards images under pressure control
# (the images' offset and the box's length rate must continue exactly);
# "sheared_rcb" is that scene split by recursive coordinate bisection, with
# a low repartition threshold (the cuts must continue exactly).
# With "rough", it is sheared between rough walls, the top one pushed by a
# pressure (its grains, position and velocity must continue exactly).
# With "rolling", "static" or "cohesive", the pile runs with that contact
# law: its per-contact state (the contact torque, the sliding flag) is part
# of /history and must continue exactly too. With "trimers", the pile is of
# rigid clusters: their orientations and shape ids, and the contacts keyed
# by contactor pairs, must continue exactly.
# shellcheck source=tests/checkpoint/lib.sh
. "$(dirname "$0")/lib.sh"
np=$1 mid=${2:-} sheared=${3:-}
N=800 H=400 EVERY=5
case $sheared in
sheared) SCENE="$SCENE -gen_box 0,0,12,12 -gen_polydispersity 0.05 -gravity 0,0 -lees_edwards 2 -pressure 1000" ;;
sheared_rcb) SCENE="$SCENE -gen_box 0,0,12,12 -gen_polydispersity 0.05 -gravity 0,0 -lees_edwards 2 -pressure 1000 -part_type rcb -part_imbalance 1.05" ;;
rough) SCENE="$SCENE -gen_box 0,0,12,12 -gen_polydispersity 0.05 -gravity 0,0 -periodic x -rough_walls true -pressure 1000 -inertial_number 0.1" ;;
rolling) SCENE="$SCENE -law rolling -mu_roll 0.05" ;;
static) SCENE="$SCENE -law static_dynamic -mu_s 0.6" ;;
cohesive) SCENE="$SCENE -law cohesive -cohesion 20 -cohesion_range 0.001" ;;
trimers) SCENE="$SCENE -shape trimer -shape_eta 0.3" ;;
esac
opts="$SCENE -output_every $EVERY"

# shellcheck disable=SC2086
run "$np" $opts -steps $N -output_dir straight
expect_rc 0 "uninterrupted run"
expect_quiet "uninterrupted run"

# shellcheck disable=SC2086
run "$np" $opts -steps $H -output_dir split
expect_rc 0 "first half"
expect_quiet "first half"
[ -f split/checkpoints/ckpt_00000400.h5 ] || fail "the first half left no split/checkpoints/ckpt_00000400.h5"
run "$np" -restart auto -steps $N -output_dir split
expect_rc 0 "restart -restart auto -steps $N"
expect_quiet "restart"
grep -q "done, $N steps" stdout || fail "the restart did not report reaching step $N"

compare() {
  local a=straight b=$1 what=$2
  [ -f $a/checkpoints/ckpt_00000800.h5 ] || fail "$a: no final checkpoint"
  [ -f "$b/checkpoints/ckpt_00000800.h5" ] || fail "$what: no final checkpoint"
  same_group $a/checkpoints/ckpt_00000800.h5 "$b/checkpoints/ckpt_00000800.h5" /bodies
  same_group $a/checkpoints/ckpt_00000800.h5 "$b/checkpoints/ckpt_00000800.h5" /history
  rows=$(steps_contiguous "$b/timeseries.csv" $EVERY) || fail "$what: the continued time series has a gap or a repeated step"
  [ "$rows" -eq $((N / EVERY)) ] || fail "$what: $rows rows, expected $((N / EVERY))"
  cut -d, -f1-6,9- $a/timeseries.csv >a.cols
  cut -d, -f1-6,9- "$b/timeseries.csv" >b.cols
  cmp -s a.cols b.cols || { diff a.cols b.cols | head -n 6 >&2; fail "$what: the time series differ"; }
  # The compared stretch has a moving pile in contact.
  c=$(min_contacts "$b/timeseries.csv" $H $N)
  [ "$c" -gt 0 ] || fail "$what: rows after step $H without contacts"
  echo "$what: final checkpoints and time series equal; $rows rows, >= $c contacts after step $H"
}
compare split "np $np, $H + $((N - H)) steps"

if [ "$mid" = mid ]; then
  # A run that checkpoints at H and goes on to N; restarted from H by name.
  # shellcheck disable=SC2086
  run "$np" $opts -steps $N -checkpoint_every $H -checkpoint_keep 3 -output_dir again
  expect_rc 0 "run with a checkpoint at $H"
  [ "$(steps_contiguous again/timeseries.csv $EVERY)" -eq $((N / EVERY)) ] || fail "the run to $N lacks rows"
  run "$np" -restart again/checkpoints/ckpt_00000400.h5 -steps $N -output_dir again
  expect_rc 0 "restart from a checkpoint in the middle of a run (-restart FILE)"
  # The checkpoint of step N belongs to the trajectory this restart replaces:
  # it goes, with one note.
  grep -qx "moreau: note: removed again/checkpoints/ckpt_$(printf %08d "$N").h5, a checkpoint after step $H that this run replaces" stderr ||
    fail "restart from the middle: no note on the replaced checkpoint of step $N"
  grep -v '^moreau: note: removed .*, a checkpoint after step [0-9]* that this run replaces$' stderr >stderr.rest
  mv stderr.rest stderr
  expect_quiet "restart from the middle"
  compare again "np $np, -restart FILE from the middle of a run"
fi
echo "bitwise np $np: ok"
