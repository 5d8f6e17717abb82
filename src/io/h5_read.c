#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

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
  /* The external forces are read into arrays, kept only if not all zero
   * (read_file). */
  MOREAU_CALL(moreau_bodies_enable_external(b));
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
    MOREAU_CHECK(b->gid[i] >= 0, MOREAU_ERR_INPUT, "%s: body %" PRId64 " has a negative gid", path, b->gid[i]);
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

static int compare_gid(const void *pa, const void *pb)
{
  int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
  return (a > b) - (a < b);
}

/* Sends each gid to rank gid mod P, where equal gids meet: the smallest
 * repeated gid there (-1: none). Once per input file, so an all-to-all is
 * fine here. */
static moreau_err local_duplicate(MPI_Comm comm, const int64_t *gid, int64_t n, int64_t *dup)
{
  int size, *send_n = NULL, *recv_n = NULL, *send_off = NULL, *recv_off = NULL;
  int64_t *out = NULL, *in = NULL, n_in = 0;
  moreau_err err;
  MOREAU_MPI_CALL(MPI_Comm_size(comm, &size));
  *dup = -1;
  err = moreau_calloc((size_t)size, sizeof(int), &send_n);
  if (!err) err = moreau_calloc((size_t)size, sizeof(int), &recv_n);
  if (!err) err = moreau_calloc((size_t)size + 1, sizeof(int), &send_off);
  if (!err) err = moreau_calloc((size_t)size + 1, sizeof(int), &recv_off);
  if (!err) err = moreau_malloc((size_t)(n ? n : 1) * sizeof(int64_t), &out);
  MOREAU_CALL(moreau_error_agree(comm, err));
  for (int64_t i = 0; i < n; i++)
    send_n[gid[i] % size]++;
  MOREAU_MPI_CALL(MPI_Alltoall(send_n, 1, MPI_INT, recv_n, 1, MPI_INT, comm));
  for (int r = 0; r < size; r++) {
    send_off[r + 1] = send_off[r] + send_n[r];
    recv_off[r + 1] = recv_off[r] + recv_n[r];
    send_n[r] = 0;
  }
  for (int64_t i = 0; i < n; i++) {
    int r = (int)(gid[i] % size);
    out[send_off[r] + send_n[r]++] = gid[i];
  }
  n_in = recv_off[size];
  err = moreau_malloc((size_t)(n_in ? n_in : 1) * sizeof(int64_t), &in);
  MOREAU_CALL(moreau_error_agree(comm, err));
  MOREAU_MPI_CALL(MPI_Alltoallv(out, send_n, send_off, MPI_INT64_T, in, recv_n, recv_off, MPI_INT64_T, comm));
  if (n_in > 1) qsort(in, (size_t)n_in, sizeof(int64_t), compare_gid);
  for (int64_t i = 1; i < n_in && *dup < 0; i++)
    if (in[i] == in[i - 1]) *dup = in[i];
  moreau_free(&send_n);
  moreau_free(&recv_n);
  moreau_free(&send_off);
  moreau_free(&recv_off);
  moreau_free(&out);
  moreau_free(&in);
  return MOREAU_SUCCESS;
}

/* Global ids name bodies in contacts, history and checkpoints: each must
 * appear once in the file. */
static moreau_err check_gids(const char *path, const moreau_bodies *b, moreau_lid i0, int64_t n)
{
  int64_t dup;
  MOREAU_CALL(local_duplicate(b->comm, &b->gid[i0], n, &dup));
  /* The smallest repeated gid over every rank, so all report the same. */
  if (dup < 0) dup = INT64_MAX;
  MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, &dup, 1, MPI_INT64_T, MPI_MIN, b->comm));
  MOREAU_CHECK(dup == INT64_MAX, MOREAU_ERR_INPUT, "%s: gid %" PRId64 " appears more than once in /bodies/gid", path,
               dup);
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
  MOREAU_CALL(check_gids(path, b, i0, n));
  b->n_owned = (moreau_lid)(i0 + n);
  moreau_bodies_trim_external(b);
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
