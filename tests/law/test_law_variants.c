/* The laws beside Signorini-Coulomb through their kernels (src/law): one
 * sweep of one hand-built row, its velocities recomputed here from the
 * bodies' motion, against closed forms (cohesive: a bond holds a pull up to
 * f_c and friction up to mu (f_n + f_c), a stretched bond pulls while it
 * opens and is free while it closes; static_dynamic: the sticking test uses
 * mu_s until the contact slides, then mu, and the state says so) and against
 * the graphs themselves on random non-central contacts (rolling: force and
 * torque each on their graph, the velocities consistent with the impulses).
 * Serial. */
#include <check.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "check_runner.h"
#include "law/law_kernel.h"
#include "moreau/law.h"
#include "moreau/rng.h"

#define EXPECT_CLOSE(got, want, tol, what)                                                                             \
  do {                                                                                                                 \
    double got_ = (got), want_ = (want), tol_ = (tol);                                                                 \
    ck_assert_msg(fabs(got_ - want_) <= tol_, "%s: got %.17g, want %.17g (|diff| %.3g > %.3g)", (what), got_, want_,   \
                  fabs(got_ - want_), tol_);                                                                           \
  } while (0)

static const moreau_law *find(const char *name)
{
  const moreau_law *l = moreau_law_find(name);
  ck_assert_msg(l != NULL, "law %s is registered", name);
  return l;
}

/* ---- 2D: bodies a and b (b of infinite mass: a fixed wall) ------------------------------------------------------ */

typedef struct {
  double im[2], ii[2]; /* inverse mass and inertia of a and b */
  double c[2][2];      /* from each centre to the contact point */
  double v[2][8];      /* each side's entry of the solve's table: velocity, spin, inverse mass and inertia, g */
  double n[2], t[2];
  double state[3];
  moreau_row2d_extra x; /* the row's arms and W */
  double buf[64];       /* the law's record (at most 512 bytes) */
} pair2d;

static moreau_row2d *row2d(pair2d *p) { return (moreau_row2d *)p->buf; }

/* Relative velocity of b's material point with respect to a's at the
 * contact, in (n, t), and the relative spin. */
static void rel2d(const pair2d *p, double *u, double *omega)
{
  double ub[2] = {p->v[1][0] - p->v[1][2] * p->c[1][1], p->v[1][1] + p->v[1][2] * p->c[1][0]};
  double ua[2] = {p->v[0][0] - p->v[0][2] * p->c[0][1], p->v[0][1] + p->v[0][2] * p->c[0][0]};
  u[0] = (ub[0] - ua[0]) * p->n[0] + (ub[1] - ua[1]) * p->n[1];
  u[1] = (ub[0] - ua[0]) * p->t[0] + (ub[1] - ua[1]) * p->t[1];
  if (omega) *omega = p->v[1][2] - p->v[0][2];
}

/* The common record of the pair, set up by law with the pair parameters. */
static void build2d(pair2d *p, const moreau_law *law, const moreau_pair_law *pair, double angle, double gap, double dt,
                    double r_eff)
{
  moreau_row2d *r = row2d(p);
  double um[3] = {0, 0, 0};
  memset(p->buf, 0, sizeof(p->buf));
  p->n[0] = cos(angle);
  p->n[1] = sin(angle);
  p->t[0] = -p->n[1];
  p->t[1] = p->n[0];
  r->va = p->v[0];
  r->vb = p->v[1];
  r->nx = p->n[0];
  r->ny = p->n[1];
  moreau_row2d_extra *x = &p->x;
  r->x = x;
  x->ra_n = -p->c[0][1] * p->n[0] + p->c[0][0] * p->n[1];
  x->ra_t = -p->c[0][1] * p->t[0] + p->c[0][0] * p->t[1];
  x->rb_n = -p->c[1][1] * p->n[0] + p->c[1][0] * p->n[1];
  x->rb_t = -p->c[1][1] * p->t[0] + p->c[1][0] * p->t[1];
  for (int side = 0; side < 2; side++) {
    p->v[side][MOREAU_IM2D] = p->im[side];
    p->v[side][MOREAU_II2D] = p->ii[side];
  }
  x->Wnn = p->im[0] + p->im[1] + p->ii[0] * x->ra_n * x->ra_n + p->ii[1] * x->rb_n * x->rb_n;
  x->Wtt = p->im[0] + p->im[1] + p->ii[0] * x->ra_t * x->ra_t + p->ii[1] * x->rb_t * x->rb_t;
  x->Wnt = p->ii[0] * x->ra_n * x->ra_t + p->ii[1] * x->rb_n * x->rb_t;
  rel2d(p, um, NULL);
  moreau_law_contact c = {gap, um, dt, r_eff, p->state};
  law->setup2d(r, pair, &c);
}

static moreau_sweep_sums sweep2d(pair2d *p, const moreau_law *law)
{
  moreau_lid order = 0;
  moreau_law_sweep_args a = {.rows = p->buf, .order = &order, .n = 1};
  moreau_sweep_sums s;
  law->sweep2d(&a, &s);
  return s;
}

/* A disk (mass m, radius rad, uniform) of velocity (vn, vt) in the contact
 * frame, spin w, touching a fixed wall: n points from the disk to the wall,
 * so the wall's relative velocity is u = -(vn, vt + w rad). */
static void disk_wall(pair2d *p, double m, double rad, double vn, double vt, double w, int rotates)
{
  memset(p, 0, sizeof(*p));
  p->im[0] = 1.0 / m;
  p->ii[0] = rotates ? 2.0 / (m * rad * rad) : 0.0;
  p->c[0][0] = rad; /* angle 0: n = e_x, t = e_y */
  p->v[0][0] = vn;
  p->v[0][1] = vt;
  p->v[0][2] = w;
}

START_TEST(test_cohesive_pull)
{
  /* A disk leaving a wall it is bonded to (u_n- = -vn > 0): the bond holds
   * it (u_n+ = 0, p_n = -m u_n-) while m u_n- <= f_c dt, else it pulls with
   * f_c and the disk leaves at u_n- - f_c dt / m. */
  const moreau_law *law = find("cohesive");
  const double m = 2.0, dt = 1e-2, f_c = 30.0;
  moreau_pair_law pair = {.mu = 0.5, .f_c = f_c};
  pair2d p;
  double u[2];
  disk_wall(&p, m, 0.5, -0.1, 0.0, 0.0, 1); /* m u = 0.2 < f_c dt = 0.3 */
  build2d(&p, law, &pair, 0.0, 0.0, dt, 0.5);
  sweep2d(&p, law);
  rel2d(&p, u, NULL);
  EXPECT_CLOSE(u[0], 0.0, 1e-15, "a bond under f_c holds");
  EXPECT_CLOSE(row2d(&p)->pn, -0.2, 1e-15, "p_n = -m u_n-");
  disk_wall(&p, m, 0.5, -0.4, 0.0, 0.0, 1); /* m u = 0.8 > 0.3 */
  build2d(&p, law, &pair, 0.0, 0.0, dt, 0.5);
  sweep2d(&p, law);
  rel2d(&p, u, NULL);
  EXPECT_CLOSE(row2d(&p)->pn, -f_c * dt, 1e-15, "a bond pulled harder than f_c pulls with f_c");
  EXPECT_CLOSE(u[0], 0.4 - f_c * dt / m, 1e-15, "and opens");
  /* Without cohesion the same contact carries nothing. */
  pair.f_c = 0.0;
  disk_wall(&p, m, 0.5, -0.1, 0.0, 0.0, 1);
  build2d(&p, law, &pair, 0.0, 0.0, dt, 0.5);
  sweep2d(&p, law);
  EXPECT_CLOSE(row2d(&p)->pn, 0.0, 0.0, "f_c = 0: Signorini");
}
END_TEST

START_TEST(test_cohesive_friction)
{
  /* A bonded block (no rotation) sliding along the wall with no normal
   * motion: the normal impulse is 0, the friction threshold mu f_c dt.
   * Sticking needs m |u_t|: below the threshold it sticks, above it slides
   * with -mu f_c dt against the slip. */
  const moreau_law *law = find("cohesive");
  const double m = 1.0, dt = 1e-2, mu = 0.4, f_c = 50.0; /* threshold 0.2 */
  moreau_pair_law pair = {.mu = mu, .f_c = f_c};
  pair2d p;
  double u[2];
  disk_wall(&p, m, 0.5, 0.0, 0.15, 0.0, 0);
  build2d(&p, law, &pair, 0.0, 0.0, dt, 0.5);
  sweep2d(&p, law);
  rel2d(&p, u, NULL);
  EXPECT_CLOSE(u[1], 0.0, 1e-15, "sticks below mu f_c dt");
  EXPECT_CLOSE(row2d(&p)->pt, 0.15, 1e-15, "p_t = -m u_t-");
  disk_wall(&p, m, 0.5, 0.0, 0.5, 0.0, 0);
  build2d(&p, law, &pair, 0.0, 0.0, dt, 0.5);
  sweep2d(&p, law);
  rel2d(&p, u, NULL);
  EXPECT_CLOSE(row2d(&p)->pt, mu * f_c * dt, 1e-15, "slides at mu (f_n + f_c)");
  EXPECT_CLOSE(row2d(&p)->pn, 0.0, 1e-15, "with f_n = 0");
  EXPECT_CLOSE(u[1], -(0.5 - mu * f_c * dt / m), 1e-15, "slip reduced by mu f_c dt / m");
}
END_TEST

START_TEST(test_cohesive_range)
{
  /* A stretched bond (0 < gap < d_c): opening, it pulls up to f_c dt; closing
   * slowly (it does not touch within the step) it is free; beyond d_c it is
   * gone; the threshold law (d_c = 0) has no stretched bonds. */
  const moreau_law *law = find("cohesive");
  const double m = 1.0, dt = 1e-2, f_c = 20.0, gap = 1e-3; /* f_c dt = 0.2 */
  moreau_pair_law pair = {.mu = 0.5, .f_c = f_c, .d_c = 1e-2};
  pair2d p;
  double u[2];
  disk_wall(&p, m, 0.5, -0.1, 0.3, 0.0, 1); /* opening at 0.1, sliding: no friction */
  build2d(&p, law, &pair, 0.0, gap, dt, 0.5);
  sweep2d(&p, law);
  rel2d(&p, u, NULL);
  EXPECT_CLOSE(row2d(&p)->pn, -0.1, 1e-15, "a stretched bond stops a slow opening");
  EXPECT_CLOSE(u[0], 0.0, 1e-15, "u_n+ = 0");
  EXPECT_CLOSE(row2d(&p)->pt, 0.0, 0.0, "no friction across a gap");
  disk_wall(&p, m, 0.5, -0.5, 0.0, 0.0, 1);
  build2d(&p, law, &pair, 0.0, gap, dt, 0.5);
  sweep2d(&p, law);
  rel2d(&p, u, NULL);
  EXPECT_CLOSE(row2d(&p)->pn, -0.2, 1e-15, "a fast opening is pulled with f_c");
  EXPECT_CLOSE(u[0], 0.3, 1e-15, "and goes on opening");
  disk_wall(&p, m, 0.5, 0.05, 0.0, 0.0, 1); /* closing at 0.05 < 2 gap / dt = 0.2 */
  build2d(&p, law, &pair, 0.0, gap, dt, 0.5);
  sweep2d(&p, law);
  EXPECT_CLOSE(row2d(&p)->pn, 0.0, 0.0, "a slowly closing bond is free");
  disk_wall(&p, m, 0.5, 0.5, 0.0, 0.0, 1); /* closes within the step */
  build2d(&p, law, &pair, 0.0, gap, dt, 0.5);
  sweep2d(&p, law);
  rel2d(&p, u, NULL);
  EXPECT_CLOSE(u[0], 0.0, 1e-15, "a bond closing within the step stops at contact (e_n = 0)");
  disk_wall(&p, m, 0.5, -0.1, 0.0, 0.0, 1);
  build2d(&p, law, &pair, 0.0, 2e-2, dt, 0.5);
  sweep2d(&p, law);
  EXPECT_CLOSE(row2d(&p)->pn, 0.0, 0.0, "beyond d_c nothing pulls");
  pair.d_c = 0.0;
  disk_wall(&p, m, 0.5, -0.1, 0.0, 0.0, 1);
  build2d(&p, law, &pair, 0.0, gap, dt, 0.5);
  sweep2d(&p, law);
  EXPECT_CLOSE(row2d(&p)->pn, 0.0, 0.0, "the threshold law: an open contact has no bond");
}
END_TEST

START_TEST(test_static_dynamic)
{
  /* A block pressed on the wall (m u_n- = 1 gives p_n = 1) and sliding with
   * m |u_t| = 0.45: with mu = 0.3, mu_s = 0.6 a contact that was sticking
   * sticks (0.45 <= 0.6), one that was sliding slides with mu (0.45 > 0.3);
   * above mu_s a sticking one slides with mu, not mu_s. The state is the
   * verdict. */
  const moreau_law *law = find("static_dynamic");
  const double m = 1.0, dt = 1e-2;
  moreau_pair_law pair = {.mu = 0.3, .mu_s = 0.6};
  pair2d p;
  double u[2];
  ck_assert_int_eq(moreau_law_state_width(law), 1);
  disk_wall(&p, m, 0.5, 1.0, 0.45, 0.0, 0);
  build2d(&p, law, &pair, 0.0, 0.0, dt, 0.5);
  sweep2d(&p, law);
  rel2d(&p, u, NULL);
  EXPECT_CLOSE(u[1], 0.0, 1e-15, "was sticking, within mu_s: sticks");
  EXPECT_CLOSE(p.state[0], 0.0, 0.0, "state: not sliding");
  disk_wall(&p, m, 0.5, 1.0, 0.45, 0.0, 0);
  p.state[0] = 1.0;
  build2d(&p, law, &pair, 0.0, 0.0, dt, 0.5);
  sweep2d(&p, law);
  EXPECT_CLOSE(row2d(&p)->pt, 0.3, 1e-15, "was sliding: slides with mu");
  EXPECT_CLOSE(p.state[0], 1.0, 0.0, "state: sliding");
  disk_wall(&p, m, 0.5, 1.0, 0.7, 0.0, 0);
  build2d(&p, law, &pair, 0.0, 0.0, dt, 0.5);
  sweep2d(&p, law);
  EXPECT_CLOSE(row2d(&p)->pt, 0.3, 1e-15, "beyond mu_s: slides with mu");
  EXPECT_CLOSE(p.state[0], 1.0, 0.0, "state: sliding");
  pair.mu_s = 0.0; /* equal to mu: the plain law */
  disk_wall(&p, m, 0.5, 1.0, 0.45, 0.0, 0);
  build2d(&p, law, &pair, 0.0, 0.0, dt, 0.5);
  sweep2d(&p, law);
  EXPECT_CLOSE(row2d(&p)->pt, 0.3, 1e-15, "mu_s = 0 means mu_s = mu");
}
END_TEST

/* Whether impulse x and velocity-minus-target v are on a Coulomb-like
 * graph with threshold lim: |x| <= lim, and v = 0 inside, v opposing x on
 * the threshold. */
static int on_graph(double x, double v, double lim, double tol_x, double tol_v)
{
  if (fabs(x) > lim + tol_x) return 0;
  if (fabs(x) < lim - tol_x) return fabs(v) <= tol_v;
  return x * v <= tol_v * fabs(x);
}

START_TEST(test_rolling_2d_graphs)
{
  /* Random non-central contacts between two free bodies (W_nt, W_nq != 0),
   * random velocities: after the local solve the normal impulse is on the
   * Signorini graph, the tangential one on Coulomb's, the torque on the
   * rolling graph, each against the velocities recomputed from the motion
   * (the exact solve of the coupled 3x3 problem). */
  const moreau_law *law = find("rolling");
  moreau_rng rng;
  int cases[4] = {0, 0, 0, 0}; /* open, all sticking, one on a threshold, both */
  moreau_rng_seed(&rng, 7, 0);
  for (int k = 0; k < 2000; k++) {
    pair2d p;
    double u0[2], u[2], om, tgt[2];
    memset(&p, 0, sizeof(p));
    for (int i = 0; i < 2; i++) {
      p.im[i] = 0.2 + moreau_rng_uniform(&rng);
      p.ii[i] = 0.5 + 4.0 * moreau_rng_uniform(&rng);
      p.c[i][0] = (i ? -1.0 : 1.0) * (0.3 + 0.5 * moreau_rng_uniform(&rng));
      p.c[i][1] = 0.4 * (moreau_rng_uniform(&rng) - 0.5);
      p.v[i][0] = 2.0 * (moreau_rng_uniform(&rng) - 0.5);
      p.v[i][1] = 2.0 * (moreau_rng_uniform(&rng) - 0.5);
      p.v[i][2] = 4.0 * (moreau_rng_uniform(&rng) - 0.5);
    }
    moreau_pair_law pair = {.mu = 0.1 + moreau_rng_uniform(&rng), .mu_r = 0.3 * moreau_rng_uniform(&rng)};
    build2d(&p, law, &pair, 0.0, -1e-3, 1e-2, 0.25);
    rel2d(&p, u0, NULL);
    tgt[0] = row2d(&p)->un_target;
    tgt[1] = row2d(&p)->ut_target;
    sweep2d(&p, law);
    rel2d(&p, u, &om);
    const moreau_row2d *r = row2d(&p);
    const double pn = r->pn, pt = r->pt, q = p.state[0] * 1e-2;
    const double scale_v = fabs(u0[0]) + fabs(u0[1]) + 1.0, tol_v = 1e-12 * scale_v, tol_x = 1e-12 * (pn + 1.0);
    char what[160];
    snprintf(what, sizeof(what), "case %d: p = (%g, %g, %g), u = (%g, %g), omega %g", k, pn, pt, q, u[0], u[1], om);
    ck_assert_msg(pn >= 0.0, "%s: p_n >= 0", what);
    ck_assert_msg(pn > 0.0 ? fabs(u[0] - tgt[0]) <= tol_v : u[0] >= tgt[0] - tol_v, "%s: Signorini", what);
    if (pn == 0.0) {
      ck_assert_msg(pt == 0.0 && q == 0.0, "%s: an open contact carries nothing", what);
      cases[0]++;
      continue;
    }
    ck_assert_msg(on_graph(pt, u[1] - tgt[1], pair.mu * pn, tol_x, tol_v), "%s: Coulomb", what);
    ck_assert_msg(on_graph(q, om, pair.mu_r * 0.25 * pn, tol_x, tol_v), "%s: rolling", what);
    int slides = fabs(pt) > pair.mu * pn - tol_x, rolls = fabs(q) > pair.mu_r * 0.25 * pn - tol_x;
    cases[1 + slides + rolls]++;
  }
  for (int i = 0; i < 4; i++)
    ck_assert_msg(cases[i] > 20, "the random contacts cover every case (%d %d %d %d)", cases[0], cases[1], cases[2],
                  cases[3]);
}
END_TEST

/* ---- 3D: two spheres (central contact) ------------------------------------------------------------------------ */

typedef struct {
  double im[2], ii[2], rad[2];
  double v[2][8]; /* each side's entry of the solve's table: velocity, spin from [3], inverse mass and inertia */
  double e[3][3]; /* n, t, s */
  double state[3];
  double inv_inertia[2][6]; /* the row's tensors: ii times the identity */
  moreau_row3d_extra x;     /* pointing to them */
  double buf[96];
} pair3d;

static moreau_row3d *row3d(pair3d *p) { return (moreau_row3d *)p->buf; }

static void cross(const double *a, const double *b, double *c)
{
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Relative velocity at the contact (frame components) and relative spin
 * (frame components); a's contact point is rad_a n, b's -rad_b n. */
static void rel3d(const pair3d *p, double *u, double *om)
{
  double ca[3], cb[3], wa_c[3], wb_c[3], du[3], dw[3];
  for (int k = 0; k < 3; k++) {
    ca[k] = p->rad[0] * p->e[0][k];
    cb[k] = -p->rad[1] * p->e[0][k];
  }
  cross(&p->v[0][3], ca, wa_c);
  cross(&p->v[1][3], cb, wb_c);
  for (int k = 0; k < 3; k++) {
    du[k] = p->v[1][k] + wb_c[k] - p->v[0][k] - wa_c[k];
    dw[k] = p->v[1][3 + k] - p->v[0][3 + k];
  }
  for (int i = 0; i < 3; i++) {
    u[i] = dot(p->e[i], du);
    if (om) om[i] = dot(p->e[i], dw);
  }
}

static void build3d(pair3d *p, const moreau_law *law, const moreau_pair_law *pair, double gap, double dt)
{
  moreau_row3d *r = row3d(p);
  double ca[3], cb[3], um[3];
  memset(p->buf, 0, sizeof(p->buf));
  for (int k = 0; k < 3; k++) {
    ca[k] = p->rad[0] * p->e[0][k];
    cb[k] = -p->rad[1] * p->e[0][k];
  }
  memcpy(r->n, p->e[0], sizeof(r->n));
  memcpy(r->t, p->e[1], sizeof(r->t));
  r->va = p->v[0];
  r->vb = p->v[1];
  for (int side = 0; side < 2; side++) {
    p->v[side][MOREAU_IM3D] = p->im[side];
    p->v[side][MOREAU_II3D] = p->ii[side];
  }
  for (int side = 0; side < 2; side++)
    for (int k = 0; k < 6; k++)
      p->inv_inertia[side][k] = k == 0 || k == 3 || k == 5 ? p->ii[side] : 0.0;
  p->x = (moreau_row3d_extra){p->inv_inertia[0],     p->inv_inertia[1],     NULL,  NULL,
                              {ca[0], ca[1], ca[2]}, {cb[0], cb[1], cb[2]}, {0.0}, {0.0, 0.0}};
  r->x = &p->x;
  double ca_x[9], cb_x[9];
  for (int i = 0; i < 3; i++) {
    cross(ca, p->e[i], &ca_x[3 * i]);
    cross(cb, p->e[i], &cb_x[3 * i]);
  }
  static const int ij[6][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 2}};
  for (int m = 0; m < 6; m++) {
    int i = ij[m][0], j = ij[m][1];
    p->x.W[m] = (i == j ? p->im[0] + p->im[1] : 0.0) + p->ii[0] * dot(&ca_x[3 * i], &ca_x[3 * j]) +
                p->ii[1] * dot(&cb_x[3 * i], &cb_x[3 * j]);
  }
  rel3d(p, um, NULL);
  moreau_law_contact c = {gap, um, dt, p->rad[0] * p->rad[1] / (p->rad[0] + p->rad[1]), p->state};
  law->setup3d(r, pair, &c, p->x.target_t); /* the row has its extra entry */
}

static void sweep3d(pair3d *p, const moreau_law *law)
{
  moreau_lid order = 0;
  moreau_law_sweep_args a = {.rows = p->buf, .order = &order, .n = 1};
  moreau_sweep_sums s;
  law->sweep3d(&a, &s);
}

START_TEST(test_cohesive_3d)
{
  /* Two spheres leaving each other along n: the bond holds them while the
   * impulse that stops the opening, u / (1/m_a + 1/m_b), is within f_c dt. */
  const moreau_law *law = find("cohesive");
  const double dt = 1e-2;
  moreau_pair_law pair = {.mu = 0.5, .f_c = 10.0}; /* f_c dt = 0.1 */
  pair3d p;
  double u[3];
  for (int pass = 0; pass < 2; pass++) {
    const double speed = pass ? 0.5 : 0.1; /* u_n-: stopping needs speed / 2 */
    memset(&p, 0, sizeof(p));
    p.im[0] = p.im[1] = 1.0;
    p.ii[0] = p.ii[1] = 2.5;
    p.rad[0] = p.rad[1] = 1.0;
    p.e[0][2] = p.e[1][0] = p.e[2][1] = 1.0;
    p.v[1][2] = speed;
    build3d(&p, law, &pair, 0.0, dt);
    sweep3d(&p, law);
    rel3d(&p, u, NULL);
    if (!pass) {
      EXPECT_CLOSE(u[0], 0.0, 1e-15, "the bond holds");
      EXPECT_CLOSE(row3d(&p)->p[0], -0.05, 1e-15, "with the stopping impulse");
    } else {
      EXPECT_CLOSE(row3d(&p)->p[0], -0.1, 1e-15, "pulled harder: f_c dt");
      EXPECT_CLOSE(u[0], 0.5 - 0.2, 1e-15, "and the spheres part");
    }
  }
}
END_TEST

START_TEST(test_rolling_3d_graphs)
{
  /* Random sphere pairs, random velocities and spins: after the local solve
   * force and torque are on their graphs (Signorini, Coulomb cone, rolling
   * disk, torsion interval), the block iteration converged to 1e-9 of the
   * velocities. */
  const moreau_law *law = find("rolling");
  moreau_rng rng;
  int rolling_cases = 0, torsion_cases = 0, sticking = 0;
  moreau_rng_seed(&rng, 11, 0);
  for (int k = 0; k < 1000; k++) {
    pair3d p;
    double u0[3], u[3], om[3], v[3], tgt[3];
    memset(&p, 0, sizeof(p));
    for (int i = 0; i < 2; i++) {
      p.rad[i] = 0.5 + moreau_rng_uniform(&rng);
      p.im[i] = 0.2 + moreau_rng_uniform(&rng);
      p.ii[i] = p.im[i] / (0.4 * p.rad[i] * p.rad[i]);
      for (int d = 0; d < 3; d++) {
        p.v[i][d] = 2.0 * (moreau_rng_uniform(&rng) - 0.5);
        p.v[i][3 + d] = (k % 3 ? 4.0 : 0.1) * (moreau_rng_uniform(&rng) - 0.5); /* a third nearly sticks */
      }
    }
    double th = 2.0 * M_PI * moreau_rng_uniform(&rng), ph = M_PI * moreau_rng_uniform(&rng);
    double n[3] = {sin(ph) * cos(th), sin(ph) * sin(th), cos(ph)}, a[3] = {1, 0, 0};
    if (fabs(n[0]) > 0.9) a[0] = 0, a[1] = 1;
    cross(n, a, p.e[1]);
    double len = sqrt(dot(p.e[1], p.e[1]));
    for (int d = 0; d < 3; d++)
      p.e[1][d] /= len;
    memcpy(p.e[0], n, sizeof(n));
    cross(p.e[0], p.e[1], p.e[2]);
    moreau_pair_law pair = {.mu = 0.1 + moreau_rng_uniform(&rng),
                            .mu_r = 0.2 * moreau_rng_uniform(&rng),
                            .mu_o = 0.2 * moreau_rng_uniform(&rng)};
    build3d(&p, law, &pair, -1e-3, 1e-2);
    rel3d(&p, u0, NULL);
    tgt[0] = row3d(&p)->target_n;
    memcpy(&tgt[1], p.x.target_t, 2 * sizeof(double));
    sweep3d(&p, law);
    rel3d(&p, u, om);
    const double *pf = row3d(&p)->p;
    double q[3], r_eff = p.rad[0] * p.rad[1] / (p.rad[0] + p.rad[1]);
    for (int d = 0; d < 3; d++) {
      q[d] = p.state[d] * 1e-2;
      v[d] = u[d] - tgt[d];
    }
    const double scale_v = fabs(u0[0]) + fabs(u0[1]) + fabs(u0[2]) + 1.0, tol_v = 1e-9 * scale_v;
    const double tol_x = 1e-9 * (pf[0] + 1.0);
    char what[128];
    snprintf(what, sizeof(what), "case %d: p = (%g, %g, %g), q = (%g, %g, %g)", k, pf[0], pf[1], pf[2], q[0], q[1],
             q[2]);
    ck_assert_msg(pf[0] >= 0.0, "%s: p_n >= 0", what);
    if (pf[0] == 0.0) {
      ck_assert_msg(v[0] >= -tol_v, "%s: open and receding", what);
      continue;
    }
    ck_assert_msg(fabs(v[0]) <= tol_v, "%s: Signorini", what);
    double pt = hypot(pf[1], pf[2]), vt = hypot(v[1], v[2]);
    double qr = hypot(q[1], q[2]), omr = hypot(om[1], om[2]);
    ck_assert_msg(pt <= pair.mu * pf[0] + tol_x, "%s: in the cone", what);
    if (pt < pair.mu * pf[0] - tol_x)
      ck_assert_msg(vt <= tol_v, "%s: sticking inside the cone, slip %g", what, vt);
    else
      ck_assert_msg(pf[1] * v[1] + pf[2] * v[2] <= -(1 - 1e-6) * pt * vt, "%s: friction against the slip", what);
    const double lim_r = pair.mu_r * r_eff * pf[0], lim_o = pair.mu_o * r_eff * pf[0];
    ck_assert_msg(qr <= lim_r + tol_x, "%s: rolling torque within mu_r r* p_n", what);
    if (qr < lim_r - tol_x)
      ck_assert_msg(omr <= tol_v, "%s: no rolling inside the disk, %g", what, omr);
    else {
      ck_assert_msg(q[1] * om[1] + q[2] * om[2] <= -(1 - 1e-6) * qr * omr, "%s: torque against the rolling", what);
      rolling_cases++;
    }
    ck_assert_msg(on_graph(q[0], om[0], lim_o, tol_x, tol_v), "%s: torsion", what);
    if (fabs(q[0]) > lim_o - tol_x) torsion_cases++;
    if (pt < pair.mu * pf[0] - tol_x && qr < lim_r - tol_x) sticking++;
  }
  ck_assert_msg(rolling_cases > 20 && torsion_cases > 20 && sticking > 20,
                "the random contacts cover rolling (%d), torsion (%d) and sticking (%d)", rolling_cases, torsion_cases,
                sticking);
}
END_TEST

START_TEST(test_registry)
{
  const char *names[] = {"signorini_coulomb", "cohesive", "static_dynamic", "rolling"};
  const int widths[] = {0, 0, 1, 3};
  for (int i = 0; i < 4; i++) {
    const moreau_law *l = find(names[i]);
    ck_assert_str_eq(moreau_law_name(l), names[i]);
    ck_assert_int_eq(moreau_law_state_width(l), widths[i]);
    ck_assert(l->row_size2d >= sizeof(moreau_row2d) && l->row_size2d <= sizeof(((pair2d *)0)->buf));
    ck_assert(l->row_size3d >= sizeof(moreau_row3d) && l->row_size3d <= sizeof(((pair3d *)0)->buf));
  }
}
END_TEST

int main(int argc, char **argv)
{
  int status;
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("law_variants");
  TCase *tc = tcase_create("laws");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_registry);
  tcase_add_test(tc, test_cohesive_pull);
  tcase_add_test(tc, test_cohesive_friction);
  tcase_add_test(tc, test_cohesive_range);
  tcase_add_test(tc, test_cohesive_3d);
  tcase_add_test(tc, test_static_dynamic);
  tcase_add_test(tc, test_rolling_2d_graphs);
  tcase_add_test(tc, test_rolling_3d_graphs);
  suite_add_tcase(s, tc);
  status = moreau_test_run_suite(s);
  MPI_Finalize();
  return status;
}
