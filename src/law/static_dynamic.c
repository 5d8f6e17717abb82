#include "coulomb.h"

/* Coulomb friction with a static and a dynamic coefficient (seed 004's C2
 * law, Fig 2c): a contact that did not slide in the last step (or is new)
 * sticks while its friction force stays within mu_s f_n; once it slides,
 * its friction is mu_d f_n (the pair's mu), and it keeps the dynamic
 * coefficient for its sticking test as long as it slides; a contact that
 * sticks or opens for a step gets mu_s back. Signorini and restitution as in
 * signorini_coulomb. The state is one number per contact: 1 if it slid in
 * its last step, else 0 (written by every local solve, so the last sweep's
 * verdict is the one kept). The solution is not unique (seed 004, section
 * 3.3): it depends on the sweep order, as the paper's does on the initial
 * conditions. */

typedef struct {
  moreau_row2d r;
  double mu_stick; /* the coefficient of the sticking test */
  double *sliding; /* the contact's state */
} static_row2d;

typedef struct {
  moreau_row3d r;
  double mu_stick;
  double *sliding;
} static_row3d;

static double stick_coefficient(const moreau_pair_law *pair, const moreau_law_contact *c)
{
  double mu_s = pair->mu_s > 0.0 ? pair->mu_s : pair->mu;
  return c->state[0] > 0.0 ? pair->mu : mu_s;
}

static void setup2d(moreau_row2d *base, const moreau_pair_law *pair, const moreau_law_contact *c)
{
  static_row2d *r = (static_row2d *)base;
  base->un_target = moreau_normal_target(c->gap, c->u_minus[0], pair->e_n, c->dt);
  base->ut_target = -pair->e_t * c->u_minus[1];
  base->mu = pair->mu;
  r->mu_stick = stick_coefficient(pair, c);
  r->sliding = c->state;
}

static void setup3d(moreau_row3d *base, const moreau_pair_law *pair, const moreau_law_contact *c, double target_t[2])
{
  static_row3d *r = (static_row3d *)base;
  base->target_n = moreau_normal_target(c->gap, c->u_minus[0], pair->e_n, c->dt);
  target_t[0] = -pair->e_t * c->u_minus[1];
  target_t[1] = -pair->e_t * c->u_minus[2];
  base->mu = pair->mu;
  r->mu_stick = stick_coefficient(pair, c);
  r->sliding = c->state;
}

static inline void solve2d(static_row2d *c, int max_ratio, moreau_sweep_sums *s)
{
  double rn, rt, pn, pt;
  moreau_row2d_local f;
  moreau_row2d_form(&c->r, &f);
  moreau_row2d_rhs(&c->r, &f, &rn, &rt);
  *c->sliding = moreau_coulomb2d(&f, rn, rt, c->mu_stick, c->r.mu, &pn, &pt);
  moreau_row2d_update(&c->r, &f, pn, pt, max_ratio, s);
}

static inline void solve3d(static_row3d *c, int max_ratio, moreau_sweep_sums *s)
{
  double rhs[3], p[3];
  moreau_row3d_formed f;
  moreau_row3d_form(&c->r, &f);
  moreau_row3d_rhs(&c->r, &f, rhs);
  *c->sliding = moreau_coulomb3d(&f, rhs, c->mu_stick, c->r.mu, p);
  moreau_row3d_update(&c->r, &f, p, max_ratio, s);
}

MOREAU_LAW_SWEEP(sweep2d, static_row2d, solve2d, moreau_prefetch_sides2d, moreau_prefetch_nothing)
MOREAU_LAW_SWEEP(sweep3d, static_row3d, solve3d, moreau_prefetch_sides3d, moreau_prefetch_extra3d)

const struct moreau_law_kernel moreau_law_static_dynamic = {.name = "static_dynamic",
                                                            .state_width = 1,
                                                            .row_size2d = sizeof(static_row2d),
                                                            .row_size3d = sizeof(static_row3d),
                                                            .setup2d = setup2d,
                                                            .setup3d = setup3d,
                                                            .sweep2d = sweep2d,
                                                            .sweep3d = sweep3d};
