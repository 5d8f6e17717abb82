/* Detection's candidate list (moreau/detect.h): two detectors see the same
 * bodies step after step, one with skin 0 (a build whenever anything moved),
 * one with a skin; their contacts must be bitwise the same at every step,
 * while the second builds far less often. The bodies move in each of the
 * ways the list must notice: every body at its own constant velocity (pairs
 * closing at up to twice the fastest speed), a rare long jump of one,
 * wrapping across periodic faces, Lees-Edwards images sliding past bodies
 * at rest, a box whose period shrinks, walls, all far from the origin too
 * (where the list's float positions round by a sixth of the skin). The
 * lever arms a list of plain bodies forms agree with the ones detection
 * stores. Serial. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_runner.h"
#include "moreau/detect.h"
#include "moreau/rng.h"

#define STEPS 400
#define N_BODIES 400
#define DT 1e-2 /* time per step */

typedef struct {
  int dim;
  double box; /* side of the cubic box from corner (lo, lo, lo) (z from 0 in 2D) */
  double lo;
  int periodic;     /* every axis periodic (else bounded by walls) */
  double le_rate;   /* Lees-Edwards along x, gradient y (periodic only) */
  double grow_rate; /* length rate of the x axis (periodic only) */
  double speed;     /* each body's constant displacement per step, per axis, is uniform in [-speed, speed] */
  int jumps;        /* one body jumps by a radius every this many steps (0: never) */
} skin_scene;

static void setup(void) { moreau_error_clear(); }

static double uniform(moreau_rng *r, double a, double b) { return a + (b - a) * moreau_rng_uniform(r); }

static moreau_domain *make_domain(const skin_scene *sc)
{
  moreau_domain *d = NULL;
  double lo[3] = {sc->lo, sc->lo, sc->dim == 3 ? sc->lo : 0.0},
         hi[3] = {sc->lo + sc->box, sc->lo + sc->box, sc->dim == 3 ? sc->lo + sc->box : 1.0};
  ck_assert_int_eq(moreau_domain_create(sc->dim, &d), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_domain_set_box(d, lo, hi), MOREAU_SUCCESS);
  for (int k = 0; sc->periodic && k < sc->dim; k++)
    ck_assert_int_eq(moreau_domain_set_periodic(d, k, 1), MOREAU_SUCCESS);
  if (sc->le_rate != 0.0) ck_assert_int_eq(moreau_domain_set_lees_edwards(d, 0, 1, sc->le_rate), MOREAU_SUCCESS);
  if (sc->grow_rate != 0.0) ck_assert_int_eq(moreau_domain_set_length_rate(d, 0, sc->grow_rate), MOREAU_SUCCESS);
  return d;
}

/* Random disks or spheres of radius 0.35-0.65 at solid fraction ~0.5:
 * many contacts within the alert distance, overlaps allowed (detection does
 * not mind). */
static moreau_bodies *make_bodies(const skin_scene *sc, moreau_rng *r)
{
  moreau_bodies *b = NULL;
  ck_assert_int_eq(moreau_bodies_create(MPI_COMM_SELF, sc->dim, &b), MOREAU_SUCCESS);
  for (int i = 0; i < N_BODIES; i++) {
    moreau_body body = {.gid = 3 * i + 7, .q = {1, 0, 0, 0}, .radius = uniform(r, 0.35, 0.65), .inv_mass = 1};
    for (int k = 0; k < sc->dim; k++) {
      body.x[k] = uniform(r, sc->lo, sc->lo + sc->box);
      body.v[k] = uniform(r, -sc->speed, sc->speed) / DT;
    }
    ck_assert_int_eq(moreau_bodies_push_owned(b, &body), MOREAU_SUCCESS);
  }
  return b;
}

static moreau_walls *make_walls(const skin_scene *sc)
{
  moreau_walls *w = NULL;
  ck_assert_int_eq(moreau_walls_create(&w), MOREAU_SUCCESS);
  for (int k = 0; !sc->periodic && k < sc->dim; k++) {
    double p[3] = {0, 0, 0}, n[3] = {0, 0, 0}, v[3] = {0, 0, 0};
    p[k] = sc->lo;
    n[k] = 1.0;
    ck_assert_int_eq(moreau_walls_add(w, p, n, MOREAU_WALL_FIXED, v, 0.0, 0.0, 0, NULL), MOREAU_SUCCESS);
    p[k] = sc->lo + sc->box;
    n[k] = -1.0;
    ck_assert_int_eq(moreau_walls_add(w, p, n, MOREAU_WALL_FIXED, v, 0.0, 0.0, 0, NULL), MOREAU_SUCCESS);
  }
  return w;
}

/* Every field detection sets, bitwise. */
static void assert_same_contacts(const moreau_contacts *c0, const moreau_contacts *c1, int step)
{
  ck_assert_msg(c0->n == c1->n, "step %d: %d contacts with skin 0, %d with the skin", step, c0->n, c1->n);
  size_t n = (size_t)c0->n;
#define SAME(f, width)                                                                                                 \
  ck_assert_msg(n == 0 || !memcmp(c0->f, c1->f, n * (width) * sizeof(*c0->f)), "step %d: " #f " differs", step)
  SAME(gid_a, 1);
  SAME(gid_b, 1);
  SAME(point, 1);
  SAME(a, 1);
  SAME(b, 1);
  SAME(normal, 3);
  SAME(gap, 1);
  ck_assert_msg(!c0->vshift == !c1->vshift, "step %d: vshift kept by one list only", step);
  if (c0->vshift) SAME(vshift, 3);
#undef SAME
}

/* c0 holds no lever arms (its bodies are plain) and forms them; c1 was
 * given arrays for them before detection, which stores them as it finds
 * them: the same arms but for the rounding of the stored ones, which go
 * through the contact point's position (box + 1 at most, images included). */
static void assert_same_arms(const moreau_contacts *c0, const moreau_contacts *c1, const moreau_bodies *b, double box,
                             int step)
{
  ck_assert_msg(!c0->ca && c1->ca, "step %d: arms held by the list of plain bodies, or not by the one given them",
                step);
  const double tol = 8.0 * DBL_EPSILON * (box + 1.0);
  double worst = 0.0;
  for (moreau_lid k = 0; k < c0->n; k++) {
    double ca[3], cb[3];
    moreau_contacts_arms(c0, b, k, ca, cb);
    for (int i = 0; i < 3; i++)
      worst = fmax(worst, fmax(fabs(ca[i] - c1->ca[3 * k + i]), fabs(cb[i] - c1->cb[3 * k + i])));
  }
  ck_assert_msg(worst <= tol, "step %d: formed and stored lever arms differ by %g (tolerance %g)", step, worst, tol);
}

/* Moves every owned body by its velocity over a step (reflected by the
 * walls), one by half a radius every jumps steps, and brings them back into
 * the periodic box (which changes the velocity of a body that crosses a
 * Lees-Edwards face by the images' velocity). */
static void move_bodies(const skin_scene *sc, moreau_domain *dom, moreau_bodies *b, moreau_rng *r, int step)
{
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    double *x = &b->x[3 * i], *v = &b->v[3 * i];
    for (int k = 0; k < sc->dim; k++) {
      if (!sc->periodic && (x[k] + v[k] * DT <= sc->lo || x[k] + v[k] * DT >= sc->lo + sc->box)) v[k] = -v[k];
      x[k] += v[k] * DT;
    }
    if (sc->periodic) (void)moreau_domain_wrap(dom, x, v);
  }
  if (sc->jumps && step % sc->jumps == 0) {
    moreau_lid i = (moreau_lid)moreau_rng_below(r, (uint32_t)b->n_owned);
    b->x[3 * i] = fmin(sc->lo + sc->box - 1e-3, fmax(sc->lo + 1e-3, b->x[3 * i] + (step % 2 ? 0.25 : -0.25)));
  }
}

/* Advances the box by dt; along an axis whose length changes the bodies
 * follow the box affinely, as under pressure control. */
static void advance_box(moreau_domain *dom, moreau_bodies *b, double dt)
{
  double lo[3], hi[3], lo1[3], hi1[3];
  moreau_domain_get_box(dom, lo, hi);
  moreau_domain_advance(dom, dt);
  moreau_domain_get_box(dom, lo1, hi1);
  for (int k = 0; k < 3; k++) {
    if (hi1[k] - lo1[k] == hi[k] - lo[k]) continue;
    double c = 0.5 * (lo[k] + hi[k]), s = (hi1[k] - lo1[k]) / (hi[k] - lo[k]);
    for (moreau_lid i = 0; i < b->n_owned; i++)
      b->x[3 * i + k] = c + (b->x[3 * i + k] - c) * s;
  }
}

static void run_scene(const skin_scene *sc, double skin, int max_builds)
{
  moreau_rng r;
  moreau_rng_seed(&r, 42, 0);
  moreau_domain *dom = make_domain(sc);
  moreau_bodies *b = make_bodies(sc, &r);
  moreau_walls *w = make_walls(sc);
  moreau_detector *d0 = NULL, *d1 = NULL;
  moreau_contacts *c0 = NULL, *c1 = NULL;
  const double alert = 0.05;
  int64_t contacts = 0;
  ck_assert_int_eq(moreau_detector_create(&d0), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_detector_create(&d1), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_detector_set_skin(d1, skin), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_contacts_create(0, &c0), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_contacts_create(0, &c1), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_contacts_enable_arms(c1, b), MOREAU_SUCCESS);
  for (int step = 0; step < STEPS; step++) {
    moreau_lid *by_gid = NULL;
    ck_assert_int_eq(moreau_bodies_gid_order(b, &by_gid), MOREAU_SUCCESS);
    ck_assert_int_eq(moreau_detect(d0, dom, b, w, alert, by_gid, c0), MOREAU_SUCCESS);
    ck_assert_int_eq(moreau_detect(d1, dom, b, w, alert, by_gid, c1), MOREAU_SUCCESS);
    moreau_free(&by_gid);
    assert_same_contacts(c0, c1, step);
    assert_same_arms(c0, c1, b, sc->lo + sc->box, step);
    contacts += c0->n;
    move_bodies(sc, dom, b, &r, step + 1);
    advance_box(dom, b, DT);
  }
  printf("dim %d, %s%s%s, speed %g, jump every %d: %.1f contacts a step; %lld builds with skin 0, %lld with %g\n",
         sc->dim, sc->periodic ? "periodic" : "walls", sc->le_rate != 0.0 ? ", Lees-Edwards" : "",
         sc->grow_rate != 0.0 ? ", changing period" : "", sc->speed, sc->jumps, (double)contacts / STEPS,
         (long long)moreau_detector_builds(d0), (long long)moreau_detector_builds(d1), skin);
  ck_assert_msg(contacts > 0.5 * N_BODIES * STEPS, "scene error: too few contacts (%lld)", (long long)contacts);
  /* Only images that move give a contact list its vshift array. */
  int moving = sc->le_rate != 0.0 || sc->grow_rate != 0.0;
  ck_assert_msg(!c0->vshift == !moving, "vshift %s without images that move", c0->vshift ? "kept" : "missing");
  /* Arms given to a list that holds contacts are the ones it formed. */
  double *formed = malloc((size_t)(c0->n + 1) * 6 * sizeof(double));
  for (moreau_lid k = 0; k < c0->n; k++)
    moreau_contacts_arms(c0, b, k, &formed[6 * k], &formed[6 * k + 3]);
  ck_assert_int_eq(moreau_contacts_enable_arms(c0, b), MOREAU_SUCCESS);
  for (moreau_lid k = 0; k < c0->n; k++)
    ck_assert_msg(!memcmp(&c0->ca[3 * k], &formed[6 * k], 3 * sizeof(double)) &&
                      !memcmp(&c0->cb[3 * k], &formed[6 * k + 3], 3 * sizeof(double)),
                  "contact %d: the arms given differ from the ones formed", (int)k);
  free(formed);
  ck_assert_msg(moreau_detector_builds(d1) <= max_builds, "the skin built %lld times in %d steps, expected <= %d",
                (long long)moreau_detector_builds(d1), STEPS, max_builds);
  ck_assert_int_eq(moreau_contacts_destroy(&c0), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_contacts_destroy(&c1), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_detector_destroy(&d0), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_detector_destroy(&d1), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_walls_destroy(&w), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_bodies_destroy(&b), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_domain_destroy(&dom), MOREAU_SUCCESS);
}

/* Bodies at up to 1e-3 per axis a step and one jumping by half a radius
 * every 50 steps, between walls: a build about every 17 steps with a skin
 * of 0.05 (2 x 17 x 1e-3 sqrt(2)) and at every jump. */
START_TEST(test_moving_walls_2d)
{
  skin_scene sc = {.dim = 2, .box = 20, .speed = 1e-3, .jumps = 50};
  run_scene(&sc, 0.05, STEPS / 8);
}
END_TEST

START_TEST(test_moving_walls_3d)
{
  skin_scene sc = {.dim = 3, .box = 9, .speed = 1e-3, .jumps = 50};
  run_scene(&sc, 0.05, STEPS / 8);
}
END_TEST

/* The same far from the origin, where the positions the list keeps (as
 * floats) are rounded by up to 2^-8 per axis, a sixth of the skin: the
 * list counts that rounding in the displacements, and builds more often
 * (40 and 65 times instead of 24). */
START_TEST(test_far_walls_2d)
{
  skin_scene sc = {.dim = 2, .box = 20, .lo = 65536.0, .speed = 1e-3, .jumps = 50};
  run_scene(&sc, 0.05, STEPS / 4);
}
END_TEST

START_TEST(test_far_walls_3d)
{
  skin_scene sc = {.dim = 3, .box = 9, .lo = 65536.0, .speed = 1e-3, .jumps = 50};
  run_scene(&sc, 0.05, STEPS / 4);
}
END_TEST

/* Two disks far from the origin, the pair just beyond alert + skin at the
 * build. a's position rounds up by 0.00386 as a float, and a then moves by
 * 0.02876 toward b, b by 0.0249 toward a: from the floats kept the largest
 * displacement looks like 0.0249, under half the skin, yet the pair has
 * closed by 0.0537 > skin to within alert. Only the rounding the list adds
 * to the displacements makes it build again and find the contact. */
START_TEST(test_float_positions_rounding)
{
  const double lo = 65536.0, skin = 0.05, alert = 0.05, gap0 = alert + skin + 1e-3;
  skin_scene sc = {.dim = 2, .box = 20, .lo = lo, .periodic = 1};
  moreau_domain *dom = make_domain(&sc);
  moreau_bodies *b = NULL;
  moreau_walls *w = NULL;
  moreau_detector *d[2] = {NULL, NULL};
  moreau_contacts *c[2] = {NULL, NULL};
  const double xa = lo + 10.0 + 0.00395, xb = xa + 1.0 + gap0;
  ck_assert_msg((double)(float)xa - xa > 0.0038, "scene error: a's float does not round up enough");
  ck_assert_int_eq(moreau_bodies_create(MPI_COMM_SELF, 2, &b), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_walls_create(&w), MOREAU_SUCCESS);
  for (int i = 0; i < 2; i++) {
    moreau_body body = {.gid = i, .q = {1, 0, 0, 0}, .x = {i ? xb : xa, lo + 10.0}, .radius = 0.5, .inv_mass = 1};
    ck_assert_int_eq(moreau_bodies_push_owned(b, &body), MOREAU_SUCCESS);
  }
  moreau_lid by_gid[2] = {0, 1};
  for (int k = 0; k < 2; k++) {
    ck_assert_int_eq(moreau_detector_create(&d[k]), MOREAU_SUCCESS);
    ck_assert_int_eq(moreau_detector_set_skin(d[k], k ? skin : 0.0), MOREAU_SUCCESS);
    ck_assert_int_eq(moreau_contacts_create(0, &c[k]), MOREAU_SUCCESS);
    ck_assert_int_eq(moreau_detect(d[k], dom, b, w, alert, by_gid, c[k]), MOREAU_SUCCESS);
    ck_assert_int_eq(c[k]->n, 0);
  }
  b->x[0] += 0.02876;
  b->x[3] -= 0.0249;
  for (int k = 0; k < 2; k++)
    ck_assert_int_eq(moreau_detect(d[k], dom, b, w, alert, by_gid, c[k]), MOREAU_SUCCESS);
  ck_assert_int_eq(c[0]->n, 1);
  ck_assert_msg(c[1]->n == 1, "the list with a skin missed the contact (%lld builds)",
                (long long)moreau_detector_builds(d[1]));
  for (int k = 0; k < 2; k++) {
    ck_assert_int_eq(moreau_contacts_destroy(&c[k]), MOREAU_SUCCESS);
    ck_assert_int_eq(moreau_detector_destroy(&d[k]), MOREAU_SUCCESS);
  }
  ck_assert_int_eq(moreau_walls_destroy(&w), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_bodies_destroy(&b), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_domain_destroy(&dom), MOREAU_SUCCESS);
}
END_TEST

/* Periodic: bodies that leave through a face come back through the other
 * (a jump of a period, which must force a build). */
START_TEST(test_moving_periodic_2d)
{
  skin_scene sc = {.dim = 2, .box = 20, .periodic = 1, .speed = 1e-3};
  run_scene(&sc, 0.05, STEPS / 4);
}
END_TEST

/* Bodies at rest and Lees-Edwards images sliding by 0.01 a step: only the
 * images' displacement can tell the list that the pairs across the
 * gradient faces changed. */
START_TEST(test_lees_edwards_at_rest_2d)
{
  skin_scene sc = {.dim = 2, .box = 20, .periodic = 1, .le_rate = 0.05};
  run_scene(&sc, 0.05, STEPS / 3);
}
END_TEST

START_TEST(test_lees_edwards_at_rest_3d)
{
  skin_scene sc = {.dim = 3, .box = 9, .periodic = 1, .le_rate = 0.1};
  run_scene(&sc, 0.05, STEPS / 3);
}
END_TEST

/* Bodies crossing the faces of a Lees-Edwards box while its images slide:
 * a crossing moves a body onto one of its images, which the list must tell
 * from a displacement. */
START_TEST(test_lees_edwards_crossing_2d)
{
  skin_scene sc = {.dim = 2, .box = 20, .periodic = 1, .le_rate = 0.02, .speed = 2e-3};
  run_scene(&sc, 0.1, STEPS / 4);
}
END_TEST

START_TEST(test_lees_edwards_crossing_3d)
{
  skin_scene sc = {.dim = 3, .box = 9, .periodic = 1, .le_rate = 0.05, .speed = 2e-3};
  run_scene(&sc, 0.1, STEPS / 4);
}
END_TEST

/* A period that shrinks by 0.01 a step, the bodies following it: the
 * images move, and the bodies near the faces (by 0.005 a step): a build
 * every third step with a skin of 0.05. */
START_TEST(test_shrinking_period_2d)
{
  skin_scene sc = {.dim = 2, .box = 20, .periodic = 1, .grow_rate = -1.0};
  run_scene(&sc, 0.05, STEPS / 2);
}
END_TEST

/* The skin's input check. */
START_TEST(test_bad_skin)
{
  moreau_detector *d = NULL;
  ck_assert_int_eq(moreau_detector_create(&d), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_detector_set_skin(d, -1.0), MOREAU_ERR_INPUT);
  moreau_error_clear();
  ck_assert_int_eq(moreau_detector_set_skin(d, NAN), MOREAU_ERR_INPUT);
  moreau_error_clear();
  ck_assert_int_eq(moreau_detector_set_skin(d, 0.25), MOREAU_SUCCESS);
  ck_assert(moreau_detector_skin(d) == 0.25);
  ck_assert_int_eq(moreau_detector_destroy(&d), MOREAU_SUCCESS);
}
END_TEST

int main(int argc, char **argv)
{
  int status;
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("detect_skin");
  TCase *tc = tcase_create("skin");
  tcase_add_checked_fixture(tc, setup, NULL);
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_moving_walls_2d);
  tcase_add_test(tc, test_moving_walls_3d);
  tcase_add_test(tc, test_far_walls_2d);
  tcase_add_test(tc, test_far_walls_3d);
  tcase_add_test(tc, test_float_positions_rounding);
  tcase_add_test(tc, test_moving_periodic_2d);
  tcase_add_test(tc, test_lees_edwards_at_rest_2d);
  tcase_add_test(tc, test_lees_edwards_at_rest_3d);
  tcase_add_test(tc, test_lees_edwards_crossing_2d);
  tcase_add_test(tc, test_lees_edwards_crossing_3d);
  tcase_add_test(tc, test_shrinking_period_2d);
  tcase_add_test(tc, test_bad_skin);
  suite_add_tcase(s, tc);
  status = moreau_test_run_suite(s);
  MPI_Finalize();
  return status;
}
