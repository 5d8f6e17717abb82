# sh runs.sh MOREAU WORKDIR
#
# The moreau runs the plotting tests draw (a fixture): dep, a 2D deposition
# of 50 disks in the default walled box (snapshots at steps 0, 200, 400);
# shear, a periodic Lees-Edwards cell of 60 disks sheared under pressure to
# a strain of 0.05 (snapshots every 100 steps and at its end, where the
# checkpoint is); d3, 100 spheres settling in the default 3D box; rough, 300
# disks sheared between rough walls under pressure (8 profile bins).
# shellcheck shell=sh
exe=$1 work=$2
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/../app/lib.sh"
enter_workdir
run "$exe" -gen_n 50 -steps 400 -snapshot_every 200 -output_every 10 -status_every 0 -output_dir dep
expect_rc 0 "2D deposition"
run "$exe" -gen_type random -gen_n 60 -gen_fraction 0.6 -gravity 0,0 -pressure 1000 -inertial_number 0.1 -dt 2e-4 \
  -strain_end 0.05 -t_end 1e9 -output_every 10 -snapshot_every 100 -status_every 0 -output_dir shear
expect_rc 0 "periodic shear"
run "$exe" -dim 3 -gen_n 100 -steps 400 -dt 5e-4 -output_every 10 -snapshot_every 400 -status_every 0 -output_dir d3
expect_rc 0 "3D deposition"
run "$exe" -gen_type random -gen_n 300 -gen_fraction 0.75 -gen_box 0,0,0.8,0.4 -periodic x -rough_walls true \
  -gravity 0,0 -pressure 1000 -inertial_number 0.1 -barostat_mass 0.1 -dt 4e-4 -steps 600 -t_end 1e9 -output_every 10 \
  -snapshot_every 300 -status_every 0 -profile_bins 8 -profile_every 100 -output_dir rough
expect_rc 0 "rough-wall cell"
for f in dep/snapshots/snap_000400.h5 dep/timeseries.csv shear/snapshots/snap_000100.h5 shear/timeseries.csv \
  d3/snapshots/snap_000400.h5 rough/snapshots/snap_000600.h5 rough/profiles/profile_000600.csv; do
  [ -s "$f" ] || fail "missing $f"
done
