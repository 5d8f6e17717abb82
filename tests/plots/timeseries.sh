# sh timeseries.sh TOOLS WORKDIR RUNS
#
# tools/plot_timeseries.py on the time series of the runs of runs.sh: the
# default columns, -x, -y (one panel each: three panels make a taller image
# than one), -o into folders it creates, and the default output path.
# shellcheck shell=sh
tools=$1 work=$2 runs=$3
# shellcheck source=tests/plots/lib.sh
. "$(dirname "$0")/lib.sh"

plot plot_timeseries made/for/it/dep.png "$runs/dep/timeseries.csv" -o made/for/it/dep.png
plot plot_timeseries shear.png "$runs/shear/timeseries.csv" -o shear.png
plot plot_timeseries one.png "$runs/shear/timeseries.csv" -x time -y friction -o one.png
plot plot_timeseries three.png "$runs/shear/timeseries.csv" -x step -y iterations,residual,max_overlap -o three.png
[ "$(png_height three.png)" -gt "$(png_height one.png)" ] || fail "three panels are not taller than one"
cp "$runs/dep/timeseries.csv" copy.csv
plot plot_timeseries copy.png copy.csv
