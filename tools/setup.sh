#!/usr/bin/env bash
# Installs the Debian 12 packages moreau needs (when missing; as root or via
# sudo) and configures the build in ./build. Used by both README commands
# (tools/test.sh configures the sanitizer build itself).
set -euo pipefail
cd "$(dirname "$0")/.."
# slurmctld slurmd slurm-client munge: for tests/slurm, which runs the
# jobscripts on private SLURM and munge daemons of its own. The packages'
# services are not configured here (where systemd runs, the munge package
# starts munged with its own key; slurmd and slurmctld wait for an
# /etc/slurm/slurm.conf).
# clang-14 libclang-rt-14-dev: the sanitizer build and the libFuzzer targets
# of tools/test.sh (tests/fuzz).
# python3-numpy python3-matplotlib python3-h5py: the plotting scripts
# tools/plot_*.py and their tests (tests/plots).
PKGS=(build-essential cmake pkg-config libopenmpi-dev openmpi-bin libmetis-dev libhdf5-openmpi-dev
      hdf5-tools petsc-dev check libxml2-utils python3 slurmctld slurmd slurm-client munge
      clang-14 libclang-rt-14-dev python3-numpy python3-matplotlib python3-h5py)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO=sudo
  echo "moreau setup: installing ${missing[*]}"
  $SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
