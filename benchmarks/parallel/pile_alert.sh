# shellcheck shell=bash
# Sourced by sweeps.sh, pile_scaling.sh and make_pile.sh.
#
# pile_alert FILE.h5: a tenth of the mean radius of the bodies in an HDF5
# snapshot, summed in file order. That was moreau's default alert distance
# when RESULTS.md was measured (it is now a tenth of the largest radius), so
# passing it explicitly keeps the contact sets, and the sweep counts, of
# RESULTS.md whatever the library's default.
pile_alert() {
  local tmp
  tmp=$(mktemp)
  if ! h5dump -d /bodies/radius -y -w 0 -m %.17g -o "$tmp" "$1" >/dev/null; then
    rm -f "$tmp"
    echo "cannot read /bodies/radius from $1 with h5dump (Debian: hdf5-tools)" >&2
    return 1
  fi
  tr ', ' '\n' <"$tmp" | awk 'NF { s += $1; n++ } END { if (n) printf "%.17g\n", 0.1 * s / n }'
  rm -f "$tmp"
}
