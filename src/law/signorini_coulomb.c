#include <math.h>

#include "law_kernel.h"

/* Signorini's unilateral condition with exact Coulomb friction and Moreau's
 * restitution on mean velocities: the contact law of seed 000 (eqs 7, 10,
 * 32-35) in 2D and of seed 001 (eqs 1.24-1.30) in 3D. It needs no state
 * besides the contact force. */

/* Signorini on Moreau's mean velocity (seed 000 eq 7): a closed contact (or
 * one that closes within the step) must leave with u+ = -e_n u-; an open one
 * may approach until its gap closes at the end of the step (g_pos of seed
 * 001, with the midpoint positions r(t+dt) = r_m + dt/2 U+). */
static inline double normal_target(double gap, double un_minus, double e_n, double dt)
{
  double closing = gap > 0.0 ? -2.0 * gap / dt : 0.0;
  return un_minus < closing ? -e_n * un_minus : closing;
}

static void setup2d(moreau_row2d *r, const moreau_pair_law *pair, double gap, const double *um, double dt,
                    const double *state)
{
  (void)state;
  r->un_target = normal_target(gap, um[0], pair->e_n, dt);
  r->ut_target = -pair->e_t * um[1];
  r->mu = pair->mu;
}

static void setup3d(moreau_row3d *r, const moreau_pair_law *pair, double gap, const double *um, double dt,
                    const double *state)
{
  (void)state;
  r->target[0] = normal_target(gap, um[0], pair->e_n, dt);
  r->target[1] = -pair->e_t * um[1];
  r->target[2] = -pair->e_t * um[2];
  r->mu = pair->mu;
}

/* The local Signorini-Coulomb problem in closed form (seed 000 eqs 32-35):
 * the sticking solution first; if it pulls, the contact opens; if it leaves
 * the Coulomb cone, the contact slides with f_t = +-mu f_n, and the normal
 * impulse is re-solved with that tangential impulse so that Wnt != 0
 * (non-central contacts) stays exact. */
static inline void solve2d(moreau_row2d *r, int max_ratio, moreau_sweep_sums *s)
{
  const double nx = r->nx, ny = r->ny, tx = -ny, ty = nx;
  const double dvx = r->vb[0] - r->va[0], dvy = r->vb[1] - r->va[1];
  const double wa = *r->wa, wb = *r->wb;
  const double un = nx * dvx + ny * dvy + wb * r->rb_n - wa * r->ra_n;
  const double ut = tx * dvx + ty * dvy + wb * r->rb_t - wa * r->ra_t;
  const double rn = r->un_target - un + r->Wnn * r->pn + r->Wnt * r->pt;
  const double rt = r->ut_target - ut + r->Wnt * r->pn + r->Wtt * r->pt;
  double pn = (r->Wtt * rn - r->Wnt * rt) * r->inv_det;
  double pt = (r->Wnn * rt - r->Wnt * rn) * r->inv_det;
  if (pn <= 0.0) {
    pn = 0.0;
    pt = 0.0;
  } else if (fabs(pt) > r->mu * pn) {
    const double sgn = pt > 0.0 ? r->mu : -r->mu;
    pn = rn / (r->Wnn + sgn * r->Wnt);
    if (pn <= 0.0) pn = 0.0;
    pt = sgn * pn;
  }
  const double dn = pn - r->pn, dt = pt - r->pt;
  r->pn = pn;
  r->pt = pt;
  moreau_row2d_apply(r, dn, dt);

  moreau_sweep_add(s, fabs(dn) + fabs(dt), pn + fabs(pt), dn * dn + dt * dt, pn * pn + pt * pt, max_ratio);
}

static inline double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* The local Signorini-Coulomb problem in 3D (seed 001 eqs 1.24-1.30): the
 * sticking impulse first; if it pulls, the contact opens; if it leaves the
 * cone, the contact slides along the sticking direction with |P_t| = mu P_n
 * and P_n re-solved from the normal row. For spheres and walls the
 * tangential block of W is isotropic and decoupled from n, and this is the
 * exact solution. */
static inline void solve3d(moreau_row3d *r, int max_ratio, moreau_sweep_sums *sums)
{
  double dv[3], u[3], rhs[3], p[3], d[3];
  const double *W = r->W, *Wi = r->Winv;
  for (int k = 0; k < 3; k++)
    dv[k] = r->vb[k] - r->va[k];
  u[0] = dot3(r->n, dv) + dot3(r->wb, r->cb_x) - dot3(r->wa, r->ca_x);
  u[1] = dot3(r->t, dv) + dot3(r->wb, r->cb_x + 3) - dot3(r->wa, r->ca_x + 3);
  u[2] = dot3(r->s, dv) + dot3(r->wb, r->cb_x + 6) - dot3(r->wa, r->ca_x + 6);
  rhs[0] = r->target[0] - u[0] + W[0] * r->p[0] + W[1] * r->p[1] + W[2] * r->p[2];
  rhs[1] = r->target[1] - u[1] + W[1] * r->p[0] + W[3] * r->p[1] + W[4] * r->p[2];
  rhs[2] = r->target[2] - u[2] + W[2] * r->p[0] + W[4] * r->p[1] + W[5] * r->p[2];
  p[0] = Wi[0] * rhs[0] + Wi[1] * rhs[1] + Wi[2] * rhs[2];
  p[1] = Wi[1] * rhs[0] + Wi[3] * rhs[1] + Wi[4] * rhs[2];
  p[2] = Wi[2] * rhs[0] + Wi[4] * rhs[1] + Wi[5] * rhs[2];
  if (p[0] <= 0.0) {
    p[0] = p[1] = p[2] = 0.0;
  } else {
    double pt = sqrt(p[1] * p[1] + p[2] * p[2]);
    if (pt > r->mu * p[0]) {
      double e1 = p[1] / pt, e2 = p[2] / pt;
      double pn = rhs[0] / (W[0] + r->mu * (W[1] * e1 + W[2] * e2));
      if (pn <= 0.0) pn = 0.0;
      p[0] = pn;
      p[1] = r->mu * pn * e1;
      p[2] = r->mu * pn * e2;
    }
  }
  for (int k = 0; k < 3; k++)
    d[k] = p[k] - r->p[k];
  for (int k = 0; k < 3; k++)
    r->p[k] = p[k];
  moreau_row3d_apply(r, d);
  moreau_sweep_add(sums, fabs(d[0]) + fabs(d[1]) + fabs(d[2]), p[0] + fabs(p[1]) + fabs(p[2]),
                   d[0] * d[0] + d[1] * d[1] + d[2] * d[2], p[0] * p[0] + p[1] * p[1] + p[2] * p[2], max_ratio);
}

MOREAU_LAW_SWEEP(sweep2d, moreau_row2d, solve2d)
MOREAU_LAW_SWEEP(sweep3d, moreau_row3d, solve3d)

const struct moreau_law_kernel moreau_law_signorini_coulomb = {.name = "signorini_coulomb",
                                                               .state_width = 0,
                                                               .setup2d = setup2d,
                                                               .setup3d = setup3d,
                                                               .sweep2d = sweep2d,
                                                               .sweep3d = sweep3d};
