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

/* What a run writes in its output directory: files, and folders whose
 * entries start with a prefix. */
static const char *const run_files[] = {"timeseries.csv", "snapshots.xmf", NULL};
static const char *const run_folders[][2] = {
    {"snapshots", "snap_"}, {"checkpoints", "ckpt_"}, {"profiles", "profile_"}, {"forces", "force_pdf_"}, {NULL, NULL}};

/* Rank 0: the number of entries of folder (in dir) starting with prefix;
 * with remove, they are removed. */
static moreau_err folder_entries(const char *dir, const char *folder, const char *prefix, int remove, int *count)
{
  char sub[IO_PATH_MAX], path[IO_PATH_MAX];
  DIR *d;
  struct dirent *e;
  moreau_err err = MOREAU_SUCCESS;
  *count = 0;
  MOREAU_CALL(io_path(sub, "%s/%s", dir, folder));
  if (!(d = opendir(sub))) return MOREAU_SUCCESS;
  while (!err && (e = readdir(d))) {
    if (strncmp(e->d_name, prefix, strlen(prefix))) continue;
    (*count)++;
    if (!remove) continue;
    err = io_path(path, "%s/%s", sub, e->d_name);
    if (!err && unlink(path) != 0)
      err = moreau_error_raise(MOREAU_ERR_IO, __FILE__, __LINE__, __func__, "%s: cannot remove (%s)", path,
                               strerror(errno));
  }
  closedir(d);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}

/* Rank 0: the outputs of an earlier run in dir, listed in found (""
 * when none); with remove (-overwrite), they are removed. */
static moreau_err earlier_outputs(const char *dir, int remove, char *found, size_t size)
{
  char path[IO_PATH_MAX];
  int n;
  found[0] = '\0';
  for (int i = 0; run_files[i]; i++) {
    MOREAU_CALL(io_path(path, "%s/%s", dir, run_files[i]));
    if (access(path, F_OK) != 0) continue;
    snprintf(found + strlen(found), size - strlen(found), "%s%s", found[0] ? ", " : "", run_files[i]);
    MOREAU_CHECK(!remove || unlink(path) == 0, MOREAU_ERR_IO, "%s: cannot remove (%s)", path, strerror(errno));
  }
  for (int i = 0; run_folders[i][0]; i++) {
    MOREAU_CALL(folder_entries(dir, run_folders[i][0], run_folders[i][1], remove, &n));
    if (n) snprintf(found + strlen(found), size - strlen(found), "%s%s/", found[0] ? ", " : "", run_folders[i][0]);
  }
  return MOREAU_SUCCESS;
}

/* Rank 0: a new run must not mix its outputs with an earlier run's (it
 * would overwrite some of its snapshots and keep the others, and a later
 * -restart auto could continue the wrong checkpoints): the directory is
 * refused unless -overwrite asks to remove them first. */
static moreau_err check_new_run(const char *dir, int overwrite)
{
  char found[256];
  MOREAU_CALL(earlier_outputs(dir, overwrite, found, sizeof(found)));
  if (overwrite && found[0])
    fprintf(stderr, "moreau: note: -overwrite removed the outputs of an earlier run in %s (%s)\n", dir, found);
  MOREAU_CHECK(overwrite || !found[0], MOREAU_ERR_INPUT,
               "option -output_dir %s: holds the outputs of an earlier run (%s); give -overwrite to replace them, "
               "-restart auto to continue that run, or another directory",
               dir, found);
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

static moreau_err prepare(const char *dir, moreau_output_mode mode)
{
  MOREAU_CHECK(dir && dir[0], MOREAU_ERR_INPUT, "option -output_dir: must not be empty");
  MOREAU_CALL(check_writable(dir));
  remove_partial_snapshots(dir);
  if (mode != MOREAU_OUTPUT_CONTINUE) MOREAU_CALL(check_new_run(dir, mode == MOREAU_OUTPUT_OVERWRITE));
  return MOREAU_SUCCESS;
}

moreau_err moreau_output_dir_prepare(MPI_Comm comm, const char *dir, moreau_output_mode mode)
{
  int rank;
  MOREAU_MPI_CALL(MPI_Comm_rank(comm, &rank));
  MOREAU_CALL(moreau_error_agree(comm, rank == 0 ? prepare(dir, mode) : MOREAU_SUCCESS));
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
