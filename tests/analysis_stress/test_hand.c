/* The Love-Weber stress of hand-built contacts and bodies: two bodies
 * touching with forces set by hand in the contact frame, a body on a wall,
 * and moving bodies in a Lees-Edwards box, in 2D and 3D, over explicit
 * regions: sigma_ij = sum f_i l_j / V and sum m u_i u_j / V, computed here
 * from the positions placed by hand, to 1e-14 relative. Then the
 * invariants of hand tensors. */
#include <math.h>

#include "parallel.h"
#include "scene.h"
#include "shear_scene.h"
#include "stress_test.h"
#include "texture_test.h"

#define HAND_TOL 1e-14

/* Forces of the contact scene: a pair (f_n and a Cartesian tangential force
 * T perpendicular to n) and a wall contact (the same). */
typedef struct {
  int dim;
  double fn_pair, t_pair[3], fn_wall, t_wall[3];
} hand_forces;

static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* In 2D the tangential component is set along t directly (the header's
 * frame: t is n turned by +90 degrees, checked through the expected value);
 * in 3D T is projected on the contact's (t, s). */
static void set_forces(const moreau_sim *sim, const moreau_contacts *c, moreau_lid k, const void *ctx, double f[3])
{
  const hand_forces *h = ctx;
  const int wall = c->b[k] < 0;
  const double *t = wall ? h->t_wall : h->t_pair;
  (void)sim;
  f[0] = wall ? h->fn_wall : h->fn_pair;
  if (h->dim == 2) {
    /* |T| with the sign of T . (n turned by +90 degrees), from the geometry
     * placed by hand, so that a frame turned the other way fails. */
    f[1] = t[2];
    f[2] = 0.0;
  } else {
    double tc[3], sc[3];
    moreau_contact_frame(3, &c->normal[3 * k], tc, sc);
    f[1] = dot3(t, tc);
    f[2] = dot3(t, sc);
  }
}

/* term += (fn n + T) (x) l / V */
static void add_term(double term[9], double fn, const double n[3], const double t[3], const double l[3], double v)
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      term[3 * i + j] += (fn * n[i] + t[i]) * l[j] / v;
}

static void check_sigma(const double *got, const double *want, const char *what)
{
  double rel = st_rel_diff(got, want, 9);
  ck_assert_msg(rel <= HAND_TOL,
                "%s: sigma = [%.17g %.17g %.17g; %.17g %.17g %.17g; %.17g %.17g %.17g], expected [%.17g %.17g %.17g; "
                "%.17g %.17g %.17g; %.17g %.17g %.17g] (relative difference %.3g)",
                what, got[0], got[1], got[2], got[3], got[4], got[5], got[6], got[7], got[8], want[0], want[1], want[2],
                want[3], want[4], want[5], want[6], want[7], want[8], rel);
}

static void region_stress(moreau_sim *sim, const double lo[3], const double hi[3], double sigma[9])
{
  moreau_region r = {{lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}};
  PAR_TRY(moreau_sim_comm(sim), moreau_stress_region(moreau_sim_comm(sim), moreau_sim_domain(sim),
                                                     moreau_sim_bodies(sim), moreau_sim_contacts(sim), &r, sigma));
}

/* Two bodies of radius 1/2 touching along d (unit, placed by hand), body 2
 * on the wall x_{dim-1} = 0, box [0, 4]^dim without periodic axes. */
static void contact_scene(int dim)
{
  const double ang = 0.6, tilt = dim == 3 ? 0.3 : 0.0, r = 0.5, len = 4.0;
  const double d[3] = {cos(ang) * cos(tilt), sin(ang) * cos(tilt), sin(tilt)};
  const double xa[3] = {1.25, 1.5, dim == 3 ? 1.75 : 0.0};
  double xb[3], xw[3] = {2.75, dim == 3 ? 2.75 : 0.5, dim == 3 ? 0.5 : 0.0}, l[3], n[3], len_l = 0.0;
  double wall_p[3] = {0, 0, 0}, wall_n[3] = {0, 0, 0}, nw[3] = {0, 0, 0}, lw[3] = {0, 0, 0};
  double cp[3], e1[3], e2[3], vol = dim == 3 ? 64.0 : 16.0, pair[9] = {0}, wall[9] = {0}, want[9], sigma[9];
  hand_forces h = {dim, 2.5, {0}, 1.75, {0}};
  moreau_sim *sim;
  MPI_Comm comm = MPI_COMM_WORLD;
  for (int k = 0; k < 3; k++)
    xb[k] = xa[k] + 2.0 * r * d[k];
  for (int k = 0; k < 3; k++) {
    l[k] = xb[k] - xa[k];
    len_l += l[k] * l[k];
  }
  len_l = sqrt(len_l);
  for (int k = 0; k < 3; k++) {
    n[k] = l[k] / len_l;
    cp[k] = xa[k] + 0.5 * l[k];
  }
  wall_n[dim - 1] = 1.0;
  nw[dim - 1] = -1.0; /* from the body to the wall */
  lw[dim - 1] = -r;
  if (dim == 2) {
    /* The tangential forces along n turned by +90 degrees: f_t = 0.8, and
     * -0.6 on the wall (t = (1, 0) there). */
    const double tp[3] = {-n[1], n[0], 0.0};
    for (int k = 0; k < 3; k++) {
      h.t_pair[k] = 0.8 * tp[k];
      h.t_wall[k] = k == 0 ? -0.6 : 0.0;
    }
    h.t_pair[2] = 0.8; /* the frame component set_forces reads in 2D */
    h.t_wall[2] = -0.6;
  } else {
    /* e1, e2: an orthonormal basis of the plane normal to n. */
    double e1n = hypot(n[0], n[1]);
    e1[0] = -n[1] / e1n, e1[1] = n[0] / e1n, e1[2] = 0.0;
    e2[0] = n[1] * e1[2] - n[2] * e1[1], e2[1] = n[2] * e1[0] - n[0] * e1[2], e2[2] = n[0] * e1[1] - n[1] * e1[0];
    for (int k = 0; k < 3; k++)
      h.t_pair[k] = 0.7 * e1[k] - 0.4 * e2[k];
    h.t_wall[0] = 0.3, h.t_wall[1] = -0.5, h.t_wall[2] = 0.0;
  }
  {
    /* Expected terms, the 2D frame component aside. */
    double tp[3] = {h.t_pair[0], h.t_pair[1], dim == 3 ? h.t_pair[2] : 0.0};
    double tw[3] = {h.t_wall[0], h.t_wall[1], dim == 3 ? h.t_wall[2] : 0.0};
    add_term(pair, h.fn_pair, n, tp, l, 1.0);
    add_term(wall, h.fn_wall, nw, tw, lw, 1.0);
  }
  PAR_TRY(comm, shear_sim_create(comm, dim, len, 0, 0, 0.0, 1e-3, 0.5, 0.0, &sim));
  moreau_sim_set_alert(sim, 0.1);
  PAR_TRY(comm, moreau_walls_add(moreau_sim_walls(sim), wall_p, wall_n, MOREAU_WALL_FIXED, NULL, 0.0, 0.0, 0, NULL));
  if (par_rank(comm) == 0) {
    PAR_TRY(MPI_COMM_SELF, tt_add_body(sim, 0, xa[0], xa[1], xa[2], r, 0));
    PAR_TRY(MPI_COMM_SELF, tt_add_body(sim, 1, xb[0], xb[1], xb[2], r, 0));
    PAR_TRY(MPI_COMM_SELF, tt_add_body(sim, 2, xw[0], xw[1], xw[2], r, 0));
  }
  PAR_TRY(comm, tt_step_and_force(sim, set_forces, &h));
  {
    /* The scene is what the test means: the pair (a = body 0) and the wall
     * contact of body 2, nothing else. */
    par_contact *all;
    int64_t n_all;
    par_gather_contacts(comm, moreau_sim_bodies(sim), moreau_sim_contacts(sim), &all, &n_all);
    ck_assert_int_eq(n_all, 2);
    ck_assert_msg(all[0].gid_a == 2 || all[1].gid_a == 2, "no contact of body 2 with the wall");
    ck_assert_msg((all[0].gid_a == 0 && all[0].gid_b == 1) || (all[1].gid_a == 0 && all[1].gid_b == 1),
                  "no contact from body 0 to body 1");
    free(all);
  }
  {
    /* The whole box: both contacts. */
    const double lo[3] = {0, 0, 0}, hi[3] = {len, len, dim == 3 ? len : 0.0};
    for (int k = 0; k < 9; k++)
      want[k] = (pair[k] + wall[k]) / vol;
    region_stress(sim, lo, hi, sigma);
    check_sigma(sigma, want, "whole box");
  }
  {
    /* Around the pair's contact point, neither centre inside. */
    double lo[3], hi[3], v = 1.0;
    for (int k = 0; k < 3; k++) {
      lo[k] = cp[k] - 0.1 * (k + 1);
      hi[k] = cp[k] + 0.1 * (k + 1);
      if (k < dim) v *= hi[k] - lo[k];
    }
    for (int k = 0; k < 9; k++)
      want[k] = pair[k] / v;
    region_stress(sim, lo, hi, sigma);
    check_sigma(sigma, want, "around the pair's contact point");
  }
  {
    /* Body 2's centre without its contact point (on the wall): the wall
     * contact is placed by its body. */
    double lo[3], hi[3], v = 1.0;
    for (int k = 0; k < 3; k++) {
      lo[k] = xw[k] - 0.25;
      hi[k] = xw[k] + 0.25;
      if (k < dim) v *= 0.5;
    }
    for (int k = 0; k < 9; k++)
      want[k] = wall[k] / v;
    region_stress(sim, lo, hi, sigma);
    check_sigma(sigma, want, "around body 2");
    /* Its contact point without its centre: nothing. */
    lo[dim - 1] = -0.2;
    hi[dim - 1] = 0.2;
    for (int k = 0; k < 9; k++)
      want[k] = 0.0;
    region_stress(sim, lo, hi, sigma);
    check_sigma(sigma, want, "around the wall contact point");
  }
  PAR_TRY(comm, moreau_sim_destroy(&sim));
}

START_TEST(hand_contacts_2d) { contact_scene(2); }
END_TEST

START_TEST(hand_contacts_3d) { contact_scene(3); }
END_TEST

/* Two free bodies in a Lees-Edwards box [0, 4]^dim (flow x, gradient y, rate
 * 0.5, centre 2): each moves at the stream velocity rate (y - 2) along x
 * plus u given by hand; after one step the kinetic stress is
 * sum m u u / V with u = v - rate (y - 2) e_x at the body's new position. */
static void kinetic_scene(int dim)
{
  const double len = 4.0, rate = 0.5, rad = 0.3;
  const double x0[2][3] = {{1.0, 3.0, 1.5}, {3.0, 1.0, 2.5}};
  const double u0[2][3] = {{0.3, -0.2, 0.25}, {-0.1, 0.4, -0.35}};
  double want_all[9] = {0}, want_one[9] = {0}, sigma[9], vol = dim == 3 ? 64.0 : 16.0;
  moreau_sim *sim;
  MPI_Comm comm = MPI_COMM_WORLD;
  PAR_TRY(comm, shear_sim_create(comm, dim, len, 1, 1, rate, 1e-3, 0.5, 0.0, &sim));
  moreau_sim_set_alert(sim, 0.1);
  if (par_rank(comm) == 0)
    for (int i = 0; i < 2; i++) {
      double x[3] = {x0[i][0], x0[i][1], dim == 3 ? x0[i][2] : 0.0};
      double v[3] = {rate * (x[1] - 2.0) + u0[i][0], u0[i][1], dim == 3 ? u0[i][2] : 0.0};
      PAR_TRY(MPI_COMM_SELF, scene_add_body(sim, i, x, v, rad, 1.0, 0));
    }
  PAR_TRY(comm, moreau_sim_setup(sim, 1e-9));
  PAR_TRY(comm, moreau_sim_step(sim));
  ck_assert_int_eq(par_sum(comm, (double)moreau_sim_contacts(sim)->n), 0);
  for (int i = 0; i < 2; i++) {
    moreau_body body;
    double u[3], m;
    ck_assert_int_eq(par_get_body(moreau_sim_bodies(sim), i, &body), 1);
    /* One step of free flight moved the body but kept its velocity. */
    ck_assert_msg(body.x[1] != x0[i][1] && body.v[0] == rate * (x0[i][1] - 2.0) + u0[i][0],
                  "body %d did not fly freely", i);
    m = 1.0 / body.inv_mass;
    ck_assert_double_eq_tol(m, dim == 3 ? 4.0 / 3.0 * M_PI * rad * rad * rad : M_PI * rad * rad, 1e-15);
    u[0] = body.v[0] - rate * (body.x[1] - 2.0);
    u[1] = body.v[1];
    u[2] = body.v[2];
    for (int p = 0; p < 3; p++)
      for (int q = 0; q < 3; q++) {
        want_all[3 * p + q] += m * u[p] * u[q] / vol;
        if (i == 0) want_one[3 * p + q] += m * u[p] * u[q] / (dim == 3 ? 8.0 : 4.0);
      }
  }
  {
    const double lo[3] = {0, 0, 0}, hi[3] = {len, len, dim == 3 ? len : 0.0};
    const double lo1[3] = {0, 2, 0}, hi1[3] = {2, 4, 2};
    region_stress(sim, lo, hi, sigma);
    check_sigma(sigma, want_all, "kinetic, whole box");
    region_stress(sim, lo1, hi1, sigma);
    check_sigma(sigma, want_one, "kinetic, the region of body 0");
  }
  PAR_TRY(comm, moreau_sim_destroy(&sim));
}

START_TEST(hand_kinetic_2d) { kinetic_scene(2); }
END_TEST

START_TEST(hand_kinetic_3d) { kinetic_scene(3); }
END_TEST

TCase *st_hand_case(void)
{
  TCase *tc = tcase_create("hand");
  tcase_add_test(tc, hand_contacts_2d);
  tcase_add_test(tc, hand_contacts_3d);
  tcase_add_test(tc, hand_kinetic_2d);
  tcase_add_test(tc, hand_kinetic_3d);
  return tc;
}

/* Invariants of hand tensors. */
static void check_invariants(int dim, const double s[9], double p, double q, double angle, const char *what)
{
  double gp, gq, ga;
  moreau_stress_invariants(dim, s, &gp, &gq, &ga);
  ck_assert_msg(fabs(gp - p) <= 1e-14 * fabs(p) && fabs(gq - q) <= 1e-14 * fabs(q) + 1e-14 * fabs(p) &&
                    fabs(ga - angle) <= 1e-12,
                "%s: p %.17g q %.17g angle %.17g, expected %.17g %.17g %.17g", what, gp, gq, ga, p, q, angle);
}

START_TEST(invariants_2d)
{
  /* [[3, 1], [1, 1]]: eigenvalues 2 +- sqrt 2, major direction
   * (1 + sqrt 2, 1), at 22.5 degrees. */
  const double a[9] = {3, 1, 0, 1, 1, 0, 0, 0, 0};
  check_invariants(2, a, 2.0, sqrt(2.0), 22.5, "[[3,1],[1,1]]");
  /* diag(5, 1) turned by theta: R diag R^T; p 3, q 2, angle theta. */
  const double thetas[] = {30.0, -60.0, 89.0, 90.0, 0.0};
  for (size_t i = 0; i < sizeof(thetas) / sizeof(thetas[0]); i++) {
    double th = thetas[i] * M_PI / 180.0, c = cos(th), s = sin(th);
    double r[9] = {5 * c * c + s * s, 4 * c * s, 0, 4 * c * s, 5 * s * s + c * c, 0, 0, 0, 7.0};
    char what[64];
    snprintf(what, sizeof(what), "diag(5, 1) turned by %g degrees", thetas[i]);
    /* 7 in szz: a 2D tensor's z row is not read. */
    check_invariants(2, r, 3.0, 2.0, thetas[i], what);
  }
  /* Pure shear [[0, t], [t, 0]]: p 0, q |t|, angle 45 (t > 0) or -45. */
  const double sh[9] = {0, 2, 0, 2, 0, 0, 0, 0, 0}, shn[9] = {0, -2, 0, -2, 0, 0, 0, 0, 0};
  check_invariants(2, sh, 0.0, 2.0, 45.0, "pure shear +");
  check_invariants(2, shn, 0.0, 2.0, -45.0, "pure shear -");
  /* Isotropic: q = 0. */
  const double iso[9] = {4, 0, 0, 0, 4, 0, 0, 0, 0};
  check_invariants(2, iso, 4.0, 0.0, 0.0, "isotropic");
}
END_TEST

START_TEST(invariants_3d)
{
  /* Triaxial diag(5, 2, 2): p 3, q = s1 - s3 = 3; major direction x. */
  const double tri[9] = {5, 0, 0, 0, 2, 0, 0, 0, 2};
  check_invariants(3, tri, 3.0, 3.0, 0.0, "diag(5, 2, 2)");
  /* Extension diag(2, 5, 5): q = 3 too, the xy major direction is y. */
  const double ext[9] = {2, 0, 0, 0, 5, 0, 0, 0, 5};
  check_invariants(3, ext, 4.0, 3.0, 90.0, "diag(2, 5, 5)");
  /* Pressure plus pure shear in xy: p 4, J2 = t^2, q = sqrt 3 t. */
  const double sh[9] = {4, 1.5, 0, 1.5, 4, 0, 0, 0, 4};
  check_invariants(3, sh, 4.0, sqrt(3.0) * 1.5, 45.0, "p + shear xy");
  /* Shear in yz only: q = sqrt 3 t, the xy block isotropic. */
  const double yz[9] = {1, 0, 0, 0, 1, 2, 0, 2, 1};
  check_invariants(3, yz, 1.0, 2.0 * sqrt(3.0), 0.0, "shear yz");
  /* Principal stresses 6, 3, 0: von Mises sqrt(((6-3)^2 + 3^2 + 6^2)/2) = sqrt 27. */
  const double gen[9] = {6, 0, 0, 0, 3, 0, 0, 0, 0};
  check_invariants(3, gen, 3.0, sqrt(27.0), 0.0, "diag(6, 3, 0)");
}
END_TEST

TCase *st_invariants_case(void)
{
  TCase *tc = tcase_create("invariants");
  tcase_add_test(tc, invariants_2d);
  tcase_add_test(tc, invariants_3d);
  return tc;
}
