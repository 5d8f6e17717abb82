#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checkpoint_private.h"

/* Rank 0: the directory exists (made if needed) and takes files. */
static moreau_err check_writable(const char *dir)
{
  char probe[IO_PATH_MAX];
  FILE *f;
  moreau_err err = io_mkdir_p(dir);
  if (err) {
    /* The user's to fix: an input error, with the reason io_mkdir_p gave. */
    char why[512];
    snprintf(why, sizeof(why), "%s", moreau_error_message());
    moreau_error_clear();
    MOREAU_FAIL(MOREAU_ERR_INPUT, "option -output_dir %s: %s", dir, why);
  }
  MOREAU_CALL(io_path(probe, "%s/.moreau_write_test_%ld", dir, (long)getpid()));
  f = fopen(probe, "w");
  MOREAU_CHECK(f, MOREAU_ERR_INPUT, "option -output_dir %s: cannot write in it (%s)", dir, strerror(errno));
  fclose(f);
  unlink(probe);
  return MOREAU_SUCCESS;
}

/* Rank 0: a new run must not mix its checkpoints with an earlier run's, or
 * a later -restart auto would continue the wrong one. */
static moreau_err check_no_checkpoints(const char *dir)
{
  char ckpt_dir[IO_PATH_MAX];
  int64_t *steps;
  size_t n;
  MOREAU_CALL(io_path(ckpt_dir, "%s/checkpoints", dir));
  MOREAU_CALL(ckpt_list(ckpt_dir, &steps, &n));
  moreau_free(&steps);
  MOREAU_CHECK(n == 0, MOREAU_ERR_INPUT,
               "option -output_dir %s: holds the checkpoints of an earlier run; continue it with -restart auto, or "
               "write to another directory (or remove %s)",
               dir, ckpt_dir);
  return MOREAU_SUCCESS;
}

/* Rank 0: a snapshot whose writing was interrupted left its temporary files
 * behind; they are never read, and go when a run uses the directory again. */
static void remove_partial_snapshots(const char *dir)
{
  char snap_dir[IO_PATH_MAX], path[IO_PATH_MAX];
  DIR *d;
  struct dirent *e;
  if (io_path(snap_dir, "%s/snapshots", dir) || !(d = opendir(snap_dir))) {
    moreau_error_clear();
    return;
  }
  while ((e = readdir(d))) {
    size_t n = strlen(e->d_name);
    if (strncmp(e->d_name, "snap_", 5) || n < 5 || strcmp(e->d_name + n - 4, ".tmp")) continue;
    if (io_path(path, "%s/%s", snap_dir, e->d_name)) {
      moreau_error_clear();
      continue;
    }
    if (unlink(path) == 0)
      fprintf(stderr, "moreau: note: removed %s, a snapshot whose writing was interrupted\n", path);
  }
  closedir(d);
}

static moreau_err prepare(const char *dir, int restart)
{
  MOREAU_CHECK(dir && dir[0], MOREAU_ERR_INPUT, "option -output_dir: must not be empty");
  MOREAU_CALL(check_writable(dir));
  remove_partial_snapshots(dir);
  if (!restart) MOREAU_CALL(check_no_checkpoints(dir));
  return MOREAU_SUCCESS;
}

moreau_err moreau_output_dir_prepare(MPI_Comm comm, const char *dir, int restart)
{
  int rank;
  MOREAU_MPI_CALL(MPI_Comm_rank(comm, &rank));
  MOREAU_CALL(moreau_error_agree(comm, rank == 0 ? prepare(dir, restart) : MOREAU_SUCCESS));
  return MOREAU_SUCCESS;
}

/* Rank 0. */
static moreau_err discard_after(const char *dir, int64_t step)
{
  char ckpt_dir[IO_PATH_MAX], path[IO_PATH_MAX];
  int64_t *steps;
  size_t n;
  moreau_err err = MOREAU_SUCCESS;
  MOREAU_CALL(io_path(ckpt_dir, "%s/checkpoints", dir));
  MOREAU_CALL(ckpt_list(ckpt_dir, &steps, &n));
  for (size_t i = 0; i < n && !err; i++) {
    if (steps[i] <= step) continue;
    err = ckpt_path(path, ckpt_dir, steps[i], "");
    if (!err && unlink(path) == 0)
      fprintf(stderr, "moreau: note: removed %s, a checkpoint after step %lld that this run replaces\n", path,
              (long long)step);
  }
  moreau_free(&steps);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}

moreau_err moreau_checkpoint_discard_after(MPI_Comm comm, const char *dir, int64_t step)
{
  int rank;
  MOREAU_MPI_CALL(MPI_Comm_rank(comm, &rank));
  MOREAU_CALL(moreau_error_agree(comm, rank == 0 ? discard_after(dir, step) : MOREAU_SUCCESS));
  return MOREAU_SUCCESS;
}
