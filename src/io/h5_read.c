#include <inttypes.h>
#include <math.h>

#include "io_private.h"

/* Reads this rank's rows of every snapshot field of /bodies straight into
 * the body arrays, whose stride-3 and stride-4 layouts are the row layouts
 * of the file. */
static moreau_err read_bodies(hid_t file, const char *path, moreau_bodies *b, int64_t n_global, int64_t off, int64_t n)
{
  moreau_lid i0 = b->n_owned;
  MOREAU_CHECK(i0 + n <= INT32_MAX, MOREAU_ERR_INPUT, "%s: too many bodies for one rank", path);
  b->n_ghost = 0;
  MOREAU_CALL(moreau_bodies_reserve(b, (moreau_lid)(i0 + n)));
  MOREAU_CALL(io_h5_read_fields(b->comm, file, "/bodies", &moreau_body_fields, b, MOREAU_FIELD_SNAPSHOT, n_global, off,
                                n, (size_t)i0, path));
  return MOREAU_SUCCESS;
}

/* The values are restored as they are; only what would make later code index
 * out of bounds or misread a body is rejected. */
static moreau_err check_bodies(const char *path, const moreau_bodies *b, moreau_lid i0, int64_t n,
                               const moreau_materials *m)
{
  for (moreau_lid i = i0; i < i0 + n; i++) {
    MOREAU_CHECK(b->material[i] >= 0 && b->material[i] < m->n, MOREAU_ERR_INPUT,
                 "%s: body %" PRId64 " has material %d but the run has %d materials", path, b->gid[i],
                 (int)b->material[i], m->n);
    MOREAU_CHECK(b->fixed[i] == 0 || b->fixed[i] == 1, MOREAU_ERR_INPUT,
                 "%s: body %" PRId64 " has fixed = %d (expected 0 or 1)", path, b->gid[i], (int)b->fixed[i]);
    MOREAU_CHECK(b->radius[i] > 0 && isfinite(b->radius[i]), MOREAU_ERR_INPUT,
                 "%s: body %" PRId64 " has a radius that is not positive and finite", path, b->gid[i]);
    for (int k = 0; k < 3; k++)
      MOREAU_CHECK(isfinite(b->x[3 * i + k]) && isfinite(b->v[3 * i + k]) && isfinite(b->w[3 * i + k]),
                   MOREAU_ERR_INPUT, "%s: body %" PRId64 " has a position or velocity that is not finite", path,
                   b->gid[i]);
  }
  return MOREAU_SUCCESS;
}

static moreau_err read_file(hid_t file, const char *path, moreau_bodies *b, const moreau_materials *m)
{
  int rank, size;
  int32_t dim;
  int64_t n_global, n_attr, off, n;
  moreau_lid i0 = b->n_owned;
  MOREAU_MPI_CALL(MPI_Comm_rank(b->comm, &rank));
  MOREAU_MPI_CALL(MPI_Comm_size(b->comm, &size));
  MOREAU_CALL(io_h5_read_attr(file, "dim", H5T_NATIVE_INT32, &dim, path));
  MOREAU_CHECK(dim == b->dim, MOREAU_ERR_INPUT, "%s: snapshot is %dD but the run is %dD", path, (int)dim, b->dim);
  MOREAU_CALL(io_h5_read_attr(file, "n_bodies", H5T_NATIVE_INT64, &n_attr, path));
  MOREAU_CALL(io_h5_dataset_rows(file, "/bodies/gid", &n_global, path));
  MOREAU_CHECK(n_attr == n_global, MOREAU_ERR_INPUT,
               "%s: attribute n_bodies = %" PRId64 " but /bodies/gid has %" PRId64 " rows", path, n_attr, n_global);
  off = n_global * rank / size;
  n = n_global * (rank + 1) / size - off;
  MOREAU_CALL(read_bodies(file, path, b, n_global, off, n));
  MOREAU_CALL(moreau_error_agree(b->comm, check_bodies(path, b, i0, n, m)));
  b->n_owned = (moreau_lid)(i0 + n);
  return MOREAU_SUCCESS;
}

moreau_err io_h5_read(const char *path, moreau_bodies *b, const moreau_materials *m)
{
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS), file = -1;
  moreau_err err;
  MOREAU_CHECK(fapl >= 0 && H5Pset_fapl_mpio(fapl, b->comm, MPI_INFO_NULL) >= 0, MOREAU_ERR_IO,
               "%s: cannot set up parallel HDF5 access", path);
  /* A file that is not HDF5 is the user's mistake: one line, not HDF5's
   * error stack. */
  H5E_BEGIN_TRY { file = H5Fopen(path, H5F_ACC_RDONLY, fapl); }
  H5E_END_TRY;
  H5Pclose(fapl);
  MOREAU_CHECK(file >= 0, MOREAU_ERR_INPUT, "%s: cannot open as HDF5 (not a moreau snapshot?)", path);
  err = read_file(file, path, b, m);
  H5Fclose(file);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}
