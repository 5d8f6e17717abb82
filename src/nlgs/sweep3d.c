#include <math.h>

#include "nlgs_private.h"

static inline double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Adds the impulse change d (frame components) to both sides' velocities. */
static inline void apply(moreau_row3d *r, const double *d)
{
  double pv[3], dw_a[3], dw_b[3];
  for (int k = 0; k < 3; k++) {
    pv[k] = d[0] * r->n[k] + d[1] * r->t[k] + d[2] * r->s[k];
    dw_a[k] = d[0] * r->ca_x[k] + d[1] * r->ca_x[3 + k] + d[2] * r->ca_x[6 + k];
    dw_b[k] = d[0] * r->cb_x[k] + d[1] * r->cb_x[3 + k] + d[2] * r->cb_x[6 + k];
  }
  for (int k = 0; k < 3; k++) {
    r->va[k] -= r->ima * pv[k];
    r->wa[k] -= r->iia * dw_a[k];
    r->vb[k] += r->imb_n * d[0] * r->n[k] + r->imb_t * (d[1] * r->t[k] + d[2] * r->s[k]);
    r->wb[k] += r->iib * dw_b[k];
  }
}

void moreau_nlgs_apply_impulses3d(moreau_row3d *rows, moreau_lid n)
{
  for (moreau_lid k = 0; k < n; k++)
    apply(&rows[k], rows[k].p);
}

/* The local Signorini-Coulomb problem in 3D (seed 001 eqs 1.24-1.30): the
 * sticking impulse first; if it pulls, the contact opens; if it leaves the
 * cone, the contact slides along the sticking direction with |P_t| = mu P_n
 * and P_n re-solved from the normal row. For spheres and walls the
 * tangential block of W is isotropic and decoupled from n, and this is the
 * exact solution. */
static inline void solve_row(moreau_row3d *r, int max_ratio, moreau_sweep_sums *sums)
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
  apply(r, d);
  moreau_sweep_add(sums, fabs(d[0]) + fabs(d[1]) + fabs(d[2]), p[0] + fabs(p[1]) + fabs(p[2]),
                   d[0] * d[0] + d[1] * d[1] + d[2] * d[2], p[0] * p[0] + p[1] * p[1] + p[2] * p[2], max_ratio);
}

void moreau_nlgs_sweep3d(moreau_row3d *rows, const moreau_lid *order, moreau_lid n, int max_ratio,
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
