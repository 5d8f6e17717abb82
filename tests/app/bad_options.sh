# Bad command lines exit 2 with one line on stderr that names the option: an
# unknown option (with the closest valid name), an option this run does not
# read, bad values, a missing value.
exe=$1 work=$2
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/lib.sh"
enter_workdir
tiny="-gen_n 20 -steps 1 -output_dir out"

# shellcheck disable=SC2086
run "$exe" $tiny -nlgs_tool 1e-3
expect_rc 2 "unknown -nlgs_tool"
expect_one_error_line "unknown -nlgs_tool" "-nlgs_tool" "did you mean -nlgs_tol"

# shellcheck disable=SC2086
run "$exe" $tiny -wallx_mode fixed
expect_rc 2 "unknown -wallx_mode"
expect_one_error_line "unknown -wallx_mode" "-wallx_mode"

# shellcheck disable=SC2086
run "$exe" $tiny -wall0_mod fixed
expect_rc 2 "unknown -wall0_mod"
expect_one_error_line "unknown -wall0_mod" "-wall0_mod " "did you mean -wall0_mode"

# -gen_n means nothing when the bodies come from a file.
printf 'x,y,r\n0.5,0.5,0.1\n0.5,0.8,0.1\n' >two.csv
run "$exe" -particles_file two.csv -box 0,0,1,1 -steps 1 -gen_n 50 -output_dir out
expect_rc 2 "-gen_n with -particles_file"
expect_one_error_line "-gen_n with -particles_file" "-gen_n"
run "$exe" -particles_file two.csv -box 0,0,1,1 -steps 1 -output_dir good
expect_rc 0 "the same file without -gen_n"

for bad in "-dt abc" "-dt -1" "-dt 0" "-dim 4" "-nlgs_norm foo" "-steps 1.5" "-nlgs_warm_start maybe" \
  "-gravity 0,x" "-gravity 0,,-9.81" "-gen_type hexagonal"; do
  option=${bad%% *}
  # shellcheck disable=SC2086
  run "$exe" $tiny $bad
  expect_rc 2 "$bad"
  expect_one_error_line "$bad" "$option"
done

# Command-line forms PETSc would ignore or misread: one line each, naming
# the word and the right form.
# shellcheck disable=SC2086
run "$exe" $tiny dt 1e-4
expect_rc 2 "a stray word"
expect_one_error_line "a stray word" "'dt'" "not an option"
# shellcheck disable=SC2086
run "$exe" $tiny --dt 1e-4
expect_rc 2 "two dashes"
expect_one_error_line "two dashes" "--dt" "(-dt)"
# shellcheck disable=SC2086
run "$exe" $tiny -dt=1e-4
expect_rc 2 "an equals sign"
expect_one_error_line "an equals sign" "-dt=1e-4" "(-dt 1e-4)"
# shellcheck disable=SC2086
run "$exe" $tiny -error_trace maybe
expect_rc 2 "a bad boolean for -error_trace"
expect_one_error_line "a bad boolean for -error_trace" "-error_trace"

# Walls numbered with a gap, or a wall without its point.
# shellcheck disable=SC2086
run "$exe" $tiny -wall0_point 0,0 -wall0_normal 0,1 -wall2_point 0,1 -wall2_normal 0,-1
expect_rc 2 "walls with a gap"
expect_one_error_line "walls with a gap" "without gaps" "-wall2_point" "-wall1_point"
# shellcheck disable=SC2086
run "$exe" $tiny -wall0_normal 0,1
expect_rc 2 "a wall without a point"
expect_one_error_line "a wall without a point" "-wall0_normal" "-wall0_point"
# A load rate on a wall that reads none, or a negative one.
# shellcheck disable=SC2086
run "$exe" $tiny -wall0_point 0,0 -wall0_normal 0,1 -wall0_load_rate 1
expect_rc 2 "a load rate on a fixed wall"
expect_one_error_line "a load rate on a fixed wall" "-wall0_load_rate" "does not read it"
# shellcheck disable=SC2086
run "$exe" $tiny -wall0_point 0,0 -wall0_normal 0,1 -wall0_mode force -wall0_force 1 -wall0_load_rate -1
expect_rc 2 "a negative load rate"
expect_one_error_line "a negative load rate" "-wall0_load_rate" ">= 0"
# shellcheck disable=SC2086
run "$exe" $tiny -wall0_point 0,0 -wall0_normal 0,1 -wall0_mode velocity -wall0_stop_travel -0.5
expect_rc 2 "a negative stop travel"
expect_one_error_line "a negative stop travel" "-wall0_stop_travel" ">= 0"

# A value that underflows is not "not finite".
# shellcheck disable=SC2086
run "$exe" $tiny -dt 1e-320
expect_rc 2 "an underflowing value"
expect_one_error_line "an underflowing value" "-dt" "too small"

# Options files that are no files, not text, or include themselves.
mkdir -p adir
printf -- '-steps 1\n-options_file self.opts\n' >self.opts
printf -- '-options_file loop_b.opts\n' >loop_a.opts
printf -- '-options_file loop_a.opts\n' >loop_b.opts
printf -- '-steps 1\n\000\001' >binary.opts
rm -f fifo.opts
mkfifo fifo.opts
for case in "adir:is a directory" "self.opts:includes itself" "loop_a.opts:includes itself" \
  "binary.opts:not a text file" "fifo.opts:not a regular file"; do
  file=${case%%:*} why=${case#*:}
  # shellcheck disable=SC2086
  run "$exe" $tiny -options_file "$file"
  expect_rc 2 "-options_file $file"
  expect_one_error_line "-options_file $file" "$file" "$why"
done

# An option at the very end with its value missing.
# shellcheck disable=SC2086
run "$exe" $tiny -dt
expect_rc 2 "-dt without a value"
expect_one_error_line "-dt without a value" "-dt"

# Nothing above may have got as far as writing output.
[ -e out ] && fail "a rejected command line left an output directory"
echo "bad_options: ok"
