#include "coulomb.h"

/* Signorini's unilateral condition with exact Coulomb friction and Moreau's
 * restitution on mean velocities: the contact law of seed 000 (eqs 7, 10,
 * 32-35) in 2D and of seed 001 (eqs 1.24-1.30) in 3D. It needs no state
 * besides the contact force. */

static void setup2d(moreau_row2d *r, const moreau_pair_law *pair, const moreau_law_contact *c)
{
  r->un_target = moreau_normal_target(c->gap, c->u_minus[0], pair->e_n, c->dt);
  r->ut_target = -pair->e_t * c->u_minus[1];
  r->mu = pair->mu;
}

static void setup3d(moreau_row3d *r, const moreau_pair_law *pair, const moreau_law_contact *c, double target_t[2])
{
  r->target_n = moreau_normal_target(c->gap, c->u_minus[0], pair->e_n, c->dt);
  target_t[0] = -pair->e_t * c->u_minus[1];
  target_t[1] = -pair->e_t * c->u_minus[2];
  r->mu = pair->mu;
}

/* The local Signorini-Coulomb problem in closed form (seed 000 eqs 32-35 in
 * 2D, seed 001 eqs 1.24-1.30 in 3D; src/law/coulomb.h). */
static inline void solve2d(moreau_row2d *r, int max_ratio, moreau_sweep_sums *s)
{
  double rn, rt, pn, pt;
  moreau_row2d_local f;
  moreau_row2d_form(r, &f);
  moreau_row2d_rhs(r, &f, &rn, &rt);
  moreau_coulomb2d(&f, rn, rt, r->mu, r->mu, &pn, &pt);
  moreau_row2d_update(r, &f, pn, pt, max_ratio, s);
}

static inline __attribute__((always_inline)) void solve3d(moreau_row3d *r, int max_ratio, moreau_sweep_sums *sums)
{
  double rhs[3], p[3];
  moreau_row3d_formed f;
  moreau_row3d_form(r, &f);
  moreau_row3d_rhs(r, &f, rhs);
  moreau_coulomb3d(&f, rhs, r->mu, r->mu, p);
  moreau_row3d_update(r, &f, p, max_ratio, sums);
}

MOREAU_LAW_SWEEP(sweep2d, moreau_row2d, solve2d, moreau_prefetch_sides2d, moreau_prefetch_nothing)
MOREAU_LAW_SWEEP(sweep3d, moreau_row3d, solve3d, moreau_prefetch_sides3d, moreau_prefetch_extra3d)

const struct moreau_law_kernel moreau_law_signorini_coulomb = {.name = "signorini_coulomb",
                                                               .state_width = 0,
                                                               .row_size2d = sizeof(moreau_row2d),
                                                               .row_size3d = sizeof(moreau_row3d),
                                                               .setup2d = setup2d,
                                                               .setup3d = setup3d,
                                                               .sweep2d = sweep2d,
                                                               .sweep3d = sweep3d};
