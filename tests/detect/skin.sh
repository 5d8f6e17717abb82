# bash skin.sh MOREAU WORKDIR MPIEXEC NP CASE
#
# Detection keeps its candidate pairs (alert + skin) between steps; the skin
# changes how often they are built, never the contacts. The same run with
# -detect_skin 0 (a build whenever anything moved), the default skin (half
# the largest radius) and a wide one (a diameter) must end with the same
# checkpoint (/bodies and /history, h5diff exact) and the same time series
# (every column but the timings). The default and the wide skin must build
# less often than -detect_skin 0 (MoreauDetectBuild in -log_view), or the
# test would not test the reuse. CASE:
#   pile     the collapsing pile of the checkpoint tests, 400 disks between walls;
#   sheared  a dense periodic packing sheared by Lees-Edwards images under
#            pressure control (the images move, the box's length changes);
#   rough    sheared between rough walls, the top one pushed by a pressure;
#   trimers  the pile of rigid clusters of three disks (they turn);
#   pile3d   300 spheres falling into a box;
#   sheared3d  300 spheres in a triply periodic Lees-Edwards cell under pressure.
# shellcheck shell=bash source=tests/checkpoint/lib.sh
. "$(dirname "$0")/../checkpoint/lib.sh"
np=$1 case=$2
N=600
opts="$SCENE"
case $case in
pile) ;;
sheared) opts="$SCENE -gen_box 0,0,12,12 -gen_polydispersity 0.05 -gravity 0,0 -lees_edwards 2 -pressure 1000" ;;
rough) opts="$SCENE -gen_box 0,0,12,12 -gen_polydispersity 0.05 -gravity 0,0 -periodic x -rough_walls true -pressure 1000 -inertial_number 0.1" ;;
trimers) opts="$SCENE -shape trimer -shape_eta 0.3" ;;
pile3d) opts="-dim 3 -gen_type random -gen_n 300 -gen_box 0,0,0,6,6,12 -mu 0.4 -dt 2e-3 -t_end 1e9 -status_every 0 -snapshot_every 0" ;;
sheared3d)
  opts="-dim 3 -gen_type random -gen_n 300 -gen_fraction 0.4 -gen_box 0,0,0,1,1,1 -gen_polydispersity 0.2 -gravity 0,0,0 \
-mu 0.4 -periodic x,y,z -pressure 1000 -inertial_number 0.1 -t_end 1e9 -dt 1e-3 -status_every 0 -snapshot_every 0"
  ;;
*) fail "unknown case $case" ;;
esac

# builds RUN: the count of MoreauDetectBuild in the -log_view of RUN.
builds() {
  awk '$1 == "MoreauDetectBuild" { print $2 }' "$1.log"
}

# skin_run NAME FLAGS...: the run; its -log_view in NAME.log.
skin_run() {
  local name=$1
  shift
  # shellcheck disable=SC2086
  run "$np" $opts -steps $N -output_every 10 -log_view "$@" -output_dir "$name"
  expect_rc 0 "the run $name ($*)"
  cp stdout "$name.log"
  [ -f "$name/$ckpt" ] || fail "$name: no final checkpoint"
}

ckpt=checkpoints/ckpt_$(printf %08d $N).h5
skin_run skin0 -detect_skin 0
wide=$(h5col "skin0/$ckpt" /bodies/radius | sort -g | tail -n 1 | awk '{ print 2 * $1 }')
skin_run default
skin_run wide -detect_skin "$wide"
for name in default wide; do
  same_group "skin0/$ckpt" "$name/$ckpt" /bodies
  same_group "skin0/$ckpt" "$name/$ckpt" /history
  cut -d, -f1-6,9- skin0/timeseries.csv >a.cols
  cut -d, -f1-6,9- $name/timeseries.csv >b.cols
  cmp -s a.cols b.cols || { diff a.cols b.cols | head -n 6 >&2; fail "$name: the time series differ from -detect_skin 0"; }
done
b0=$(builds skin0) bd=$(builds default) bw=$(builds wide)
if [ -z "$b0" ] || [ -z "$bd" ] || [ -z "$bw" ]; then fail "no MoreauDetectBuild count in -log_view"; fi
[ "$bd" -lt "$b0" ] || fail "the default skin built the candidates $bd times, -detect_skin 0 $b0: no reuse"
[ "$bw" -lt "$b0" ] || fail "a skin of $wide built the candidates $bw times, -detect_skin 0 $b0: no reuse"
c=$(min_contacts skin0/timeseries.csv $((N / 2)) $N)
[ "$c" -gt 0 ] || fail "rows after step $((N / 2)) without contacts"
echo "$case np $np: equal checkpoints and time series; candidate builds in $N steps: $b0 (skin 0), $bd (default), \
$bw (skin $wide); >= $c contacts after step $((N / 2))"
