# sh example.sh MOREAU WORKDIR TOOLS
#
# README command 1's script, tools/example.sh, end to end on a smaller cell
# (300 disks instead of 4000, with a time step scaled to their size as the
# example's is to its disks, everything else as in examples/shear2d.opts):
# it runs, prints the steady-state line (friction, solid fraction, inertial
# number) and the paths of its four plots, which exist as PNG files in
# out/plots/. A second run into the same directory works (the script
# overwrites its own outputs). Skipped (77) without a python3 that has
# numpy, matplotlib and h5py.
exe=$1 work=$2 tools=$3
# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/lib.sh"
enter_workdir
ok=
for p in python3 /usr/bin/python3; do "$p" -c "import numpy, matplotlib, h5py" 2>/dev/null && ok=1; done
[ -n "$ok" ] || { echo "SKIP: no python3 with numpy, matplotlib and h5py"; exit 77; }
for attempt in 1 2; do
  MOREAU=$exe run sh "$tools/example.sh" -gen_n 300 -dt 1.5e-3
  expect_rc 0 "tools/example.sh (run $attempt)"
done
grep -Eq "^steady from strain [0-9.]+: [0-9]+ blocks, mu 0\.[0-9]+ \+- [0-9.]+, phi 0\.[0-9]+ \+- [0-9.]+, I 0\.[0-9]+" \
  stdout || fail "no steady-state line"
for png in timeseries force_chains profiles force_pdf; do
  grep -qx "out/plots/$png.png" stdout || fail "the path of out/plots/$png.png is not printed"
  [ "$(head -c 4 "out/plots/$png.png" | od -An -c | tr -d ' ')" = "211PNG" ] || fail "out/plots/$png.png is not a PNG"
done
echo "PASS: $(grep '^steady from' stdout)"
