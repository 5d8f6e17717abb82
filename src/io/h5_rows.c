#include <errno.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "io_private.h"

/* Closing may fail only on handles that were never opened, which the callers
 * skip, so the helpers close without checking. */
static void close_all(hid_t dset, hid_t fspace, hid_t mspace, hid_t dxpl)
{
  if (dxpl >= 0) H5Pclose(dxpl);
  if (mspace >= 0) H5Sclose(mspace);
  if (fspace >= 0) H5Sclose(fspace);
  if (dset >= 0) H5Dclose(dset);
}

/* Selects this rank's rows in the file and a matching memory space. A rank
 * with no rows selects nothing but still joins the collective transfer. */
static int select_rows(hid_t fspace, hid_t mspace, int64_t offset, int64_t n_local, int ncols)
{
  hsize_t start[2] = {(hsize_t)offset, 0}, count[2] = {(hsize_t)n_local, (hsize_t)ncols};
  if (n_local == 0) return H5Sselect_none(fspace) >= 0 && H5Sselect_none(mspace) >= 0;
  return H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL) >= 0;
}

static hid_t collective_dxpl(void)
{
  hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
  if (dxpl >= 0 && H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE) < 0) {
    H5Pclose(dxpl);
    return -1;
  }
  return dxpl;
}

/* Whether the file system holding path has no room left. */
static int disk_full(const char *path)
{
  struct statvfs st;
  return statvfs(path, &st) == 0 && st.f_bavail == 0;
}

/* A failed write ("cannot <what> <name>"), with the system's reason: errno
 * as the failing call left it, else ENOSPC when the disk is full (MPI-IO
 * takes a short write for a failure and leaves errno alone). */
static moreau_err write_failed(int err_no, const char *path, const char *what, const char *name)
{
  if (!err_no && disk_full(path)) err_no = ENOSPC;
  if (err_no) MOREAU_FAIL(MOREAU_ERR_IO, "%s: cannot %s %s (%s)", path, what, name, strerror(err_no));
  MOREAU_FAIL(MOREAU_ERR_IO, "%s: cannot %s %s", path, what, name);
}

/* Writes rows [first, first + count) of this rank's as rows offset + first
 * on of the file's: one collective transfer. */
static int write_piece(hid_t dset, hid_t fspace, hid_t mem_type, hid_t dxpl, int ncols, int64_t offset, int64_t count,
                       const void *rows)
{
  hsize_t mcount[2] = {(hsize_t)count, (hsize_t)ncols};
  hid_t mspace = H5Screate_simple(ncols > 0 ? 2 : 1, mcount, NULL);
  /* HDF5 refuses a NULL buffer even when nothing is selected. */
  static const char empty = 0;
  int ok = mspace >= 0 && select_rows(fspace, mspace, offset, count, ncols) &&
           H5Dwrite(dset, mem_type, mspace, fspace, dxpl, count ? rows : (const void *)&empty) >= 0;
  if (mspace >= 0) H5Sclose(mspace);
  return ok;
}

/* Rows of a piece of src (at least one). */
static int64_t piece_rows(const io_rows *src)
{
  int64_t rows = (int64_t)((src->piece_bytes ? src->piece_bytes : IO_PIECE_BYTES) / src->row_bytes);
  return rows > 0 ? rows : 1;
}

moreau_err io_h5_write_pieces(MPI_Comm comm, hid_t loc, const char *name, hid_t file_type, hid_t mem_type,
                              int64_t n_global, int64_t offset, int64_t n_local, int ncols, const io_rows *src,
                              const char *path)
{
  hsize_t dims[2] = {(hsize_t)n_global, (hsize_t)ncols};
  /* Rows stored as the file holds them go in one transfer. */
  int64_t piece = src->fill ? piece_rows(src) : (n_local > 0 ? n_local : 1);
  int64_t mine = (n_local + piece - 1) / piece, pieces;
  hid_t fspace, dxpl, dset = -1;
  char *buf = NULL;
  moreau_err err;
  /* Every rank takes part in every piece's collective transfer, with no
   * rows once its own are written. An empty dataset has no storage to write
   * to (HDF5 fails on it): then every rank has 0 pieces. */
  MOREAU_MPI_CALL(MPI_Allreduce(&mine, &pieces, 1, MPI_INT64_T, MPI_MAX, comm));
  MOREAU_CALL(moreau_error_agree(
      comm, src->fill && n_local ? moreau_malloc((size_t)(n_local < piece ? n_local : piece) * src->row_bytes, &buf)
                                 : MOREAU_SUCCESS));
  errno = 0;
  fspace = H5Screate_simple(ncols > 0 ? 2 : 1, dims, NULL);
  dxpl = collective_dxpl();
  if (fspace >= 0 && dxpl >= 0) dset = H5Dcreate2(loc, name, file_type, fspace, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  err = moreau_error_agree(comm, dset >= 0 ? MOREAU_SUCCESS : write_failed(errno, path, "write dataset", name));
  for (int64_t p = 0; p < pieces && !err; p++) {
    int64_t first = p * piece, count = n_local - first < 0 ? 0 : n_local - first;
    const void *rows = NULL;
    if (count > piece) count = piece;
    if (count && src->fill) {
      src->fill(src->ctx, first, count, buf);
      rows = buf;
    } else if (count) {
      rows = (const char *)src->ctx + (size_t)first * src->row_bytes;
    }
    errno = 0;
    /* A write may fail on some ranks only (a full disk strikes the ranks
     * that write last): all agree before the next collective call, or the
     * ranks that failed would wait in a different one than the others. */
    err = moreau_error_agree(comm, write_piece(dset, fspace, mem_type, dxpl, ncols, offset + first, count, rows)
                                       ? MOREAU_SUCCESS
                                       : write_failed(errno, path, "write dataset", name));
  }
  close_all(dset, fspace, -1, dxpl);
  moreau_free(&buf);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}

moreau_err io_h5_write_rows(MPI_Comm comm, hid_t loc, const char *name, hid_t file_type, hid_t mem_type,
                            int64_t n_global, int64_t offset, int64_t n_local, int ncols, const void *data,
                            const char *path)
{
  io_rows src = {H5Tget_size(mem_type) * (size_t)(ncols > 0 ? ncols : 1), NULL, data, 0};
  MOREAU_CALL(io_h5_write_pieces(comm, loc, name, file_type, mem_type, n_global, offset, n_local, ncols, &src, path));
  return MOREAU_SUCCESS;
}

moreau_err io_h5_make_group(MPI_Comm comm, hid_t file, const char *name, const char *path)
{
  hid_t g;
  int err_no;
  errno = 0;
  g = H5Gcreate2(file, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  err_no = errno;
  if (g >= 0) H5Gclose(g);
  MOREAU_CALL(moreau_error_agree(comm, g >= 0 ? MOREAU_SUCCESS : write_failed(err_no, path, "create group", name)));
  return MOREAU_SUCCESS;
}

moreau_err io_h5_create(MPI_Comm comm, const char *path, hid_t *file)
{
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  int ok = fapl >= 0 && H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL) >= 0, err_no;
  /* Every failure becomes one moreau error, not HDF5's own error stack. */
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  errno = 0;
  *file = ok ? H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl) : -1;
  err_no = errno;
  if (fapl >= 0) H5Pclose(fapl);
  MOREAU_CALL(moreau_error_agree(comm, *file >= 0 ? MOREAU_SUCCESS : write_failed(err_no, path, "create", "the file")));
  return MOREAU_SUCCESS;
}

moreau_err io_h5_close(MPI_Comm comm, hid_t file, moreau_err err, const char *path)
{
  int closed, err_no, rank;
  MOREAU_MPI_CALL(MPI_Comm_rank(comm, &rank));
  /* A file whose writing failed (on every rank: each step agrees) goes
   * anyway; its space is given back first, so that the close, which must
   * still write the metadata, does not fail on a full disk: HDF5 1.10 keeps
   * a file whose close failed half-closed, and crashes when it terminates. */
  if (err && rank == 0) (void)!truncate(path, 0); /* if it fails, so will the close, which says why */
  MOREAU_MPI_CALL(MPI_Barrier(comm));
  errno = 0;
  closed = H5Fclose(file) >= 0;
  err_no = errno;
  /* The first failure is the one to report. */
  if (!err && !closed) err = write_failed(err_no, path, "write", "the file's metadata");
  MOREAU_CALL(moreau_error_agree(comm, err));
  return MOREAU_SUCCESS;
}

int io_h5_has_dataset(hid_t loc, const char *name)
{
  htri_t found = 0;
  H5E_BEGIN_TRY { found = H5Lexists(loc, name, H5P_DEFAULT); }
  H5E_END_TRY;
  return found > 0;
}

/* Opens a dataset and returns its row and column counts (0 columns for a
 * one-dimensional dataset). */
static moreau_err open_dataset(hid_t loc, const char *name, hid_t *dset, hsize_t shape[2], int *rank, const char *path)
{
  hid_t space;
  MOREAU_CHECK(io_h5_has_dataset(loc, name), MOREAU_ERR_INPUT, "%s: no dataset %s (not a moreau snapshot?)", path,
               name);
  *dset = H5Dopen2(loc, name, H5P_DEFAULT);
  MOREAU_CHECK(*dset >= 0, MOREAU_ERR_INPUT, "%s: cannot open dataset %s", path, name);
  space = H5Dget_space(*dset);
  shape[0] = shape[1] = 0;
  *rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
  if (*rank == 1 || *rank == 2) H5Sget_simple_extent_dims(space, shape, NULL);
  if (space >= 0) H5Sclose(space);
  if (*rank != 1 && *rank != 2) {
    H5Dclose(*dset);
    MOREAU_FAIL(MOREAU_ERR_INPUT, "%s: dataset %s is not a table", path, name);
  }
  {
    /* A shape larger than the data the file holds is a damaged file; it
     * would have the readers allocate for rows that are not there. */
    hid_t ftype = H5Dget_type(*dset);
    double bytes =
        (double)shape[0] * (double)(*rank == 2 ? shape[1] : 1) * (ftype >= 0 ? (double)H5Tget_size(ftype) : 0.0);
    if (ftype >= 0) H5Tclose(ftype);
    if (bytes > (double)H5Dget_storage_size(*dset)) {
      H5Dclose(*dset);
      MOREAU_FAIL(MOREAU_ERR_INPUT, "%s: dataset %s holds less data than its shape says (damaged file?)", path, name);
    }
  }
  return MOREAU_SUCCESS;
}

moreau_err io_h5_dataset_rows(hid_t loc, const char *name, int64_t *rows, const char *path)
{
  hid_t dset;
  hsize_t shape[2];
  int rank;
  MOREAU_CALL(open_dataset(loc, name, &dset, shape, &rank, path));
  H5Dclose(dset);
  *rows = (int64_t)shape[0];
  return MOREAU_SUCCESS;
}

moreau_err io_h5_read_rows(MPI_Comm comm, hid_t loc, const char *name, hid_t mem_type, int64_t n_global, int64_t offset,
                           int64_t n_local, int ncols, void *data, const char *path)
{
  int rank;
  hsize_t shape[2], count[2] = {(hsize_t)n_local, (hsize_t)ncols};
  hid_t dset, fspace, mspace, dxpl;
  static char empty;
  int ok;
  MOREAU_CALL(open_dataset(loc, name, &dset, shape, &rank, path));
  if (rank != (ncols > 0 ? 2 : 1) || shape[0] != (hsize_t)n_global || (ncols > 0 && shape[1] != (hsize_t)ncols)) {
    H5Dclose(dset);
    MOREAU_FAIL(MOREAU_ERR_INPUT, "%s: dataset %s should have %lld rows of %d values", path, name, (long long)n_global,
                ncols > 0 ? ncols : 1);
  }
  {
    /* moreau writes native values: a file type of another size or class is
     * a damaged file, and converting from it could make HDF5 allocate a
     * buffer of any size (a fuzzed size field asked for 4 GB). */
    hid_t ftype = H5Dget_type(dset);
    size_t fsize = ftype >= 0 ? H5Tget_size(ftype) : 0;
    H5T_class_t fclass = ftype >= 0 ? H5Tget_class(ftype) : H5T_NO_CLASS;
    if (ftype >= 0) H5Tclose(ftype);
    if (fsize != H5Tget_size(mem_type) || fclass != H5Tget_class(mem_type)) {
      H5Dclose(dset);
      MOREAU_FAIL(MOREAU_ERR_INPUT, "%s: dataset %s holds values of another type than moreau writes (%zu bytes)", path,
                  name, fsize);
    }
  }
  fspace = H5Dget_space(dset);
  mspace = H5Screate_simple(ncols > 0 ? 2 : 1, count, NULL);
  dxpl = collective_dxpl();
  ok = fspace >= 0 && mspace >= 0 && dxpl >= 0;
  ok = ok && (n_global == 0 || select_rows(fspace, mspace, offset, n_local, ncols));
  ok = ok && (n_global == 0 || H5Dread(dset, mem_type, mspace, fspace, dxpl, n_local ? data : (void *)&empty) >= 0);
  close_all(dset, fspace, mspace, dxpl);
  /* As for writes: all ranks leave the collective read together. */
  MOREAU_CALL(moreau_error_agree(comm, ok ? MOREAU_SUCCESS
                                          : moreau_error_raise(MOREAU_ERR_IO, __FILE__, __LINE__, __func__,
                                                               "%s: cannot read dataset %s", path, name)));
  return MOREAU_SUCCESS;
}

moreau_err io_h5_write_attr(MPI_Comm comm, hid_t obj, const char *name, hid_t file_type, hid_t mem_type,
                            const void *value, const char *path)
{
  MOREAU_CALL(io_h5_write_attr_array(comm, obj, name, file_type, mem_type, 0, value, path));
  return MOREAU_SUCCESS;
}

moreau_err io_h5_write_attr_array(MPI_Comm comm, hid_t obj, const char *name, hid_t file_type, hid_t mem_type, int n,
                                  const void *value, const char *path)
{
  hsize_t dims[1] = {(hsize_t)n};
  hid_t space = n > 0 ? H5Screate_simple(1, dims, NULL) : H5Screate(H5S_SCALAR), attr = -1;
  int ok = space >= 0, err_no;
  errno = 0;
  if (ok) attr = H5Acreate2(obj, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT);
  ok = ok && attr >= 0 && H5Awrite(attr, mem_type, value) >= 0;
  err_no = errno;
  if (attr >= 0) H5Aclose(attr);
  if (space >= 0) H5Sclose(space);
  MOREAU_CALL(moreau_error_agree(comm, ok ? MOREAU_SUCCESS : write_failed(err_no, path, "write attribute", name)));
  return MOREAU_SUCCESS;
}

moreau_err io_h5_read_attr(hid_t obj, const char *name, hid_t mem_type, void *value, const char *path)
{
  hid_t attr, space;
  int ok;
  MOREAU_CHECK(H5Aexists(obj, name) > 0, MOREAU_ERR_INPUT, "%s: no attribute %s (not a moreau snapshot?)", path, name);
  attr = H5Aopen(obj, name, H5P_DEFAULT);
  space = attr >= 0 ? H5Aget_space(attr) : -1;
  /* Only a single value fits in *value. */
  ok = space >= 0 && H5Sget_simple_extent_npoints(space) == 1 && H5Aread(attr, mem_type, value) >= 0;
  if (space >= 0) H5Sclose(space);
  if (attr >= 0) H5Aclose(attr);
  MOREAU_CHECK(ok, MOREAU_ERR_INPUT, "%s: cannot read attribute %s", path, name);
  return MOREAU_SUCCESS;
}
