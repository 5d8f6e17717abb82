#!/bin/sh
# The default example (README command 1): a dense 2D granular flow sheared
# at inertial number I = 0.1 under pressure, 4000 disks on 2 MPI ranks
# (examples/shear2d.opts), in out/. It prints the steady friction tau/p, solid
# fraction and measured inertial number, and draws the main plots into
# out/plots/ (time series, force chains, profiles, force distribution).
#   tools/example.sh [more moreau options, e.g. -output_dir elsewhere]
# MOREAU (default build/moreau) is the executable, MOREAU_NP (2) the ranks.
set -eu
tools=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$tools")
exe=${MOREAU:-$root/build/moreau}
# out/ unless the user names another output directory (moreau refuses an
# option given twice).
out=
prev=
for arg in "$@"; do
  [ "$prev" = "-output_dir" ] && out=$arg
  prev=$arg
done
if [ -z "$out" ]; then
  out=out
  set -- -output_dir out "$@"
fi
mpiexec --allow-run-as-root --oversubscribe -n "${MOREAU_NP:-2}" "$exe" \
  -options_file "$root/examples/shear2d.opts" -overwrite "$@"
# The plots need numpy, matplotlib and h5py: Debian's python3 has them
# (tools/setup.sh installs them) where the one on PATH may not.
python=
for p in python3 /usr/bin/python3; do
  if "$p" -c "import numpy, matplotlib, h5py" 2>/dev/null; then
    python=$p
    break
  fi
done
if [ -z "$python" ]; then
  echo "example: no python3 with numpy, matplotlib and h5py (run tools/setup.sh); no summary or plots" >&2
  exit 1
fi
export MPLBACKEND=Agg
# The plots are drawn also when the summary finds no steady state.
status=0
"$python" "$tools/steady_state.py" "$out/timeseries.csv" --inertial_number 0.1 --block 0.5 || status=1
snap=$(ls "$out"/snapshots/snap_*.h5 | tail -n 1)
pdf=$(ls "$out"/forces/force_pdf_*.csv | tail -n 1)
"$python" "$tools/plot_timeseries.py" "$out/timeseries.csv" -x strain -o "$out/plots/timeseries.png"
"$python" "$tools/plot_forces.py" "$snap" -o "$out/plots/force_chains.png"
"$python" "$tools/plot_profiles.py" --mean "$out"/profiles/profile_*.csv -o "$out/plots/profiles.png"
"$python" "$tools/plot_force_pdf.py" "$pdf" -o "$out/plots/force_pdf.png"
exit $status
