#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checkpoint_private.h"
#include "moreau/log.h"

typedef struct {
  int rank, size;
  MPI_Comm comm;
} ckpt_ranks;

/* This rank's share [*off, *off + *n) of n_global rows. */
static void slab(const ckpt_ranks *r, int64_t n_global, int64_t *off, int64_t *n)
{
  *off = n_global * r->rank / r->size;
  *n = n_global * (r->rank + 1) / r->size - *off;
}

static moreau_err check_rows(ckpt_file *f, const char *name, int64_t expected)
{
  int64_t rows;
  MOREAU_CALL(io_h5_dataset_rows(f->file, name, &rows, f->path));
  MOREAU_CHECK(rows == expected, MOREAU_ERR_INPUT, "%s: %s has %" PRId64 " rows, the header says %" PRId64, f->path,
               name, rows, expected);
  return MOREAU_SUCCESS;
}

static moreau_err read_bodies(ckpt_file *f, const ckpt_ranks *r, int64_t n_global, moreau_bodies *b)
{
  int64_t off, n;
  moreau_lid i0 = b->n_owned;
  slab(r, n_global, &off, &n);
  MOREAU_CALL(check_rows(f, "/bodies/gid", n_global));
  MOREAU_CHECK(i0 + n <= INT32_MAX, MOREAU_ERR_INPUT, "%s: too many bodies for one rank", f->path);
  b->n_ghost = 0;
  MOREAU_CALL(moreau_bodies_reserve(b, (moreau_lid)(i0 + n)));
  /* The external forces are read into arrays, kept only if not all zero. */
  MOREAU_CALL(moreau_bodies_enable_external(b));
  MOREAU_CALL(
      ckpt_fields(f, "/bodies", &moreau_body_fields, b, MOREAU_FIELD_CHECKPOINT, n_global, off, n, (size_t)i0, NULL));
  b->n_owned = (moreau_lid)(i0 + n);
  moreau_bodies_trim_external(b);
  return MOREAU_SUCCESS;
}

static moreau_err read_history(ckpt_file *f, const ckpt_ranks *r, int64_t n_global, moreau_contacts *c)
{
  int64_t off, n;
  moreau_lid i0 = c->n;
  slab(r, n_global, &off, &n);
  MOREAU_CALL(check_rows(f, "/history/gid_a", n_global));
  MOREAU_CHECK(i0 + n <= INT32_MAX, MOREAU_ERR_INPUT, "%s: too many contacts for one rank", f->path);
  MOREAU_CALL(moreau_contacts_reserve(c, (moreau_lid)(i0 + n)));
  MOREAU_CALL(ckpt_fields(f, "/history", moreau_contacts_fields(c), c, MOREAU_FIELD_CHECKPOINT, n_global, off, n,
                          (size_t)i0, NULL));
  /* A history list: local indices and geometry come from the next
   * detection. */
  MOREAU_ASSERT(c->history_only);
  c->n = (moreau_lid)(i0 + n);
  return MOREAU_SUCCESS;
}

static moreau_err read_walls(ckpt_file *f, const ckpt_ranks *r, int64_t n, moreau_walls *w)
{
  double *buf;
  int32_t *ibuf;
  moreau_err err;
  MOREAU_CALL(check_rows(f, "/walls/point", n));
  MOREAU_CALL(moreau_malloc((size_t)(n ? n : 1) * 14 * sizeof(double), &buf));
  MOREAU_CALL(moreau_malloc((size_t)(n ? n : 1) * 2 * sizeof(int32_t), &ibuf));
  err = ckpt_walls_rows(f, r->rank, n, buf, buf + 3 * n, buf + 6 * n, buf + 9 * n, buf + 12 * n, buf + 13 * n, ibuf,
                        ibuf + n);
  for (int64_t i = 0; i < n && !err; i++) {
    int k = w->n;
    moreau_wall_mode mode = (moreau_wall_mode)ibuf[n + i];
    if (mode != MOREAU_WALL_FIXED && mode != MOREAU_WALL_VELOCITY && mode != MOREAU_WALL_FORCE) {
      err = moreau_error_raise(MOREAU_ERR_INPUT, __FILE__, __LINE__, __func__, "%s: wall %d has no valid mode", f->path,
                               (int)i);
      break;
    }
    err = moreau_walls_add(w, buf + 3 * i, buf + 3 * (n + i), mode, buf + 3 * (2 * n + i),
                           mode == MOREAU_WALL_FORCE ? buf[12 * n + i] : 0.0, buf[13 * n + i], ibuf[i], NULL);
    if (err) break;
    /* Exactly as written: adding normalises the normal again. */
    memcpy(&w->normal[3 * k], buf + 3 * (n + i), 3 * sizeof(double));
    memcpy(&w->velocity[3 * k], buf + 3 * (2 * n + i), 3 * sizeof(double));
    memcpy(&w->reaction[3 * k], buf + 3 * (3 * n + i), 3 * sizeof(double));
    w->mass[k] = buf[12 * n + i];
    w->drive[k] = buf[13 * n + i];
  }
  moreau_free(&buf);
  moreau_free(&ibuf);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}

static moreau_err read_rng(ckpt_file *f, const ckpt_ranks *r, int64_t nranks, moreau_checkpoint *ck)
{
  int64_t off, n;
  uint64_t *rows;
  slab(r, nranks, &off, &n);
  MOREAU_CALL(moreau_malloc((size_t)(n ? n : 1) * 4 * sizeof(uint64_t), &rows));
  moreau_err err = ckpt_rows(f, "/rng/state", MOREAU_FIELD_I64, nranks, off, n, 4, rows);
  /* On the same rank count rank r's share is exactly row r. */
  ck->rng_restored = !err && nranks == r->size;
  if (ck->rng_restored) memcpy(ck->rng, rows, sizeof(ck->rng));
  moreau_free(&rows);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}

static moreau_err read_map(ckpt_file *f, const ckpt_ranks *r, const ckpt_header *hd, moreau_part_map *map)
{
  memset(map, 0, sizeof(*map));
  map->type = (moreau_part_type)hd->ints[CKPT_PART_TYPE];
  map->ncells = (int32_t)hd->ints[CKPT_NCELLS];
  map->nranks = (int)hd->ints[CKPT_NRANKS];
  map->h = hd->reals[CKPT_GRID_H];
  map->repartitions = hd->ints[CKPT_REPARTITIONS];
  for (int k = 0; k < 3; k++) {
    map->n[k] = (int)hd->ints[CKPT_GRID_N0 + k];
    map->lo[k] = hd->reals[CKPT_GRID_LO0 + k];
  }
  if (map->type == MOREAU_PART_RCB) {
    MOREAU_CALL(moreau_malloc((size_t)map->nranks * sizeof(double), &map->rcb_cut));
    MOREAU_CALL(moreau_malloc((size_t)map->nranks * sizeof(int), &map->rcb_axis));
    MOREAU_CALL(ckpt_replicated(f, r->rank, "/partition/rcb_cut", MOREAU_FIELD_F64, map->nranks, 0, map->rcb_cut));
    MOREAU_CALL(ckpt_replicated(f, r->rank, "/partition/rcb_axis", MOREAU_FIELD_I32, map->nranks, 0, map->rcb_axis));
    return MOREAU_SUCCESS;
  }
  MOREAU_CALL(moreau_malloc((size_t)map->ncells * sizeof(int), &map->cell_rank));
  MOREAU_CALL(ckpt_replicated(f, r->rank, "/partition/cell_rank", MOREAU_FIELD_I32, map->ncells, 0, map->cell_rank));
  return MOREAU_SUCCESS;
}

/* The shapes table's rows, when the file has them. */
static moreau_err read_shapes(ckpt_file *f, const ckpt_ranks *r, moreau_checkpoint *ck)
{
  int64_t n;
  if (!io_h5_has_dataset(f->file, "/shapes/contactors")) return MOREAU_SUCCESS;
  MOREAU_CALL(io_h5_dataset_rows(f->file, "/shapes/contactors", &n, f->path));
  MOREAU_CHECK(n > 0 && n < (int64_t)1 << 24, MOREAU_ERR_INPUT, "%s: /shapes/contactors has %" PRId64 " rows", f->path,
               n);
  MOREAU_CALL(moreau_malloc((size_t)n * MOREAU_CHECKPOINT_SHAPE_COLS * sizeof(double), &ck->shape_rows));
  ck->n_shape_rows = n;
  MOREAU_CALL(ckpt_replicated(f, r->rank, "/shapes/contactors", MOREAU_FIELD_F64, n, MOREAU_CHECKPOINT_SHAPE_COLS,
                              ck->shape_rows));
  return MOREAU_SUCCESS;
}

/* The phases of a read, each agreed on by all ranks before the next. */
static moreau_err read_contents(ckpt_file *f, const ckpt_ranks *r, int dim, moreau_checkpoint *ck)
{
  ckpt_header hd;
  uint64_t stored = 0, total;
  moreau_err err;
  memset(&hd, 0, sizeof(hd));
  MOREAU_CALL(moreau_error_agree(r->comm, io_h5_read_attr(f->file, "checksum", H5T_NATIVE_UINT64, &stored, f->path)));
  err = moreau_error_agree(r->comm, ckpt_header_rows(f, r->rank, &hd));
  if (!err && hd.ints[CKPT_DIM] != dim)
    err = moreau_error_raise(MOREAU_ERR_INPUT, __FILE__, __LINE__, __func__,
                             "%s: the checkpoint is of a %" PRId64 "D run, this run is %dD", f->path, hd.ints[CKPT_DIM],
                             dim);
  if (!err && hd.ints[CKPT_STATE_WIDTH] != ck->history->state_width)
    err = moreau_error_raise(MOREAU_ERR_INPUT, __FILE__, __LINE__, __func__,
                             "%s: the checkpoint's contacts carry %" PRId64 " state values, this run's law %d", f->path,
                             hd.ints[CKPT_STATE_WIDTH], ck->history->state_width);
  if (!err) err = moreau_error_agree(r->comm, read_bodies(f, r, hd.ints[CKPT_N_BODIES], ck->bodies));
  if (!err) err = moreau_error_agree(r->comm, read_history(f, r, hd.ints[CKPT_N_HISTORY], ck->history));
  if (!err) err = moreau_error_agree(r->comm, read_walls(f, r, hd.ints[CKPT_N_WALLS], ck->walls));
  if (!err) err = moreau_error_agree(r->comm, read_rng(f, r, hd.ints[CKPT_NRANKS], ck));
  if (!err) err = moreau_error_agree(r->comm, read_map(f, r, &hd, &ck->map));
  if (!err) err = moreau_error_agree(r->comm, read_shapes(f, r, ck));
  if (!err) err = ckpt_total(f, r->comm, &total);
  if (!err && total != stored)
    err = moreau_error_raise(MOREAU_ERR_INPUT, __FILE__, __LINE__, __func__,
                             "%s: checksum mismatch (the file is damaged)", f->path);
  if (!err) {
    ck->run.dim = dim;
    ck->run.step = hd.ints[CKPT_STEP];
    ck->run.time = hd.reals[CKPT_TIME];
    ck->run.dt = hd.reals[CKPT_DT];
    ck->has_box = (int)hd.ints[CKPT_HAS_BOX];
    for (int k = 0; k < 3; k++) {
      ck->box_lo[k] = hd.reals[CKPT_BOX_LO0 + k];
      ck->box_hi[k] = hd.reals[CKPT_BOX_HI0 + k];
      ck->len_rate[k] = hd.reals[CKPT_LEN_RATE0 + k];
    }
    ck->le_offset = hd.reals[CKPT_LE_OFFSET];
    ck->run.has_box = ck->has_box;
    memcpy(ck->run.box_lo, ck->box_lo, sizeof(ck->box_lo));
    memcpy(ck->run.box_hi, ck->box_hi, sizeof(ck->box_hi));
    ck->run.le_offset = ck->le_offset;
    ck->options = (char *)hd.options_words;
    hd.options_words = NULL;
  }
  ckpt_free_header(&hd);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}

static moreau_err open_checkpoint(const char *path, MPI_Comm comm, hid_t *file)
{
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  MOREAU_CHECK(fapl >= 0 && H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL) >= 0, MOREAU_ERR_IO,
               "%s: cannot set up parallel HDF5 access", path);
  /* A damaged or foreign file is the user's to know about in one line, not
   * as HDF5's error stack. */
  H5E_BEGIN_TRY { *file = H5Fopen(path, H5F_ACC_RDONLY, fapl); }
  H5E_END_TRY;
  H5Pclose(fapl);
  MOREAU_CHECK(*file >= 0, MOREAU_ERR_INPUT, "%s: cannot open as HDF5 (truncated, damaged or not a checkpoint)", path);
  return MOREAU_SUCCESS;
}

moreau_err moreau_checkpoint_read(const char *path, MPI_Comm comm, int dim, moreau_checkpoint *ck)
{
  ckpt_file f = {-1, comm, path, 0, 0, 0};
  ckpt_ranks r = {0, 1, comm};
  moreau_err err;
  MOREAU_MPI_CALL(MPI_Comm_rank(comm, &r.rank));
  MOREAU_MPI_CALL(MPI_Comm_size(comm, &r.size));
  ck->run.comm = comm;
  ck->options = NULL;
  ck->shape_rows = NULL;
  ck->n_shape_rows = 0;
  ck->map.cell_rank = NULL;
  ck->map.rcb_cut = NULL;
  ck->map.rcb_axis = NULL;
  MOREAU_CALL(moreau_error_agree(comm, access(path, R_OK) == 0
                                           ? MOREAU_SUCCESS
                                           : moreau_error_raise(MOREAU_ERR_INPUT, __FILE__, __LINE__, __func__,
                                                                "%s: no such checkpoint file", path)));
  moreau_log_begin(MOREAU_EV_IO_READ);
  err = moreau_error_agree(comm, open_checkpoint(path, comm, &f.file));
  if (!err) {
    /* HDF5 reports what it cannot read as a stack; the reason goes in the
     * one line of the error instead. */
    H5E_BEGIN_TRY { err = read_contents(&f, &r, dim, ck); }
    H5E_END_TRY;
    H5Fclose(f.file);
  }
  moreau_log_end(MOREAU_EV_IO_READ);
  if (err) moreau_checkpoint_free(ck);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}

void moreau_checkpoint_free(moreau_checkpoint *ck)
{
  moreau_free(&ck->options);
  moreau_free(&ck->shape_rows);
  ck->n_shape_rows = 0;
  moreau_free(&ck->map.cell_rank);
  moreau_free(&ck->map.rcb_cut);
  moreau_free(&ck->map.rcb_axis);
}

/* Reads the whole file into scratch containers, which verifies it. */
static moreau_err verify(const char *path, MPI_Comm comm, int dim, int state_width, char **options)
{
  moreau_checkpoint ck;
  moreau_err err;
  memset(&ck, 0, sizeof(ck));
  MOREAU_CALL(moreau_bodies_create(comm, dim, &ck.bodies));
  MOREAU_CALL(moreau_contacts_create_history(state_width, &ck.history));
  MOREAU_CALL(moreau_walls_create(&ck.walls));
  err = moreau_checkpoint_read(path, comm, dim, &ck);
  if (!err && options) {
    *options = ck.options;
    ck.options = NULL;
  }
  moreau_checkpoint_free(&ck);
  MOREAU_CALL(moreau_bodies_destroy(&ck.bodies));
  MOREAU_CALL(moreau_contacts_destroy(&ck.history));
  MOREAU_CALL(moreau_walls_destroy(&ck.walls));
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}

/* The dimension and law-state width a checkpoint says it has (the run's
 * options are not known yet when a restart looks for its checkpoint). */
static moreau_err peek(const char *path, MPI_Comm comm, int *dim, int *state_width)
{
  ckpt_file f = {-1, comm, path, 0, 0, 0};
  ckpt_header hd;
  int rank;
  moreau_err err;
  memset(&hd, 0, sizeof(hd));
  MOREAU_MPI_CALL(MPI_Comm_rank(comm, &rank));
  MOREAU_CALL(moreau_error_agree(comm, open_checkpoint(path, comm, &f.file)));
  H5E_BEGIN_TRY { err = moreau_error_agree(comm, ckpt_header_rows(&f, rank, &hd)); }
  H5E_END_TRY;
  H5Fclose(f.file);
  ckpt_free_header(&hd);
  MOREAU_CALL(err);
  MOREAU_CHECK(hd.ints[CKPT_DIM] == 2 || hd.ints[CKPT_DIM] == 3, MOREAU_ERR_INPUT,
               "%s: the checkpoint's header is damaged", path);
  *dim = (int)hd.ints[CKPT_DIM];
  *state_width = (int)hd.ints[CKPT_STATE_WIDTH];
  return MOREAU_SUCCESS;
}

moreau_err moreau_checkpoint_read_options(const char *path, MPI_Comm comm, char **options)
{
  int dim, width;
  *options = NULL;
  MOREAU_CALL(moreau_error_agree(comm, access(path, R_OK) == 0
                                           ? MOREAU_SUCCESS
                                           : moreau_error_raise(MOREAU_ERR_INPUT, __FILE__, __LINE__, __func__,
                                                                "%s: no such checkpoint file", path)));
  MOREAU_CALL(peek(path, comm, &dim, &width));
  MOREAU_CALL(verify(path, comm, dim, width, options));
  return MOREAU_SUCCESS;
}

static int has_suffix(const char *s, const char *suffix)
{
  size_t n = strlen(s), k = strlen(suffix);
  return n > k && strcmp(s + n - k, suffix) == 0;
}

/* Rank 0: a checkpoint whose writer was killed leaves its temporary file;
 * it is never read, and goes at the next look. */
static void remove_partial(const char *ckpt_dir)
{
  DIR *d = opendir(ckpt_dir);
  struct dirent *e;
  if (!d) return;
  while ((e = readdir(d))) {
    char path[IO_PATH_MAX];
    if (strncmp(e->d_name, "ckpt_", 5) || !has_suffix(e->d_name, ".h5.tmp")) continue;
    if (io_path(path, "%s/%s", ckpt_dir, e->d_name)) {
      moreau_error_clear();
      continue;
    }
    if (unlink(path) == 0)
      fprintf(stderr, "moreau: note: removed %s, a checkpoint whose writing was interrupted\n", path);
  }
  closedir(d);
}

static int newer_first(const void *a, const void *b)
{
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x < y) - (x > y);
}

moreau_err moreau_checkpoint_find(MPI_Comm comm, const char *dir, char *path, size_t len)
{
  char ckpt_dir[IO_PATH_MAX];
  int64_t *steps = NULL, count = 0;
  size_t n = 0;
  int rank;
  moreau_err err = MOREAU_SUCCESS;
  MOREAU_MPI_CALL(MPI_Comm_rank(comm, &rank));
  MOREAU_CALL(io_path(ckpt_dir, "%s/checkpoints", dir));
  if (rank == 0) {
    remove_partial(ckpt_dir);
    err = ckpt_list(ckpt_dir, &steps, &n);
    if (!err && n > 0) qsort(steps, n, sizeof(*steps), newer_first); /* qsort may not be given NULL */
    count = (int64_t)n;
  }
  MOREAU_CALL(moreau_error_agree(comm, err));
  MOREAU_MPI_CALL(MPI_Bcast(&count, 1, MPI_INT64_T, 0, comm));
  if (rank != 0) MOREAU_CALL(moreau_malloc((size_t)(count ? count : 1) * sizeof(*steps), &steps));
  MOREAU_MPI_CALL(MPI_Bcast(steps, (int)count, MPI_INT64_T, 0, comm));
  for (int64_t i = 0; i < count; i++) {
    char candidate[IO_PATH_MAX];
    int dim, width;
    err = ckpt_path(candidate, ckpt_dir, steps[i], "");
    if (!err) err = peek(candidate, comm, &dim, &width);
    if (!err) err = verify(candidate, comm, dim, width, NULL);
    if (!err) {
      moreau_free(&steps);
      MOREAU_CHECK(strlen(candidate) < len, MOREAU_ERR_INTERNAL, "checkpoint path too long");
      memcpy(path, candidate, strlen(candidate) + 1);
      return MOREAU_SUCCESS;
    }
    /* Every rank has the same verdict (the reads agree); rank 0 says why. */
    if (rank == 0) fprintf(stderr, "moreau: warning: %s; skipped\n", moreau_error_message());
    moreau_error_clear();
  }
  moreau_free(&steps);
  MOREAU_FAIL(MOREAU_ERR_INPUT, "%s: no complete checkpoint to restart from", ckpt_dir);
}
