# sh full_disk.sh MOREAU WORKDIR [MPIEXEC NP]
#
# A full disk during a collective write: the output directory (snapshot
# case) or its checkpoints folder (checkpoint case) is a 48 KiB tmpfs,
# mounted in a private mount namespace (unshare -m as root, unshare -Urm
# otherwise), so the first snapshot or checkpoint of 2000 bodies fills it.
# Each run must end within the timeout (a rank left waiting in a collective
# write is a hang) with exit code 1, one line "moreau: error: ... (No space
# left on device)" naming the file, none of HDF5's error stack, no MPI_ABORT
# or signal, and no partial .tmp file left. Exit 77 (skipped) when no
# tmpfs can be mounted here. The same for a read-only tmpfs as the output
# directory or its parent: exit code 2 and one line naming the reason.
# shellcheck shell=sh
exe=$1 work=$2 mpiexec=$3 np=${4:-1}
. "$(dirname "$0")/../app/lib.sh"
enter_workdir

if [ "$(id -u)" = 0 ]; then ns="unshare -m"; else ns="unshare -Urm"; fi
# shellcheck disable=SC2086
if ! $ns sh -c 'mkdir -p probe && mount -t tmpfs -o size=48k tmpfs probe' 2>/dev/null; then
  echo "SKIP: cannot mount a tmpfs in a private mount namespace here" >&2
  exit 77
fi
launch=$exe
[ "$np" -gt 1 ] && launch="$mpiexec -n $np --oversubscribe $exe"

# full CASE MOUNTPOINT FILE ARGS...: runs moreau with MOUNTPOINT on a full
# disk; the error must name FILE.
full() {
  what=$1 mnt=$2 file=$3
  shift 3
  rm -rf out
  mkdir -p out/checkpoints
  # shellcheck disable=SC2086
  run timeout -k 5 60 $ns sh -c "mount -t tmpfs -o size=48k tmpfs $mnt && exec $launch \"\$@\"; echo 'mount failed' >&2" \
    sh -gen_n 2000 -steps 2 -status_every 0 -output_dir out "$@"
  [ "$rc" != 124 ] && [ "$rc" != 137 ] || fail "$what: hung (killed by the timeout)"
  expect_rc 1 "$what"
  expect_one_moreau_error "$what" "No space left on device" "$file"
  for bad in HDF5-DIAG MPI_ABORT 'Segmentation fault' 'core dumped' '  at '; do
    ! grep -qF -e "$bad" stderr || fail "$what: stderr holds '$bad'"
  done
  ! ls out/snapshots/*.tmp out/checkpoints/*.tmp >/dev/null 2>&1 || fail "$what: a partial .tmp file is left"
}

full "snapshot on a full disk" out snapshots/snap_000000.h5.tmp
full "checkpoint on a full disk" out/checkpoints checkpoints/ckpt_00000001.h5.tmp -checkpoint_every 1 -snapshot_every 0
# A read-only file system: the output directory itself, or one to be made
# in it, is bad input (exit 2, one line with the system's reason).
read_only() {
  what=$1 dir=$2
  mkdir -p ro
  # shellcheck disable=SC2086
  run timeout -k 5 60 $ns sh -c "mount -t tmpfs -o ro,size=48k tmpfs ro && exec $launch \"\$@\"; echo 'mount failed' >&2" \
    sh -gen_n 50 -steps 2 -status_every 0 -output_dir "$dir"
  [ "$rc" != 124 ] && [ "$rc" != 137 ] || fail "$what: hung (killed by the timeout)"
  expect_rc 2 "$what"
  expect_one_moreau_error "$what" "Read-only file system" "$dir"
}
read_only "a read-only output directory" ro
read_only "an output directory to make on a read-only file system" ro/run
echo "PASS: full and read-only disks on $np rank(s)"
