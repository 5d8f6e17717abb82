# -options_file: the options in the file take effect (comments allowed),
# options after it on the command line override it, and a bad option inside
# the file is reported like one on the command line.
exe=$1 work=$2
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/lib.sh"
enter_workdir

cat >run.opts <<'OPTS'
# three steps, one time-series row each
# (run with: moreau -options_file run.opts -- a comment naming a file that
# does not exist, which must not be read as an include)
-gen_n 30
-steps 3
-output_every 1   # a trailing comment
-output_dir from_file
OPTS
run "$exe" -options_file run.opts
expect_rc 0 "-options_file run.opts"
[ -f from_file/timeseries.csv ] || fail "-output_dir from the file was not used"
[ "$(data_rows from_file/timeseries.csv)" -eq 3 ] || fail "-steps 3 -output_every 1 did not give 3 rows"
[ "$(cut -d, -f1 from_file/timeseries.csv | tr '\n' ' ')" = "step 1 2 3 " ] || fail "rows are not steps 1 2 3"

run "$exe" -options_file run.opts -steps 5 -output_dir override
expect_rc 0 "-options_file run.opts -steps 5"
[ "$(data_rows override/timeseries.csv)" -eq 5 ] || fail "-steps 5 after the file did not override it"

printf -- '-gen_n 30\n-steps 1\n-nlgs_tool 1e-3\n' >bad.opts
run "$exe" -options_file bad.opts -output_dir bad_out
expect_rc 2 "an unknown option inside the file"
expect_one_error_line "an unknown option inside the file" "-nlgs_tool" "-nlgs_tol"
echo "options_file: ok"
