#include <math.h>

#include "nlgs_private.h"

/* The local Signorini-Coulomb problem in closed form (seed 000 eqs 32-35):
 * the sticking solution first; if it pulls, the contact opens; if it leaves
 * the Coulomb cone, the contact slides with f_t = +-mu f_n, and the normal
 * impulse is re-solved with that tangential impulse so that Wnt != 0
 * (non-central contacts) stays exact. */
static inline void solve_row(moreau_row2d *r, int max_ratio, moreau_sweep_sums *s)
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
  r->va[0] -= r->ima * (dn * nx + dt * tx);
  r->va[1] -= r->ima * (dn * ny + dt * ty);
  *r->wa -= r->iia * (r->ra_n * dn + r->ra_t * dt);
  r->vb[0] += r->imb_n * dn * nx + r->imb_t * dt * tx;
  r->vb[1] += r->imb_n * dn * ny + r->imb_t * dt * ty;
  *r->wb += r->iib * (r->rb_n * dn + r->rb_t * dt);

  moreau_sweep_add(s, fabs(dn) + fabs(dt), pn + fabs(pt), dn * dn + dt * dt, pn * pn + pt * pt, max_ratio);
}

void moreau_nlgs_sweep2d(moreau_row2d *rows, const moreau_lid *order, moreau_lid n, int max_ratio,
                         moreau_sweep_sums *sums)
{
  moreau_sweep_sums s = {0, 0, 0, 0, 0};
  if (max_ratio)
    for (moreau_lid k = 0; k < n; k++)
      solve_row(&rows[order[k]], 1, &s);
  else
    for (moreau_lid k = 0; k < n; k++)
      solve_row(&rows[order[k]], 0, &s);
  *sums = s;
}
