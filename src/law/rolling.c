#include <string.h>

#include "coulomb.h"

/* Signorini-Coulomb with rolling and torsion friction (seed 001 section
 * 1.7, eqs 1.38-1.42): besides the force, a contact exerts a torque T on b
 * (-T on a) that opposes the relative angular velocity Omega = w_b - w_a,
 * with Coulomb-like graphs |T_t| <= mu_r r* f_n (rolling, the part of T in
 * the tangent plane) and |T_n| <= mu_o r* f_n (torsion, about the normal;
 * none in 2D, where the spin is normal to the plane of the normal), r* the
 * reduced radius. No restitution on the rotations. The state is the torque,
 * to warm-start it (3 numbers: in the contact frame n, t, s in 3D, the z
 * component first in 2D).
 *
 * The local problem couples force and torque through the spins (a rolling
 * torque changes the slip velocity). 2D: solved exactly, by cases: open if
 * the contact does not approach without impulse, else the all-sticking 3x3
 * solution, and if it violates a threshold or pulls, the cases
 * where sliding, rolling or both are on their threshold with the signs the
 * sticking solution gives, then the other signs; the first case whose
 * impulses and velocities satisfy both graphs is the solution. 3D: the
 * cone of the torque makes cases infinite, so the contact's problem is
 * solved by alternating blocks, each exact with the other fixed: the force
 * (the closed-form Signorini-Coulomb solve), the rolling torque (projection
 * of the sticking torque on the disk of radius mu_r r* p_n), the torsion
 * torque (clipping); repeated until the impulses change by less than 1e-13
 * of their size (at most 100 rounds). With the thresholds frozen at the
 * current p_n, each round is a projected block Gauss-Seidel step on the
 * contact's strictly convex quadratic (W is positive definite), which
 * converges linearly; the thresholds follow p_n as the sweep's own
 * iterations do. */

typedef struct {
  moreau_row2d r;
  double q;             /* torque impulse on b (z) */
  double m_r;           /* mu_r r*: the rolling threshold over p_n */
  double Wnq, Wtq, Wqq; /* how the torque moves u_n, u_t and Omega */
  double inv_r, dt;
  double *torque;
} rolling_row2d;

typedef struct {
  moreau_row3d r;
  double q[3];     /* torque impulse on b, frame components n, t, s */
  double m_r, m_o; /* rolling and torsion thresholds over p_n */
  double inv_r, dt;
  double *torque;
} rolling_row3d;

static void setup2d(moreau_row2d *base, const moreau_pair_law *pair, const moreau_law_contact *c)
{
  rolling_row2d *r = (rolling_row2d *)base;
  base->un_target = moreau_normal_target(c->gap, c->u_minus[0], pair->e_n, c->dt);
  base->ut_target = -pair->e_t * c->u_minus[1];
  base->mu = pair->mu;
  r->m_r = pair->mu_r * c->r_eff;
  const double iia = base->va[MOREAU_II2D], iib = base->vb[MOREAU_II2D];
  moreau_row2d_local f;
  moreau_row2d_form(base, &f);
  r->Wnq = iib * f.rb_n + iia * f.ra_n;
  r->Wtq = iib * f.rb_t + iia * f.ra_t;
  r->Wqq = iib + iia;
  r->inv_r = 1.0 / c->r_eff;
  r->dt = c->dt;
  r->torque = c->state;
  /* The warm-start torque goes on now; the builder applies the force's. */
  r->q = r->m_r > 0.0 ? c->state[0] * c->dt : 0.0;
  base->va[MOREAU_SPIN2D] -= iia * r->q;
  base->vb[MOREAU_SPIN2D] += iib * r->q;
}

/* Solves the k x k system M z = b (k <= 3) by elimination with partial
 * pivoting; returns 0 when it is singular. */
static int solve_small(int k, double M[3][3], double *b, double *z)
{
  for (int i = 0; i < k; i++) {
    int piv = i;
    for (int j = i + 1; j < k; j++)
      if (fabs(M[j][i]) > fabs(M[piv][i])) piv = j;
    if (!(fabs(M[piv][i]) > 0.0)) return 0;
    for (int j = 0; j < k; j++) {
      double t = M[i][j];
      M[i][j] = M[piv][j];
      M[piv][j] = t;
    }
    double t = b[i];
    b[i] = b[piv];
    b[piv] = t;
    for (int j = i + 1; j < k; j++) {
      double f = M[j][i] / M[i][i];
      for (int l = i; l < k; l++)
        M[j][l] -= f * M[i][l];
      b[j] -= f * b[i];
    }
  }
  for (int i = k - 1; i >= 0; i--) {
    double s = b[i];
    for (int j = i + 1; j < k; j++)
      s -= M[i][j] * z[j];
    z[i] = s / M[i][i];
  }
  return 1;
}

/* One case of the 2D local problem: sliding sign sg (0: sticking) and
 * rolling sign kp (0: rolling resistance not on its threshold). x = (p_n,
 * p_t, q) with p_t = sg mu p_n and q = kp m_r p_n on the thresholds; the
 * equations of the free unknowns W x = rhs. Returns whether x satisfies both
 * graphs. */
static int try_case(const double W[3][3], const double *rhs, double mu, double m_r, int sg, int kp, double *x)
{
  const double col_n[3] = {1.0, sg * mu, kp * m_r};
  int free_var[3] = {0, -1, -1}, k = 1;
  if (!sg) free_var[k++] = 1;
  if (!kp) free_var[k++] = 2;
  double M[3][3], b[3], z[3] = {0, 0, 0};
  for (int i = 0; i < k; i++) {
    int row = free_var[i];
    b[i] = rhs[row];
    M[i][0] = W[row][0] * col_n[0] + W[row][1] * col_n[1] + W[row][2] * col_n[2];
    for (int j = 1; j < k; j++)
      M[i][j] = W[row][free_var[j]];
  }
  if (!solve_small(k, M, b, z)) return 0;
  for (int i = 0; i < 3; i++)
    x[i] = z[0] * col_n[i];
  for (int j = 1; j < k; j++)
    x[free_var[j]] += z[j];
  if (!(x[0] > 0.0)) return 0;
  const double tol = 1e-12;
  double v[3]; /* velocity minus target of each row */
  for (int i = 0; i < 3; i++)
    v[i] = W[i][0] * x[0] + W[i][1] * x[1] + W[i][2] * x[2] - rhs[i];
  double scale_v = fabs(rhs[0]) + fabs(rhs[1]) + fabs(rhs[2]);
  if (sg ? sg * v[1] > tol * scale_v : fabs(x[1]) > mu * x[0] * (1 + tol)) return 0;
  if (kp ? kp * v[2] > tol * scale_v : fabs(x[2]) > m_r * x[0] * (1 + tol)) return 0;
  return 1;
}

static void local2d(const double W[3][3], const double *rhs, double mu, double m_r, double *x)
{
  /* With no impulse the relative velocity minus the target is -rhs: if that
   * does not approach, the contact opens. */
  if (rhs[0] <= 0.0) {
    x[0] = x[1] = x[2] = 0.0;
    return;
  }
  if (try_case(W, rhs, mu, m_r, 0, 0, x)) return;
  const int sg = x[1] > 0.0 ? 1 : -1, kp = x[2] > 0.0 ? 1 : -1;
  const int cases[8][2] = {{sg, 0}, {0, kp}, {sg, kp}, {-sg, 0}, {0, -kp}, {-sg, kp}, {sg, -kp}, {-sg, -kp}};
  for (int i = 0; i < 8; i++)
    if (try_case(W, rhs, mu, m_r, cases[i][0], cases[i][1], x)) return;
  /* None fits to round-off (degenerate W): both on their threshold. */
  try_case(W, rhs, mu, m_r, sg, kp, x);
  if (!(x[0] > 0.0)) x[0] = x[1] = x[2] = 0.0;
}

static inline void solve2d(rolling_row2d *c, int max_ratio, moreau_sweep_sums *s)
{
  moreau_row2d *r = &c->r;
  double rhs[3], x[3];
  moreau_row2d_local f;
  moreau_row2d_form(r, &f);
  moreau_row2d_rhs(r, &f, &rhs[0], &rhs[1]);
  if (!(c->m_r > 0.0)) { /* no rolling resistance: the plain law */
    moreau_coulomb2d(&f, rhs[0], rhs[1], r->mu, r->mu, &x[0], &x[1]);
    moreau_row2d_update(r, &f, x[0], x[1], max_ratio, s);
    return;
  }
  const double W[3][3] = {{f.Wnn, f.Wnt, c->Wnq}, {f.Wnt, f.Wtt, c->Wtq}, {c->Wnq, c->Wtq, c->Wqq}};
  rhs[0] += c->Wnq * c->q;
  rhs[1] += c->Wtq * c->q;
  rhs[2] = -(r->vb[MOREAU_SPIN2D] - r->va[MOREAU_SPIN2D]) + c->Wnq * r->pn + c->Wtq * r->pt + c->Wqq * c->q;
  local2d(W, rhs, r->mu, c->m_r, x);
  const double dq = x[2] - c->q;
  c->q = x[2];
  r->va[MOREAU_SPIN2D] -= r->va[MOREAU_II2D] * dq;
  r->vb[MOREAU_SPIN2D] += r->vb[MOREAU_II2D] * dq;
  c->torque[0] = x[2] / c->dt;
  moreau_row2d_update(r, &f, x[0], x[1], max_ratio, s);
  s->dp += fabs(dq) * c->inv_r;
  s->p += fabs(x[2]) * c->inv_r;
  s->dp2 += dq * dq * c->inv_r * c->inv_r;
  s->p2 += x[2] * x[2] * c->inv_r * c->inv_r;
}

/* Adds the torque impulse change dq (frame components) to both sides'
 * spins. */
static inline void apply_torque3d(rolling_row3d *c, const moreau_row3d_formed *f, const double *dq)
{
  moreau_row3d *r = &c->r;
  for (int k = 0; k < 3; k++) {
    double t = dq[0] * r->n[k] + dq[1] * f->t[k] + dq[2] * f->s[k];
    r->va[MOREAU_SPIN3D + k] -= r->va[MOREAU_II3D] * t;
    r->vb[MOREAU_SPIN3D + k] += r->vb[MOREAU_II3D] * t;
  }
}

static void setup3d(moreau_row3d *base, const moreau_pair_law *pair, const moreau_law_contact *c, double target_t[2])
{
  rolling_row3d *r = (rolling_row3d *)base;
  base->target_n = moreau_normal_target(c->gap, c->u_minus[0], pair->e_n, c->dt);
  target_t[0] = -pair->e_t * c->u_minus[1];
  target_t[1] = -pair->e_t * c->u_minus[2];
  base->mu = pair->mu;
  r->m_r = pair->mu_r * c->r_eff;
  r->m_o = pair->mu_o * c->r_eff;
  r->inv_r = 1.0 / c->r_eff;
  r->dt = c->dt;
  r->torque = c->state;
  for (int k = 0; k < 3; k++)
    r->q[k] = c->state[k] * c->dt;
  moreau_row3d_formed f; /* its frame only: the torque's rows are W_qq's */
  memcpy(f.t, base->t, sizeof(f.t));
  moreau_cross3(base->n, base->t, f.s);
  apply_torque3d(r, &f, r->q);
}

/* The torque blocks with the force fixed: the sticking torque impulse
 * (Omega -> 0; W_qq = (1/I_a + 1/I_b) times the identity for disks and
 * spheres), its rolling part projected on the disk of radius m_r p_n, its
 * torsion part clipped to m_o p_n. Returns the size of the change. */
static inline double torque_block(rolling_row3d *c, const moreau_row3d_formed *f)
{
  moreau_row3d *r = &c->r;
  const double wqq = r->va[MOREAU_II3D] + r->vb[MOREAU_II3D];
  double om[3], q[3], dq[3];
  for (int k = 0; k < 3; k++)
    om[k] = r->vb[MOREAU_SPIN3D + k] - r->va[MOREAU_SPIN3D + k];
  q[0] = c->q[0] - moreau_dot3(r->n, om) / wqq;
  q[1] = c->q[1] - moreau_dot3(f->t, om) / wqq;
  q[2] = c->q[2] - moreau_dot3(f->s, om) / wqq;
  const double lim_o = c->m_o * r->p[0], lim_r = c->m_r * r->p[0];
  if (q[0] > lim_o) q[0] = lim_o;
  if (q[0] < -lim_o) q[0] = -lim_o;
  const double qr = sqrt(q[1] * q[1] + q[2] * q[2]);
  if (qr > lim_r) {
    const double shrink = qr > 0.0 ? lim_r / qr : 0.0;
    q[1] *= shrink;
    q[2] *= shrink;
  }
  for (int k = 0; k < 3; k++) {
    dq[k] = q[k] - c->q[k];
    c->q[k] = q[k];
  }
  apply_torque3d(c, f, dq);
  return fabs(dq[0]) + fabs(dq[1]) + fabs(dq[2]);
}

static inline void solve3d(rolling_row3d *c, int max_ratio, moreau_sweep_sums *s)
{
  moreau_row3d *r = &c->r;
  double p0[3], q0[3], rhs[3], p[3], dq[3];
  moreau_sweep_sums ignored = {0, 0, 0, 0, 0};
  moreau_row3d_formed f;
  moreau_row3d_form(r, &f);
  memcpy(p0, r->p, sizeof(p0));
  memcpy(q0, c->q, sizeof(q0));
  for (int round = 0; round < 100; round++) {
    double change;
    moreau_row3d_rhs(r, &f, rhs);
    moreau_coulomb3d(&f, rhs, r->mu, r->mu, p);
    change = fabs(p[0] - r->p[0]) + fabs(p[1] - r->p[1]) + fabs(p[2] - r->p[2]);
    moreau_row3d_update(r, &f, p, 0, &ignored);
    if (!(c->m_r > 0.0 || c->m_o > 0.0)) break;
    change += torque_block(c, &f) * c->inv_r;
    double size = fabs(p[0]) + fabs(p[1]) + fabs(p[2]) + (fabs(c->q[0]) + fabs(c->q[1]) + fabs(c->q[2])) * c->inv_r;
    if (change <= 1e-13 * size) break;
  }
  double d[3], adp = 0, dp2 = 0, ap = 0, p2 = 0;
  for (int k = 0; k < 3; k++) {
    d[k] = r->p[k] - p0[k];
    dq[k] = (c->q[k] - q0[k]) * c->inv_r;
    adp += fabs(d[k]) + fabs(dq[k]);
    dp2 += d[k] * d[k] + dq[k] * dq[k];
    ap += fabs(r->p[k]) + fabs(c->q[k]) * c->inv_r;
    p2 += r->p[k] * r->p[k] + c->q[k] * c->q[k] * c->inv_r * c->inv_r;
    c->torque[k] = c->q[k] / c->dt;
  }
  moreau_sweep_add(s, adp, ap, dp2, p2, max_ratio);
}

MOREAU_LAW_SWEEP(sweep2d, rolling_row2d, solve2d, moreau_prefetch_sides2d, moreau_prefetch_nothing)
MOREAU_LAW_SWEEP(sweep3d, rolling_row3d, solve3d, moreau_prefetch_sides3d, moreau_prefetch_extra3d)

const struct moreau_law_kernel moreau_law_rolling = {.name = "rolling",
                                                     .state_width = 3,
                                                     .isotropic_inertia_3d = 1,
                                                     .row_size2d = sizeof(rolling_row2d),
                                                     .row_size3d = sizeof(rolling_row3d),
                                                     .setup2d = setup2d,
                                                     .setup3d = setup3d,
                                                     .sweep2d = sweep2d,
                                                     .sweep3d = sweep3d};
