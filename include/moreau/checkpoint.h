#ifndef MOREAU_CHECKPOINT_H
#define MOREAU_CHECKPOINT_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "moreau/bodies.h"
#include "moreau/contacts.h"
#include "moreau/error.h"
#include "moreau/io.h"
#include "moreau/part.h"
#include "moreau/walls.h"

/* The public API: exported from libmoreau, which hides everything else. */
#pragma GCC visibility push(default)

/* Checkpoints: everything a run needs to continue, in one HDF5 file
 * <dir>/checkpoints/ckpt_<step, 8 digits>.h5 written collectively with the
 * MPI-IO driver (each rank its slab). The file is written under a temporary
 * name, closed, and only then renamed, and it carries a checksum of its
 * contents (a sum over every row of every dataset of a hash of the row, its
 * index and its dataset, so it does not depend on how rows were split over
 * ranks) that the reader verifies. Layout: docs/file-formats.md. */

/* What a checkpoint holds, as the pieces that hold it. The writer reads
 * them; the reader fills them. */
typedef struct {
  moreau_run_state run;        /* comm, dim, step, time, dt; the reader also sets
                                  its box and offset (not its periodic and
                                  Lees-Edwards axes: the options hold them) */
  moreau_bodies *bodies;       /* owned bodies, every checkpoint field */
  moreau_contacts *history;    /* the last step's contacts: key, force, law state */
  moreau_walls *walls;         /* replicated */
  uint64_t rng[4];             /* this rank's sweep-order generator */
  int rng_restored;            /* reader: 1 when rng was restored (same rank count) */
  moreau_part_map map;         /* the partition's map: cells or RCB cuts (replicated) */
  double box_lo[3], box_hi[3]; /* the domain's box */
  int has_box;
  double le_offset;   /* the domain's Lees-Edwards offset (0 without) */
  double len_rate[3]; /* the rates of its box lengths (pressure control) */
  char *options;      /* the run's options as text (reader: allocated) */
  /* The run's shapes table, one row per contactor: shape id (from 1), unit
   * offset x, y, z, radius (writer: given, NULL for none; reader: allocated,
   * NULL when the file has none, which checkpoints before clusters lack). A
   * restart rebuilds the table from its options and compares. */
  double *shape_rows;
  int64_t n_shape_rows;
} moreau_checkpoint;

#define MOREAU_CHECKPOINT_SHAPE_COLS 5

/* Collective over ck->run.comm. Writes the checkpoint of ck->run.step under
 * dir and then removes all but the newest `keep` complete checkpoints
 * (keep >= 1). I/O failures give MOREAU_ERR_IO naming the path on every
 * rank; an older checkpoint is never removed before the new one is in place. */
MOREAU_MUST_CHECK moreau_err moreau_checkpoint_write(const moreau_checkpoint *ck, const char *dir, int keep);

/* Collective over comm. Opens path, checks that it is a complete moreau
 * checkpoint of dimension dim whose checksum verifies, and reads it: this
 * rank's slab of the bodies and of the history is appended to ck->bodies and
 * ck->history (created by the caller, with the run's state width), the walls
 * are appended to ck->walls, the map's cell_rank or RCB cuts and the options are
 * allocated (free them with moreau_checkpoint_free), rng is restored when the
 * file was written on comm's size of ranks. A corrupt, truncated or foreign
 * file fails with MOREAU_ERR_INPUT and one line naming it and the reason. */
MOREAU_MUST_CHECK moreau_err moreau_checkpoint_read(const char *path, MPI_Comm comm, int dim, moreau_checkpoint *ck);
/* Frees what the reader allocated (the map's arrays, options, shape_rows). */
void moreau_checkpoint_free(moreau_checkpoint *ck);

/* Collective over comm. Only the run's options text of a checkpoint (after
 * verifying it), allocated in *options. */
MOREAU_MUST_CHECK moreau_err moreau_checkpoint_read_options(const char *path, MPI_Comm comm, char **options);

/* Collective over comm. The newest checkpoint under dir/checkpoints whose
 * checksum verifies, in path (len bytes). Each newer file that does not
 * verify is reported by rank 0 in one line on stderr and skipped. No
 * verifiable checkpoint: MOREAU_ERR_INPUT naming the directory. */
MOREAU_MUST_CHECK moreau_err moreau_checkpoint_find(MPI_Comm comm, const char *dir, char *path, size_t len);

/* Collective over comm. Removes the checkpoints under dir/checkpoints of
 * steps after step (a run restarted from step replaces them: left in place,
 * a later -restart auto would continue the abandoned trajectory), with a note
 * on stderr for each. */
MOREAU_MUST_CHECK moreau_err moreau_checkpoint_discard_after(MPI_Comm comm, const char *dir, int64_t step);

#pragma GCC visibility pop

#endif
