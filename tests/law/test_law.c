/* The Signorini-Coulomb law through its kernel (src/law/law_kernel.h): single
 * sweep rows built by hand for a disk or sphere against a fixed wall, with W
 * consistent with the masses and lever arms, set up by the law and solved by
 * one sweep of one row, against closed forms: a sticking contact stops
 * (normal and tangential velocity at their targets, impulse = mass times the
 * velocity jump), restitution, a receding contact carries nothing, a sliding
 * one sits on the Coulomb cone against its slip, an open gap lets the body
 * approach until the gap closes, and the sweep's convergence sums are the
 * norms of the update. Velocities after the solve are recomputed here from
 * the bodies' motion (v + w x c), not read from the kernel's formulas.
 * Serial. */
#include <check.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_runner.h"
#include "law/law_kernel.h"
#include "moreau/law.h"

#define TOL 1e-14

#define EXPECT_CLOSE(got, want, tol, what)                                                                             \
  do {                                                                                                                 \
    double got_ = (got), want_ = (want), tol_ = (tol);                                                                 \
    ck_assert_msg(fabs(got_ - want_) <= tol_, "%s: got %.17g, want %.17g (|diff| %.3g > %.3g)", (what), got_, want_,   \
                  fabs(got_ - want_), tol_);                                                                           \
  } while (0)
/* Relative to the size of the expected value (at least 1). */
#define EXPECT_REL(got, want, what) EXPECT_CLOSE(got, want, TOL *fmax(1.0, fabs(want)), what)

static const moreau_law *law(void)
{
  const moreau_law *l = moreau_law_find("signorini_coulomb");
  ck_assert_ptr_nonnull(l);
  return l;
}

static moreau_sweep_sums sweep2d(moreau_row2d *rows, const moreau_lid *order, moreau_lid n, int max_ratio)
{
  moreau_law_sweep_args a = {.rows = rows, .order = order, .n = n, .max_ratio = max_ratio};
  moreau_sweep_sums s;
  memset(&s, 0xa5, sizeof(s)); /* the sweep must set every sum */
  law()->sweep2d(&a, &s);
  return s;
}

static moreau_sweep_sums sweep3d(moreau_row3d *rows, const moreau_lid *order, moreau_lid n, int max_ratio)
{
  moreau_law_sweep_args a = {.rows = rows, .order = order, .n = n, .max_ratio = max_ratio};
  moreau_sweep_sums s;
  memset(&s, 0xa5, sizeof(s));
  law()->sweep3d(&a, &s);
  return s;
}

/* ---- 2D: a body a (mass m, inertia I) against a fixed wall b ---------------------------------------------------- */

typedef struct {
  double m, inertia;
  double n[2], t[2];    /* t = n rotated by +90 degrees */
  double c[2];          /* from the centre of a to the contact point */
  double va[8];         /* a's entry of the solve's table: velocity, spin, inverse mass and inertia, g */
  double vb[8];         /* the wall: at rest, no mass */
  moreau_row2d_extra x; /* the row's arms and W (the general path of the solve) */
  moreau_row2d row;
} disk2d;

/* Relative velocity (n, t) of the wall with respect to a's material point at
 * the contact: u = v_b - (v_a + w_a e_z x c). */
static void rel2d(const disk2d *d, double *un, double *ut)
{
  double ux = d->vb[0] - (d->va[0] - d->va[2] * d->c[1]), uy = d->vb[1] - (d->va[1] + d->va[2] * d->c[0]);
  *un = ux * d->n[0] + uy * d->n[1];
  *ut = ux * d->t[0] + uy * d->t[1];
}

/* The row of d: lever arms (e_z x c) . n and . t, and W from the masses and
 * lever arms (the wall adds nothing), in the row's extra entry. */
static void build2d(disk2d *d, double m, double inertia, double angle, const double c[2], double va_x, double va_y,
                    double wa)
{
  moreau_row2d *r = &d->row;
  memset(d, 0, sizeof(*d));
  d->m = m;
  d->inertia = inertia;
  d->n[0] = cos(angle);
  d->n[1] = sin(angle);
  d->t[0] = -d->n[1];
  d->t[1] = d->n[0];
  d->c[0] = c[0];
  d->c[1] = c[1];
  d->va[0] = va_x;
  d->va[1] = va_y;
  d->va[2] = wa;
  r->va = d->va;
  r->vb = d->vb;
  r->nx = d->n[0];
  r->ny = d->n[1];
  r->x = &d->x;
  d->x.ra_n = -c[1] * d->n[0] + c[0] * d->n[1];
  d->x.ra_t = -c[1] * d->t[0] + c[0] * d->t[1];
  const double ima = d->va[MOREAU_IM2D] = 1.0 / m, iia = d->va[MOREAU_II2D] = inertia > 0.0 ? 1.0 / inertia : 0.0;
  d->x.Wnn = ima + iia * d->x.ra_n * d->x.ra_n;
  d->x.Wtt = ima + iia * d->x.ra_t * d->x.ra_t;
  d->x.Wnt = iia * d->x.ra_n * d->x.ra_t;
}

/* A disk of radius rad touching the wall at c = rad n, so its lever arm is
 * tangential only: Wnn = 1/m, Wtt = 1/m + rad^2 / I. */
static void disk_on_wall(disk2d *d, double m, double rad, double angle, double va_x, double va_y, double wa)
{
  double c[2] = {rad * cos(angle), rad * sin(angle)};
  build2d(d, m, 0.5 * m * rad * rad, angle, c, va_x, va_y, wa);
}

static void setup2d(disk2d *d, double mu, double e_n, double e_t, double gap, double dt)
{
  moreau_pair_law pair = {.mu = mu, .e_n = e_n, .e_t = e_t};
  double um[3] = {0, 0, 0};
  rel2d(d, &um[0], &um[1]);
  moreau_law_contact c = {gap, um, dt, 1.0, NULL};
  law()->setup2d(&d->row, &pair, &c);
}

static moreau_sweep_sums solve2d(disk2d *d)
{
  const moreau_lid order[1] = {0};
  return sweep2d(&d->row, order, 1, 1);
}

/* The sums of an update from impulse (pn0, pt0) to (pn, pt): L1 and squared
 * norms of the change and of the new impulse. */
static void expect_sums(moreau_sweep_sums s, double dn, double dt, double pn, double pt, const char *what)
{
  char msg[128];
  double adp = fabs(dn) + fabs(dt), ap = fabs(pn) + fabs(pt);
  snprintf(msg, sizeof(msg), "%s: sum dp", what);
  EXPECT_REL(s.dp, adp, msg);
  snprintf(msg, sizeof(msg), "%s: sum p", what);
  EXPECT_REL(s.p, ap, msg);
  snprintf(msg, sizeof(msg), "%s: sum dp2", what);
  EXPECT_REL(s.dp2, dn * dn + dt * dt, msg);
  snprintf(msg, sizeof(msg), "%s: sum p2", what);
  EXPECT_REL(s.p2, pn * pn + pt * pt, msg);
  snprintf(msg, sizeof(msg), "%s: max ratio", what);
  EXPECT_REL(s.max_ratio, ap > 0.0 ? adp / ap : (adp > 0.0 ? 1.0 : 0.0), msg);
}

/* Checks a's velocities after the impulse (pn, pt) that a exerts on the wall:
 * a receives -(pn n + pt t) at c. */
static void expect_motion2d(const disk2d *d, const double v0[2], double w0, double pn, double pt, const char *what)
{
  char msg[128];
  double px = pn * d->n[0] + pt * d->t[0], py = pn * d->n[1] + pt * d->t[1];
  double torque = d->c[0] * py - d->c[1] * px; /* (c x p) . e_z */
  snprintf(msg, sizeof(msg), "%s: v_a x", what);
  EXPECT_REL(d->va[0], v0[0] - px / d->m, msg);
  snprintf(msg, sizeof(msg), "%s: v_a y", what);
  EXPECT_REL(d->va[1], v0[1] - py / d->m, msg);
  snprintf(msg, sizeof(msg), "%s: w_a", what);
  EXPECT_REL(d->va[2], d->inertia > 0.0 ? w0 - torque / d->inertia : w0, msg);
  ck_assert_msg(d->vb[0] == 0.0 && d->vb[1] == 0.0 && d->vb[2] == 0.0, "%s: the fixed wall moved", what);
}

START_TEST(test_approach_sticks)
{
  /* A spinning disk (m = 2, radius 0.5) hits a wall below it (n = -e_y) at
   * an overlap: e_n = e_t = 0 and a large mu stop its contact point. */
  const double m = 2.0, rad = 0.5, angle = -M_PI / 2;
  disk2d d;
  double un0, ut0, un, ut, v0[2];
  disk_on_wall(&d, m, rad, angle, 0.7, -3.0, 1.1);
  v0[0] = d.va[0];
  v0[1] = d.va[1];
  rel2d(&d, &un0, &ut0);
  ck_assert_msg(un0 < 0.0, "the fixture approaches: u_n- = %g", un0);
  setup2d(&d, 10.0, 0.0, 0.0, -1e-3, 0.01);
  moreau_sweep_sums s = solve2d(&d);
  rel2d(&d, &un, &ut);
  EXPECT_CLOSE(un, 0.0, TOL, "u_n+ of a sticking contact, e_n = 0");
  EXPECT_CLOSE(ut, 0.0, TOL, "u_t+ of a sticking contact, e_t = 0");
  /* Central contact: Wnn = 1/m; for the tangential row the lever arm adds
   * rad^2 / I = 2 / m (uniform disk). */
  EXPECT_REL(d.row.pn, -m * un0, "pn = -m u_n-");
  EXPECT_REL(d.row.pt, -ut0 / (1.0 / m + 2.0 / m), "pt = -u_t- / (1/m + r^2/I)");
  ck_assert_msg(fabs(d.row.pt) < 10.0 * d.row.pn, "the fixture sticks");
  expect_motion2d(&d, v0, 1.1, d.row.pn, d.row.pt, "sticking");
  expect_sums(s, d.row.pn, d.row.pt, d.row.pn, d.row.pt, "sticking");
}
END_TEST

START_TEST(test_restitution)
{
  /* Oblique wall, sticking: u+ = -e u- in each direction. */
  const double m = 1.5, angle = 2.0, e_n = 0.5, e_t = 0.3;
  disk2d d;
  double un0, ut0, un, ut;
  /* a moves along n (towards the wall) at 2 and along t at 0.3. */
  disk_on_wall(&d, m, 0.4, angle, 2.0 * cos(angle) - 0.3 * sin(angle), 2.0 * sin(angle) + 0.3 * cos(angle), 0.2);
  rel2d(&d, &un0, &ut0);
  ck_assert_msg(un0 < 0.0, "the fixture approaches: u_n- = %g", un0);
  setup2d(&d, 5.0, e_n, e_t, 0.0, 0.01);
  solve2d(&d);
  rel2d(&d, &un, &ut);
  EXPECT_CLOSE(un, -e_n * un0, TOL, "u_n+ = -e_n u_n-");
  EXPECT_CLOSE(ut, -e_t * ut0, TOL, "u_t+ = -e_t u_t-");
  EXPECT_REL(d.row.pn, -(1.0 + e_n) * m * un0, "pn = -(1 + e_n) m u_n-");
}
END_TEST

START_TEST(test_receding)
{
  /* Leaving the wall (and sliding along it): no impulse, nothing moves. */
  const double angle = -M_PI / 2;
  disk2d d;
  double un0, ut0;
  disk_on_wall(&d, 2.0, 0.5, angle, 4.0, 2.0, -3.0);
  rel2d(&d, &un0, &ut0);
  ck_assert_msg(un0 > 0.0, "the fixture recedes: u_n- = %g", un0);
  for (int closed = 0; closed < 2; closed++) {
    setup2d(&d, 0.5, 0.5, 0.0, closed ? -1e-3 : 0.0, 0.01);
    moreau_sweep_sums s = solve2d(&d);
    ck_assert_msg(d.row.pn == 0.0 && d.row.pt == 0.0, "receding: impulse (%g, %g), want 0", d.row.pn, d.row.pt);
    ck_assert_msg(d.va[0] == 4.0 && d.va[1] == 2.0 && d.va[2] == -3.0, "receding: velocities changed");
    expect_sums(s, 0, 0, 0, 0, "receding");
  }
}
END_TEST

/* Sliding: the sticking impulse would leave the cone, so |pt| = mu pn with pt
 * against the slip, and pn re-solved from the normal row so that u_n+ is on
 * target even when the tangential impulse turns the body (Wnt != 0). */
static void check_sliding(disk2d *d, double mu, const char *what)
{
  double un0, ut0, un, ut, v0[2] = {d->va[0], d->va[1]}, w0 = d->va[2];
  const moreau_row2d *r = &d->row;
  const moreau_row2d_extra *x = &d->x;
  char msg[128];
  rel2d(d, &un0, &ut0);
  ck_assert_msg(un0 < 0.0, "%s: the fixture approaches: u_n- = %g", what, un0);
  /* The sticking solution must be outside the cone for the case to slide. */
  {
    const double inv_det = 1.0 / (x->Wnn * x->Wtt - x->Wnt * x->Wnt);
    double pn_s = (x->Wtt * -un0 - x->Wnt * -ut0) * inv_det, pt_s = (x->Wnn * -ut0 - x->Wnt * -un0) * inv_det;
    ck_assert_msg(pn_s > 0.0 && fabs(pt_s) > mu * pn_s, "%s: the fixture slides (%g, %g)", what, pn_s, pt_s);
  }
  setup2d(d, mu, 0.0, 0.0, 0.0, 0.01);
  moreau_sweep_sums s = solve2d(d);
  rel2d(d, &un, &ut);
  double sgn = ut0 > 0.0 ? 1.0 : -1.0;
  snprintf(msg, sizeof(msg), "%s: u_n+ on the normal target", what);
  EXPECT_CLOSE(un, 0.0, TOL, msg);
  snprintf(msg, sizeof(msg), "%s: pn from the normal row with pt = -sign(u_t) mu pn", what);
  EXPECT_REL(r->pn, -un0 / (x->Wnn - sgn * mu * x->Wnt), msg);
  snprintf(msg, sizeof(msg), "%s: |pt| = mu pn", what);
  EXPECT_REL(fabs(r->pt), mu * r->pn, msg);
  ck_assert_msg(r->pt * ut0 < 0.0, "%s: pt = %g does not oppose the slip u_t- = %g", what, r->pt, ut0);
  /* Coulomb: the contact still slips the same way after the impulse. */
  ck_assert_msg(ut * ut0 > 0.0, "%s: u_t+ = %g, u_t- = %g: the slip reversed or stopped", what, ut, ut0);
  expect_motion2d(d, v0, w0, r->pn, r->pt, what);
  expect_sums(s, r->pn, r->pt, r->pn, r->pt, what);
}

START_TEST(test_sliding)
{
  disk2d d;
  /* Central contact, fast slide to +x along a wall below. */
  disk_on_wall(&d, 2.0, 0.5, -M_PI / 2, 5.0, -1.0, 0.0);
  check_sliding(&d, 0.1, "central, sliding +x");
  disk_on_wall(&d, 2.0, 0.5, -M_PI / 2, -5.0, -1.0, 0.7);
  check_sliding(&d, 0.2, "central, sliding -x with spin");
  /* Non-central contact (e.g. a corner): lever arm with normal and tangential
   * parts, so the tangential impulse changes u_n too. */
  {
    const double c[2] = {0.3, -0.4};
    build2d(&d, 1.0, 0.08, -M_PI / 2, c, 4.0, -1.0, 0.0);
    ck_assert(d.x.Wnt != 0.0);
    check_sliding(&d, 0.3, "non-central, sliding +x");
    build2d(&d, 1.0, 0.08, -M_PI / 2, c, -4.0, -3.0, 0.0);
    check_sliding(&d, 0.3, "non-central, sliding -x");
  }
}
END_TEST

START_TEST(test_open_gap)
{
  /* Gap g > 0 at detection: -2 g / dt is the approach speed at which it
   * closes by the end of the step (midpoint positions). */
  const double m = 2.0, g = 0.01, dt = 0.01, closing = -2.0 * g / dt, angle = -M_PI / 2;
  disk2d d;
  double un, ut;

  /* Slower approach: the gap stays open, no impulse. */
  disk_on_wall(&d, m, 0.5, angle, 0.0, 0.5 * closing, 0.0);
  rel2d(&d, &un, &ut);
  EXPECT_REL(un, 0.5 * closing, "fixture: u_n- = -g/dt");
  setup2d(&d, 0.5, 0.0, 0.0, g, dt);
  solve2d(&d);
  ck_assert_msg(d.row.pn == 0.0 && d.row.pt == 0.0, "slow approach to an open gap: impulse (%g, %g)", d.row.pn,
                d.row.pt);
  ck_assert_msg(d.va[1] == 0.5 * closing, "slow approach: velocity changed to %g", d.va[1]);

  /* The same open contact, pushed harder during the sweep (by another
   * contact, after setup saw the slow approach): the body may approach only
   * until the gap closes, u_n+ = -2 g/dt. */
  disk_on_wall(&d, m, 0.5, angle, 0.0, 0.5 * closing, 0.0);
  setup2d(&d, 0.5, 0.0, 0.0, g, dt);
  d.va[1] = 3.0 * closing; /* u_n = 3 closing (n = -e_y: u_n = v_y) */
  solve2d(&d);
  rel2d(&d, &un, &ut);
  EXPECT_CLOSE(un, closing, TOL, "pushed open contact: u_n+ = -2 g/dt");
  EXPECT_REL(d.row.pn, m * (closing - 3.0 * closing), "pushed open contact: pn = m (u_n+ - u_n)");

  /* Faster approach at the start of the step: the gap closes within it, and
   * the contact is treated as closed: u_n+ = -e_n u_n-. */
  for (int k = 0; k < 2; k++) {
    const double e_n = k ? 0.4 : 0.0, un0 = 2.5 * closing;
    disk_on_wall(&d, m, 0.5, angle, 0.0, un0, 0.0);
    setup2d(&d, 0.5, e_n, 0.0, g, dt);
    solve2d(&d);
    rel2d(&d, &un, &ut);
    EXPECT_CLOSE(un, -e_n * un0, TOL, "fast approach to an open gap: u_n+ = -e_n u_n-");
  }
}
END_TEST

START_TEST(test_warm_start_and_order)
{
  /* A row that starts with part of its final impulse already applied (warm
   * start) ends at the same total impulse; the sums count the change only. */
  const double m = 2.0, angle = -M_PI / 2, p0 = 2.4;
  disk2d d[2];
  double un0, ut0, un, ut;
  moreau_row2d rows[2];
  const moreau_lid order[1] = {1};
  disk_on_wall(&d[0], m, 0.5, angle, 0.0, -3.0, 0.0);
  rel2d(&d[0], &un0, &ut0);
  setup2d(&d[0], 10.0, 0.0, 0.0, 0.0, 0.01);
  d[0].row.pn = p0;
  d[0].va[1] += p0 / m; /* a received -p0 n = +p0 e_y */
  moreau_sweep_sums s = solve2d(&d[0]);
  rel2d(&d[0], &un, &ut);
  EXPECT_CLOSE(un, 0.0, TOL, "warm-started u_n+");
  EXPECT_REL(d[0].row.pn, -m * un0, "warm-started pn: the total impulse");
  expect_sums(s, -m * un0 - p0, 0.0, -m * un0, 0.0, "warm start");
  ck_assert_msg(s.max_ratio < 1.0, "warm start: ratio %g < 1", s.max_ratio);

  /* Two rows, a sweep over order = {1}: only row 1 is solved. */
  disk_on_wall(&d[0], m, 0.5, angle, 0.0, -3.0, 0.0);
  disk_on_wall(&d[1], m, 0.5, angle, 0.0, -1.0, 0.0);
  setup2d(&d[0], 10.0, 0.0, 0.0, 0.0, 0.01);
  setup2d(&d[1], 10.0, 0.0, 0.0, 0.0, 0.01);
  rows[0] = d[0].row;
  rows[1] = d[1].row;
  s = sweep2d(rows, order, 1, 0);
  ck_assert_msg(rows[0].pn == 0.0 && d[0].va[1] == -3.0, "row 0 is not in the order but was solved");
  EXPECT_REL(rows[1].pn, m * 1.0, "row 1 solved");
  EXPECT_REL(s.dp, m * 1.0, "sums of the rows in the order");
  ck_assert_msg(s.max_ratio == 0.0, "max_ratio off: not tracked (%g)", s.max_ratio);
}
END_TEST

/* Eight disks pressed from all sides into one heavy disk B that does not
 * turn (rows a_i against B): every row carries an impulse, and B's motion
 * makes a sweep's result depend on the order the rows are visited in. */
typedef struct {
  disk2d a[8];
  double vb[8]; /* B's entry: velocity, spin, inverse mass, ... */
  moreau_row2d rows[8];
} disks_on_b;

static void disks_on_b_build(disks_on_b *f)
{
  const double inv_mass_b = 0.1;
  memset(f->vb, 0, sizeof(f->vb));
  f->vb[MOREAU_IM2D] = inv_mass_b; /* B does not turn: no inverse inertia */
  for (int i = 0; i < 8; i++) {
    const double angle = 2.0 * M_PI * i / 8 + 0.1;
    disk_on_wall(&f->a[i], 1.0 + 0.1 * i, 0.5, angle, (1.0 + 0.2 * i) * cos(angle) - 0.1 * sin(angle),
                 (1.0 + 0.2 * i) * sin(angle) + 0.1 * cos(angle), 0.0);
    setup2d(&f->a[i], 0.3, 0.0, 0.0, 0.0, 0.01); /* B at rest: its targets are the wall's */
    moreau_row2d *r = &f->a[i].row;
    r->vb = f->vb;
    f->a[i].x.Wnn += inv_mass_b;
    f->a[i].x.Wtt += inv_mass_b;
    f->rows[i] = *r;
  }
}

START_TEST(test_runs_sweep)
{
  /* The blocks and layers orders sweep runs of stored rows (prefetching the
   * next run as they go): the same rows in the same order as the plain loop,
   * whatever the runs, a short one first here. */
  const moreau_lid base[8] = {0, 1, 2, 3, 4, 5, 6, 7}, block_perm[3] = {2, 0, 1};
  const moreau_lid order[8] = {7, 6, 1, 0, 2, 5, 3, 4}; /* run 2 (rows 6, 7), run 0, run 1, each shuffled */
  const moreau_lid reversed[8] = {4, 3, 5, 2, 0, 1, 6, 7};
  disks_on_b plain, runs;
  moreau_sweep_sums s_plain, s_runs;
  disks_on_b_build(&plain);
  disks_on_b_build(&runs);
  s_plain = sweep2d(plain.rows, order, 8, 1);
  moreau_law_sweep_args a = {.rows = runs.rows,
                             .order = order,
                             .n = 8,
                             .max_ratio = 1,
                             .base = base,
                             .block_perm = block_perm,
                             .block = 3,
                             .nblocks = 3};
  memset(&s_runs, 0xa5, sizeof(s_runs));
  law()->sweep2d(&a, &s_runs);
  for (int i = 0; i < 8; i++) {
    ck_assert_msg(plain.rows[i].pn > 0.0, "row %d carries no impulse: a row left out would not show", i);
    ck_assert_msg(runs.rows[i].pn == plain.rows[i].pn && runs.rows[i].pt == plain.rows[i].pt,
                  "row %d: (%.17g, %.17g) in runs, (%.17g, %.17g) plain", i, runs.rows[i].pn, runs.rows[i].pt,
                  plain.rows[i].pn, plain.rows[i].pt);
  }
  ck_assert_msg(runs.vb[0] == plain.vb[0] && runs.vb[1] == plain.vb[1], "B's velocity differs between runs and plain");
  ck_assert_msg(memcmp(&s_runs, &s_plain, sizeof(s_plain)) == 0,
                "the sweep's sums differ between runs and plain order");
  /* The result depends on the order: another order ends elsewhere. */
  disks_on_b_build(&runs);
  sweep2d(runs.rows, reversed, 8, 0);
  ck_assert_msg(runs.vb[0] != plain.vb[0] || runs.vb[1] != plain.vb[1], "B ends where it did in another order");
}
END_TEST

/* ---- 3D: a sphere against a fixed wall ----------------------------------------------------------------------- */

typedef struct {
  double m, inertia, rad;
  double e[3][3]; /* n, t, s */
  double c[3];
  double va[8], vb[8]; /* entries of the solve's table: velocity, spin from [3], inverse mass and inertia */
  double Ia[6], Ib[6]; /* the row's inverse inertia tensors: a's isotropic, the wall's zero */
  moreau_row3d_extra x;
  moreau_row3d row;
} sphere3d;

/* a's inverse inertia tensor: 1/I times the identity. */
static void set_inverse_inertia(sphere3d *s, double inertia)
{
  moreau_row3d *r = &s->row;
  const double iia = s->va[MOREAU_II3D] = 1.0 / inertia;
  for (int k = 0; k < 6; k++) {
    s->Ia[k] = k == 0 || k == 3 || k == 5 ? iia : 0.0;
    s->Ib[k] = 0.0;
  }
  /* a's arm is c, the wall's 0 */
  s->x =
      (moreau_row3d_extra){s->Ia, s->Ib, NULL, NULL, {s->c[0], s->c[1], s->c[2]}, {0.0, 0.0, 0.0}, {0.0}, {0.0, 0.0}};
  r->x = &s->x;
}

static void cross(const double *a, const double *b, double *c)
{
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}
static double dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Relative velocity of the wall with respect to a's material point at the
 * contact, in frame components. */
static void rel3d(const sphere3d *s, double *u)
{
  double wxc[3], du[3];
  cross((s->va + 3), s->c, wxc);
  for (int k = 0; k < 3; k++)
    du[k] = s->vb[k] - (s->va[k] + wxc[k]);
  for (int i = 0; i < 3; i++)
    u[i] = dot(s->e[i], du);
}

/* A sphere (m, radius rad, I = 2/5 m rad^2) touching the wall at c = rad n,
 * in an oblique frame: n = (1, 2, -2)/3, t = (2, 1, 2)/3, s = n x t. Its
 * lever arm is tangential only: W = diag(1/m, 1/m + rad^2/I, same) =
 * diag(1, 3.5, 3.5) / m, which the row's extra entry holds with its
 * tangential targets. */
static void sphere_on_wall(sphere3d *s, double m, double rad, const double *v, const double *w)
{
  static const double n[3] = {1.0 / 3, 2.0 / 3, -2.0 / 3}, t[3] = {2.0 / 3, 1.0 / 3, 2.0 / 3};
  moreau_row3d *r = &s->row;
  memset(s, 0, sizeof(*s));
  s->m = m;
  s->rad = rad;
  s->inertia = 0.4 * m * rad * rad;
  memcpy(s->e[0], n, sizeof(n));
  memcpy(s->e[1], t, sizeof(t));
  cross(n, t, s->e[2]);
  for (int k = 0; k < 3; k++) {
    s->c[k] = rad * n[k];
    s->va[k] = v[k];
    s->va[3 + k] = w[k];
  }
  r->va = s->va;
  r->vb = s->vb;
  memcpy(r->n, s->e[0], sizeof(r->n));
  memcpy(r->t, s->e[1], sizeof(r->t));
  s->va[MOREAU_IM3D] = 1.0 / m;
  set_inverse_inertia(s, s->inertia);
  s->x.W[0] = 1.0 / m;
  s->x.W[3] = s->x.W[5] = 3.5 / m;
}

/* The same wall and frame, but a body of inertia I touched at an arbitrary
 * point c (a corner or an edge), so that W couples the normal and the
 * tangential rows: W_ij = e_i . e_j / m + (c x e_i) . (c x e_j) / I. */
static void body_on_wall(sphere3d *s, double m, double inertia, const double *c, const double *v, const double *w)
{
  static const int ij[6][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 2}};
  double *W = s->x.W, c_x[9];
  sphere_on_wall(s, m, 1.0, v, w);
  s->inertia = inertia;
  s->rad = 0.0;
  memcpy(s->c, c, sizeof(s->c));
  for (int i = 0; i < 3; i++)
    cross(s->c, s->e[i], &c_x[3 * i]);
  set_inverse_inertia(s, inertia);
  for (int k = 0; k < 6; k++) {
    int i = ij[k][0], j = ij[k][1];
    W[k] = dot(s->e[i], s->e[j]) / m + dot(&c_x[3 * i], &c_x[3 * j]) / inertia;
  }
  ck_assert_msg(W[0] * (W[3] * W[5] - W[4] * W[4]) + W[1] * (W[2] * W[4] - W[1] * W[5]) +
                        W[2] * (W[1] * W[4] - W[2] * W[3]) >
                    0.0,
                "W is positive definite");
}

/* x solving W x = y for the symmetric layout, by Cramer's rule on the full
 * matrix (independent of the solver's cofactors). */
static void sym_solve(const double *W, const double *y, double *x)
{
  const double A[3][3] = {{W[0], W[1], W[2]}, {W[1], W[3], W[4]}, {W[2], W[4], W[5]}};
  double det = 0.0;
  for (int j = 0; j < 3; j++)
    det += A[0][j] * (A[1][(j + 1) % 3] * A[2][(j + 2) % 3] - A[1][(j + 2) % 3] * A[2][(j + 1) % 3]);
  for (int k = 0; k < 3; k++) {
    double B[3][3], d = 0.0;
    memcpy(B, A, sizeof(B));
    for (int i = 0; i < 3; i++)
      B[i][k] = y[i];
    for (int j = 0; j < 3; j++)
      d += B[0][j] * (B[1][(j + 1) % 3] * B[2][(j + 2) % 3] - B[1][(j + 2) % 3] * B[2][(j + 1) % 3]);
    x[k] = d / det;
  }
}

static void setup3d(sphere3d *s, double mu, double e_n, double e_t, double gap, double dt)
{
  moreau_pair_law pair = {.mu = mu, .e_n = e_n, .e_t = e_t};
  double um[3];
  rel3d(s, um);
  moreau_law_contact c = {gap, um, dt, 1.0, NULL};
  law()->setup3d(&s->row, &pair, &c, s->x.target_t); /* the row has its extra entry */
}

static moreau_sweep_sums solve3d(sphere3d *s)
{
  const moreau_lid order[1] = {0};
  return sweep3d(&s->row, order, 1, 1);
}

/* a's velocities after receiving -P at c (P = p_n n + p_t t + p_s s). */
static void expect_motion3d(const sphere3d *s, const double *v0, const double *w0, const double *p, const char *what)
{
  double P[3], cxP[3];
  char msg[128];
  for (int k = 0; k < 3; k++)
    P[k] = p[0] * s->e[0][k] + p[1] * s->e[1][k] + p[2] * s->e[2][k];
  cross(s->c, P, cxP);
  for (int k = 0; k < 3; k++) {
    snprintf(msg, sizeof(msg), "%s: v_a[%d]", what, k);
    EXPECT_REL(s->va[k], v0[k] - P[k] / s->m, msg);
    snprintf(msg, sizeof(msg), "%s: w_a[%d]", what, k);
    EXPECT_REL(s->va[3 + k], w0[k] - cxP[k] / s->inertia, msg);
  }
}

START_TEST(test_3d_cone)
{
  const double m = 3.0, rad = 0.5;
  const double *n;
  sphere3d s;
  double u0[3], u[3], v[3], w[3] = {0.3, -0.2, 0.5};
  moreau_sweep_sums sums;
  char msg[64];

  /* Sticking inside the cone (e_n = 0.25, e_t = 0.5): u+ = -(e_n u_n-,
   * e_t u_t-, e_t u_s-), p = W^-1 (u+ - u-) with W = diag(1, 3.5, 3.5) / m. */
  sphere_on_wall(&s, m, rad, (double[3]){0, 0, 0}, w);
  n = s.e[0];
  for (int k = 0; k < 3; k++)
    v[k] = 2.0 * n[k] + 0.1 * s.e[1][k] - 0.2 * s.e[2][k]; /* towards the wall */
  sphere_on_wall(&s, m, rad, v, w);
  rel3d(&s, u0);
  ck_assert_msg(u0[0] < 0.0, "the fixture approaches: u_n- = %g", u0[0]);
  setup3d(&s, 1.0, 0.25, 0.5, 0.0, 0.01);
  sums = solve3d(&s);
  rel3d(&s, u);
  EXPECT_CLOSE(u[0], -0.25 * u0[0], TOL, "3D sticking: u_n+ = -e_n u_n-");
  EXPECT_CLOSE(u[1], -0.5 * u0[1], TOL, "3D sticking: u_t+ = -e_t u_t-");
  EXPECT_CLOSE(u[2], -0.5 * u0[2], TOL, "3D sticking: u_s+ = -e_t u_s-");
  EXPECT_REL(s.row.p[0], -1.25 * m * u0[0], "3D sticking: p_n");
  EXPECT_REL(s.row.p[1], -1.5 * m / 3.5 * u0[1], "3D sticking: p_t");
  EXPECT_REL(s.row.p[2], -1.5 * m / 3.5 * u0[2], "3D sticking: p_s");
  ck_assert_msg(hypot(s.row.p[1], s.row.p[2]) < s.row.p[0], "the fixture sticks inside the cone");
  expect_motion3d(&s, v, w, s.row.p, "3D sticking");
  EXPECT_REL(sums.dp, s.row.p[0] + fabs(s.row.p[1]) + fabs(s.row.p[2]), "3D sum dp");
  EXPECT_REL(sums.p, s.row.p[0] + fabs(s.row.p[1]) + fabs(s.row.p[2]), "3D sum p");
  EXPECT_REL(sums.p2, dot(s.row.p, s.row.p), "3D sum p2");

  /* Sliding on the cone (mu = 0.2): p_n = -m u_n- (W decoupled), p_tang =
   * -mu p_n along the slip direction, and the slip keeps its direction. */
  for (int k = 0; k < 3; k++)
    v[k] = 1.5 * n[k] - 3.0 * s.e[1][k] + 4.0 * s.e[2][k];
  sphere_on_wall(&s, m, rad, v, w);
  rel3d(&s, u0);
  ck_assert_msg(u0[0] < 0.0 && hypot(u0[1], u0[2]) / 3.5 > 0.2 * -u0[0], "the fixture slides");
  setup3d(&s, 0.2, 0.0, 0.0, 0.0, 0.01);
  sums = solve3d(&s);
  rel3d(&s, u);
  {
    const double slip = hypot(u0[1], u0[2]), pn = -m * u0[0];
    EXPECT_CLOSE(u[0], 0.0, TOL, "3D sliding: u_n+ = 0");
    EXPECT_REL(s.row.p[0], pn, "3D sliding: p_n = -m u_n-");
    EXPECT_REL(hypot(s.row.p[1], s.row.p[2]), 0.2 * pn, "3D sliding: |p_t| = mu p_n");
    for (int i = 1; i < 3; i++) {
      snprintf(msg, sizeof(msg), "3D sliding: p_t[%d] opposite the slip", i);
      EXPECT_REL(s.row.p[i], -0.2 * pn * u0[i] / slip, msg);
      /* u+ = u- + W p: the slip shrinks by Wtt mu p_n along its own direction. */
      snprintf(msg, sizeof(msg), "3D sliding: u[%d]+ along the slip", i);
      EXPECT_CLOSE(u[i], u0[i] * (1.0 - 3.5 / m * 0.2 * pn / slip), TOL * 10, msg);
    }
    ck_assert_msg(3.5 / m * 0.2 * pn < slip, "the slip does not stop");
  }
  expect_motion3d(&s, v, w, s.row.p, "3D sliding");
  EXPECT_REL(sums.dp, s.row.p[0] + fabs(s.row.p[1]) + fabs(s.row.p[2]), "3D sliding sum dp");

  /* Receding: nothing. */
  for (int k = 0; k < 3; k++)
    v[k] = -1.0 * n[k] + 2.0 * s.e[1][k];
  sphere_on_wall(&s, m, rad, v, w);
  rel3d(&s, u0);
  ck_assert_msg(u0[0] > 0.0, "the fixture recedes");
  setup3d(&s, 0.5, 0.5, 0.0, 0.0, 0.01);
  sums = solve3d(&s);
  ck_assert_msg(s.row.p[0] == 0.0 && s.row.p[1] == 0.0 && s.row.p[2] == 0.0, "3D receding: impulse");
  ck_assert_msg(!memcmp(s.va, v, sizeof(v)) && !memcmp((s.va + 3), w, sizeof(w)), "3D receding: velocities changed");
  ck_assert_msg(sums.dp == 0.0 && sums.p == 0.0, "3D receding: sums %g %g", sums.dp, sums.p);

  /* Open gap, slow approach: nothing; fast: closed, u_n+ = -e_n u_n-. */
  for (int k = 0; k < 3; k++)
    v[k] = 0.5 * n[k];
  sphere_on_wall(&s, m, rad, v, (double[3]){0, 0, 0});
  setup3d(&s, 0.5, 0.0, 0.0, 0.01, 0.01); /* closing speed 2 */
  solve3d(&s);
  ck_assert_msg(s.row.p[0] == 0.0, "3D open gap, slow: p_n = %g", s.row.p[0]);
  for (int k = 0; k < 3; k++)
    v[k] = 3.0 * n[k];
  sphere_on_wall(&s, m, rad, v, (double[3]){0, 0, 0});
  setup3d(&s, 0.5, 0.5, 0.0, 0.01, 0.01);
  solve3d(&s);
  rel3d(&s, u);
  EXPECT_CLOSE(u[0], 1.5, TOL * 10, "3D open gap, fast: u_n+ = -e_n u_n-");
}
END_TEST

/* Just inside and just outside the cone: the sticking impulse of a sphere
 * with u_n- = -1 and slip speed |u_t-| has |p_t| / (mu p_n) = |u_t-| / (3.5
 * mu) (W = diag(1, 3.5, 3.5) / m), so |u_t-| = 3.5 mu rho puts it at rho
 * times the cone's edge. */
START_TEST(test_3d_cone_edge)
{
  const double m = 2.0, mu = 0.4, dir = 0.3, zero[3] = {0, 0, 0};
  for (int out = 0; out < 2; out++) {
    const double rho = out ? 1.05 : 0.95, speed = 3.5 * mu * rho;
    sphere3d s;
    double v[3], u0[3], u[3];
    sphere_on_wall(&s, m, 0.5, (double[3]){0, 0, 0}, zero);
    for (int k = 0; k < 3; k++)
      v[k] = s.e[0][k] - speed * (cos(dir) * s.e[1][k] + sin(dir) * s.e[2][k]);
    sphere_on_wall(&s, m, 0.5, v, zero);
    rel3d(&s, u0);
    EXPECT_REL(hypot(u0[1], u0[2]), speed, "fixture slip speed");
    setup3d(&s, mu, 0.0, 0.0, 0.0, 0.01);
    solve3d(&s);
    rel3d(&s, u);
    EXPECT_CLOSE(u[0], 0.0, TOL, "cone edge: u_n+ = 0");
    EXPECT_REL(s.row.p[0], -m * u0[0], "cone edge: p_n");
    if (!out) {
      EXPECT_CLOSE(u[1], 0.0, TOL, "inside the cone: sticks (u_t+ = 0)");
      EXPECT_CLOSE(u[2], 0.0, TOL, "inside the cone: sticks (u_s+ = 0)");
      EXPECT_REL(hypot(s.row.p[1], s.row.p[2]), rho * mu * s.row.p[0], "inside the cone: |p_t| = rho mu p_n");
    } else {
      EXPECT_REL(hypot(s.row.p[1], s.row.p[2]), mu * s.row.p[0], "outside the cone: |p_t| = mu p_n");
      EXPECT_CLOSE(hypot(u[1], u[2]), speed - 3.5 / m * mu * s.row.p[0], TOL, "outside the cone: still slipping");
    }
  }
}
END_TEST

/* The same in 2D: a disk with W = diag(1, 3) / m and u_n- = -1 is at rho
 * times the cone's edge when |u_t-| = 3 mu rho. */
START_TEST(test_2d_cone_edge)
{
  const double m = 2.0, mu = 0.4, angle = -M_PI / 2;
  for (int out = 0; out < 2; out++)
    for (int sign = -1; sign <= 1; sign += 2) {
      const double rho = out ? 1.05 : 0.95, ut0 = sign * 3.0 * mu * rho;
      disk2d d;
      double un, ut;
      /* n = -e_y, t = e_x: u_n = v_y, u_t = -v_x (no spin). */
      disk_on_wall(&d, m, 0.5, angle, -ut0, -1.0, 0.0);
      setup2d(&d, mu, 0.0, 0.0, 0.0, 0.01);
      solve2d(&d);
      rel2d(&d, &un, &ut);
      EXPECT_CLOSE(un, 0.0, TOL, "2D cone edge: u_n+ = 0");
      EXPECT_REL(d.row.pn, m, "2D cone edge: pn = -m u_n-");
      if (!out) {
        EXPECT_CLOSE(ut, 0.0, TOL, "2D inside the cone: sticks");
        EXPECT_REL(d.row.pt, -sign * rho * mu * m, "2D inside the cone: pt");
      } else {
        EXPECT_REL(d.row.pt, -sign * mu * m, "2D outside the cone: pt = -sign(u_t) mu pn");
        EXPECT_CLOSE(ut, ut0 - sign * 3.0 / m * mu * m, TOL, "2D outside the cone: still slipping");
      }
    }
}
END_TEST

/* A body touched off its centre line (c = 0.4 n + 0.3 t + 0.2 s): the
 * tangential impulse turns it and changes u_n. Sticking reaches every
 * target; sliding is on the cone, |p_t| = mu p_n, with u_n+ on its target
 * and the slip left opposite to the friction (the exact graph, not the
 * sticking direction, which W's coupling turns away from it). */
START_TEST(test_3d_noncentral)
{
  const double m = 1.0, inertia = 0.05, zero[3] = {0, 0, 0};
  for (int slide = 0; slide < 2; slide++) {
    const double mu = slide ? 0.3 : 5.0;
    sphere3d s;
    double c[3], v[3], u0[3], u[3], rhs[3], p_stick[3];
    sphere_on_wall(&s, m, 1.0, (double[3]){0, 0, 0}, zero);
    for (int k = 0; k < 3; k++) {
      c[k] = 0.4 * s.e[0][k] + 0.3 * s.e[1][k] + 0.2 * s.e[2][k];
      v[k] = 1.0 * s.e[0][k] + 0.8 * s.e[1][k] - 0.5 * s.e[2][k];
    }
    body_on_wall(&s, m, inertia, c, v, (double[3]){0.1, 0.2, -0.3});
    ck_assert_msg(fabs(s.x.W[1]) > 0.1 && fabs(s.x.W[2]) > 0.1, "the fixture couples n and t: W_nt %g, W_ns %g",
                  s.x.W[1], s.x.W[2]);
    rel3d(&s, u0);
    ck_assert_msg(u0[0] < 0.0, "the fixture approaches: u_n- = %g", u0[0]);
    /* The sticking impulse, here: W^-1 (0 - u-). */
    for (int i = 0; i < 3; i++)
      rhs[i] = -u0[i];
    sym_solve(s.x.W, rhs, p_stick);
    ck_assert_msg(p_stick[0] > 0.0, "the fixture presses");
    ck_assert_msg((hypot(p_stick[1], p_stick[2]) > mu * p_stick[0]) == slide, "the fixture %s",
                  slide ? "slides" : "sticks");
    setup3d(&s, mu, 0.0, 0.0, 0.0, 0.01);
    solve3d(&s);
    rel3d(&s, u);
    EXPECT_CLOSE(u[0], 0.0, TOL, "non-central: u_n+ on target");
    if (!slide) {
      EXPECT_CLOSE(u[1], 0.0, TOL, "non-central sticking: u_t+ = 0");
      EXPECT_CLOSE(u[2], 0.0, TOL, "non-central sticking: u_s+ = 0");
      for (int i = 0; i < 3; i++)
        EXPECT_REL(s.row.p[i], p_stick[i], "non-central sticking: p = W^-1 (target - u-)");
    } else {
      /* On the Coulomb graph: on the cone, and the slip left opposite to
       * the friction (maximal dissipation), which here is not the sticking
       * direction. */
      double pt = hypot(s.row.p[1], s.row.p[2]), st = hypot(p_stick[1], p_stick[2]), slip = hypot(u[1], u[2]);
      EXPECT_REL(pt, mu * s.row.p[0], "non-central sliding: |p_t| = mu p_n");
      ck_assert_msg(slip > 0.1, "non-central sliding: the contact still slips (%g)", slip);
      EXPECT_CLOSE((u[1] * s.row.p[1] + u[2] * s.row.p[2]) / (slip * pt), -1.0, TOL,
                   "non-central sliding: slip opposite to the friction");
      ck_assert_msg((s.row.p[1] * p_stick[1] + s.row.p[2] * p_stick[2]) / (pt * st) < 0.999,
                    "non-central sliding: the fixture should turn the friction off the sticking direction");
    }
  }
}
END_TEST

/* A row without an extra entry (two spheres, or a sphere and a plain wall)
 * has s = n x t and its W formed in the sweep: W is the Delassus block of
 * two bodies touched along n,
 * W_ij = e_i . e_j (im_a + im_b) + ii_a (c_a x e_i) . (c_a x e_j) + ii_b (c_b x e_i) . (c_b x e_j),
 * c_a = sa n, c_b = sb n, to rounding: random normals (axis-aligned ones
 * too), masses, radii and gaps. */
START_TEST(test_3d_formed_row)
{
  unsigned seed = 7;
  for (int trial = 0; trial < 500; trial++) {
    double va[8] = {0}, vb[8] = {0}, n[3], t[3], s[3];
    double u[6];
    for (int k = 0; k < 6; k++)
      u[k] = (double)rand_r(&seed) / RAND_MAX;
    const double th = 2.0 * M_PI * u[0], ph = trial % 10 ? M_PI * u[1] : 0.5 * M_PI * (trial % 3);
    n[0] = sin(ph) * cos(th);
    n[1] = sin(ph) * sin(th);
    n[2] = cos(ph);
    const int wall = trial % 4 == 0;
    const double ra = 0.3 + u[2], rb = wall ? 0.0 : 0.3 + u[3], gap = 0.02 * (u[4] - 0.5);
    va[MOREAU_IM3D] = 0.5 + u[5];
    va[MOREAU_II3D] = va[MOREAU_IM3D] / (0.4 * ra * ra);
    if (!wall) {
      vb[MOREAU_IM3D] = 2.0 - u[5];
      vb[MOREAU_II3D] = vb[MOREAU_IM3D] / (0.4 * rb * rb);
    }
    /* t: n x a, a the axis farthest from n, normalized */
    double a[3] = {0, 0, 0}, len;
    a[fabs(n[0]) < 0.5 ? 0 : (fabs(n[1]) < 0.5 ? 1 : 2)] = 1.0;
    cross(n, a, t);
    len = sqrt(dot(t, t));
    for (int k = 0; k < 3; k++)
      t[k] /= len;
    cross(n, t, s);
    moreau_row3d r = {.va = va, .vb = vb, .sa = ra + 0.5 * gap, .sb = wall ? 0.0 : -(rb + 0.5 * gap)};
    memcpy(r.n, n, sizeof(n));
    memcpy(r.t, t, sizeof(t));
    moreau_row3d_formed f;
    moreau_row3d_form(&r, &f);
    ck_assert_msg(!memcmp(f.t, t, sizeof(t)) && !memcmp(f.s, s, sizeof(s)), "trial %d: the frame differs", trial);
    const double *e[3] = {n, t, s};
    double ca[3], cb[3], ca_x[9], cb_x[9];
    for (int k = 0; k < 3; k++) {
      ca[k] = r.sa * n[k];
      cb[k] = r.sb * n[k];
    }
    for (int i = 0; i < 3; i++) {
      cross(ca, e[i], &ca_x[3 * i]);
      cross(cb, e[i], &cb_x[3 * i]);
    }
    static const int ij[6][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 2}};
    for (int m = 0; m < 6; m++) {
      const int i = ij[m][0], j = ij[m][1];
      const double W = dot(e[i], e[j]) * (va[MOREAU_IM3D] + vb[MOREAU_IM3D]) +
                       va[MOREAU_II3D] * dot(&ca_x[3 * i], &ca_x[3 * j]) +
                       vb[MOREAU_II3D] * dot(&cb_x[3 * i], &cb_x[3 * j]);
      ck_assert_msg(fabs(f.W[m] - W) <= 1e-14 * f.W[3], "trial %d: W[%d] = %.17g, expected %.17g", trial, m, f.W[m], W);
    }
  }
}
END_TEST

/* The same in 2D: a row without an extra entry forms its arms,
 * (e_z x c) . n = 0 and (e_z x c) . t = sa (sb) for c = sa n (sb n), and W
 * from them, W_nn = im_a + im_b + ii_a ra_n^2 + ii_b rb_n^2, W_tt the same
 * with the t arms, W_nt = ii_a ra_n ra_t + ii_b rb_n rb_t, to rounding. */
START_TEST(test_2d_formed_row)
{
  unsigned seed = 5;
  for (int trial = 0; trial < 500; trial++) {
    double va[8] = {0}, vb[8] = {0}, u[6];
    for (int k = 0; k < 6; k++)
      u[k] = (double)rand_r(&seed) / RAND_MAX;
    const double angle = trial % 10 ? 2.0 * M_PI * u[0] : 0.5 * M_PI * (trial % 4);
    const double n[2] = {cos(angle), sin(angle)}, t[2] = {-n[1], n[0]};
    const int wall = trial % 4 == 0;
    const double ra = 0.3 + u[2], rb = wall ? 0.0 : 0.3 + u[3], gap = 0.02 * (u[4] - 0.5);
    va[MOREAU_IM2D] = 0.5 + u[5];
    va[MOREAU_II2D] = va[MOREAU_IM2D] / (0.5 * ra * ra);
    if (!wall) {
      vb[MOREAU_IM2D] = 2.0 - u[5];
      vb[MOREAU_II2D] = vb[MOREAU_IM2D] / (0.5 * rb * rb);
    }
    moreau_row2d r = {
        .va = va, .vb = vb, .nx = n[0], .ny = n[1], .sa = ra + 0.5 * gap, .sb = wall ? 0.0 : -(rb + 0.5 * gap)};
    moreau_row2d_local f;
    moreau_row2d_form(&r, &f);
    const double ca[2] = {r.sa * n[0], r.sa * n[1]}, cb[2] = {r.sb * n[0], r.sb * n[1]};
    const double ra_n = -ca[1] * n[0] + ca[0] * n[1], ra_t = -ca[1] * t[0] + ca[0] * t[1];
    const double rb_n = -cb[1] * n[0] + cb[0] * n[1], rb_t = -cb[1] * t[0] + cb[0] * t[1];
    const double m = va[MOREAU_IM2D] + vb[MOREAU_IM2D], iia = va[MOREAU_II2D], iib = vb[MOREAU_II2D];
    const double expected[7] = {ra_n,
                                ra_t,
                                rb_n,
                                rb_t,
                                m + iia * ra_n * ra_n + iib * rb_n * rb_n,
                                iia * ra_n * ra_t + iib * rb_n * rb_t,
                                m + iia * ra_t * ra_t + iib * rb_t * rb_t};
    const double got[7] = {f.ra_n, f.ra_t, f.rb_n, f.rb_t, f.Wnn, f.Wnt, f.Wtt};
    for (int i = 0; i < 7; i++) {
      const double scale = i < 4 ? 2.0 : f.Wtt;
      ck_assert_msg(fabs(got[i] - expected[i]) <= 1e-14 * scale, "trial %d: entry %d = %.17g, expected %.17g", trial, i,
                    got[i], expected[i]);
    }
  }
}
END_TEST

START_TEST(test_registry)
{
  const moreau_law *l = moreau_law_find("signorini_coulomb");
  ck_assert_ptr_nonnull(l);
  ck_assert_ptr_eq(moreau_law_default(), l);
  ck_assert_str_eq(moreau_law_name(l), "signorini_coulomb");
  ck_assert_int_eq(moreau_law_state_width(l), 0);
  ck_assert_int_eq(l->state_width, 0);
  ck_assert_ptr_null(moreau_law_find("nope"));
  ck_assert_ptr_null(moreau_law_find(""));
  ck_assert_ptr_null(moreau_law_find("signorini"));
  ck_assert(l->setup2d && l->setup3d && l->sweep2d && l->sweep3d);
}
END_TEST

int main(int argc, char **argv)
{
  int status;
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("law");
  TCase *tc = tcase_create("signorini_coulomb");
  tcase_add_test(tc, test_registry);
  tcase_add_test(tc, test_approach_sticks);
  tcase_add_test(tc, test_restitution);
  tcase_add_test(tc, test_receding);
  tcase_add_test(tc, test_sliding);
  tcase_add_test(tc, test_open_gap);
  tcase_add_test(tc, test_warm_start_and_order);
  tcase_add_test(tc, test_runs_sweep);
  tcase_add_test(tc, test_3d_cone);
  tcase_add_test(tc, test_2d_cone_edge);
  tcase_add_test(tc, test_3d_cone_edge);
  tcase_add_test(tc, test_3d_noncentral);
  tcase_add_test(tc, test_3d_formed_row);
  tcase_add_test(tc, test_2d_formed_row);
  suite_add_tcase(s, tc);
  status = moreau_test_run_suite(s);
  MPI_Finalize();
  return status;
}
