#!/bin/bash
# Runs the table of bad inputs in cases.txt (see README.md for the format):
#   bash run_cases.sh MOREAU WORKDIR [MPIEXEC] [CASES_FILE] [K/N]
# Each case runs in a fresh directory WORKDIR/case_<line>; the script prints
# PASS/FAIL per case, then "N passed, M failed", and exits 1 if any failed.
# With K/N (1 <= K <= N) it runs only cases K, K + N, K + 2N, ... of the
# table, so that N runs side by side share it (every case start is mostly
# waiting for MPI_Init and PETSc, not computing).
exe=$1 work=$2 mpiexec=${3:-mpiexec} cases=${4:-$(dirname "$0")/cases.txt} shard=${5:-1/1}
case_timeout=${ROBUSTNESS_TIMEOUT:-30}
case $exe in /*) ;; *) exe=$PWD/$exe ;; esac
case $cases in /*) ;; *) cases=$PWD/$cases ;; esac
[ -x "$exe" ] || { echo "FAIL: $exe is not an executable" >&2; exit 1; }
[ -r "$cases" ] || { echo "FAIL: no case table $cases" >&2; exit 1; }
case $shard in
  [1-9]*/[1-9]*) shard_k=${shard%/*} shard_n=${shard#*/} ;;
  *) echo "FAIL: shard '$shard' is not K/N" >&2; exit 1 ;;
esac
[ "$shard_k" -le "$shard_n" ] 2>/dev/null || { echo "FAIL: shard '$shard' is not K/N with K <= N" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work" || exit 1

trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; s=${s%"${s##*[![:space:]]}"}; printf '%s' "$s"; }

passed=0 failed=0 lineno=0 index=0
while IFS= read -r line || [ -n "$line" ]; do
  lineno=$((lineno + 1))
  case $(trim "$line") in '' | '#'*) continue ;; esac
  index=$((index + 1))
  [ $(((index - shard_k) % shard_n)) = 0 ] || continue
  # ranks | rc | fragment | setup (may itself hold '|') | arguments
  ranks=$(trim "${line%%|*}"); rest=${line#*|}
  want_rc=$(trim "${rest%%|*}"); rest=${rest#*|}
  fragment=$(trim "${rest%%|*}"); rest=${rest#*|}
  args=$(trim "${rest##*|}")
  case $rest in *'|'*) setup=$(trim "${rest%|*}") ;; *) setup= ;; esac
  name="line $lineno: np$ranks $args"
  dir=$work/case_$lineno
  mkdir -p "$dir"
  why=
  if [ -n "$setup" ] && ! (cd "$dir" && eval "$setup") >"$dir/setup.log" 2>&1; then
    why="setup failed: $(head -c 300 "$dir/setup.log")"
  fi
  if [ -z "$why" ]; then
    before=$(cd "$dir" && find . -mindepth 1 | sort)
    eval "set -- $args"
    if [ "$ranks" = 1 ]; then
      (cd "$dir" && exec timeout -k 5 "$case_timeout" "$exe" "$@") >"$work/stdout" 2>"$work/stderr" </dev/null
    else
      (cd "$dir" && exec timeout -k 5 "$case_timeout" "$mpiexec" -n "$ranks" --oversubscribe "$exe" "$@") \
        >"$work/stdout" 2>"$work/stderr" </dev/null
    fi
    rc=$?
    after=$(cd "$dir" && find . -mindepth 1 | sort)
    errors=$(grep -c 'moreau: error:' "$work/stderr")
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
      why="timed out after ${case_timeout}s (exit $rc)"
    elif [ "$rc" != "$want_rc" ]; then
      why="exit code $rc, expected $want_rc"
    elif [ "$errors" != 1 ]; then
      why="$errors lines with 'moreau: error:' on stderr, expected 1"
    elif ! grep 'moreau: error:' "$work/stderr" | grep -qF -e "$fragment"; then
      why="the error line does not contain '$fragment'"
    elif grep -qE 'Segmentation fault|core dumped|MPI_ABORT|Abort\(|buffer overflow' "$work/stdout" "$work/stderr"; then
      why="crash or abort text in the output"
    elif [ "$want_rc" = 2 ] && [ "$before" != "$after" ]; then
      why="an input error left files behind: $(comm -13 <(echo "$before") <(echo "$after") | head -3 | tr '\n' ' ')"
    fi
  fi
  if [ -z "$why" ]; then
    passed=$((passed + 1))
    echo "PASS $name"
    rm -rf "$dir"
  else
    failed=$((failed + 1))
    echo "FAIL $name: $why"
    [ -n "$setup" ] && echo "  setup: $setup"
    echo "  --- stderr:"; head -n 15 "$work/stderr" | sed 's/^/  /'
  fi
done <"$cases"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
