# Helpers shared by the app tests; each test is `sh <test>.sh MOREAU WORKDIR
# [...]` and sources this file after setting $exe and $work.
# shellcheck shell=sh disable=SC2154

fail() {
  echo "FAIL: $*" >&2
  for f in stdout stderr; do
    if [ -s "$work/$f" ]; then
      echo "--- $f of the last command:" >&2
      head -n 40 "$work/$f" >&2
    fi
  done
  exit 1
}

# Fresh, empty work directory, and the test runs inside it.
enter_workdir() {
  case $exe in /*) ;; *) exe=$PWD/$exe ;; esac
  [ -x "$exe" ] || { echo "FAIL: $exe is not an executable" >&2; exit 1; }
  rm -rf "$work"
  mkdir -p "$work" || exit 1
  cd "$work" || exit 1
}

# run CMD...: runs CMD, keeping its output in $work/stdout, $work/stderr and
# its exit code in $rc.
run() {
  "$@" >"$work/stdout" 2>"$work/stderr"
  rc=$?
}

expect_rc() {
  [ "$rc" = "$1" ] || fail "$2: exit code $rc, expected $1"
}

# The whole standard error is one line starting "moreau: error:" and
# containing each further argument.
expect_one_error_line() {
  what=$1
  shift
  [ "$(wc -l <"$work/stderr")" -eq 1 ] || fail "$what: stderr is not exactly one line"
  grep -q '^moreau: error: ' "$work/stderr" || fail "$what: stderr does not start with 'moreau: error: '"
  for word in "$@"; do
    grep -qF -e "$word" "$work/stderr" || fail "$what: the error does not mention '$word'"
  done
}

# Under mpiexec stderr also holds mpiexec's own report; moreau's part must
# still be a single line, printed by one rank.
expect_one_moreau_error() {
  what=$1
  shift
  [ "$(grep -c 'moreau: error:' "$work/stderr")" -eq 1 ] || fail "$what: not exactly one 'moreau: error:' line"
  for word in "$@"; do
    grep 'moreau: error:' "$work/stderr" | grep -qF -e "$word" || fail "$what: the error does not mention '$word'"
  done
}

# Data rows of a CSV file with a header line.
data_rows() {
  echo $(($(wc -l <"$1") - 1))
}
