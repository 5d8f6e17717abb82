# bash cases.sh MOREAU WORKDIR MPIEXEC NP CASE
#
# Single cases of writing and restarting, on NP ranks:
#  schedule        checkpoints every -checkpoint_every steps and at the end,
#                  the newest -checkpoint_keep kept (default 2), only the
#                  final one without a schedule, and several with
#                  -checkpoint_wall_interval;
#  new_output_dir  -restart FILE with an -output_dir that does not exist
#                  yet (-output_dir is a safe change): the run continues
#                  there, as it would have in the first directory;
#  older           -restart FILE of an older checkpoint, in a directory that
#                  also holds newer ones (of the run that went on): the
#                  newer ones are of an abandoned continuation, as the time
#                  series rows after the checkpoint's step are. It may be
#                  refused (exit 2, one line); if it runs, the run's own
#                  final checkpoint must survive its pruning, and a later
#                  -restart auto must continue this run (each step once in
#                  the series);
#  stale           a new run (no -restart) in an -output_dir that holds the
#                  checkpoints of an earlier, longer run: it may refuse to
#                  start (exit 2, one line), but if it runs, a later
#                  -restart auto must continue it, not the earlier run
#                  (each step once in the series, the new run's bodies);
#  large           a lattice of 199 809 disks on one rank: the writer
#                  gathers the bodies in gid order a piece of 4 MiB at a
#                  time (IO_PIECE_BYTES; /bodies/position takes two):
#                  -restart auto verifies the checksum summed piece by
#                  piece and continues bit for bit, and the file holds each
#                  body once;
#  run_options     a restart of a checkpoint whose run had -error_trace, or
#                  -log_view (options about that run's reporting only)
#                  runs like any other: exit 0, nothing on stderr.
# shellcheck source=tests/checkpoint/lib.sh
. "$(dirname "$0")/lib.sh"
np=$1 case=$2
opts="$SCENE -output_every 5"

ckpts() {
  ls "$1/checkpoints" | tr '\n' ' '
}

case $case in
schedule)
  # shellcheck disable=SC2086
  run "$np" $opts -steps 40 -checkpoint_every 7 -checkpoint_keep 3 -output_dir every7
  expect_rc 0 "-checkpoint_every 7 -checkpoint_keep 3"
  expect_quiet "-checkpoint_every 7"
  [ "$(ckpts every7)" = "ckpt_00000028.h5 ckpt_00000035.h5 ckpt_00000040.h5 " ] ||
    fail "-checkpoint_every 7 -checkpoint_keep 3 -steps 40: $(ckpts every7), expected 28, 35, 40"
  # shellcheck disable=SC2086
  run "$np" $opts -steps 40 -checkpoint_every 10 -output_dir every10
  expect_rc 0 "-checkpoint_every 10"
  [ "$(ckpts every10)" = "ckpt_00000030.h5 ckpt_00000040.h5 " ] ||
    fail "-checkpoint_every 10 -steps 40: $(ckpts every10), expected 30 and 40 (2 kept by default)"
  # shellcheck disable=SC2086
  run "$np" $opts -steps 40 -output_dir none
  expect_rc 0 "no checkpoint schedule"
  [ "$(ckpts none)" = "ckpt_00000040.h5 " ] || fail "no schedule: $(ckpts none), expected the final one only"
  # 1000 steps take 0.5 s or more (the pile is dense by then): a
  # checkpoint every 0.01 s of wall time gives many; at least 2 besides the
  # final one is asked.
  # shellcheck disable=SC2086
  run "$np" $opts -steps 1000 -checkpoint_wall_interval 0.01 -checkpoint_keep 100000 -output_dir wall
  expect_rc 0 "-checkpoint_wall_interval 0.01"
  expect_quiet "-checkpoint_wall_interval 0.01"
  n=$(ls wall/checkpoints | wc -l)
  [ "$n" -ge 3 ] || fail "-checkpoint_wall_interval 0.01: $n checkpoints in a run of 1000 steps"
  [ -f wall/checkpoints/ckpt_00001000.h5 ] || fail "-checkpoint_wall_interval: no final checkpoint"
  echo "schedule: every 7 keep 3: $(ckpts every7); every 10: $(ckpts every10); none: $(ckpts none); wall 0.01 s: $n"
  ;;
new_output_dir)
  # shellcheck disable=SC2086
  run "$np" $opts -steps 30 -output_dir straight
  expect_rc 0 "uninterrupted run to 30"
  # shellcheck disable=SC2086
  run "$np" $opts -steps 20 -output_dir first
  expect_rc 0 "run to 20"
  run "$np" -restart first/checkpoints/ckpt_00000020.h5 -steps 30 -output_dir second
  expect_rc 0 "-restart first/checkpoints/ckpt_00000020.h5 -output_dir second (a new directory)"
  expect_quiet "-restart FILE -output_dir second"
  [ -f second/checkpoints/ckpt_00000030.h5 ] || fail "no second/checkpoints/ckpt_00000030.h5"
  same_group straight/checkpoints/ckpt_00000030.h5 second/checkpoints/ckpt_00000030.h5 /bodies
  [ "$(awk -F, 'NR > 1 && $1 > 20 { printf "%s ", $1 }' second/timeseries.csv)" = "25 30 " ] ||
    fail "second/timeseries.csv does not have the rows of steps 25 and 30"
  echo "new_output_dir: -restart FILE into a new directory continues there"
  ;;
older)
  # shellcheck disable=SC2086
  run "$np" $SCENE -output_every 1 -steps 40 -checkpoint_every 10 -checkpoint_keep 3 -output_dir o
  expect_rc 0 "run to 40 keeping 20, 30, 40"
  [ "$(ckpts o)" = "ckpt_00000020.h5 ckpt_00000030.h5 ckpt_00000040.h5 " ] || fail "checkpoints $(ckpts o)"
  run "$np" -restart o/checkpoints/ckpt_00000020.h5 -steps 25 -checkpoint_keep 2 -output_dir o
  if [ "$rc" = 2 ]; then
    expect_one_error "-restart of an older checkpoint than the newest" ckpt_00000020.h5
    echo "older: refused: $(grep 'moreau: error' stderr)"
  else
    expect_rc 0 "-restart of the checkpoint of step 20, to 25"
    [ "$(last_row_step o/timeseries.csv)" = 25 ] || fail "the series does not end at 25"
    [ -f o/checkpoints/ckpt_00000025.h5 ] ||
      fail "the run's final checkpoint (step 25) was removed; left: $(ckpts o)(of the abandoned continuation)"
    [ "$(newest_ckpt o)" = o/checkpoints/ckpt_00000025.h5 ] ||
      fail "checkpoints newer than the run's own are left: $(ckpts o)"
    run "$np" -restart auto -steps 45 -output_dir o
    expect_rc 0 "-restart auto -steps 45"
    expect_quiet "-restart auto -steps 45"
    n=$(steps_contiguous o/timeseries.csv 1) || fail "-restart auto did not continue from step 25"
    [ "$n" = 45 ] || fail "the series has $n rows, expected 45"
    echo "older: a restart from an older checkpoint keeps its own and is continued by -restart auto"
  fi
  ;;
stale)
  # shellcheck disable=SC2086
  run "$np" -gen_n 300 -status_every 0 -snapshot_every 0 -output_every 1 -steps 60 -output_dir o
  expect_rc 0 "an earlier run of 300 bodies to step 60"
  # shellcheck disable=SC2086
  run "$np" $SCENE -output_every 1 -steps 30 -output_dir o
  if [ "$rc" = 2 ]; then
    expect_one_error "a new run where another one left checkpoints" o
    echo "stale: a new run in a directory with another run's checkpoints is refused: $(grep 'moreau: error' stderr)"
  else
    expect_rc 0 "a new run of 400 bodies to step 30 in the same directory"
    run "$np" -restart auto -steps 40 -output_dir o
    expect_rc 0 "-restart auto -steps 40"
    grep -q 'done, 40 steps' stdout || fail "-restart auto -steps 40 did not continue the new run from step 30 \
to 40: $(cat stdout) (checkpoints: $(ckpts o))"
    n=$(steps_contiguous o/timeseries.csv 1) ||
      fail "-restart auto did not continue the new run (checkpoints: $(ckpts o))"
    [ "$n" = 40 ] || fail "the series has $n rows, expected 40"
    [ "$(h5col o/checkpoints/ckpt_00000040.h5 /bodies/gid | wc -l)" = 400 ] ||
      fail "the continued run does not have the new run's 400 bodies"
    echo "stale: -restart auto continues the new run, not the earlier one"
  fi
  ;;
large)
  big="-gen_type lattice -gen_n 199809 -gen_box 0,0,591,591 -gen_radius 0.5 -alert 0.4 -nlgs_max_it 5"
  big="$big -status_every 0 -snapshot_every 0"
  # shellcheck disable=SC2086
  run "$np" $big -steps 2 -output_dir straight
  expect_rc 0 "2 steps of 199809 disks"
  # shellcheck disable=SC2086
  run "$np" $big -steps 1 -output_dir split
  expect_rc 0 "1 step of 199809 disks"
  run "$np" -restart auto -steps 2 -output_dir split
  expect_rc 0 "-restart auto of 199809 disks"
  expect_quiet "-restart auto of 199809 disks"
  same_group straight/checkpoints/ckpt_00000002.h5 split/checkpoints/ckpt_00000002.h5 /bodies
  same_group straight/checkpoints/ckpt_00000002.h5 split/checkpoints/ckpt_00000002.h5 /history
  h5col split/checkpoints/ckpt_00000001.h5 /bodies/gid | sort -n | awk '$1 != NR - 1 { bad++ } END { exit bad > 0 || NR != 199809 }' ||
    fail "/bodies/gid of the checkpoint of step 1 is not each of 0 .. 199808 once"
  echo "large: 199809 disks written in pieces, restarted bit for bit"
  ;;
run_options)
  for opt in -error_trace -log_view; do
    # shellcheck disable=SC2086
    run "$np" $opts -steps 10 $opt -output_dir "o$opt"
    expect_rc 0 "a run with $opt"
    run "$np" -restart auto -steps 20 -output_dir "o$opt"
    expect_rc 0 "-restart auto of a run that had $opt"
    expect_quiet "-restart auto of a run that had $opt"
    [ -f "o$opt/checkpoints/ckpt_00000020.h5" ] || fail "the restart of the run with $opt did not reach step 20"
  done
  echo "run_options: restarts of runs with -error_trace and -log_view"
  ;;
*)
  fail "unknown case $case"
  ;;
esac
echo "$case np $np: ok"
