# Helpers of the plotting-script tests; each test is `sh <test>.sh TOOLS
# WORKDIR [...]` (TOOLS: the repository's tools/ folder) and sources this
# file after setting $tools and $work. Exits 77 (skipped) when no python3
# has numpy, matplotlib and h5py.
# shellcheck shell=sh disable=SC2154,SC2034

# shellcheck source=tests/app/lib.sh
. "$(dirname "$0")/../app/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)

# The first python3 with the modules: the one on PATH, else Debian's (a
# python3 of pyenv or a virtualenv on PATH may lack the Debian packages).
py=
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null 2>&1 && "$p" -c "import numpy, matplotlib, h5py" 2>/dev/null; then
    py=$p
    break
  fi
done
if [ -z "$py" ]; then
  echo "SKIP: no python3 with numpy, matplotlib and h5py (Debian: python3-numpy python3-matplotlib python3-h5py)"
  exit 77
fi
export MPLBACKEND=Agg

rm -rf "$work"
mkdir -p "$work" && cd "$work" || exit 1

# expect_png FILE: a PNG (its 8 signature bytes) of more than 5 kB.
expect_png() {
  [ -s "$1" ] || fail "$1 was not written"
  [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$1 is not a PNG (signature)"
  [ "$(wc -c <"$1")" -gt 5000 ] || fail "$1 has only $(wc -c <"$1") bytes"
}

# plot SCRIPT OUT ARGS...: runs tools/SCRIPT.py ARGS, which must succeed,
# print OUT (the PNG's path) as its last line and write a valid PNG there.
plot() {
  script=$1 out=$2
  shift 2
  run "$py" "$tools/$script.py" "$@"
  expect_rc 0 "$script $*"
  [ "$(tail -n 1 "$work/stdout")" = "$out" ] || fail "$script $*: the last line of stdout is not $out"
  expect_png "$out"
}

# pixels PNG R,G,B: how many pixels of the PNG have that colour (within 8
# of 255 on each channel).
pixels() {
  "$py" - "$1" "$2" <<'PY'
import sys
import matplotlib.image
import numpy as np
rgb = matplotlib.image.imread(sys.argv[1])[:, :, :3] * 255
want = np.array([float(c) for c in sys.argv[2].split(",")])
print(int((np.abs(rgb - want).max(axis=2) < 8).sum()))
PY
}

# plot_fails SCRIPT WORD ARGS...: tools/SCRIPT.py ARGS exits with 2 and one
# line "SCRIPT: error: ..." naming WORD on stderr, nothing on stdout.
plot_fails() {
  script=$1 word=$2
  shift 2
  run "$py" "$tools/$script.py" "$@"
  expect_rc 2 "$script $*"
  [ "$(wc -l <"$work/stderr")" -eq 1 ] || fail "$script $*: stderr is not exactly one line"
  grep -q "^$script: error: " "$work/stderr" || fail "$script $*: stderr does not start with '$script: error: '"
  grep -qF -e "$word" "$work/stderr" || fail "$script $*: the error does not mention '$word'"
  [ -s "$work/stdout" ] && fail "$script $*: wrote to stdout"
  return 0
}

# png_height PNG: its height in pixels (IHDR, big-endian at byte 20).
png_height() {
  od -An -tu1 -j20 -N4 "$1" | awk '{ print ((($1 * 256 + $2) * 256 + $3) * 256 + $4) }'
}
