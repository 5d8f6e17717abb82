# `moreau -help`: exits 0, lists every option group, each group's options with
# their kind, and the defaults it shows are values moreau accepts: one run
# given every listed default explicitly (then overridden to stay tiny) must
# read them all and succeed.
exe=$1 work=$2
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/lib.sh"
enter_workdir

run "$exe" -help
expect_rc 0 "-help"
[ -s stderr ] && fail "-help wrote to stderr"
cp stdout help.txt

for group in "Run" "Time stepping" "Materials" "Walls" "Generator" "Contact solver" "Partitioning"; do
  grep -q "^$group.*:\$" help.txt || fail "-help has no group '$group'"
done

# Per group: at least one option, and at least one with a default; every
# option line is `  -name <kind> help`.
awk '
  /^[A-Z].*:$/ && !/^Options/ { if (group != "") check(); group = $0; options = 0; defaults = 0; next }
  group != "" && /^  -/ {
    options++
    if ($0 ~ /\(default: [^)]*\)$/) defaults++
    if ($0 !~ /^  -[a-z_0-9<>]+ <[^ ]*> /) { print "malformed option line: " $0; bad = 1 }
  }
  function check() {
    if (options == 0) { print "group without options: " group; bad = 1 }
    if (defaults == 0) { print "group without any default: " group; bad = 1 }
  }
  END { check(); exit bad }' help.txt >check.txt || { cat check.txt >&2; fail "-help layout"; }

for option in -dt -steps -t_end -gen_n -nlgs_tol -particles_file -output_dir -output_every -snapshot_every; do
  grep -q "^  $option " help.txt || fail "-help does not list $option"
done

# Every default that is a single word, given explicitly. Numbered families
# (-wall<i>_...) are left out: they need a wall to exist.
# Each option once (a repeated one is an error): the run's own -gen_n, -steps
# and -output_dir replace their defaults.
defaults=$(sed -n 's/^  \(-[a-z_0-9]*\) .*(default: \([^) ]*\))$/\1 \2/p' help.txt |
  grep -v -e '^-gen_n ' -e '^-steps ' -e '^-output_dir ')
[ "$(echo "$defaults" | wc -l)" -ge 20 ] || fail "fewer than 20 defaults found in -help"
# shellcheck disable=SC2086
run "$exe" $defaults -gen_n 30 -steps 2 -output_dir out
expect_rc 0 "a run given every default of -help explicitly"
[ -s stderr ] && fail "a run given every default wrote to stderr"
echo "help: ok"
