#ifndef MOREAU_ANALYSIS_PRIVATE_H
#define MOREAU_ANALYSIS_PRIVATE_H

#include "moreau/analysis.h"

/* What the texture functions read: the pieces, the region (lo, hi both NULL
 * for everything) and the force-bearing contacts of this rank in key order
 * (gid_a, gid_b, point), so that the points of one pair are adjacent. */
typedef struct {
  const moreau_bodies *b;
  const moreau_contacts *c;
  const moreau_walls *w;
  const moreau_materials *m;
  const double *lo, *hi;
  moreau_lid n_fb;
  moreau_lid *fb;
} texture_input;

/* Whether x is in the region [lo, hi) along the first dim axes. */
static inline int texture_in_region(const texture_input *in, const double *x)
{
  if (!in->lo) return 1;
  for (int k = 0; k < in->b->dim; k++)
    if (!(x[k] >= in->lo[k] && x[k] < in->hi[k])) return 0;
  return 1;
}

/* rattlers.c */
/* The force-bearing contacts (f_n > 0) of c in key order (*fb malloc'ed). */
MOREAU_MUST_CHECK moreau_err texture_force_bearing(const moreau_contacts *c, moreau_lid **fb, moreau_lid *n_fb);
/* Collective. Per local body (owned and ghost), two counts, global for the
 * bodies this rank owns or touches: all[2 i] its force-bearing contacts,
 * all[2 i + 1] its distinct force-bearing partners (bodies or walls);
 * core[] the same counting only contacts whose two bodies are not rattlers;
 * rattler[i] whether body i is one (valid for owned bodies and for bodies
 * the contacts of this rank touch). *rounds: removal rounds that removed
 * something. */
MOREAU_MUST_CHECK moreau_err texture_rattlers(MPI_Comm comm, moreau_part *part, const texture_input *in, double *all,
                                              double *core, char *rattler, int *rounds);

#endif
