#include <string.h>

#include "analysis_private.h"

/* Force-bearing means f_n > 0: a contact the solver left open has exactly
 * f_n = 0 (the Signorini projection returns an exact zero), and it must not
 * count as a neighbour. Key order keeps the points of a pair together
 * whatever order the list is in (all points of a pair are on one rank: the
 * owner of gid_a). */
moreau_err texture_force_bearing(const moreau_contacts *c, moreau_lid **fb, moreau_lid *n_fb)
{
  char *keep;
  MOREAU_CALL(moreau_malloc((size_t)(c->n + 1), &keep));
  for (moreau_lid k = 0; k < c->n; k++)
    keep[k] = c->force[3 * k] > 0.0;
  MOREAU_CALL(moreau_contacts_key_order(c, keep, fb, n_fb));
  moreau_free(&keep);
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
