# sh functions.sh TOOLS WORKDIR RUNS: runs test_functions.py (see there).
# shellcheck shell=sh
tools=$1 work=$2 runs=$3
# shellcheck source=tests/plots/lib.sh
. "$(dirname "$0")/lib.sh"
"$py" "$here/test_functions.py" "$tools" "$runs" || fail "test_functions.py"
