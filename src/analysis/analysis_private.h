#ifndef MOREAU_ANALYSIS_PRIVATE_H
#define MOREAU_ANALYSIS_PRIVATE_H

#include "moreau/analysis.h"

/* The Love-Weber term f_i l_j of contact k (row-major) and the point that
 * places it in a region: l runs from a's centre to the centre of the image
 * of b it touches, or to the contact point for a wall, which bears the
 * force there. The point is the contact point, but for a wall a's centre:
 * an overlapping body's contact point lies beyond the wall, outside the box
 * the walls bound. A rough wall's grain is part of its wall: a contact of a
 * body with one counts as the body's wall contact (its branch from the
 * body's centre to the contact point, placed by the body's centre), and
 * grains of walls touching each other count for nothing. */
static inline void analysis_contact_term(const moreau_bodies *b, const moreau_contacts *c, moreau_lid k,
                                         double point[3], double term[9])
{
  const double *xa = &b->x[3 * c->a[k]];
  double ca[3], cb[3];
  moreau_contacts_arms(c, b, k, ca, cb);
  const moreau_lid ib = c->b[k];
  const int a_wall = b->glued[c->a[k]] != 0, b_wall = ib < 0 || b->glued[ib] != 0;
  double l[3], f[3];
  for (int i = 0; i < 3; i++) {
    if (a_wall && b_wall) {
      point[i] = xa[i];
      l[i] = 0.0;
    } else if (a_wall) { /* b's term: its force is -f, at cb from its centre */
      point[i] = xa[i] + ca[i] - cb[i];
      l[i] = -cb[i];
    } else {
      point[i] = b_wall ? xa[i] : xa[i] + ca[i];
      l[i] = b_wall ? ca[i] : ca[i] - cb[i];
    }
  }
  moreau_contacts_world_force(c, b->dim, k, f);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      term[3 * i + j] = f[i] * l[j];
}

/* The kinetic term m u_i u_j of owned body i, u its velocity less the mean
 * flow of the boundaries; 0 for a body of infinite mass. */
static inline void analysis_kinetic_term(const moreau_domain *d, const moreau_bodies *b, moreau_lid i, double term[9])
{
  double u[3], mean[3], m = b->inv_mass[i] > 0.0 ? 1.0 / b->inv_mass[i] : 0.0;
  moreau_domain_stream_velocity(d, &b->x[3 * i], mean);
  for (int k = 0; k < 3; k++)
    u[k] = b->v[3 * i + k] - mean[k];
  for (int p = 0; p < 3; p++)
    for (int q = 0; q < 3; q++)
      term[3 * p + q] = m * u[p] * u[q];
}

/* What the texture functions read: the pieces, the region (NULL for
 * everything) and the force-bearing contacts of this rank in key order
 * (gid_a, gid_b, point), so that the points of one pair are adjacent. */
typedef struct {
  const moreau_domain *d;
  const moreau_bodies *b;
  const moreau_contacts *c;
  const moreau_walls *w;
  const moreau_materials *m;
  const moreau_region *r;
  moreau_lid n_fb;
  moreau_lid *fb;
} texture_input;

/* Whether x is in the region (moreau_region_contains; everything without
 * one). */
static inline int texture_in_region(const texture_input *in, const double *x)
{
  return !in->r || moreau_region_contains(in->d, in->r, x);
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
