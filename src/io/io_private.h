#ifndef MOREAU_IO_PRIVATE_H
#define MOREAU_IO_PRIVATE_H

#include <hdf5.h>
#include <mpi.h>
#include <stdint.h>

#include "moreau/bodies.h"
#include "moreau/error.h"
#include "moreau/fields.h"
#include "moreau/materials.h"

/* Longest path the io module builds; longer ones are an input error rather
 * than a silent truncation. */
#define IO_PATH_MAX 4096

/* What the XDMF writers need to know about one snapshot file. */
typedef struct {
  int64_t step;
  double time;
  int dim;
  int64_t n_bodies, n_contacts;
  int has_box;          /* the .h5 has the box outline /box */
  int64_t n_contactors; /* rows of /contactors; -1: the .h5 has none */
} io_snapshot_meta;

/* Readers behind moreau_read_particles. Collective over b->comm; they append
 * owned bodies to b and leave the rollback on error to the caller. */
MOREAU_MUST_CHECK moreau_err io_csv_read(const char *path, moreau_bodies *b, const moreau_materials *m,
                                         const moreau_shapes *shapes);
MOREAU_MUST_CHECK moreau_err io_h5_read(const char *path, moreau_bodies *b, const moreau_materials *m);

/* Not collective. snprintf into a buffer of IO_PATH_MAX bytes, failing with
 * MOREAU_ERR_INPUT instead of truncating. */
MOREAU_MUST_CHECK moreau_err io_path(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Not collective. mkdir -p: creates path and its missing parents. */
MOREAU_MUST_CHECK moreau_err io_mkdir_p(const char *path);
/* Name of snapshot step within its folder: "snap_<6 digits>" + suffix. */
MOREAU_MUST_CHECK moreau_err io_snapshot_name(char *buf, int64_t step, const char *suffix);

/* Collective HDF5 helpers. Datasets are rows of ncols values (ncols == 0: a
 * one-dimensional dataset); each rank transfers the rows [offset, offset +
 * n_local) of the n_global rows, n_local may be 0. path is for messages.
 * Every helper agrees its outcome over comm (the file's communicator), so
 * that a failure on some ranks (a full disk) returns on all of them before
 * the next collective call. */
MOREAU_MUST_CHECK moreau_err io_h5_write_rows(MPI_Comm comm, hid_t loc, const char *name, hid_t file_type,
                                              hid_t mem_type, int64_t n_global, int64_t offset, int64_t n_local,
                                              int ncols, const void *data, const char *path);

/* Bytes of rows a writer makes at once. Rows made for the file (in gid
 * order, or computed) are made and written a piece at a time, so a writer's
 * buffer is at most a piece however many rows a rank holds: the final
 * snapshot, written while the contacts and the sweep records are still
 * there, used to add 80 bytes a contact and 32 a body to the run's peak
 * memory. Smaller pieces mean more collective transfers. */
#define IO_PIECE_BYTES ((size_t)1 << 22)

/* Where this rank's rows of a dataset come from: fill writes rows [first,
 * first + n) into buf, which has room for the rows of a piece of
 * piece_bytes (0: IO_PIECE_BYTES; at least one row); without fill, ctx
 * holds all the rows, contiguously. */
typedef struct {
  size_t row_bytes;
  void (*fill)(const void *ctx, int64_t first, int64_t n, void *buf);
  const void *ctx;
  size_t piece_bytes;
} io_rows;

/* io_h5_write_rows with rows from src, made and written a piece at a time
 * (rows stored contiguously in one transfer): every rank takes part in as
 * many collective transfers as the rank with the most pieces. */
MOREAU_MUST_CHECK moreau_err io_h5_write_pieces(MPI_Comm comm, hid_t loc, const char *name, hid_t file_type,
                                                hid_t mem_type, int64_t n_global, int64_t offset, int64_t n_local,
                                                int ncols, const io_rows *src, const char *path);
/* Checks that the dataset has n_global rows of ncols values first (fails with
 * MOREAU_ERR_INPUT otherwise). */
/* Whether loc has a link name (a dataset or group), without HDF5's error
 * stack when it has not. */
int io_h5_has_dataset(hid_t loc, const char *name);
MOREAU_MUST_CHECK moreau_err io_h5_read_rows(MPI_Comm comm, hid_t loc, const char *name, hid_t mem_type,
                                             int64_t n_global, int64_t offset, int64_t n_local, int ncols, void *data,
                                             const char *path);
/* Collective. Creates (truncates) path for parallel writing over comm, with
 * HDF5's automatic error printing off for the process: its failures become
 * moreau errors of one line. */
MOREAU_MUST_CHECK moreau_err io_h5_create(MPI_Comm comm, const char *path, hid_t *file);
/* Collective. Closes a file being written, which flushes it; returns err,
 * else the failure to close, agreed over comm. */
MOREAU_MUST_CHECK moreau_err io_h5_close(MPI_Comm comm, hid_t file, moreau_err err, const char *path);
/* Collective. Creates the group name of file. */
MOREAU_MUST_CHECK moreau_err io_h5_make_group(MPI_Comm comm, hid_t file, const char *name, const char *path);
/* Number of rows of a dataset. */
MOREAU_MUST_CHECK moreau_err io_h5_dataset_rows(hid_t loc, const char *name, int64_t *rows, const char *path);
/* The HDF5 file and memory types of a field's elements. */
void io_field_types(moreau_field_type type, hid_t *file_type, hid_t *mem_type);
/* Copies items order[0 .. n) of field f of obj, in that order, to out;
 * zeros for an absent lazy field (order may then be NULL). */
void io_gather_field(const moreau_field_table *t, const void *obj, const moreau_field *f, const moreau_lid *order,
                     int64_t n, void *out);
/* Field f of obj as this rank's rows of a dataset: items order[0 ..
 * n_local) in that order, gathered a piece at a time, or, without an order,
 * items [0, n_local) as stored. */
typedef struct {
  const moreau_field_table *t;
  const void *obj;
  const moreau_field *f;
  const moreau_lid *order;
  size_t piece_bytes; /* as in io_rows */
} io_gather;
/* Collective. The fields of table t with a flag in mask, each as the dataset
 * <group>/<field name> (one column per component; one-dimensional for a
 * single component). Writing takes this rank's rows from items [0,
 * n_local) of obj, or items order[0 .. n_local) in that order when order
 * is given; reading puts them at items [first, first + n_local), which
 * must be allocated, after checking each dataset's shape; there the fields
 * outside mask are zeroed. */
MOREAU_MUST_CHECK moreau_err io_h5_write_fields(MPI_Comm comm, hid_t file, const char *group,
                                                const moreau_field_table *t, const void *obj, unsigned mask,
                                                int64_t n_global, int64_t offset, int64_t n_local,
                                                const moreau_lid *order, size_t piece_bytes, const char *path);
MOREAU_MUST_CHECK moreau_err io_h5_read_fields(MPI_Comm comm, hid_t file, const char *group,
                                               const moreau_field_table *t, void *obj, unsigned mask, int64_t n_global,
                                               int64_t offset, int64_t n_local, size_t first, const char *path);
/* Scalar attributes of an object (the file's root group for snapshots). */
MOREAU_MUST_CHECK moreau_err io_h5_write_attr(MPI_Comm comm, hid_t obj, const char *name, hid_t file_type,
                                              hid_t mem_type, const void *value, const char *path);
/* An attribute holding a one-dimensional array of n values (n == 0: a
 * scalar, as io_h5_write_attr). */
MOREAU_MUST_CHECK moreau_err io_h5_write_attr_array(MPI_Comm comm, hid_t obj, const char *name, hid_t file_type,
                                                    hid_t mem_type, int n, const void *value, const char *path);
MOREAU_MUST_CHECK moreau_err io_h5_read_attr(hid_t obj, const char *name, hid_t mem_type, void *value,
                                             const char *path);

/* Not collective (rank 0 of the snapshot writer). Writes the XDMF file of one
 * snapshot beside its .h5; then adds it to <dir>/snapshots.xmf (appended in
 * place after an earlier step, else the collection is rebuilt from the
 * folder up to its step); rebuild lists the folder's snapshots up to
 * last_step. */
MOREAU_MUST_CHECK moreau_err io_xdmf_write_snapshot(const char *snap_dir, const io_snapshot_meta *meta);
MOREAU_MUST_CHECK moreau_err io_xdmf_write_collection(const char *dir, const io_snapshot_meta *latest);
MOREAU_MUST_CHECK moreau_err io_xdmf_rebuild_collection(const char *dir, int64_t last_step);

#endif
