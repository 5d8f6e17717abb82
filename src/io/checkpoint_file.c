#include <string.h>

#include "checkpoint_file.h"

/* FNV-1a over bytes, from a given start. */
static uint64_t fnv1a(uint64_t h, const unsigned char *p, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

static uint64_t finalize(uint64_t z)
{
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* The hash of row `row` of a dataset: it mixes the dataset's name and the
 * row's global index with its bytes, so the sum of all rows does not depend
 * on which rank wrote or read which rows, yet a changed byte, a swapped row
 * or a row moved to another dataset changes it. */
static uint64_t row_hash(uint64_t name, int64_t row, const unsigned char *bytes, size_t n)
{
  return finalize(fnv1a(name ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(row + 1)), bytes, n));
}

static uint64_t name_hash(const char *name)
{
  return fnv1a(0xcbf29ce484222325ULL, (const unsigned char *)name, strlen(name));
}

static void add_rows(ckpt_file *f, uint64_t name, int64_t offset, int64_t n_local, size_t row_bytes, const void *data)
{
  for (int64_t i = 0; i < n_local; i++)
    f->sum += row_hash(name, offset + i, (const unsigned char *)data + (size_t)i * row_bytes, row_bytes);
}

moreau_err ckpt_rows(ckpt_file *f, const char *name, moreau_field_type type, int64_t n_global, int64_t offset,
                     int64_t n_local, int ncols, void *data)
{
  hid_t file_type, mem_type;
  size_t row_bytes = (size_t)(ncols > 0 ? ncols : 1) * moreau_field_type_size(type);
  io_field_types(type, &file_type, &mem_type);
  if (f->writing)
    MOREAU_CALL(
        io_h5_write_rows(f->comm, f->file, name, file_type, mem_type, n_global, offset, n_local, ncols, data, f->path));
  else
    MOREAU_CALL(io_h5_read_rows(f->comm, f->file, name, mem_type, n_global, offset, n_local, ncols, data, f->path));
  add_rows(f, name_hash(name), offset, n_local, row_bytes, data);
  return MOREAU_SUCCESS;
}

/* A field's rows in an order, gathered a piece at a time and added to the
 * checksum as they go to the file. */
typedef struct {
  io_gather g;
  ckpt_file *f;
  uint64_t name;
  int64_t offset;
} ckpt_gather;

static void fill_hashed(const void *ctx, int64_t first, int64_t n, void *buf)
{
  const ckpt_gather *cg = ctx;
  size_t bytes = moreau_field_bytes(cg->g.t, cg->g.f);
  io_gather_field(cg->g.t, cg->g.obj, cg->g.f, cg->g.order ? cg->g.order + first : NULL, n, buf);
  add_rows(cg->f, cg->name, cg->offset + first, n, bytes, buf);
}

static moreau_err write_ordered(ckpt_file *f, const char *name, const io_gather *g, int64_t n_global, int64_t offset,
                                int64_t n_local, int ncols)
{
  ckpt_gather cg = {*g, f, name_hash(name), offset};
  io_rows src = {moreau_field_bytes(g->t, g->f), fill_hashed, &cg, f->piece_bytes};
  hid_t file_type, mem_type;
  io_field_types(g->f->type, &file_type, &mem_type);
  MOREAU_CALL(
      io_h5_write_pieces(f->comm, f->file, name, file_type, mem_type, n_global, offset, n_local, ncols, &src, f->path));
  return MOREAU_SUCCESS;
}

moreau_err ckpt_fields(ckpt_file *f, const char *group, const moreau_field_table *t, void *obj, unsigned mask,
                       int64_t n_global, int64_t offset, int64_t n_local, size_t first, const moreau_lid *order)
{
  for (int k = 0; k < t->n; k++) {
    const moreau_field *fd = &t->field[k];
    int ncomp = moreau_field_ncomp(t, fd), ncols = ncomp == 1 ? 0 : ncomp;
    io_gather g = {t, obj, fd, order, f->piece_bytes};
    char name[256];
    if (!(fd->flags & mask) || ncomp == 0) continue;
    MOREAU_CHECK(snprintf(name, sizeof(name), "%s/%s", group, fd->name) < (int)sizeof(name), MOREAU_ERR_INTERNAL,
                 "dataset name %s/%s too long", group, fd->name);
    /* An absent lazy array is written as zeros (io_gather_field); a reader
     * gives the arrays it reads into (moreau_bodies_enable_external). */
    const int absent = moreau_field_absent(obj, fd);
    MOREAU_ASSERT(f->writing || !absent || n_local == 0);
    if ((order || absent) && f->writing)
      MOREAU_CALL(write_ordered(f, name, &g, n_global, offset, n_local, ncols));
    else
      MOREAU_CALL(ckpt_rows(f, name, fd->type, n_global, offset, n_local, ncols,
                            n_local ? moreau_field_item(t, obj, fd, first) : NULL));
  }
  return MOREAU_SUCCESS;
}

moreau_err ckpt_replicated(ckpt_file *f, int rank, const char *name, moreau_field_type type, int64_t n_rows, int ncols,
                           void *data)
{
  hid_t file_type, mem_type;
  size_t row_bytes = (size_t)(ncols > 0 ? ncols : 1) * moreau_field_type_size(type);
  if (f->writing) {
    MOREAU_CALL(ckpt_rows(f, name, type, n_rows, 0, rank == 0 ? n_rows : 0, ncols, data));
    return MOREAU_SUCCESS;
  }
  io_field_types(type, &file_type, &mem_type);
  MOREAU_CALL(io_h5_read_rows(f->comm, f->file, name, mem_type, n_rows, 0, n_rows, ncols, data, f->path));
  if (rank == 0) add_rows(f, name_hash(name), 0, n_rows, row_bytes, data);
  return MOREAU_SUCCESS;
}

moreau_err ckpt_total(ckpt_file *f, MPI_Comm comm, uint64_t *total)
{
  /* Unsigned sums wrap, so the total is the same in any order. */
  MOREAU_MPI_CALL(MPI_Allreduce(&f->sum, total, 1, MPI_UINT64_T, MPI_SUM, comm));
  return MOREAU_SUCCESS;
}
