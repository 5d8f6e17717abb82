# bash options.sh MOREAU WORKDIR MPIEXEC NP [short]
#
# A restart runs with the options of its checkpoint; the command line may
# change only what is safe (when to stop, output and checkpoint intervals,
# solver tolerances and iterations, partition options, -output_dir,
# -restart, -error_trace):
#  - unsafe changes exit 2 with one line naming the option: -mu 0.1, and
#    (not short) -dt, -gen_n, -seed, -e_n, and -gravity, which the first
#    run did not give;
#  - -t_end is accepted and obeyed (the first run stops by -t_end, so the
#    restart's -t_end is what moves the end);
#  - (not short) the safe options all at once are accepted and obeyed
#    (rows every -output_every, checkpoints every -checkpoint_every, the
#    newest -checkpoint_keep kept), and an unsafe option given with the
#    value the run had is accepted.
# shellcheck source=tests/checkpoint/lib.sh
. "$(dirname "$0")/lib.sh"
np=$1 short=${2:-}

# 20 steps of -dt 2e-4.
# shellcheck disable=SC2086
run "$np" $SCENE -output_every 5 -t_end 0.004 -output_dir o
expect_rc 0 "first run, -t_end 0.004"
[ -f o/checkpoints/ckpt_00000020.h5 ] || fail "the first run did not end at step 20 with a checkpoint"

# unsafe NAME ARGS...: -restart auto ARGS is refused, naming NAME.
unsafe() {
  local name=$1
  shift
  run "$np" -restart auto "$@" -output_dir o
  expect_rc 2 "-restart auto $*"
  expect_one_error "-restart auto $*" "option $name:"
  echo "-restart auto $*: $(grep 'moreau: error:' stderr)"
}
unsafe -mu -mu 0.1
if [ "$short" != short ]; then
  unsafe -dt -dt 1e-4
  unsafe -gen_n -gen_n 401
  unsafe -seed -seed 7
  unsafe -e_n -e_n 0.5
  unsafe -gravity -gravity 0,-1
  unsafe -mu -steps 30 -mu 0.1
fi
[ -f o/checkpoints/ckpt_00000020.h5 ] && [ "$(newest_ckpt o)" = o/checkpoints/ckpt_00000020.h5 ] ||
  fail "a refused restart changed the checkpoints"
[ "$(last_row_step o/timeseries.csv)" = 20 ] || fail "a refused restart changed the time series"

run "$np" -restart auto -t_end 0.008 -output_dir o
expect_rc 0 "-restart auto -t_end 0.008"
expect_quiet "-restart auto -t_end 0.008"
[ "$(steps_contiguous o/timeseries.csv 5)" = 8 ] || fail "-t_end 0.008: the series is not steps 5..40"
[ -f o/checkpoints/ckpt_00000040.h5 ] || fail "-t_end 0.008: no checkpoint of step 40"
echo "-restart auto -t_end 0.008: accepted, ran to step 40"

if [ "$short" != short ]; then
  # The same value as the run had is no change.
  run "$np" -restart auto -gen_n 400 -steps 40 -output_dir o
  expect_rc 0 "-restart auto -gen_n 400 (the run's own value)"
  expect_quiet "-restart auto -gen_n 400"
  # (-error_trace last: a restart of its checkpoint is another test's.)
  run "$np" -restart auto -t_end 0.02 -steps 60 -output_every 10 -snapshot_every 0 -status_every 0 \
    -checkpoint_every 5 -checkpoint_wall_interval 0 -checkpoint_keep 3 -nlgs_tol 1e-5 -nlgs_min_it 3 \
    -nlgs_max_it 500 -nlgs_check_every 2 -part_type block -part_imbalance 1.5 -part_cell_size 0 \
    -error_trace -output_dir o
  expect_rc 0 "-restart auto with every safe option changed"
  expect_quiet "-restart auto with every safe option changed"
  [ "$(awk -F, 'NR > 1 { printf "%s ", $1 }' o/timeseries.csv)" = "5 10 15 20 25 30 35 40 50 60 " ] ||
    fail "rows: $(awk -F, 'NR > 1 { printf "%s ", $1 }' o/timeseries.csv), expected every 5 to 40, then every 10 to 60"
  [ "$(ls o/checkpoints)" = "$(printf 'ckpt_00000050.h5\nckpt_00000055.h5\nckpt_00000060.h5')" ] ||
    fail "checkpoints: $(ls o/checkpoints | tr '\n' ' '), expected 50, 55 and 60 (every 5, the newest 3)"
  echo "-gen_n 400 (unchanged), and every safe option at once: accepted"
fi
echo "options np $np: ok"
