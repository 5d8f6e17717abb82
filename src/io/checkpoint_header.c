#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "checkpoint_private.h"

_Static_assert(sizeof(moreau_wall_mode) == sizeof(int32_t), "wall modes are stored as 32-bit integers");

moreau_err ckpt_make_header(const moreau_checkpoint *ck, ckpt_header *hd)
{
  int64_t local[2] = {ck->bodies->n_owned, ck->history->n}, global[2];
  size_t len = ck->options ? strlen(ck->options) : 0, words = len / 8 + 1;
  int size;
  memset(hd, 0, sizeof(*hd));
  MOREAU_MPI_CALL(MPI_Comm_size(ck->run.comm, &size));
  MOREAU_MPI_CALL(MPI_Allreduce(local, global, 2, MPI_INT64_T, MPI_SUM, ck->run.comm));
  hd->ints[CKPT_FORMAT] = CKPT_FORMAT_VERSION;
  hd->ints[CKPT_DIM] = ck->run.dim;
  hd->ints[CKPT_STEP] = ck->run.step;
  hd->ints[CKPT_NRANKS] = size;
  hd->ints[CKPT_N_BODIES] = global[0];
  hd->ints[CKPT_N_HISTORY] = global[1];
  hd->ints[CKPT_STATE_WIDTH] = ck->history->state_width;
  hd->ints[CKPT_N_WALLS] = ck->walls->n;
  hd->ints[CKPT_NCELLS] = ck->map.ncells;
  hd->ints[CKPT_PART_TYPE] = ck->map.type;
  for (int k = 0; k < 3; k++) {
    hd->ints[CKPT_GRID_N0 + k] = ck->map.n[k];
    hd->reals[CKPT_GRID_LO0 + k] = ck->map.lo[k];
    hd->reals[CKPT_BOX_LO0 + k] = ck->box_lo[k];
    hd->reals[CKPT_BOX_HI0 + k] = ck->box_hi[k];
    hd->reals[CKPT_LEN_RATE0 + k] = ck->len_rate[k];
  }
  hd->ints[CKPT_REPARTITIONS] = ck->map.repartitions;
  hd->ints[CKPT_HAS_BOX] = ck->has_box;
  hd->ints[CKPT_OPTION_WORDS] = (int64_t)words;
  hd->reals[CKPT_TIME] = ck->run.time;
  hd->reals[CKPT_DT] = ck->run.dt;
  hd->reals[CKPT_GRID_H] = ck->map.h;
  hd->reals[CKPT_LE_OFFSET] = ck->le_offset;
  /* The text, NUL-padded to whole words (at least one NUL). */
  MOREAU_CALL(moreau_calloc(words, 8, &hd->options_words));
  if (len) memcpy(hd->options_words, ck->options, len);
  return MOREAU_SUCCESS;
}

void ckpt_free_header(ckpt_header *hd) { moreau_free(&hd->options_words); }

moreau_err ckpt_header_rows(ckpt_file *f, int rank, ckpt_header *hd)
{
  MOREAU_CALL(ckpt_replicated(f, rank, "/run/header_ints", MOREAU_FIELD_I64, 1, CKPT_N_INTS, hd->ints));
  MOREAU_CALL(ckpt_replicated(f, rank, "/run/header_reals", MOREAU_FIELD_F64, 1, CKPT_N_REALS, hd->reals));
  if (!f->writing) {
    MOREAU_CHECK(hd->ints[CKPT_FORMAT] == CKPT_FORMAT_VERSION, MOREAU_ERR_INPUT,
                 "%s: checkpoint format %" PRId64 ", this moreau reads format %d", f->path, hd->ints[CKPT_FORMAT],
                 CKPT_FORMAT_VERSION);
    MOREAU_CHECK(hd->ints[CKPT_OPTION_WORDS] >= 1 && hd->ints[CKPT_OPTION_WORDS] < (1 << 24) &&
                     hd->ints[CKPT_N_BODIES] >= 0 && hd->ints[CKPT_N_HISTORY] >= 0 && hd->ints[CKPT_N_WALLS] >= 0 &&
                     hd->ints[CKPT_N_WALLS] < (1 << 20) && hd->ints[CKPT_NCELLS] >= 1 &&
                     hd->ints[CKPT_NCELLS] <= (1 << 24) && hd->ints[CKPT_NRANKS] >= 1 &&
                     hd->ints[CKPT_NRANKS] <= (1 << 24) && hd->ints[CKPT_PART_TYPE] >= MOREAU_PART_METIS &&
                     hd->ints[CKPT_PART_TYPE] <= MOREAU_PART_RCB && hd->ints[CKPT_STATE_WIDTH] >= 0 &&
                     hd->ints[CKPT_STATE_WIDTH] < 1024,
                 MOREAU_ERR_INPUT, "%s: the checkpoint's header is damaged", f->path);
    MOREAU_CALL(moreau_calloc((size_t)hd->ints[CKPT_OPTION_WORDS], 8, &hd->options_words));
  }
  MOREAU_CALL(ckpt_replicated(f, rank, "/run/options", MOREAU_FIELD_I64, 1, (int)hd->ints[CKPT_OPTION_WORDS],
                              hd->options_words));
  /* Whatever the file says, the text ends within its words. */
  if (!f->writing) ((char *)hd->options_words)[8 * hd->ints[CKPT_OPTION_WORDS] - 1] = '\0';
  return MOREAU_SUCCESS;
}

moreau_err ckpt_path(char *buf, const char *ckpt_dir, int64_t step, const char *suffix)
{
  MOREAU_CALL(io_path(buf, "%s/ckpt_%08" PRId64 ".h5%s", ckpt_dir, step, suffix));
  return MOREAU_SUCCESS;
}

/* A complete checkpoint's name: ckpt_<digits>.h5 and nothing after. */
static int parse_name(const char *name, int64_t *step)
{
  char tail[8];
  long long s;
  if (sscanf(name, "ckpt_%lld%7s", &s, tail) != 2 || strcmp(tail, ".h5") || s < 0) return 0;
  *step = (int64_t)s;
  return 1;
}

moreau_err ckpt_list(const char *ckpt_dir, int64_t **steps, size_t *n)
{
  DIR *d = opendir(ckpt_dir);
  struct dirent *e;
  size_t cap = 0;
  *steps = NULL;
  *n = 0;
  if (!d) {
    MOREAU_CHECK(errno == ENOENT, MOREAU_ERR_IO, "%s: cannot list (%s)", ckpt_dir, strerror(errno));
    return MOREAU_SUCCESS;
  }
  while ((e = readdir(d))) {
    int64_t step;
    if (!parse_name(e->d_name, &step)) continue;
    if (*n == cap) {
      cap = cap ? 2 * cap : 16;
      if (moreau_realloc(cap * sizeof(**steps), steps)) {
        closedir(d);
        MOREAU_FAIL(MOREAU_ERR_MEMORY, "%s: out of memory listing checkpoints", ckpt_dir);
      }
    }
    (*steps)[(*n)++] = step;
  }
  closedir(d);
  return MOREAU_SUCCESS;
}
