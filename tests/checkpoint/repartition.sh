# bash repartition.sh MOREAU WORKDIR MPIEXEC NP1 NP2
#
# A checkpoint written on NP1 ranks continues on NP2: the bodies are split
# anew and the contact history follows them by gid. The run cannot be bit
# for bit the one that stayed on NP1 (the sweep order of the contact solver
# depends on the partition), so it is compared with it as physics:
#  - the restarted run finishes, and its series has every step once;
#  - both checkpoints hold the default partition, RCB's cuts;
#  - the same bodies: count, sum and set of gids, and radius and mass of
#    each gid equal (exact);
#  - no overlap growth: max_overlap after the restart < 2 x the largest of
#    the uninterrupted run;
#  - the macroscopic state: the mean kinetic energy and the mean vertical
#    force on the walls (summed over the walls) over the last 200 steps,
#    every step a row (so the mean force is the walls' impulse over the
#    stretch divided by its duration), within TOL = 2 % of the
#    uninterrupted run's. Why 2 %: the contact solver stops once the
#    relative change of the forces is below -nlgs_tol = 1e-4, so two
#    partitions (two sweep orders) give forces that differ by about 1e-4
#    relative in each step; added up over the 200 compared steps that is
#    2e-2 of the impulses, hence of the mean force and, through the
#    velocities, of the energy. Measured on this scene (uninterrupted on 1,
#    2 and 3 ranks, and 2 -> 3): energies within 0.05 %, forces within
#    0.4 %, well inside.
# shellcheck source=tests/checkpoint/lib.sh
. "$(dirname "$0")/lib.sh"
np1=$1 np2=$2
N=800 H=400 TOL=0.02
opts="$SCENE -output_every 1"

# shellcheck disable=SC2086
run "$np1" $opts -steps $N -output_dir straight
expect_rc 0 "uninterrupted run on $np1 ranks"
expect_quiet "uninterrupted run"
# shellcheck disable=SC2086
run "$np1" $opts -steps $H -output_dir moved
expect_rc 0 "first half on $np1 ranks"
run "$np2" -restart auto -steps $N -output_dir moved
expect_rc 0 "restart on $np2 ranks of a checkpoint of $np1"
expect_quiet "restart on $np2 ranks"
a=straight/checkpoints/ckpt_00000800.h5 b=moved/checkpoints/ckpt_00000800.h5
[ -f $a ] && [ -f $b ] || fail "no final checkpoint"
rows=$(steps_contiguous moved/timeseries.csv 1) || fail "the continued series has a gap or a repeated step"
[ "$rows" -eq $N ] || fail "the continued series has $rows rows, expected $N"
c=$(min_contacts moved/timeseries.csv $H $N)
[ "$c" -gt 0 ] || fail "rows after the restart without contacts"

# The default partition is RCB: both checkpoints say so (the partition kind,
# the 16th of /run/header_ints, is 2) and hold the cuts, not a cell map.
for f in $a $b; do
  kind=$(h5col $f /run/header_ints | sed -n 16p)
  [ "$kind" = 2 ] || fail "$f: partition kind '$kind', expected 2 (RCB, the default)"
  h5dump -H -d /partition/rcb_cut $f >/dev/null 2>&1 || fail "$f: no /partition/rcb_cut"
done

# The bodies, by gid.
bodies() {
  h5col "$1" /bodies/gid >gid
  h5col "$1" /bodies/radius >radius
  h5col "$1" /bodies/inv_mass >inv_mass
  paste -d' ' gid radius inv_mass | sort -n -k1,1
}
bodies $a >a.bodies
bodies $b >b.bodies
na=$(wc -l <a.bodies) nb=$(wc -l <b.bodies)
[ "$na" -eq 400 ] || fail "$a: $na bodies, expected 400"
[ "$na" -eq "$nb" ] || fail "$nb bodies after the restart on $np2 ranks, $na without"
sa=$(awk '{ s += $1 } END { print s }' a.bodies) sb=$(awk '{ s += $1 } END { print s }' b.bodies)
[ "$sa" = "$sb" ] || fail "gid sums differ: $sa, $sb after the restart"
cmp -s a.bodies b.bodies || { diff a.bodies b.bodies | head -n 6 >&2; fail "the bodies' gids, radii or masses differ"; }
awk 'NR != $1 + 1 { exit 1 }' a.bodies || fail "the gids are not 0..399 once each"

# Overlap and macroscopic state (columns by name).
awk -F, -v h=$H -v n=$N -v tol=$TOL -v from=$((N - 200)) '
  BEGIN { maxov["a"] = 0; maxov["b"] = 0 }
  FNR == 1 { for (i = 1; i <= NF; i++) { col[$i] = i; if ($i ~ /^wall[0-9]+_fy$/) fy[i] = 1 } next }
  {
    run = FILENAME ~ /^straight/ ? "a" : "b"
    if (run == "a" && $col["max_overlap"] > maxov["a"]) maxov["a"] = $col["max_overlap"]
    if (run == "b" && $1 > h && $col["max_overlap"] > maxov["b"]) maxov["b"] = $col["max_overlap"]
    if ($1 > from) {
      ke[run] += $col["kinetic_energy"]; cnt[run]++
      for (i in fy) f[run] += $i
    }
  }
  function rel(x, y) { return (x > y ? x - y : y - x) / (y > 0 ? y : -y) }
  END {
    printf "max_overlap: uninterrupted %.3g, after the restart %.3g\n", maxov["a"], maxov["b"]
    printf "last 200 steps: mean kinetic energy %.6g vs %.6g (%.3g %%), mean wall force y %.6g vs %.6g (%.3g %%)\n",
      ke["a"] / cnt["a"], ke["b"] / cnt["b"], 100 * rel(ke["b"] / cnt["b"], ke["a"] / cnt["a"]),
      f["a"] / cnt["a"], f["b"] / cnt["b"], 100 * rel(f["b"] / cnt["b"], f["a"] / cnt["a"])
    if (cnt["a"] != 200 || cnt["b"] != 200) { print "FAIL: not 200 rows in the compared stretch"; exit 1 }
    if (!(maxov["b"] < 2 * maxov["a"])) { print "FAIL: the overlap grew after the restart"; exit 1 }
    if (rel(ke["b"] / cnt["b"], ke["a"] / cnt["a"]) > tol) { print "FAIL: kinetic energy off by more than tol"; exit 1 }
    if (rel(f["b"] / cnt["b"], f["a"] / cnt["a"]) > tol) { print "FAIL: wall force off by more than tol"; exit 1 }
  }' straight/timeseries.csv moved/timeseries.csv >verdict
st=$?
cat verdict
[ $st -eq 0 ] || fail "$(grep FAIL verdict)"
echo "repartition $np1 -> $np2: ok ($nb bodies, gid sum $sb, >= $c contacts after the restart)"
