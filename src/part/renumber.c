#include <math.h>
#include <stdlib.h>

#include "moreau/morton.h"
#include "part_private.h"

typedef struct {
  uint64_t key;
  moreau_gid gid;
  moreau_lid lid;
} keyed_body;

static int by_key_then_gid(const void *pa, const void *pb)
{
  const keyed_body *a = pa, *b = pb;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  return (a->gid > b->gid) - (a->gid < b->gid);
}

moreau_err part_renumber(moreau_part *part, moreau_bodies *b)
{
  const part_grid *g = &part->grid;
  /* 2^31 points per axis in 2D, 2^21 in 3D: far finer than a body. */
  const int bits = g->dim == 2 ? 31 : 21;
  double lo[3] = {0, 0, 0}, edge = 0.0;
  keyed_body *keyed;
  moreau_lid *perm, n = b->n_owned;
  b->n_ghost = 0;
  part->ghosts_valid = 0;
  part->n_ghost = 0;
  part->iface_valid = 0;
  part_gid_index_invalidate(part);
  if (n < 2) return MOREAU_SUCCESS;
  for (int d = 0; d < g->dim; d++) {
    lo[d] = g->lo[d];
    edge = fmax(edge, g->n[d] * g->h);
  }
  MOREAU_CALL(moreau_malloc((size_t)n * sizeof(*keyed), &keyed));
  for (moreau_lid i = 0; i < n; i++)
    keyed[i] = (keyed_body){moreau_morton_key(&b->x[3 * i], lo, edge, g->dim, bits), b->gid[i], i};
  qsort(keyed, (size_t)n, sizeof(*keyed), by_key_then_gid);
  moreau_err err = moreau_malloc((size_t)n * sizeof(*perm), &perm);
  if (err == MOREAU_SUCCESS) {
    for (moreau_lid i = 0; i < n; i++)
      perm[i] = keyed[i].lid;
    err = moreau_fields_permute(&moreau_body_fields, b, (size_t)n, perm);
    moreau_free(&perm);
  }
  moreau_free(&keyed);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}
