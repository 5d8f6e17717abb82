# bash signals.sh MOREAU WORKDIR MPIEXEC NP
#
# A signal asks a run to checkpoint at the next step boundary and to exit
# with code 3; `-restart auto` then continues it. Three runs on NP ranks:
#  - SIGTERM to one rank only (the last started),
#  - SIGUSR1 to mpiexec, which forwards it to every rank,
#  - SIGINT to one rank only (the first started).
# To know which step the run had reached when the signal came, the ranks
# are stopped (SIGSTOP) first, the last complete row of timeseries.csv (a
# row every step, flushed when written) is read as R, the signal is sent
# and seen pending on the ranks (/proc/PID/status), and the ranks are
# continued. Every rank has finished step R's row (writing a row is
# collective) and none has looked for signals after step R + 1, so the
# checkpoint must be of step R or R + 1 (at most one step late). Then:
# exit code 3, the line "stopped by a signal at step S", the time series
# ending at S, no partial checkpoint, no MPI_ABORT banner, no core, nothing
# on stderr but Open MPI's note that the ranks exited with code 3 (and that
# it forwarded the signal); and
# `-restart auto -steps S+5` exits 0 with each step once in the series.
# shellcheck source=tests/checkpoint/lib.sh
. "$(dirname "$0")/lib.sh"
np=$1
opts="$SCENE -output_every 1"

# state PID: the process state letter (R, S, T, Z, ...).
state() {
  cut -d' ' -f3 /proc/"$1"/stat 2>/dev/null
}

# pending PID SIGNUM: whether the signal is pending on the process.
pending() {
  local mask=$((1 << ($2 - 1))) line
  for line in $(awk '$1 == "SigPnd:" || $1 == "ShdPnd:" { print $2 }' /proc/"$1"/status 2>/dev/null); do
    [ $((16#$line & mask)) -ne 0 ] && return 0
  done
  return 1
}

signal_case() {
  local name=$1 sig=$2 target=$3 dir=$1 pid ranks r to s_row s_ckpt newest signum
  setsid "$mpiexec" -n "$np" "$exe" $opts -steps 1000000 -output_dir "$dir" >"$name.out" 2>"$name.err" &
  pid=$!
  # Running its time loop (the handlers are in place before the first step).
  for _ in $(seq 600); do
    [ -f "$dir/timeseries.csv" ] && [ "$(wc -l <"$dir/timeseries.csv")" -gt 20 ] && break
    sleep 0.05
  done
  [ "$(wc -l <"$dir/timeseries.csv" 2>/dev/null)" -gt 20 ] || { kill_session $pid; fail "$name: the run did not start"; }
  ranks=$(pgrep -P $pid | sort -n)
  [ "$(echo "$ranks" | wc -w)" -eq "$np" ] || { kill_session $pid; fail "$name: not $np ranks under mpiexec"; }
  for r in $ranks; do kill -STOP "$r"; done
  for r in $ranks; do
    for _ in $(seq 200); do
      [ "$(state "$r")" = T ] && break
      sleep 0.01
    done
    [ "$(state "$r")" = T ] || { kill_session $pid; fail "$name: rank $r did not stop"; }
  done
  s_row=$(last_row_step "$dir/timeseries.csv")
  case $target in
    one_last) to=$(echo "$ranks" | tail -n 1) ;;
    one_first) to=$(echo "$ranks" | head -n 1) ;;
    mpiexec) to=$pid ;;
  esac
  kill -"$sig" "$to"
  signum=$(kill -l "$sig")
  for r in $ranks; do
    [ "$target" != mpiexec ] && [ "$r" != "$to" ] && continue
    for _ in $(seq 500); do
      pending "$r" "$signum" && break
      sleep 0.01
    done
    pending "$r" "$signum" || { kill_session $pid; fail "$name: SIG$sig is not pending on rank $r"; }
  done
  for r in $ranks; do kill -CONT "$r"; done
  for _ in $(seq 1200); do
    [ "$(state $pid)" = "" ] || [ "$(state $pid)" = Z ] && break
    sleep 0.05
  done
  if [ -n "$(state $pid)" ] && [ "$(state $pid)" != Z ]; then
    kill_session $pid
    fail "$name: the run did not stop within 60 s of SIG$sig"
  fi
  wait $pid
  rc=$?
  cp "$name.out" stdout
  cp "$name.err" stderr
  expect_rc 3 "$name: run stopped by SIG$sig"
  expect_no_crash "$name"
  grep -q 'moreau:' stderr && fail "$name: moreau wrote to stderr"
  # Open MPI notes any non-zero exit code ("... returned a non-zero exit
  # code ... Exit code: 3") and a forwarded signal; nothing else is expected
  # on stderr.
  if grep -v -e '^-*$' -e 'Primary job  *terminated normally, but 1 process returned' \
    -e 'a non-zero exit code. Per user-direction, the job has been aborted.' \
    -e 'mpiexec detected that one or more processes exited with non-zero status' \
    -e 'the job to be terminated. The first process to do so was:' \
    -e 'Process name: ' -e 'Exit code:    3$' -e '^mpiexec: Forwarding signal [0-9]* to job$' stderr | grep -q .; then
    fail "$name: unexpected output on stderr"
  fi
  newest=$(newest_ckpt "$dir")
  [ -n "$newest" ] || fail "$name: no checkpoint"
  s_ckpt=$(ckpt_step "$newest")
  grep -q "^moreau: stopped by a signal at step $s_ckpt after a checkpoint; continue with -restart auto$" stdout ||
    fail "$name: no line 'stopped by a signal at step $s_ckpt'"
  [ "$s_ckpt" -ge "$s_row" ] && [ "$s_ckpt" -le $((s_row + 1)) ] ||
    fail "$name: the checkpoint is of step $s_ckpt, the run had reached step $s_row at the signal"
  [ "$(last_row_step "$dir/timeseries.csv")" = "$s_ckpt" ] || fail "$name: the time series does not end at step $s_ckpt"
  for f in "$dir"/checkpoints/*.tmp; do
    [ -e "$f" ] && fail "$name: partial checkpoint $f left"
  done
  run "$np" -restart auto -steps $((s_ckpt + 5)) -output_dir "$dir"
  expect_rc 0 "$name: -restart auto after the signal"
  expect_quiet "$name: -restart auto after the signal"
  [ "$(steps_contiguous "$dir/timeseries.csv" 1)" = $((s_ckpt + 5)) ] ||
    fail "$name: the continued series is not steps 1..$((s_ckpt + 5)) once each"
  echo "$name: SIG$sig to $target ($to) at step $s_row: checkpoint of step $s_ckpt, exit 3; restart to $((s_ckpt + 5)): exit 0"
}

signal_case sigterm_one TERM one_last
signal_case sigusr1_all USR1 mpiexec
signal_case sigint_one INT one_first
echo "signals np $np: ok"
