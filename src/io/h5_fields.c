#include <string.h>

#include "io_private.h"

void io_field_types(moreau_field_type type, hid_t *file_type, hid_t *mem_type)
{
  switch (type) {
  case MOREAU_FIELD_I32:
    *file_type = H5T_STD_I32LE;
    *mem_type = H5T_NATIVE_INT32;
    break;
  case MOREAU_FIELD_I64:
    *file_type = H5T_STD_I64LE;
    *mem_type = H5T_NATIVE_INT64;
    break;
  default:
    *file_type = H5T_IEEE_F64LE;
    *mem_type = H5T_NATIVE_DOUBLE;
  }
}

/* A field of one value per item is a one-dimensional dataset. */
static int field_columns(const moreau_field_table *t, const moreau_field *f)
{
  int ncomp = moreau_field_ncomp(t, f);
  return ncomp == 1 ? 0 : ncomp;
}

void io_gather_field(const moreau_field_table *t, const void *obj, const moreau_field *f, const moreau_lid *order,
                     int64_t n, void *out)
{
  size_t bytes = moreau_field_bytes(t, f);
  if (moreau_field_absent(obj, f)) {
    memset(out, 0, (size_t)n * bytes);
    return;
  }
  for (int64_t i = 0; i < n; i++)
    memcpy((char *)out + (size_t)i * bytes, moreau_field_item(t, obj, f, (size_t)order[i]), bytes);
}

static void fill_gathered(const void *ctx, int64_t first, int64_t n, void *buf)
{
  const io_gather *g = ctx;
  io_gather_field(g->t, g->obj, g->f, g->order ? g->order + first : NULL, n, buf);
}

/* The rows of g; the source points to g, which must outlive it. */
static io_rows field_rows(const io_gather *g, int64_t n_local)
{
  io_rows src = {moreau_field_bytes(g->t, g->f), fill_gathered, g, g->piece_bytes};
  if (!g->order && !moreau_field_absent(g->obj, g->f)) {
    src.fill = NULL;
    src.ctx = n_local ? *moreau_field_slot(g->obj, g->f) : NULL;
  }
  return src;
}

moreau_err io_h5_write_fields(MPI_Comm comm, hid_t file, const char *group, const moreau_field_table *t,
                              const void *obj, unsigned mask, int64_t n_global, int64_t offset, int64_t n_local,
                              const moreau_lid *order, size_t piece_bytes, const char *path)
{
  for (int k = 0; k < t->n; k++) {
    const moreau_field *f = &t->field[k];
    io_gather g = {t, obj, f, order, piece_bytes};
    io_rows src = field_rows(&g, n_local);
    char name[256];
    hid_t file_type, mem_type;
    if (!(f->flags & mask) || moreau_field_ncomp(t, f) == 0) continue;
    MOREAU_CHECK(snprintf(name, sizeof(name), "%s/%s", group, f->name) < (int)sizeof(name), MOREAU_ERR_INTERNAL,
                 "dataset name %s/%s too long", group, f->name);
    io_field_types(f->type, &file_type, &mem_type);
    MOREAU_CALL(io_h5_write_pieces(comm, file, name, file_type, mem_type, n_global, offset, n_local,
                                   field_columns(t, f), &src, path));
  }
  return MOREAU_SUCCESS;
}

moreau_err io_h5_read_fields(MPI_Comm comm, hid_t file, const char *group, const moreau_field_table *t, void *obj,
                             unsigned mask, int64_t n_global, int64_t offset, int64_t n_local, size_t first,
                             const char *path)
{
  for (int k = 0; k < t->n; k++) {
    const moreau_field *f = &t->field[k];
    char name[256];
    hid_t file_type, mem_type;
    void *at = n_local && moreau_field_ncomp(t, f) ? moreau_field_item(t, obj, f, first) : NULL;
    if (moreau_field_ncomp(t, f) == 0) continue;
    MOREAU_ASSERT(!moreau_field_absent(obj, f) || n_local == 0); /* the reader gives the arrays */
    /* What the file does not hold starts at zero. */
    if (!(f->flags & mask)) {
      if (at) memset(at, 0, (size_t)n_local * moreau_field_bytes(t, f));
      continue;
    }
    MOREAU_CHECK(snprintf(name, sizeof(name), "%s/%s", group, f->name) < (int)sizeof(name), MOREAU_ERR_INTERNAL,
                 "dataset name %s/%s too long", group, f->name);
    if ((f->flags & MOREAU_FIELD_OPTIONAL) && !io_h5_has_dataset(file, name)) {
      if (at) memset(at, 0, (size_t)n_local * moreau_field_bytes(t, f));
      continue;
    }
    io_field_types(f->type, &file_type, &mem_type);
    MOREAU_CALL(io_h5_read_rows(comm, file, name, mem_type, n_global, offset, n_local, field_columns(t, f), at, path));
  }
  return MOREAU_SUCCESS;
}
