# sh profiles.sh TOOLS WORKDIR
#
# tools/plot_profiles.py on synthetic profiles in the documented format
# (synthetic.py): 2D and 3D, one file, several overlaid, their mean, 2D and
# 3D files overlaid, and the default output paths.
# shellcheck shell=sh
tools=$1 work=$2
# shellcheck source=tests/plots/lib.sh
. "$(dirname "$0")/lib.sh"
mkdir -p profiles
for step in 100 200 300; do
  "$py" "$here/synthetic.py" profile 2 $step profiles/profile_$step.csv || fail "synthetic 2D profile"
  "$py" "$here/synthetic.py" profile 3 $step profiles/profile3_$step.csv || fail "synthetic 3D profile"
done
plot plot_profiles profiles/profile_100.png profiles/profile_100.csv
plot plot_profiles profiles/profiles.png profiles/profile_100.csv profiles/profile_200.csv profiles/profile_300.csv
plot plot_profiles out/mean.png profiles/profile_100.csv profiles/profile_200.csv profiles/profile_300.csv --mean \
  -o out/mean.png
plot plot_profiles 3d.png profiles/profile3_100.csv -o 3d.png
plot plot_profiles 3d_mean.png profiles/profile3_100.csv profiles/profile3_200.csv --mean -o 3d_mean.png
plot plot_profiles mixed.png profiles/profile_100.csv profiles/profile3_100.csv -o mixed.png
