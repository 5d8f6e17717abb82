#ifndef MOREAU_LAW_COULOMB_H
#define MOREAU_LAW_COULOMB_H

/* The pieces of the closed-form Signorini-Coulomb local solve that the laws
 * of src/law share (read by law files only). A local solve is: the right-hand
 * side of the contact's 2x2 (2D) or 3x3 (3D) system from the current
 * velocities, the unilateral-Coulomb projection of its solution, then the
 * impulse change applied to both sides. The laws differ in what they do to
 * the right-hand side (cohesion shifts the normal impulse) and in the
 * coefficients of the projection (a static coefficient for the sticking
 * test). */

#include <math.h>

#include "law_kernel.h"

/* rn, rt such that W (pn, pt) = (rn, rt) makes the relative velocity reach
 * the targets, with the current velocities and impulses of the row. */
static inline __attribute__((always_inline)) void moreau_row2d_rhs(const moreau_row2d *r, const moreau_row2d_local *f,
                                                                   double *rn, double *rt)
{
  const double nx = r->nx, ny = r->ny, tx = -ny, ty = nx;
  const double dvx = r->vb[0] - r->va[0], dvy = r->vb[1] - r->va[1];
  const double wa = r->va[MOREAU_SPIN2D], wb = r->vb[MOREAU_SPIN2D];
  const double ut = tx * dvx + ty * dvy + wb * f->rb_t - wa * f->ra_t;
  if (f->plain) {
    *rn = r->un_target - (nx * dvx + ny * dvy) + f->Wnn * r->pn;
    *rt = r->ut_target - ut + f->Wtt * r->pt;
    return;
  }
  const double un = nx * dvx + ny * dvy + wb * f->rb_n - wa * f->ra_n;
  *rn = r->un_target - un + f->Wnn * r->pn + f->Wnt * r->pt;
  *rt = r->ut_target - ut + f->Wnt * r->pn + f->Wtt * r->pt;
}

/* The unilateral-Coulomb solution of W p = (rn, rt) (seed 000 eqs 32-35):
 * open when the velocities without this contact's impulse already meet the
 * normal target (rn <= 0); else the sticking solution if it presses and lies
 * within mu_stick p_n; else sliding with p_t = s mu_slide p_n, the normal row
 * solved exactly with that tangential impulse, in the direction s whose slip
 * opposes the friction (the sticking solution's direction first). The open
 * test is on rn, not on the sign of the sticking p_n: at a non-central
 * contact (a cluster's, W_nt != 0) the sticking solution may pull while the
 * contact must press and slide; for central contacts the two tests agree and
 * so does every step below with the plain disk formulas. If neither
 * direction is consistent (W_nt large against W_nn / mu), the frictionless
 * impulse keeps the contact closed. Returns whether the contact slides. */
static inline __attribute__((always_inline)) int moreau_coulomb2d(const moreau_row2d_local *f, double rn, double rt,
                                                                  double mu_stick, double mu_slide, double *pn_out,
                                                                  double *pt_out)
{
  if (rn <= 0.0) {
    *pn_out = 0.0;
    *pt_out = 0.0;
    return 0;
  }
  if (f->plain) {
    /* The same steps with W_nt = 0: the sliding p_n is the sticking one. */
    const double pn = rn / f->Wnn, pt = rt / f->Wtt;
    *pn_out = pn;
    if (fabs(pt) <= mu_stick * pn) {
      *pt_out = pt;
      return 0;
    }
    *pt_out = pt > 0.0 ? mu_slide * pn : -mu_slide * pn;
    return 1;
  }
  const double inv_det = 1.0 / (f->Wnn * f->Wtt - f->Wnt * f->Wnt); /* > 0: rows with a singular W are not built */
  double pn = (f->Wtt * rn - f->Wnt * rt) * inv_det;
  double pt = (f->Wnn * rt - f->Wnt * rn) * inv_det;
  if (pn > 0.0 && fabs(pt) <= mu_stick * pn) {
    *pn_out = pn;
    *pt_out = pt;
    return 0;
  }
  double sgn = pt > 0.0 ? mu_slide : -mu_slide;
  for (int attempt = 0; attempt < 2; attempt++, sgn = -sgn) {
    const double d = f->Wnn + sgn * f->Wnt;
    if (!(d > 0.0)) continue;
    const double p = rn / d;
    /* The tangential velocity left, relative to its target, against p_t. */
    const double slip = f->Wnt * p + f->Wtt * sgn * p - rt;
    if (sgn * slip <= 0.0) {
      *pn_out = p;
      *pt_out = sgn * p;
      return 1;
    }
  }
  *pn_out = rn / f->Wnn;
  *pt_out = 0.0;
  return 1;
}

/* Sets the row's impulses to (pn, pt), applies the change to both sides and
 * adds it to the sweep's sums. */
static inline __attribute__((always_inline)) void moreau_row2d_update(moreau_row2d *r, const moreau_row2d_local *f,
                                                                      double pn, double pt, int max_ratio,
                                                                      moreau_sweep_sums *s)
{
  const double dn = pn - r->pn, dt = pt - r->pt;
  r->pn = pn;
  r->pt = pt;
  moreau_row2d_apply(r, f, dn, dt);
  moreau_sweep_add(s, fabs(dn) + fabs(dt), fabs(pn) + fabs(pt), dn * dn + dt * dt, pn * pn + pt * pt, max_ratio);
}

/* The 3D right-hand side: W p = rhs makes the relative velocity reach the
 * targets (f: moreau_row3d_form's). */
static inline __attribute__((always_inline)) void moreau_row3d_rhs(const moreau_row3d *r, const moreau_row3d_formed *f,
                                                                   double *rhs)
{
  double spin[3], dv[3], u[3];
  const double *W = f->W, *wa = r->va + MOREAU_SPIN3D, *wb = r->vb + MOREAU_SPIN3D;
  /* The velocity of b's contact point relative to a's, in the frame:
   * wb x cb - wa x ca, one product (sb wb - sa wa) x n when the arms are
   * along n. */
  if (r->x) {
    double wb_cb[3], wa_ca[3];
    moreau_cross3(wb, r->x->cb, wb_cb);
    moreau_cross3(wa, r->x->ca, wa_ca);
    for (int k = 0; k < 3; k++)
      spin[k] = wb_cb[k] - wa_ca[k];
  } else {
    double w[3];
    for (int k = 0; k < 3; k++)
      w[k] = r->sb * wb[k] - r->sa * wa[k];
    moreau_cross3(w, r->n, spin);
  }
  for (int k = 0; k < 3; k++)
    dv[k] = r->vb[k] - r->va[k] + spin[k];
  u[0] = moreau_dot3(r->n, dv);
  u[1] = moreau_dot3(f->t, dv);
  u[2] = moreau_dot3(f->s, dv);
  const double tt[2] = {r->x ? r->x->target_t[0] : 0.0, r->x ? r->x->target_t[1] : 0.0};
  rhs[0] = r->target_n - u[0] + W[0] * r->p[0] + W[1] * r->p[1] + W[2] * r->p[2];
  rhs[1] = tt[0] - u[1] + W[1] * r->p[0] + W[3] * r->p[1] + W[4] * r->p[2];
  rhs[2] = tt[1] - u[2] + W[2] * r->p[0] + W[4] * r->p[1] + W[5] * r->p[2];
}

/* The sliding solution in 3D: p = p_n (1, mu e), e a unit tangential
 * direction, with the normal row met (the velocity left, v = W p - rhs, has
 * v_n = 0) and the slip opposing the friction (v_t = -lambda e, lambda >=
 * 0: maximal dissipation). A fixed-point iteration on e from the sticking
 * direction e0; when the tangential block of W is isotropic and uncoupled
 * from n (spheres, walls: W_nt = W_ns = W_ts = 0, W_tt = W_ss, to 1e-12) e0
 * is the answer and no iteration is made. Else (a cluster's lever arms, a rough
 * wall's grain) e turns to where the slip points, to 1e-14, or after 100
 * turns stays where it got (a strongly coupled W, e.g. a large W_nt against
 * W_nn / mu, where the iteration need not contract). Returns p_n (<= 0:
 * none, the contact opens) and leaves e. */
static inline double moreau_coulomb3d_slide(const double *W, const double *rhs, double mu, double e[2])
{
  /* Spheres' W is isotropic up to the rounding of their lever arms. */
  const double tiny = 1e-12 * W[0];
  const int isotropic =
      fabs(W[1]) <= tiny && fabs(W[2]) <= tiny && fabs(W[4]) <= tiny && fabs(W[3] - W[5]) <= 1e-12 * W[3];
  double pn = 0.0;
  for (int turn = 0; turn <= 100; turn++) {
    const double d = W[0] + mu * (W[1] * e[0] + W[2] * e[1]);
    if (!(d > 0.0)) return 0.0;
    pn = rhs[0] / d;
    if (isotropic || !(pn > 0.0)) break;
    const double vt = W[1] * pn + mu * pn * (W[3] * e[0] + W[4] * e[1]) - rhs[1];
    const double vs = W[2] * pn + mu * pn * (W[4] * e[0] + W[5] * e[1]) - rhs[2];
    const double len = hypot(vt, vs);
    if (!(len > 0.0)) break; /* no slip left: any direction on the cone */
    const double f0 = -vt / len, f1 = -vs / len, change = fabs(f0 - e[0]) + fabs(f1 - e[1]);
    e[0] = f0;
    e[1] = f1;
    if (change <= 1e-14) {
      const double dn = W[0] + mu * (W[1] * e[0] + W[2] * e[1]);
      pn = dn > 0.0 ? rhs[0] / dn : 0.0;
      break;
    }
  }
  return pn;
}

/* The 3D unilateral-Coulomb solution of W p = rhs (seed 001 eqs 1.24-1.30):
 * open when the velocities without this contact's impulse already meet the
 * normal target (rhs_n <= 0, as in 2D: at a non-central contact the
 * sticking impulse may pull while the contact must press and slide); else
 * the sticking impulse if it presses and lies within the mu_stick cone;
 * else sliding, |p_t| = mu_slide p_n, with p_n from the normal row and the
 * direction of moreau_coulomb3d_slide. For spheres and walls every test
 * agrees with the plain sphere formulas and the result is exact. Returns
 * whether the contact slides. */
static inline __attribute__((always_inline)) int moreau_coulomb3d(const moreau_row3d_formed *f, const double *rhs,
                                                                  double mu_stick, double mu_slide, double *p)
{
  const double *W = f->W;
  if (rhs[0] <= 0.0) {
    p[0] = p[1] = p[2] = 0.0;
    return 0;
  }
  if (f->diagonal) {
    /* The same steps with W = diag(W_nn, W_tt, W_tt): the sliding p_n is
     * the sticking one, the direction the sticking p_t's. */
    const double inv_tt = 1.0 / W[3];
    p[0] = rhs[0] / W[0];
    p[1] = rhs[1] * inv_tt;
    p[2] = rhs[2] * inv_tt;
    const double pt = sqrt(p[1] * p[1] + p[2] * p[2]);
    if (pt <= mu_stick * p[0]) return 0;
    const double scale = mu_slide * p[0] / pt;
    p[1] *= scale;
    p[2] *= scale;
    return 1;
  }
  /* The sticking impulse W^-1 rhs by cofactors (det > 0: rows with a
   * singular W are not built), not read from the record: a random sweep
   * waits on the bytes it moves, not on these flops (blocks, whose records
   * stream, pay 5 % for them; benchmarks/README.md, the 3D bed). */
  double c[6];
  moreau_sym3_cofactors(W, c);
  const double inv_det = 1.0 / moreau_sym3_det(W, c);
  p[0] = (c[0] * rhs[0] + c[1] * rhs[1] + c[2] * rhs[2]) * inv_det;
  p[1] = (c[1] * rhs[0] + c[3] * rhs[1] + c[4] * rhs[2]) * inv_det;
  p[2] = (c[2] * rhs[0] + c[4] * rhs[1] + c[5] * rhs[2]) * inv_det;
  double pt = sqrt(p[1] * p[1] + p[2] * p[2]);
  if (p[0] > 0.0 && pt <= mu_stick * p[0]) return 0;
  double e[2] = {1.0, 0.0};
  if (pt > 0.0) {
    e[0] = p[1] / pt;
    e[1] = p[2] / pt;
  }
  double pn = moreau_coulomb3d_slide(W, rhs, mu_slide, e);
  if (!(pn > 0.0)) pn = 0.0;
  p[0] = pn;
  p[1] = mu_slide * pn * e[0];
  p[2] = mu_slide * pn * e[1];
  return pn > 0.0;
}

/* Sets the row's impulse to p, applies the change and adds it to the sums. */
static inline __attribute__((always_inline)) void moreau_row3d_update(moreau_row3d *r, const moreau_row3d_formed *f,
                                                                      const double *p, int max_ratio,
                                                                      moreau_sweep_sums *sums)
{
  double d[3];
  for (int k = 0; k < 3; k++) {
    d[k] = p[k] - r->p[k];
    r->p[k] = p[k];
  }
  moreau_row3d_apply(r, f, d);
  moreau_sweep_add(sums, fabs(d[0]) + fabs(d[1]) + fabs(d[2]), fabs(p[0]) + fabs(p[1]) + fabs(p[2]),
                   d[0] * d[0] + d[1] * d[1] + d[2] * d[2], p[0] * p[0] + p[1] * p[1] + p[2] * p[2], max_ratio);
}

#endif
