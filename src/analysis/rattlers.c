#include <stdlib.h>
#include <string.h>

#include "analysis_private.h"

typedef struct {
  moreau_gid ga, gb;
  int32_t point;
  moreau_lid k;
} key_entry;

static int by_key(const void *x, const void *y)
{
  const key_entry *p = x, *q = y;
  if (p->ga != q->ga) return p->ga < q->ga ? -1 : 1;
  if (p->gb != q->gb) return p->gb < q->gb ? -1 : 1;
  return (p->point > q->point) - (p->point < q->point);
}

/* Force-bearing means f_n > 0: a contact the solver left open has exactly
 * f_n = 0 (the Signorini projection returns an exact zero), and it must not
 * count as a neighbour. Sorting by key keeps the points of a pair together
 * whatever order the list is in (all points of a pair are on one rank: the
 * owner of gid_a). */
moreau_err texture_force_bearing(const moreau_contacts *c, moreau_lid **fb, moreau_lid *n_fb)
{
  key_entry *e;
  moreau_lid n = 0;
  MOREAU_CALL(moreau_malloc((size_t)(c->n + 1) * sizeof(key_entry), &e));
  for (moreau_lid k = 0; k < c->n; k++)
    if (c->force[3 * k] > 0.0) e[n++] = (key_entry){c->gid_a[k], c->gid_b[k], c->point[k], k};
  qsort(e, (size_t)n, sizeof(key_entry), by_key);
  MOREAU_CALL(moreau_malloc((size_t)(n + 1) * sizeof(moreau_lid), fb));
  for (moreau_lid j = 0; j < n; j++)
    (*fb)[j] = e[j].k;
  *n_fb = n;
  moreau_free(&e);
  return MOREAU_SUCCESS;
}

/* This rank's share of the counts: contacts and distinct partners of each
 * local body, over the force-bearing contacts whose bodies are not
 * rattlers. Whether a contact counts depends on its pair only, so the
 * points of a pair count or not together. */
static void count_local(const texture_input *in, const char *rattler, double *counts)
{
  const moreau_contacts *c = in->c;
  moreau_gid last_a = -1, last_b = -1;
  memset(counts, 0, 2 * (size_t)moreau_bodies_n_local(in->b) * sizeof(double));
  for (moreau_lid j = 0; j < in->n_fb; j++) {
    moreau_lid k = in->fb[j], a = c->a[k], b = c->b[k];
    int new_pair = c->gid_a[k] != last_a || c->gid_b[k] != last_b;
    if (rattler[a] || (b >= 0 && rattler[b])) continue;
    counts[2 * a] += 1.0;
    counts[2 * a + 1] += new_pair;
    if (b >= 0) {
      counts[2 * b] += 1.0;
      counts[2 * b + 1] += new_pair;
    }
    last_a = c->gid_a[k];
    last_b = c->gid_b[k];
  }
}

/* Removal in rounds: every body of finite mass with fewer than dim contacts
 * left becomes a rattler at once, then the counts are taken again without
 * their contacts. Removing in rounds or one at a time ends at the same
 * network (a rattler stays one when others are removed), and rounds need one
 * interface sum and one reduction each. Every holder of a body gets the
 * same global count, so all of them decide alike. */
moreau_err texture_rattlers(MPI_Comm comm, moreau_part *part, const texture_input *in, double *all, double *core,
                            char *rattler, int *rounds)
{
  const moreau_bodies *b = in->b;
  moreau_lid n_local = moreau_bodies_n_local(b);
  memset(rattler, 0, (size_t)n_local);
  count_local(in, rattler, all);
  MOREAU_CALL(moreau_part_interface_sum(part, b, all, 2));
  memcpy(core, all, 2 * (size_t)n_local * sizeof(double));
  *rounds = 0;
  for (;;) {
    int64_t removed = 0;
    for (moreau_lid i = 0; i < n_local; i++) {
      if (rattler[i] || b->inv_mass[i] <= 0.0 || core[2 * i] >= b->dim) continue;
      rattler[i] = 1;
      removed += i < b->n_owned;
    }
    MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, &removed, 1, MPI_INT64_T, MPI_SUM, comm));
    if (!removed) break;
    (*rounds)++;
    count_local(in, rattler, core);
    MOREAU_CALL(moreau_part_interface_sum(part, b, core, 2));
  }
  return MOREAU_SUCCESS;
}
