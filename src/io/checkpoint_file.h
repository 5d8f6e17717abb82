#ifndef MOREAU_CHECKPOINT_FILE_H
#define MOREAU_CHECKPOINT_FILE_H

#include "io_private.h"

/* A checkpoint file being written or read, and the running checksum of what
 * went through it (this rank's rows; summed over ranks at the end). */
typedef struct {
  hid_t file;
  MPI_Comm comm; /* the file's communicator, not owned */
  const char *path;
  int writing;
  uint64_t sum;
  size_t piece_bytes; /* the run state's write_piece_bytes */
} ckpt_file;

/* Collective. Writes or reads (after checking its shape) the rows [offset,
 * offset + n_local) of the dataset name, and adds them to the checksum. */
MOREAU_MUST_CHECK moreau_err ckpt_rows(ckpt_file *f, const char *name, moreau_field_type type, int64_t n_global,
                                       int64_t offset, int64_t n_local, int ncols, void *data);
/* Collective. The same for every field of t with a flag in mask, as the
 * datasets <group>/<field>; items [first, first + n_local) of obj, or, when
 * writing with an order, items order[0 .. n_local) of obj in that order. */
MOREAU_MUST_CHECK moreau_err ckpt_fields(ckpt_file *f, const char *group, const moreau_field_table *t, void *obj,
                                         unsigned mask, int64_t n_global, int64_t offset, int64_t n_local, size_t first,
                                         const moreau_lid *order);
/* Collective. A dataset every rank holds whole (walls, the partition map,
 * the header): rank 0 writes it; every rank reads it; it counts once in the
 * checksum. */
MOREAU_MUST_CHECK moreau_err ckpt_replicated(ckpt_file *f, int rank, const char *name, moreau_field_type type,
                                             int64_t n_rows, int ncols, void *data);
/* Collective. The checksum of the whole file. */
MOREAU_MUST_CHECK moreau_err ckpt_total(ckpt_file *f, MPI_Comm comm, uint64_t *total);

#endif
