# Helpers shared by the checkpoint tests. Each test is
#   bash <test>.sh MOREAU WORKDIR MPIEXEC [args...]
# and sources this file, which takes the first three arguments off "$@".
# shellcheck shell=bash

exe=$1 work=$2 mpiexec=$3
shift 3
case $exe in /*) ;; *) exe=$PWD/$exe ;; esac
case $work in /*) ;; *) work=$PWD/$work ;; esac
[ -x "$exe" ] || { echo "FAIL: $exe is not an executable" >&2; exit 1; }
command -v h5dump >/dev/null && command -v h5diff >/dev/null && command -v h5ls >/dev/null ||
  { echo "FAIL: h5dump, h5diff and h5ls (hdf5-tools) are needed" >&2; exit 1; }

# A small 2D pile that is still moving when it is compared: the 400 disks of
# the default lattice fill the 2 x 0.5 box and collapse under gravity; by
# step 300 there are ~80 contacts, by step 800 ~460, and the kinetic energy
# peaks around step 750 (serial: about 3 ms a step then).
# shellcheck disable=SC2034
SCENE="-gen_n 400 -status_every 0 -snapshot_every 0"

rm -rf "$work"
mkdir -p "$work" || exit 1
cd "$work" || exit 1

# fail, expect_rc and data_rows as in the app tests; run is this file's own.
# shellcheck source=tests/app/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../app/lib.sh"

# run NP ARGS...: moreau on NP ranks; output in $work/stdout, $work/stderr,
# exit code in $rc. One rank runs without mpiexec (a singleton), which is
# also quicker to fail: mpiexec takes 1-2 s to end a job whose ranks exit
# with a non-zero code.
run() {
  local np=$1
  shift
  if [ "$np" = 1 ]; then
    "$exe" "$@" >"$work/stdout" 2>"$work/stderr"
  else
    "$mpiexec" -n "$np" "$exe" "$@" >"$work/stdout" 2>"$work/stderr"
  fi
  rc=$?
}

# Standard error holds nothing from moreau but (optionally) notes about
# removed partial checkpoints and snapshots (a kill may land while either is
# written), and nothing from mpiexec.
expect_quiet() {
  if grep -v -e '^moreau: note: removed .*ckpt_[0-9]*\.h5\.tmp, a checkpoint whose writing was interrupted$' \
    -e '^moreau: note: removed .*snap_[0-9]*\.[a-z0-9]*\.tmp, a snapshot whose writing was interrupted$' \
    "$work/stderr" | grep -q .; then
    fail "$1: unexpected output on stderr"
  fi
}

# Exactly one "moreau: error:" line containing each further argument, no
# other line from moreau, and no sign of a crash or an MPI abort (mpiexec's
# own note that a rank exited with a non-zero status is allowed).
expect_one_error() {
  local what=$1
  shift
  [ "$(grep -c 'moreau: error:' "$work/stderr")" -eq 1 ] || fail "$what: not exactly one 'moreau: error:' line"
  if grep -v 'moreau: error:' "$work/stderr" | grep -q 'moreau:'; then
    fail "$what: other moreau lines besides the error"
  fi
  for word in "$@"; do
    grep 'moreau: error:' "$work/stderr" | grep -qF -e "$word" || fail "$what: the error does not mention '$word'"
  done
  expect_no_crash "$what"
}

expect_no_crash() {
  if grep -qiE 'MPI_ABORT|Segmentation|core dumped|exited on signal|HDF5-DIAG|H5[A-Z][a-z_]*\(\)|traceback' \
    "$work/stderr"; then
    fail "$1: an abort, a crash or an HDF5 error stack on stderr"
  fi
  ls core* >/dev/null 2>&1 && fail "$1: a core file was left"
  return 0
}

# ckpt_step FILE: the step of a checkpoint from its name.
ckpt_step() {
  local b=${1##*/ckpt_}
  b=${b%%.h5*}
  echo $((10#$b))
}

# newest_ckpt DIR: the newest complete checkpoint file under DIR/checkpoints
# (by name), or nothing.
newest_ckpt() {
  local f last=
  for f in "$1"/checkpoints/ckpt_*.h5; do
    [ -e "$f" ] && last=$f
  done
  echo "$last"
}

# The datasets of a group of a checkpoint, one a line (sorted).
datasets() {
  h5ls -r "$1/$2" | awk '$2 == "Dataset" { print $1 }' | sort
}

# same_group A B GROUP: the two files have the same datasets in GROUP and
# h5diff finds no difference in any of them (h5diff compares values exactly
# when given no tolerance).
same_group() {
  local a=$1 b=$2 g=$3 d n=0
  [ "$(datasets "$a" "$g")" = "$(datasets "$b" "$g")" ] || fail "$a and $b: different datasets in $g"
  for d in $(datasets "$a" "$g"); do
    h5diff -q "$a" "$b" "$g$d" "$g$d" >/dev/null 2>&1 || fail "$a and $b: $g$d differs (h5diff)"
    n=$((n + 1))
  done
  [ "$n" -gt 0 ] || fail "$a: no dataset in $g"
}

# h5col FILE DATASET: the values of a dataset, one a line, in row order.
h5col() {
  h5dump -y -w0 -d "$2" "$1" | awk '/DATA \{/ { on = 1; next } on && /^ *\}/ { on = 0 } on' |
    tr ',' '\n' | awk 'NF { print $1 }'
}

# Time series helpers (column 1 is the step).
# The step of the last complete (newline-terminated) row.
last_row_step() {
  if [ -n "$(tail -c 1 "$1")" ]; then
    tail -n 2 "$1" | head -n 1 | cut -d, -f1
  else
    tail -n 1 "$1" | cut -d, -f1
  fi
}

# steps_contiguous FILE EVERY: the rows' steps are EVERY, 2 EVERY, ... in
# order, none missing or repeated; prints the count of rows.
steps_contiguous() {
  awk -F, -v k="$2" 'NR == 1 { next }
    $1 != prev + k { printf "row %d: step %s after %s\n", NR, $1, prev > "/dev/stderr"; bad = 1; exit }
    { prev = $1; n++ }
    END { if (bad) exit 1; print n }' "$1"
}

# min_contacts FILE FROM TO: the smallest contact count of the rows FROM < step <= TO.
min_contacts() {
  awk -F, -v a="$2" -v b="$3" 'NR > 1 && $1 > a && $1 <= b { if (m == "" || $3 < m) m = $3 } END { print m + 0 }' "$1"
}

# kill_session PID: SIGKILL to every process of a job started in the
# background as `setsid CMD &` (PID = $!): mpiexec and its ranks, which are
# in its session (each rank has a process group of its own, so killing a
# group is not enough). Waits until none is left.
kill_session() {
  local sid=$1
  # Quiet: no "Killed" notice of bash about the job.
  exec 9>&2 2>/dev/null
  # The child makes its session right after the fork.
  for _ in $(seq 200); do
    [ "$(cut -d' ' -f6 /proc/"$sid"/stat 2>/dev/null)" = "$sid" ] && break
    sleep 0.005
  done
  pkill -9 -s "$sid" 2>/dev/null
  wait "$sid" 2>/dev/null
  # Ranks forked while the first signal went out get the next one; zombies
  # (dead, waiting for their new parent to reap them) do not count.
  for _ in $(seq 100); do
    if ! ps -s "$sid" -o stat= 2>/dev/null | grep -qv '^Z'; then
      exec 2>&9 9>&-
      return 0
    fi
    pkill -9 -s "$sid" 2>/dev/null
    sleep 0.05
  done
  echo "FAIL: processes of session $sid survive kill -9" >&9
  exit 1
}
