# sh bad_input.sh TOOLS WORKDIR SCRIPT RUNS
#
# Bad input to tools/SCRIPT.py: exit code 2, one line "SCRIPT: error: ..."
# naming the problem on stderr, nothing on stdout, no PNG. For every script:
# a missing file, no argument, a file of another format; then the script's
# own cases.
# shellcheck shell=sh
tools=$1 work=$2 script=$3 runs=$4
# shellcheck source=tests/plots/lib.sh
. "$(dirname "$0")/lib.sh"
"$py" "$here/synthetic.py" profile 2 100 profile2.csv || fail "synthetic profile"
"$py" "$here/synthetic.py" profile 3 100 profile3.csv || fail "synthetic profile"
"$py" "$here/synthetic.py" pdf 0.2 25 pdf.csv || fail "synthetic PDF"
snapshot=$runs/dep/snapshots/snap_000400.h5

plot_fails "$script" missing.file missing.file
plot_fails "$script" "required" -o x.png
case $script in
plot_timeseries)
  plot_fails "$script" "not a CSV text file" "$snapshot" -o x.png
  plot_fails "$script" "no column foo" "$runs/shear/timeseries.csv" -y friction,foo -o x.png
  plot_fails "$script" "no column strain" "$runs/dep/timeseries.csv" -x strain -o x.png
  plot_fails "$script" "invalid choice" "$runs/dep/timeseries.csv" -x volume -o x.png
  plot_fails "$script" "no column time" profile2.csv -o x.png
  printf 'step,time\n1,2\n3\n' >ragged.csv
  plot_fails "$script" "ragged.csv:3: 1 values, expected 2" ragged.csv -o x.png
  printf 'step,time\n1,abc\n' >text.csv
  plot_fails "$script" "text.csv:2: not a row of numbers" text.csv -o x.png
  printf 'step,time\n' >header.csv
  plot_fails "$script" "header.csv: no data rows" header.csv -o x.png
  ;;
plot_forces)
  plot_fails "$script" "not an HDF5 file" "$runs/dep/timeseries.csv" -o x.png
  plot_fails "$script" "not a moreau snapshot" "$runs/dep/checkpoints/ckpt_00000400.h5" -o x.png
  plot_fails "$script" "x-y plane only" "$snapshot" --plane xz -o x.png
  plot_fails "$script" "--box 0,0,1" "$snapshot" --box 0,0,1 -o x.png
  plot_fails "$script" "--slab 1" "$runs/d3/snapshots/snap_000400.h5" --slab 1 -o x.png
  plot_fails "$script" "no body has its centre in the slab" "$runs/d3/snapshots/snap_000400.h5" --slab 50,60 -o x.png
  plot_fails "$script" "--width" "$snapshot" --width 0 -o x.png
  ;;
plot_profiles)
  plot_fails "$script" "no column y" "$runs/dep/timeseries.csv" -o x.png
  plot_fails "$script" "not a CSV text file" "$snapshot" -o x.png
  plot_fails "$script" "has not the columns of" profile2.csv profile3.csv --mean -o x.png
  head -n 5 profile2.csv >short.csv
  plot_fails "$script" "short.csv has 4 bins" profile2.csv short.csv --mean -o x.png
  ;;
plot_force_pdf)
  plot_fails "$script" "no column f_lo" profile2.csv -o x.png
  printf 'f_lo,f_hi,pdf,count\n0,1,0.5,10\n1,2,-0.1,3\n' >negative.csv
  plot_fails "$script" "negative" negative.csv -o x.png
  printf 'f_lo,f_hi,pdf,count\n0,1,0,0\n' >empty.csv
  plot_fails "$script" "no bin has a density > 0" empty.csv -o x.png
  ;;
*) fail "unknown script $script" ;;
esac
[ -e x.png ] && fail "a PNG was written for bad input"
exit 0
