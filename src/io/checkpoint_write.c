#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checkpoint_file.h"
#include "checkpoint_private.h"
#include "moreau/checkpoint.h"
#include "moreau/log.h"

/* Walls, replicated on every rank: every array, so that a restart restores
 * force-driven walls exactly (position, velocity, drive). */
moreau_err ckpt_walls_rows(ckpt_file *f, int rank, int64_t n, double *point, double *normal, double *velocity,
                           double *reaction, double *mass, double *drive, int32_t *material, int32_t *mode)
{
  MOREAU_CALL(ckpt_replicated(f, rank, "/walls/point", MOREAU_FIELD_F64, n, 3, point));
  MOREAU_CALL(ckpt_replicated(f, rank, "/walls/normal", MOREAU_FIELD_F64, n, 3, normal));
  MOREAU_CALL(ckpt_replicated(f, rank, "/walls/velocity", MOREAU_FIELD_F64, n, 3, velocity));
  MOREAU_CALL(ckpt_replicated(f, rank, "/walls/reaction", MOREAU_FIELD_F64, n, 3, reaction));
  MOREAU_CALL(ckpt_replicated(f, rank, "/walls/mass", MOREAU_FIELD_F64, n, 0, mass));
  MOREAU_CALL(ckpt_replicated(f, rank, "/walls/drive", MOREAU_FIELD_F64, n, 0, drive));
  MOREAU_CALL(ckpt_replicated(f, rank, "/walls/material", MOREAU_FIELD_I32, n, 0, material));
  MOREAU_CALL(ckpt_replicated(f, rank, "/walls/mode", MOREAU_FIELD_I32, n, 0, mode));
  return MOREAU_SUCCESS;
}

moreau_err ckpt_make_groups(ckpt_file *f)
{
  static const char *const groups[] = {"/bodies", "/history", "/walls", "/rng", "/partition", "/run", "/shapes", NULL};
  for (int i = 0; groups[i]; i++)
    MOREAU_CALL(io_h5_make_group(f->comm, f->file, groups[i], f->path));
  return MOREAU_SUCCESS;
}

static moreau_err write_contents(ckpt_file *f, const moreau_checkpoint *ck, ckpt_header *hd, int rank, int size)
{
  int64_t before[2] = {0, 0}, mine[2] = {ck->bodies->n_owned, ck->history->n};
  const moreau_walls *w = ck->walls;
  uint64_t checksum;
  const moreau_lid *by_gid;
  moreau_lid *sorted;
  moreau_err err;
  MOREAU_MPI_CALL(MPI_Exscan(mine, before, 2, MPI_INT64_T, MPI_SUM, ck->run.comm));
  if (rank == 0) before[0] = before[1] = 0;
  MOREAU_CALL(ckpt_make_groups(f));
  MOREAU_CALL(ckpt_header_rows(f, rank, hd));
  /* Each rank's bodies in gid order: the file does not depend on how the
   * bodies happen to be stored (renumbered along the curve or not), so a
   * restarted run writes the very checkpoint an uninterrupted one does. */
  err = moreau_error_agree(ck->run.comm, moreau_bodies_write_order(ck->bodies, ck->run.by_gid, &by_gid, &sorted));
  if (!err)
    err = ckpt_fields(f, "/bodies", &moreau_body_fields, ck->bodies, MOREAU_FIELD_CHECKPOINT, hd->ints[CKPT_N_BODIES],
                      before[0], mine[0], 0, by_gid);
  moreau_free(&sorted);
  MOREAU_CALL(err);
  MOREAU_CALL(ckpt_fields(f, "/history", moreau_contacts_fields(ck->history), ck->history, MOREAU_FIELD_CHECKPOINT,
                          hd->ints[CKPT_N_HISTORY], before[1], mine[1], 0, NULL));
  MOREAU_CALL(ckpt_walls_rows(f, rank, w->n, w->point, w->normal, w->velocity, w->reaction, w->mass, w->drive,
                              w->material, (int32_t *)w->mode));
  MOREAU_CALL(ckpt_rows(f, "/rng/state", MOREAU_FIELD_I64, size, rank, 1, 4, (void *)ck->rng));
  if (ck->map.type == MOREAU_PART_RCB) {
    MOREAU_CALL(ckpt_replicated(f, rank, "/partition/rcb_cut", MOREAU_FIELD_F64, size, 0, ck->map.rcb_cut));
    MOREAU_CALL(ckpt_replicated(f, rank, "/partition/rcb_axis", MOREAU_FIELD_I32, size, 0, ck->map.rcb_axis));
  } else {
    MOREAU_CALL(
        ckpt_replicated(f, rank, "/partition/cell_rank", MOREAU_FIELD_I32, ck->map.ncells, 0, ck->map.cell_rank));
  }
  if (ck->n_shape_rows > 0)
    MOREAU_CALL(ckpt_replicated(f, rank, "/shapes/contactors", MOREAU_FIELD_F64, ck->n_shape_rows,
                                MOREAU_CHECKPOINT_SHAPE_COLS, ck->shape_rows));
  MOREAU_CALL(ckpt_total(f, ck->run.comm, &checksum));
  MOREAU_CALL(io_h5_write_attr(f->comm, f->file, "checksum", H5T_STD_U64LE, H5T_NATIVE_UINT64, &checksum, f->path));
  return MOREAU_SUCCESS;
}

static moreau_err write_h5(const moreau_checkpoint *ck, ckpt_header *hd, const char *path)
{
  ckpt_file f = {-1, ck->run.comm, path, 1, 0, ck->run.write_piece_bytes};
  int rank, size;
  MOREAU_MPI_CALL(MPI_Comm_rank(ck->run.comm, &rank));
  MOREAU_MPI_CALL(MPI_Comm_size(ck->run.comm, &size));
  MOREAU_CALL(io_h5_create(f.comm, path, &f.file));
  /* Flushed and closed before the rename makes it a checkpoint. */
  MOREAU_CALL(io_h5_close(f.comm, f.file, write_contents(&f, ck, hd, rank, size), path));
  return MOREAU_SUCCESS;
}

static int newer_first(const void *a, const void *b)
{
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x < y) - (x > y);
}

/* Rank 0: removes all but the newest `keep` checkpoints. */
static moreau_err prune(const char *ckpt_dir, int keep)
{
  int64_t *steps = NULL;
  size_t n = 0;
  MOREAU_CALL(ckpt_list(ckpt_dir, &steps, &n));
  qsort(steps, n, sizeof(*steps), newer_first);
  for (size_t i = (size_t)keep; i < n; i++) {
    char path[IO_PATH_MAX];
    moreau_err err = ckpt_path(path, ckpt_dir, steps[i], "");
    if (!err && unlink(path) != 0 && errno != ENOENT) err = MOREAU_ERR_IO;
    if (err) {
      moreau_free(&steps);
      MOREAU_FAIL(MOREAU_ERR_IO, "%s: cannot remove an old checkpoint (%s)", path, strerror(errno));
    }
  }
  moreau_free(&steps);
  return MOREAU_SUCCESS;
}

static moreau_err rename_file(const char *from, const char *to)
{
  MOREAU_CHECK(rename(from, to) == 0, MOREAU_ERR_IO, "%s: cannot rename to %s (%s)", from, to, strerror(errno));
  return MOREAU_SUCCESS;
}

static moreau_err checkpoint_write(const moreau_checkpoint *ck, const char *dir, int keep)
{
  char ckpt_dir[IO_PATH_MAX], final_path[IO_PATH_MAX], tmp_path[IO_PATH_MAX];
  ckpt_header hd;
  int rank;
  MPI_Comm comm = ck->run.comm;
  moreau_err err;
  MOREAU_CHECK(keep >= 1, MOREAU_ERR_INPUT, "checkpoints to keep must be >= 1, got %d", keep);
  MOREAU_MPI_CALL(MPI_Comm_rank(comm, &rank));
  MOREAU_CALL(io_path(ckpt_dir, "%s/checkpoints", dir));
  MOREAU_CALL(ckpt_path(final_path, ckpt_dir, ck->run.step, ""));
  MOREAU_CALL(ckpt_path(tmp_path, ckpt_dir, ck->run.step, ".tmp"));
  MOREAU_CALL(moreau_error_agree(comm, rank == 0 ? io_mkdir_p(ckpt_dir) : MOREAU_SUCCESS));
  MOREAU_CALL(ckpt_make_header(ck, &hd));
  err = write_h5(ck, &hd, tmp_path);
  ckpt_free_header(&hd);
  /* Every rank knows of a failure (the writer agrees each step of it): the
   * partial file goes at once. */
  if (err && rank == 0) unlink(tmp_path);
  MOREAU_CALL(err);
  /* Every rank has closed the file (the agreement is the barrier) before
   * rank 0 gives it its final name; only then do older ones go. */
  MOREAU_CALL(moreau_error_agree(comm, rank == 0 ? rename_file(tmp_path, final_path) : MOREAU_SUCCESS));
  MOREAU_CALL(moreau_error_agree(comm, rank == 0 ? prune(ckpt_dir, keep) : MOREAU_SUCCESS));
  return MOREAU_SUCCESS;
}

moreau_err moreau_checkpoint_write(const moreau_checkpoint *ck, const char *dir, int keep)
{
  moreau_err err;
  moreau_log_begin(MOREAU_EV_IO_WRITE);
  err = checkpoint_write(ck, dir, keep);
  moreau_log_end(MOREAU_EV_IO_WRITE);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}
