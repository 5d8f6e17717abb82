# bash fault.sh MOREAU WORKDIR MPIEXEC NP TRIALS SEED MAX_SLEEP_MS
#
# Fault injection: a run checkpointing every 2 steps is killed with kill -9
# (every process of the job at once: mpiexec and the ranks) at a random
# moment, then `-restart auto` must find a complete checkpoint that
# verifies and continue from it. The trials form one chain in one output
# directory, each trial:
#  1. starts `-restart auto -steps S+60` (S: the newest checkpoint) under
#     setsid, so that the job's processes share a session;
#  2. kills the session with SIGKILL, on odd trials after a random sleep in
#     [0, MAX_SLEEP_MS) ms (which also hits the start-up: reading the
#     checkpoint, removing partial ones, rewriting the time series), on even
#     trials as soon as a ckpt_*.h5.tmp appears, after skipping 0-3 of them
#     and a spin of 0 (a third of the time) or a random count below
#     500 x NP of shell loops (hitting the writing of a checkpoint at
#     various stages);
#  3. runs `-restart auto -steps S'+3` (S': the newest ckpt_*.h5 left),
#     which must exit 0 having taken that very checkpoint (no "skipped"
#     warning: a complete name never holds a partial file), remove any
#     partial one with a note, and leave the time series with each step
#     1..S'+3 exactly once.
# At the end the chain's last checkpoint must equal, bit for bit, that of
# one uninterrupted run to the same step: no kill changed the trajectory.
# The counts (trials, kills, kills with a .h5.tmp present, restarts that
# succeeded) are printed. The environment's CHECKPOINT_FAULT_SEED, if set,
# replaces SEED (the moments also depend on the machine's timing).
# shellcheck source=tests/checkpoint/lib.sh
. "$(dirname "$0")/lib.sh"
np=$1 trials=$2 seed=${CHECKPOINT_FAULT_SEED:-$3} max_sleep_ms=$4
RANDOM=$seed
opts="$SCENE -output_every 1 -checkpoint_every 2"
dir=chain

# shellcheck disable=SC2086
run "$np" $opts -steps 10 -output_dir $dir
expect_rc 0 "first run"
[ -f $dir/checkpoints/ckpt_00000010.h5 ] || fail "the first run left no checkpoint"

# Whether a child is running (kill -0 also succeeds on a zombie); builtins only.
alive() {
  local a b state
  read -r a b state _ 2>/dev/null </proc/"$1"/stat || return 1
  [ "$state" != Z ]
}

kills=0 kills_tmp=0 kills_polled=0 ended=0 restarts=0 notes=0
for t in $(seq "$trials"); do
  newest=$(newest_ckpt $dir)
  [ -n "$newest" ] || fail "trial $t: no complete checkpoint left"
  s=$(ckpt_step "$newest")
  setsid "$mpiexec" -n "$np" "$exe" -restart auto -steps $((s + 60)) -output_dir $dir >long.out 2>long.err &
  pid=$!
  if [ $((t % 2)) -eq 1 ]; then
    how="killed after $((ms = RANDOM % max_sleep_ms)) ms"
    sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
  else
    skip=$((RANDOM % 4)) spin=$((RANDOM % 3 ? RANDOM % (500 * np) : 0)) seen='' start=$SECONDS
    how="killed at .h5.tmp number $((skip + 1)) + $spin loops"
    while alive $pid && [ $SECONDS -lt $((start + 30)) ]; do
      for f in $dir/checkpoints/ckpt_*.h5.tmp; do
        [ -e "$f" ] || continue
        if [ "$f" != "$seen" ]; then
          seen=$f
          skip=$((skip - 1))
        fi
      done
      [ $skip -lt 0 ] && break
    done
    for ((j = 0; j < spin; j++)); do :; done
  fi
  if alive $pid; then
    kill_session $pid
    kills=$((kills + 1))
    [ $((t % 2)) -eq 0 ] && kills_polled=$((kills_polled + 1))
  else
    wait $pid
    st=$?
    [ $st -eq 0 ] || { cat long.err >&2; fail "trial $t: the run ended by itself with exit code $st"; }
    ended=$((ended + 1))
    how="ended before the kill"
  fi
  tmp=
  for f in $dir/checkpoints/ckpt_*.h5.tmp; do
    [ -e "$f" ] && tmp="$tmp $f"
  done
  [ -n "$tmp" ] && kills_tmp=$((kills_tmp + 1))
  newest=$(newest_ckpt $dir)
  [ -n "$newest" ] || fail "trial $t: the kill left no complete checkpoint"
  s=$(ckpt_step "$newest") target=$(($(ckpt_step "$newest") + 3))
  run "$np" -restart auto -steps $target -output_dir $dir
  expect_rc 0 "trial $t ($how, newest $newest): -restart auto"
  expect_quiet "trial $t: -restart auto"
  for f in $tmp; do
    grep -qF "removed $f," stderr || fail "trial $t: no note about the partial checkpoint $f"
    notes=$((notes + 1))
  done
  for f in $dir/checkpoints/ckpt_*.h5.tmp; do
    [ -e "$f" ] && fail "trial $t: $f left after the restart"
  done
  [ -f "$dir/checkpoints/ckpt_$(printf %08d $target).h5" ] || fail "trial $t: no checkpoint of step $target"
  n=$(steps_contiguous $dir/timeseries.csv 1) || fail "trial $t: the time series has a gap or a repeated step"
  [ "$n" -eq $target ] || fail "trial $t: the time series has $n rows, expected $target"
  restarts=$((restarts + 1))
  echo "trial $t: $how; newest complete step $s${tmp:+, partial:$tmp}; restart to $target ok"
done

# The whole chain against one uninterrupted run.
final=$dir/checkpoints/ckpt_$(printf %08d "$target").h5
# shellcheck disable=SC2086
run "$np" $SCENE -output_every 1 -steps "$target" -output_dir straight
expect_rc 0 "uninterrupted run to step $target"
same_group "$final" "straight/checkpoints/ckpt_$(printf %08d "$target").h5" /bodies
same_group "$final" "straight/checkpoints/ckpt_$(printf %08d "$target").h5" /history
cut -d, -f1-6,9- $dir/timeseries.csv >a.cols
cut -d, -f1-6,9- straight/timeseries.csv >b.cols
cmp -s a.cols b.cols || fail "the chain's time series differs from the uninterrupted run's"

echo "fault injection np $np seed $seed: trials $trials, kills $kills (polled for .h5.tmp: $kills_polled), \
kills with a .h5.tmp present $kills_tmp (notes $notes), runs ended before the kill $ended, \
restarts succeeded $restarts/$trials; chain of $target steps equal to the uninterrupted run"
[ "$restarts" -eq "$trials" ] || fail "not every restart succeeded"
