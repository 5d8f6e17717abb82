# Bad particle files exit 2 with one error line: a non-numeric field names
# "<file>:<line>:", overlapping bodies name both rows. With "MPIEXEC NP" after
# the work directory the same runs go through mpiexec, where the bad line lies
# in the part of the file a rank other than 0 reads.
exe=$1 work=$2 mpiexec=$3 np=${4:-1}
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/lib.sh"
enter_workdir
if [ -n "$mpiexec" ]; then
  launch="$mpiexec -n $np --oversubscribe $exe"
  expect_error=expect_one_moreau_error
else
  launch=$exe
  expect_error=expect_one_error_line
fi

# 300 bodies on a lattice, then one non-numeric field on line 251 (the header
# is line 1).
awk 'BEGIN { print "x,y,r"; for (i = 0; i < 300; i++) printf "%g,%g,0.01\n", 0.03 * (i % 30), 0.03 * int(i / 30) }' >lattice.csv
awk 'NR == 251 { $0 = "0.5,abc,0.01" } { print }' lattice.csv >bad_field.csv
# shellcheck disable=SC2086
run $launch -particles_file bad_field.csv -box -1,-1,2,2 -steps 1 -output_dir out
expect_rc 2 "non-numeric field"
$expect_error "non-numeric field" "bad_field.csv:251:" "abc"

# Data rows 2 and 4 (file lines 3 and 5) overlap by half a radius.
cat >overlap.csv <<'CSV'
x,y,r
0.2,0.2,0.1
0.5,0.5,0.1
0.8,0.2,0.1
0.5,0.65,0.1
0.8,0.8,0.1
CSV
# shellcheck disable=SC2086
run $launch -particles_file overlap.csv -box 0,0,1,1 -steps 1 -output_dir out
expect_rc 2 "overlapping bodies"
$expect_error "overlapping bodies" "overlap.csv"
grep 'moreau: error:' stderr | grep -Eq '(^|[^0-9.])(2|3)([^0-9.]).*[^0-9.](4|5)([^0-9.]|$)' ||
  fail "overlapping bodies: the error does not name rows 2 and 4 (or lines 3 and 5)"

# A body far outside the walls overlaps a wall by more than its radius.
printf 'x,y,r\n0.5,0.5,0.1\n5,5,0.1\n' >outside.csv
# shellcheck disable=SC2086
run $launch -particles_file outside.csv -box 0,0,1,1 -steps 1 -output_dir out
expect_rc 2 "a body outside the walls"
$expect_error "a body outside the walls" "outside.csv" "data row 2" "wall"

# Coordinates so far apart that no grid of cells spans them.
printf 'x,y,r\n-1e308,0,0.1\n1e308,0,0.1\n' >far_apart.csv
# shellcheck disable=SC2086
run $launch -particles_file far_apart.csv -steps 1 -output_dir out
expect_rc 2 "bodies too far apart"
$expect_error "bodies too far apart" "too far apart"

# A header and no data: no bodies to simulate is an input error.
printf 'x,y,r\n# nothing else\n' >header_only.csv
# shellcheck disable=SC2086
run $launch -particles_file header_only.csv -box 0,0,1,1 -steps 1 -output_dir out
expect_rc 2 "a header without rows"
$expect_error "a header without rows" "header_only.csv" "no bodies"

# A NUL byte in a row (line 201) would cut the row short without a word.
awk 'NR == 201 { printf "0.5,0.5"; printf "%c", 0; print ",0.01"; next } { print }' lattice.csv >nul_byte.csv
# shellcheck disable=SC2086
run $launch -particles_file nul_byte.csv -box -1,-1,2,2 -steps 1 -output_dir out
expect_rc 2 "a NUL byte"
$expect_error "a NUL byte" "nul_byte.csv:201:" "NUL"

# A named pipe is no particle file (reading it would wait for a writer).
rm -f pipe.csv
mkfifo pipe.csv
# shellcheck disable=SC2086
run $launch -particles_file pipe.csv -box 0,0,1,1 -steps 1 -output_dir out
expect_rc 2 "a named pipe"
$expect_error "a named pipe" "pipe.csv" "not a regular file"

# The lattice itself is fine.
# shellcheck disable=SC2086
run $launch -particles_file lattice.csv -box -1,-1,2,2 -steps 1 -output_dir good
expect_rc 0 "the good lattice file"
[ -e out ] && fail "a rejected file left an output directory"
echo "bad_csv: ok"
