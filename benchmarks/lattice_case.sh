# The lattices of memory_runs.sh and lattice_speed.sh (sourced by both): a
# square (cubic) lattice of disks (spheres) of radius 0.5 whose neighbours
# sit 0.322 (0.324) apart, inside the alert distance 0.4.

# lattice_n DIM N: k^DIM for the whole k nearest N^(1/DIM).
lattice_n() {
  awk -v d="$1" -v n="$2" 'BEGIN { k = int(exp(log(n) / d) + 0.5); printf "%d\n", d == 2 ? k * k : k * k * k }'
}

# lattice_box DIM N (N = k^DIM): the -gen_box of the lattice.
lattice_box() {
  local side
  if [ "$1" = 2 ]; then
    side=$(awk -v n="$2" 'BEGIN { printf "%.4f", sqrt(n) * 1.322 }')
    echo "0,0,$side,$side"
  else
    side=$(awk -v n="$2" 'BEGIN { printf "%.4f", exp(log(n) / 3) * 1.324 }')
    echo "0,0,0,$side,$side,$side"
  fi
}
