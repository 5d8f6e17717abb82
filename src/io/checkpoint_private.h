#ifndef MOREAU_CHECKPOINT_PRIVATE_H
#define MOREAU_CHECKPOINT_PRIVATE_H

#include "checkpoint_file.h"
#include "moreau/checkpoint.h"

/* The scalars of a checkpoint, stored as two one-row datasets of the /run
 * group (so they are checksummed like everything else). */
enum {
  CKPT_FORMAT, /* CKPT_FORMAT_VERSION */
  CKPT_DIM,
  CKPT_STEP,
  CKPT_NRANKS,
  CKPT_N_BODIES,
  CKPT_N_HISTORY,
  CKPT_STATE_WIDTH,
  CKPT_N_WALLS,
  CKPT_NCELLS,
  CKPT_GRID_N0,
  CKPT_GRID_N1,
  CKPT_GRID_N2,
  CKPT_REPARTITIONS,
  CKPT_HAS_BOX,
  CKPT_OPTION_WORDS, /* the options text in 8-byte words, NUL-padded */
  CKPT_PART_TYPE,    /* moreau_part_type: the map is /partition/cell_rank or the RCB cuts */
  CKPT_N_INTS
};
enum {
  CKPT_TIME,
  CKPT_DT,
  CKPT_GRID_LO0,
  CKPT_GRID_H = CKPT_GRID_LO0 + 3,
  CKPT_BOX_LO0,
  CKPT_BOX_HI0 = CKPT_BOX_LO0 + 3,
  CKPT_LE_OFFSET = CKPT_BOX_HI0 + 3, /* the Lees-Edwards offset (0 without) */
  CKPT_LEN_RATE0,                    /* the box length rates (pressure control) */
  CKPT_N_REALS = CKPT_LEN_RATE0 + 3
};

#define CKPT_FORMAT_VERSION 3

typedef struct {
  int64_t ints[CKPT_N_INTS];
  double reals[CKPT_N_REALS];
  int64_t *options_words;
} ckpt_header;

/* Collective (the counts are summed). The header of ck. */
MOREAU_MUST_CHECK moreau_err ckpt_make_header(const moreau_checkpoint *ck, ckpt_header *hd);
void ckpt_free_header(ckpt_header *hd);
/* Collective. Writes or reads the header datasets (and, reading, checks
 * the format and dimension). */
MOREAU_MUST_CHECK moreau_err ckpt_header_rows(ckpt_file *f, int rank, ckpt_header *hd);

/* Collective. Creates the groups of a new checkpoint file. */
MOREAU_MUST_CHECK moreau_err ckpt_make_groups(ckpt_file *f);
/* Collective. The walls' datasets (replicated: rank 0 writes, all read). */
MOREAU_MUST_CHECK moreau_err ckpt_walls_rows(ckpt_file *f, int rank, int64_t n, double *point, double *normal,
                                             double *velocity, double *reaction, double *mass, double *drive,
                                             int32_t *material, int32_t *mode);

/* Not collective. <dir>/ckpt_<step, 8 digits>.h5<suffix>. */
MOREAU_MUST_CHECK moreau_err ckpt_path(char *buf, const char *ckpt_dir, int64_t step, const char *suffix);
/* Not collective. The steps of the complete checkpoints in ckpt_dir
 * (allocated; none when the directory does not exist). */
MOREAU_MUST_CHECK moreau_err ckpt_list(const char *ckpt_dir, int64_t **steps, size_t *n);

#endif
