/* Rigid clusters of spheres in 3D against closed forms, on 1, 2 and 4 ranks:
 * - a clump resting on a floor on two of its spheres carries its weight by
 *   the lever rule about its centre of mass;
 * - a turned asymmetric clump hitting the floor with one sphere takes the
 *   impulse of a rigid body with a full inertia tensor at that lever arm,
 *   without and with (sticking) friction;
 * - a free asymmetric clump spun about no principal axis keeps its
 *   angular momentum and its energy to round-off (also over 1e5 steps),
 *   its orientation converging at second order in dt.
 * The inertia tensors here are built from the shape's principal moments and
 * the body's quaternion by this file's own rotation matrix. */
#include <check.h>
#include <math.h>
#include <mpi.h>
#include <stdlib.h>

#include "clusters_scene.h"

#define G 9.81
#define DT 1e-3

/* The asymmetric clump: three spheres of different radii, not collinear. */
static const double clump_offsets[9] = {0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.2, 0.8, 0.3};
static const double clump_radii[3] = {0.6, 0.5, 0.4};

static void rotation(const double q[4], double R[3][3])
{
  const double w = q[0], x = q[1], y = q[2], z = q[3];
  R[0][0] = 1 - 2 * (y * y + z * z);
  R[0][1] = 2 * (x * y - w * z);
  R[0][2] = 2 * (x * z + w * y);
  R[1][0] = 2 * (x * y + w * z);
  R[1][1] = 1 - 2 * (x * x + z * z);
  R[1][2] = 2 * (y * z - w * x);
  R[2][0] = 2 * (x * z - w * y);
  R[2][1] = 2 * (y * z + w * x);
  R[2][2] = 1 - 2 * (x * x + y * y);
}

/* The world inertia tensor (power 1) or its inverse (power -1) of a body of
 * shape 0 of t with mass 1 / inv_mass, scale r and orientation q. */
static void world_tensor(const moreau_shapes *t, double inv_mass, double r, const double q[4], int power,
                         double M[3][3])
{
  double R[3][3], d[3];
  rotation(q, R);
  for (int k = 0; k < 3; k++) {
    double I = t->principal[k] / t->measure[0] * r * r / inv_mass;
    d[k] = power > 0 ? I : 1.0 / I;
  }
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      M[i][j] = R[i][0] * d[0] * R[j][0] + R[i][1] * d[1] * R[j][1] + R[i][2] * d[2] * R[j][2];
}

static void mat_vec(double M[3][3], const double x[3], double y[3])
{
  for (int i = 0; i < 3; i++)
    y[i] = M[i][0] * x[0] + M[i][1] * x[1] + M[i][2] * x[2];
}

static void cross(const double a[3], const double b[3], double c[3])
{
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

static double norm3(const double a[3]) { return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

static moreau_err clump_table(const double *offsets, const double *radii, moreau_shapes **shapes, double *bound)
{
  moreau_lid s;
  MOREAU_CALL(moreau_shapes_create(3, shapes));
  MOREAU_CALL(moreau_shapes_add_unit(*shapes, 3, offsets, radii, &s, bound));
  return MOREAU_SUCCESS;
}

/* The lever rule in 3D: spheres at x = -1 and 2 (radius 0.5) on the floor
 * z = 0, a third (-0.6, 0, 0.9) of radius 0.7 above; all centres in the
 * plane y = 0, so the clump does not tip. The body is placed with the
 * shape's principal rotation, so that its spheres are where they were
 * given. Normal forces R1 = m g (x2 - xc) / (x2 - x1), R2 = m g (xc - x1) /
 * (x2 - x1); the friction forces must cancel (they are not determinate). */
START_TEST(test_lever_rule3d)
{
  const double offsets[9] = {-1.0, 0.0, 0.0, 2.0, 0.0, 0.0, -0.6, 0.0, 0.9}, radii[3] = {0.5, 0.5, 0.7};
  const double g[3] = {0, 0, -G}, zero[3] = {0, 0, 0}, origin[3] = {0, 0, 0}, up[3] = {0, 0, 1};
  moreau_shapes *shapes = NULL;
  moreau_sim *sim = NULL;
  double bound, worst_f = 0.0, worst_t = 0.0, worst_v = 0.0, q[4];
  PAR_TRY(MPI_COMM_WORLD, clump_table(offsets, radii, &shapes, &bound));
  const double xc = shapes->centroid[0] * bound, yc = shapes->centroid[1] * bound, zc = shapes->centroid[2] * bound;
  memcpy(q, shapes->q, sizeof(q));
  PAR_TRY(MPI_COMM_WORLD, clusters_sim_create_dim(MPI_COMM_WORLD, 3, 0.5, DT, g, &shapes, &sim));
  const double x[3] = {xc, yc, 0.5 + zc};
  PAR_TRY(MPI_COMM_WORLD, clusters_add3d(sim, 0, 1, bound, x, q, zero, zero));
  PAR_TRY(MPI_COMM_WORLD,
          moreau_walls_add(moreau_sim_walls(sim), origin, up, MOREAU_WALL_FIXED, NULL, 0.0, 0.0, 0, NULL));
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_setup(sim, 1e-9));
  const double x1 = -1.0, x2 = 2.0;
  for (int step = 1; step <= 50; step++) {
    PAR_TRY(MPI_COMM_WORLD, moreau_sim_step(sim));
    moreau_body b = clusters_body(sim, 0);
    double mg = G / b.inv_mass, f1[3], f2[3], f3[3];
    double R1 = mg * (x2 - xc) / (x2 - x1), R2 = mg * (xc - x1) / (x2 - x1);
    ck_assert_msg(clusters_contact_force(sim, 0, MOREAU_WALL_GID(0), 0 << 16, f1) == 1, "sphere 0 not on the floor");
    ck_assert_msg(clusters_contact_force(sim, 0, MOREAU_WALL_GID(0), 1 << 16, f2) == 1, "sphere 1 not on the floor");
    ck_assert_msg(clusters_contact_force(sim, 0, MOREAU_WALL_GID(0), 2 << 16, f3) == 0, "sphere 2 touches the floor");
    /* Both floor contacts have the same frame (the floor's normal). */
    worst_f = fmax(worst_f, (fabs(f1[0] - R1) + fabs(f2[0] - R2)) / mg);
    worst_t = fmax(worst_t, (fabs(f1[1] + f2[1]) + fabs(f1[2] + f2[2])) / mg);
    worst_v = fmax(worst_v, (norm3(b.v) + norm3(b.w) * bound) / (G * DT));
  }
  if (par_rank(MPI_COMM_WORLD) == 0)
    printf("3D lever rule: centre of mass at x = %.6f; normal forces off by %.2g m g, net friction %.2g m g, motion "
           "%.2g g dt\n",
           xc, worst_f, worst_t, worst_v);
  ck_assert_msg(fabs(xc - 0.5) > 0.2, "the shape should put the centre of mass off the middle (%g)", xc);
  ck_assert_msg(worst_f < 1e-9, "the normal forces deviate from the lever rule by %g m g", worst_f);
  ck_assert_msg(worst_t < 1e-9, "a net friction force of %g m g on a body at rest", worst_t);
  ck_assert_msg(worst_v < 1e-9, "the body moves (%g g dt)", worst_v);
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}
END_TEST

/* The asymmetric clump turned by q0, at rest in rotation, falling at v onto
 * the floor z = 0 with its lowest sphere touching at t = 0; no gravity, no
 * restitution. At the midpoint (x + v dt/2, same orientation) the contact
 * point is the middle of the overlap and ca the lever arm from the centre of
 * mass. The floor's velocity relative to the body's point changes by K P
 * for an impulse P on the floor, K = I/m - [ca x] I^-1 [ca x]. Frictionless:
 * P = -(u.n / n.K n) n; sticking: P = -K^-1 u (within the cone). Then
 * v+ = v - P / m and the angular momentum about the centre of mass is
 * L = -ca x P, whatever the body turns after. */
static void check_impact3d(double mu)
{
  const double g[3] = {0, 0, 0}, origin[3] = {0, 0, 0}, up[3] = {0, 0, 1}, v[3] = {0.3, -0.2, -1.0},
               zero[3] = {0, 0, 0};
  double q0[4] = {0.9, 0.3, -0.2, 0.25}, x[3] = {0, 0, 0}, lowest = HUGE_VAL, second = HUGE_VAL, bound;
  int low = -1;
  moreau_shapes *shapes = NULL;
  moreau_sim *sim = NULL;
  double len = sqrt(q0[0] * q0[0] + q0[1] * q0[1] + q0[2] * q0[2] + q0[3] * q0[3]);
  for (int k = 0; k < 4; k++)
    q0[k] /= len;
  PAR_TRY(MPI_COMM_WORLD, clump_table(clump_offsets, clump_radii, &shapes, &bound));
  for (int c = 0; c < 3; c++) {
    double y[3], r;
    moreau_shape_contactor(shapes, c, x, q0, bound, y, &r);
    if (y[2] - r < lowest) {
      second = lowest;
      lowest = y[2] - r;
      low = c;
    } else if (y[2] - r < second) {
      second = y[2] - r;
    }
  }
  x[2] = -lowest;
  ck_assert_msg(second - lowest > 0.2 * bound, "only one sphere should be near the floor (%g)", second - lowest);
  double xm[3] = {x[0] + 0.5 * DT * v[0], x[1] + 0.5 * DT * v[1], x[2] + 0.5 * DT * v[2]}, ym[3], rc;
  moreau_shape_contactor(shapes, low, xm, q0, bound, ym, &rc);
  const double n[3] = {0, 0, -1}, gap = ym[2] - rc;
  double ca[3];
  for (int k = 0; k < 3; k++)
    ca[k] = ym[k] + (rc + 0.5 * gap) * n[k] - xm[k];
  /* The shape's moments outlive the table handed to the sim: copy them. */
  moreau_shapes *moments = NULL;
  PAR_TRY(MPI_COMM_WORLD, clump_table(clump_offsets, clump_radii, &moments, &bound));
  PAR_TRY(MPI_COMM_WORLD, clusters_sim_create_dim(MPI_COMM_WORLD, 3, mu, DT, g, &shapes, &sim));
  PAR_TRY(MPI_COMM_WORLD, clusters_add3d(sim, 0, 1, bound, x, q0, v, zero));
  PAR_TRY(MPI_COMM_WORLD,
          moreau_walls_add(moreau_sim_walls(sim), origin, up, MOREAU_WALL_FIXED, NULL, 0.0, 0.0, 0, NULL));
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_setup(sim, 1e-9));
  moreau_body b0 = clusters_body(sim, 0);
  const double im = b0.inv_mass;
  double Iinv[3][3], K[3][3], u[3] = {-v[0], -v[1], -v[2]}, P[3];
  world_tensor(moments, im, bound, q0, -1, Iinv);
  for (int j = 0; j < 3; j++) {
    double e[3] = {j == 0, j == 1, j == 2}, cxe[3], Icxe[3], col[3];
    cross(ca, e, cxe);
    mat_vec(Iinv, cxe, Icxe);
    cross(Icxe, ca, col); /* -(ca x I^-1 (ca x e)) */
    for (int i = 0; i < 3; i++)
      K[i][j] = im * e[i] + col[i];
  }
  if (mu == 0.0) {
    double Kn[3], un = u[0] * n[0] + u[1] * n[1] + u[2] * n[2];
    mat_vec(K, n, Kn);
    double Pn = -un / (n[0] * Kn[0] + n[1] * Kn[1] + n[2] * Kn[2]);
    for (int k = 0; k < 3; k++)
      P[k] = Pn * n[k];
  } else {
    /* P = -K^-1 u by Cramer's rule. */
    double det = K[0][0] * (K[1][1] * K[2][2] - K[1][2] * K[2][1]) - K[0][1] * (K[1][0] * K[2][2] - K[1][2] * K[2][0]) +
                 K[0][2] * (K[1][0] * K[2][1] - K[1][1] * K[2][0]);
    for (int c = 0; c < 3; c++) {
      double M[3][3];
      memcpy(M, K, sizeof(M));
      for (int i = 0; i < 3; i++)
        M[i][c] = -u[i];
      P[c] = (M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) - M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
              M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0])) /
             det;
    }
    double Pn = P[0] * n[0] + P[1] * n[1] + P[2] * n[2], Pt[3] = {P[0] - Pn * n[0], P[1] - Pn * n[1], P[2] - Pn * n[2]};
    ck_assert_msg(norm3(Pt) < mu * Pn, "the scene should stick: |P_t| %g, mu P_n %g", norm3(Pt), mu * Pn);
  }
  double v_after[3], L_after[3];
  for (int k = 0; k < 3; k++)
    v_after[k] = v[k] - im * P[k];
  cross(P, ca, L_after); /* -ca x P */

  PAR_TRY(MPI_COMM_WORLD, moreau_sim_step(sim));
  moreau_body b = clusters_body(sim, 0);
  double I_end[3][3], L[3], f[3];
  world_tensor(moments, im, bound, b.q, 1, I_end);
  mat_vec(I_end, b.w, L);
  ck_assert_msg(clusters_contact_count(sim) == 1, "expected one contact (sphere %d), found %lld", low,
                (long long)clusters_contact_count(sim));
  ck_assert_int_eq(clusters_contact_force(sim, 0, MOREAU_WALL_GID(0), (int32_t)low << 16, f), 1);
  double err_v = 0.0, err_L = 0.0;
  for (int k = 0; k < 3; k++) {
    err_v += fabs(b.v[k] - v_after[k]);
    err_L += fabs(L[k] - L_after[k]);
  }
  double Pnorm = norm3(P), Lscale = Pnorm * norm3(ca);
  if (par_rank(MPI_COMM_WORLD) == 0)
    printf("3D impact, mu %g: sphere %d, lever arm (%.4f, %.4f, %.4f), |P| %.6f; errors: velocity %.2g, angular "
           "momentum %.2g (of |ca| |P|), normal impulse %.2g\n",
           mu, low, ca[0], ca[1], ca[2], Pnorm, err_v, err_L / Lscale, fabs(f[0] * DT - (-P[2])) / Pnorm);
  ck_assert_msg(hypot(ca[0], ca[1]) > 0.1 * bound, "the contact should be off the line of the centre of mass");
  ck_assert_msg(err_v < 1e-12 * norm3(v), "velocity after the impact deviates by %g", err_v);
  ck_assert_msg(err_L < 1e-10 * Lscale, "angular momentum after the impact deviates by %g of |ca| |P|", err_L / Lscale);
  ck_assert_msg(fabs(f[0] * DT + P[2]) < 1e-12 * Pnorm, "the normal impulse %g differs from %g", f[0] * DT, -P[2]);
  PAR_TRY(MPI_COMM_WORLD, moments ? moreau_shapes_destroy(&moments) : MOREAU_SUCCESS);
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}

START_TEST(test_impact3d_frictionless) { check_impact3d(0.0); }
END_TEST

START_TEST(test_impact3d_sticking) { check_impact3d(10.0); }
END_TEST

/* The free asymmetric clump (three distinct principal moments) spun with w0
 * about no principal axis to t = 1 at dt: returns the largest relative
 * change of the angular momentum (the test's own I(q) w) and the relative
 * change of the energy at the end, and the final orientation. */
static void free_spin(double dt, int steps, double *dL, double *dE, double q_end[4])
{
  const double g[3] = {0, 0, 0}, x[3] = {0, 0, 0}, v[3] = {0.1, 0, 0}, w0[3] = {3.0, -2.0, 5.0};
  double q0[4] = {1, 0, 0, 0}, bound, L0[3], E0 = 0.0, I[3][3];
  moreau_shapes *shapes = NULL, *moments = NULL;
  moreau_sim *sim = NULL;
  PAR_TRY(MPI_COMM_WORLD, clump_table(clump_offsets, clump_radii, &shapes, &bound));
  PAR_TRY(MPI_COMM_WORLD, clump_table(clump_offsets, clump_radii, &moments, &bound));
  PAR_TRY(MPI_COMM_WORLD, clusters_sim_create_dim(MPI_COMM_WORLD, 3, 0.5, dt, g, &shapes, &sim));
  PAR_TRY(MPI_COMM_WORLD, clusters_add3d(sim, 0, 1, bound, x, q0, v, w0));
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_setup(sim, 1e-9));
  moreau_body b = clusters_body(sim, 0);
  world_tensor(moments, b.inv_mass, bound, b.q, 1, I);
  mat_vec(I, b.w, L0);
  for (int k = 0; k < 3; k++)
    E0 += 0.5 * b.w[k] * L0[k];
  *dL = 0.0;
  for (int step = 1; step <= steps; step++) {
    double L[3];
    PAR_TRY(MPI_COMM_WORLD, moreau_sim_step(sim));
    b = clusters_body(sim, 0);
    world_tensor(moments, b.inv_mass, bound, b.q, 1, I);
    mat_vec(I, b.w, L);
    double d[3] = {L[0] - L0[0], L[1] - L0[1], L[2] - L0[2]};
    *dL = fmax(*dL, norm3(d) / norm3(L0));
  }
  double L[3], E = 0.0;
  mat_vec(I, b.w, L);
  for (int k = 0; k < 3; k++)
    E += 0.5 * b.w[k] * L[k];
  *dE = fabs(E - E0) / E0;
  memcpy(q_end, b.q, 4 * sizeof(double));
  PAR_TRY(MPI_COMM_WORLD, moreau_shapes_destroy(&moments));
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}

/* Angle between two orientations. */
static double angle_between(const double a[4], const double b[4])
{
  double d = fabs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
  return 2.0 * acos(fmin(1.0, d));
}

/* The torque-free top: L and the energy are kept to round-off at every step
 * (they drift by a few 1e-16 per step: below 1e-12 over the 1000 steps);
 * the orientation's distance to the next finer run falls by about four
 * when dt halves (second order). */
START_TEST(test_free_spin3d)
{
  double dL[3], dE[3], q[3][4];
  const double dts[3] = {4e-3, 2e-3, 1e-3};
  for (int k = 0; k < 3; k++)
    free_spin(dts[k], (int)lround(1.0 / dts[k]), &dL[k], &dE[k], q[k]);
  double a01 = angle_between(q[0], q[1]), a12 = angle_between(q[1], q[2]);
  if (par_rank(MPI_COMM_WORLD) == 0)
    printf("3D free spin to t = 1: dt %g, %g, %g: |dL|/|L| %.2g, %.2g, %.2g; |dE|/E %.3g, %.3g, %.3g (ratios %.2f, "
           "%.2f); orientation gaps %.3g, %.3g rad (ratio %.2f)\n",
           dts[0], dts[1], dts[2], dL[0], dL[1], dL[2], dE[0], dE[1], dE[2], dE[0] / dE[1], dE[1] / dE[2], a01, a12,
           a01 / a12);
  for (int k = 0; k < 3; k++)
    ck_assert_msg(dL[k] < 1e-12, "dt %g: the angular momentum changes by %g of itself", dts[k], dL[k]);
  for (int k = 0; k < 3; k++)
    ck_assert_msg(dE[k] < 1e-12, "dt %g: the energy changes by %g of itself", dts[k], dE[k]);
  ck_assert_msg(a01 / a12 > 3.0 && a01 / a12 < 5.0, "the orientation does not converge at second order (%g, %g)", a01,
                a12);
}
END_TEST

/* The same top over 1e5 steps (t = 100 at dt 1e-3, about 3000 turns of its
 * fastest axis): L and the energy stay within accumulated round-off. */
START_TEST(test_free_spin3d_long)
{
  double dL, dE, q[4];
  free_spin(1e-3, 100000, &dL, &dE, q);
  if (par_rank(MPI_COMM_WORLD) == 0)
    printf("3D free spin over 1e5 steps (dt 1e-3): |dL|/|L| %.2g, |dE|/E %.2g\n", dL, dE);
  ck_assert_msg(dL < 1e-10, "the angular momentum changes by %g of itself over 1e5 steps", dL);
  ck_assert_msg(dE < 1e-10, "the energy changes by %g of itself over 1e5 steps", dE);
}
END_TEST

int main(int argc, char **argv)
{
  int status;
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("rigid clusters 3D");
  TCase *tc = tcase_create("closed_forms"), *long_run = tcase_create("long_spin");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_lever_rule3d);
  tcase_add_test(tc, test_impact3d_frictionless);
  tcase_add_test(tc, test_impact3d_sticking);
  tcase_add_test(tc, test_free_spin3d);
  suite_add_tcase(s, tc);
  tcase_set_timeout(long_run, 600);
  tcase_add_test(long_run, test_free_spin3d_long);
  suite_add_tcase(s, long_run);
  status = par_run_suite(MPI_COMM_WORLD, s, argc > 1 ? argv[1] : NULL);
  MPI_Finalize();
  return status;
}
