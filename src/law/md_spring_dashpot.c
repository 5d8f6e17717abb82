#include "coulomb.h"

/* The force law of the MD comparison mode (-method md): soft grains with a
 * linear spring-dashpot normal force (seed 004 appendix B, eq 12),
 * f_n = -k_n d - g_n d' for an overlap d < 0 (d' = u_n, the normal relative
 * velocity), never attractive (f_n >= 0: the dashpot does not pull a
 * separating pair together), and the regularized Coulomb friction of seed
 * 004 eq 2 (RC1), f_t = -sgn(u_t) min(g_t |u_t|, mu f_n) (in 3D along the
 * slip). The forces are functions of the state: the solver makes one
 * explicit pass (`explicit_forces`), each contact's impulse f dt computed at
 * setup from the gap at the step's midpoint and the relative velocity at its
 * start, then applied; the time step follows the stiffness (src/app). */

typedef struct {
  moreau_row2d r;
  double p[2];
} md_row2d;

typedef struct {
  moreau_row3d r;
  double p[3];
} md_row3d;

/* Normal force of the overlap gap (< 0) at normal velocity un. */
static double normal_force(const moreau_pair_law *pair, double gap, double un)
{
  if (!(gap < 0.0)) return 0.0;
  double f = -pair->k_n * gap - pair->g_n * un;
  return f > 0.0 ? f : 0.0;
}

static void setup2d(moreau_row2d *base, const moreau_pair_law *pair, const moreau_law_contact *c)
{
  md_row2d *r = (md_row2d *)base;
  const double fn = normal_force(pair, c->gap, c->u_minus[0]), ut = c->u_minus[1];
  double ft = fmin(pair->g_t * fabs(ut), pair->mu * fn);
  r->p[0] = fn * c->dt;
  r->p[1] = (ut > 0.0 ? -ft : ut < 0.0 ? ft : 0.0) * c->dt;
  base->un_target = base->ut_target = 0.0;
  base->mu = pair->mu;
}

static void setup3d(moreau_row3d *base, const moreau_pair_law *pair, const moreau_law_contact *c, double target_t[2])
{
  md_row3d *r = (md_row3d *)base;
  const double fn = normal_force(pair, c->gap, c->u_minus[0]);
  const double slip = hypot(c->u_minus[1], c->u_minus[2]);
  const double ft = fmin(pair->g_t * slip, pair->mu * fn);
  r->p[0] = fn * c->dt;
  r->p[1] = slip > 0.0 ? -ft * c->u_minus[1] / slip * c->dt : 0.0;
  r->p[2] = slip > 0.0 ? -ft * c->u_minus[2] / slip * c->dt : 0.0;
  base->target_n = target_t[0] = target_t[1] = 0.0;
  base->mu = pair->mu;
}

static inline void solve2d(md_row2d *c, int max_ratio, moreau_sweep_sums *s)
{
  moreau_row2d_local f;
  moreau_row2d_form(&c->r, &f);
  moreau_row2d_update(&c->r, &f, c->p[0], c->p[1], max_ratio, s);
}

static inline void solve3d(md_row3d *c, int max_ratio, moreau_sweep_sums *s)
{
  moreau_row3d_formed f;
  moreau_row3d_form(&c->r, &f);
  moreau_row3d_update(&c->r, &f, c->p, max_ratio, s);
}

MOREAU_LAW_SWEEP(sweep2d, md_row2d, solve2d, moreau_prefetch_sides2d, moreau_prefetch_nothing)
MOREAU_LAW_SWEEP(sweep3d, md_row3d, solve3d, moreau_prefetch_sides3d, moreau_prefetch_extra3d)

const struct moreau_law_kernel moreau_law_md_spring_dashpot = {.name = "md_spring_dashpot",
                                                               .state_width = 0,
                                                               .explicit_forces = 1,
                                                               .row_size2d = sizeof(md_row2d),
                                                               .row_size3d = sizeof(md_row3d),
                                                               .setup2d = setup2d,
                                                               .setup3d = setup3d,
                                                               .sweep2d = sweep2d,
                                                               .sweep3d = sweep3d};
