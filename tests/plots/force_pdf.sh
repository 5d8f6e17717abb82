# sh force_pdf.sh TOOLS WORKDIR
#
# tools/plot_force_pdf.py on synthetic force PDFs (synthetic.py): the bin
# means of exp(-f), for which the fit above the mean is exactly beta = 1 and
# A = sinh(w/2) / (w/2) (w the bin width); one file, two overlaid, and the
# default output paths.
# shellcheck shell=sh
tools=$1 work=$2
# shellcheck source=tests/plots/lib.sh
. "$(dirname "$0")/lib.sh"
"$py" "$here/synthetic.py" pdf 0.2 25 fine.csv || fail "synthetic PDF"
"$py" "$here/synthetic.py" pdf 0.5 10 coarse.csv || fail "synthetic PDF"
plot plot_force_pdf pdf/fine.png fine.csv -o pdf/fine.png
line=$(grep '^fine.csv: exponential fit above the mean: ' stdout) || fail "no fit line for fine.csv"
echo "$line"
echo "$line" | awk '{ a = $9; beta = $12; sub(",", "", a)
  want = (exp(0.1) - exp(-0.1)) / 2 / 0.1
  exit !(a - want < 1e-7 && want - a < 1e-7 && beta - 1 < 1e-7 && 1 - beta < 1e-7 && $13 == "(20") }' ||
  fail "fit of exp(-f) in bins of 0.2 from 0 to 5: expected A = sinh(0.1)/0.1, beta = 1 over 20 bins"
plot plot_force_pdf force_pdf.png fine.csv coarse.csv
[ "$(grep -c 'exponential fit above the mean' stdout)" -eq 2 ] || fail "not one fit line per file"
plot plot_force_pdf coarse.png coarse.csv
