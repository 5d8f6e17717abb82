# A missing -options_file is bad input: exit 2 and one line that names the
# file, like every other input error.
exe=$1 work=$2
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/lib.sh"
enter_workdir

run "$exe" -options_file nonexistent.opts -gen_n 30 -steps 1
[ "$rc" -ne 0 ] || fail "a missing options file was accepted"
expect_rc 2 "a missing options file"
expect_one_error_line "a missing options file" "nonexistent.opts"
[ -e out ] && fail "a missing options file still started a run"
echo "options_file_missing: ok"
