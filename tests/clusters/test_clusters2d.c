/* Rigid clusters in 2D against closed forms, on 1, 2 and 4 ranks (the
 * scenes are built on rank 0 and distributed by setup):
 * - a cluster resting on a floor on two of its disks carries its weight
 *   by the lever rule about its centre of mass (statically determinate);
 * - a turned trimer hitting the floor with one disk off the line of its
 *   centre of mass takes the impulse of a rigid body at a lever arm, without
 *   and with (sticking) friction;
 * - a free spinning trimer keeps its velocity, spin and energy, and its
 *   orientation is the angle w t. */
#include <check.h>
#include <math.h>
#include <mpi.h>
#include <stdlib.h>

#include "clusters_scene.h"

#define G 9.81
#define DT 1e-3

/* A table holding seed 003's trimer of nonconvexity eta as shape 1. */
static moreau_err trimer_table(double eta, moreau_shapes **shapes, double *bound)
{
  double offsets[9], radii[3];
  moreau_lid s;
  MOREAU_CALL(moreau_shape_trimer(eta, 1.0, offsets, radii));
  MOREAU_CALL(moreau_shapes_create(2, shapes));
  MOREAU_CALL(moreau_shapes_add_unit(*shapes, 3, offsets, radii, &s, bound));
  return MOREAU_SUCCESS;
}

/* The lever rule: disks at x = -1 and 2 (radius 0.5) touch the floor; a
 * third disk (-0.6, 0.9) of radius 0.7 moves the centre of mass off the
 * middle. Normal forces R1 = m g (x2 - xc) / (x2 - x1), R2 = m g (xc - x1) /
 * (x2 - x1) at every step, no motion. The friction forces are not
 * determinate (any equal and opposite pair within the cones is a solution):
 * they must cancel and stay within their cones. */
START_TEST(test_lever_rule)
{
  const double offsets[9] = {-1.0, 0.0, 0.0, 2.0, 0.0, 0.0, -0.6, 0.9, 0.0}, radii[3] = {0.5, 0.5, 0.7};
  const double g[3] = {0, -G, 0}, zero[3] = {0, 0, 0}, origin[3] = {0, 0, 0}, up[3] = {0, 1, 0};
  moreau_shapes *shapes = NULL;
  moreau_sim *sim = NULL;
  moreau_lid s;
  double bound, worst_f = 0.0, worst_t = 0.0, worst_v = 0.0;
  PAR_TRY(MPI_COMM_WORLD, moreau_shapes_create(2, &shapes));
  PAR_TRY(MPI_COMM_WORLD, moreau_shapes_add_unit(shapes, 3, offsets, radii, &s, &bound));
  /* The centre of mass in the frame of the offsets, before the table moves
   * it to the origin and scales it. */
  const double xc = shapes->centroid[0] * bound, yc = shapes->centroid[1] * bound;
  PAR_TRY(MPI_COMM_WORLD, clusters_sim_create(MPI_COMM_WORLD, 0.5, DT, g, &shapes, &sim));
  const double x[3] = {xc, 0.5 + yc, 0};
  PAR_TRY(MPI_COMM_WORLD, clusters_add(sim, 0, (int32_t)s + 1, bound, x, 0.0, zero, 0.0));
  PAR_TRY(MPI_COMM_WORLD,
          moreau_walls_add(moreau_sim_walls(sim), origin, up, MOREAU_WALL_FIXED, NULL, 0.0, 0.0, 0, NULL));
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_setup(sim, 1e-9));
  const double x1 = -1.0, x2 = 2.0;
  for (int step = 1; step <= 50; step++) {
    PAR_TRY(MPI_COMM_WORLD, moreau_sim_step(sim));
    moreau_body b = clusters_body(sim, 0);
    double mg = G / b.inv_mass, f1[3], f2[3], f3[3];
    double R1 = mg * (x2 - xc) / (x2 - x1), R2 = mg * (xc - x1) / (x2 - x1);
    ck_assert_msg(clusters_contact_force(sim, 0, MOREAU_WALL_GID(0), 0 << 16, f1) == 1, "disk 0 not on the floor");
    ck_assert_msg(clusters_contact_force(sim, 0, MOREAU_WALL_GID(0), 1 << 16, f2) == 1, "disk 1 not on the floor");
    ck_assert_msg(clusters_contact_force(sim, 0, MOREAU_WALL_GID(0), 2 << 16, f3) == 0, "disk 2 touches the floor");
    worst_f = fmax(worst_f, (fabs(f1[0] - R1) + fabs(f2[0] - R2)) / mg);
    worst_t = fmax(worst_t, fabs(f1[1] + f2[1]) / mg);
    ck_assert_msg(fabs(f1[1]) <= 0.5 * f1[0] * (1 + 1e-12) && fabs(f2[1]) <= 0.5 * f2[0] * (1 + 1e-12),
                  "a friction force outside its cone");
    worst_v = fmax(worst_v, (fabs(b.v[0]) + fabs(b.v[1]) + fabs(b.w[2]) * bound) / (G * DT));
  }
  if (par_rank(MPI_COMM_WORLD) == 0)
    printf(
        "lever rule: centre of mass at x = %.6f; normal forces off by %.2g m g, net friction %.2g m g, motion %.2g g "
        "dt\n",
        xc, worst_f, worst_t, worst_v);
  ck_assert_msg(fabs(xc - 0.5) > 0.2, "the shape should put the centre of mass off the middle (%g)", xc);
  ck_assert_msg(worst_f < 1e-9, "the normal forces deviate from the lever rule by %g m g", worst_f);
  ck_assert_msg(worst_t < 1e-9, "a net friction force of %g m g on a body at rest", worst_t);
  ck_assert_msg(worst_v < 1e-9, "the body moves (%g g dt)", worst_v);
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}
END_TEST

/* A trimer (eta 0.3, bounding radius 1) turned by 0.9 rad, falling at v
 * with spin w onto a floor, its lowest disk touching the floor at t = 0;
 * no gravity, no restitution. The step detects the contact at the midpoint
 * (x + v dt/2, angle + w dt/2) with the lever arm ca from the centre of mass
 * to the middle of the overlap; the impulse P solves u+ = u- + W P = 0
 * (sticking, when within the cone) or u_n+ = 0 with P_t = 0 (mu = 0), W the
 * 2x2 Delassus matrix of a rigid body at that lever arm. */
static void check_impact(double mu)
{
  const double g[3] = {0, 0, 0}, origin[3] = {0, 0, 0}, up[3] = {0, 1, 0}, v[3] = {0.2, -1.0, 0}, w = 0.5;
  const double angle = 0.9;
  double bound, q[4], x[3] = {0, 0, 0}, lowest = HUGE_VAL;
  int low = -1;
  moreau_shapes *shapes = NULL;
  moreau_sim *sim = NULL;
  PAR_TRY(MPI_COMM_WORLD, trimer_table(0.3, &shapes, &bound));
  /* Place the lowest disk on the floor. */
  clusters_angle_q(angle, q);
  for (int c = 0; c < 3; c++) {
    double y[3], r;
    moreau_shape_contactor(shapes, c, x, q, bound, y, &r);
    if (y[1] - r < lowest) {
      lowest = y[1] - r;
      low = c;
    }
  }
  x[1] = -lowest;
  /* The midpoint geometry the step sees. */
  double xm[3] = {x[0] + 0.5 * DT * v[0], x[1] + 0.5 * DT * v[1], 0}, qm[4], ym[3], rc;
  clusters_angle_q(angle + 0.5 * DT * w, qm);
  moreau_shape_contactor(shapes, low, xm, qm, bound, ym, &rc);
  double gap = ym[1] - rc, n[2] = {0, -1}, t[2] = {-n[1], n[0]};
  double p[2] = {ym[0] + (rc + 0.5 * gap) * n[0], ym[1] + (rc + 0.5 * gap) * n[1]};
  double ca[2] = {p[0] - xm[0], p[1] - xm[1]};
  double ra_n = ca[0] * n[1] - ca[1] * n[0], ra_t = ca[0] * t[1] - ca[1] * t[0];
  PAR_TRY(MPI_COMM_WORLD, clusters_sim_create(MPI_COMM_WORLD, mu, DT, g, &shapes, &sim));
  PAR_TRY(MPI_COMM_WORLD, clusters_add(sim, 0, 1, bound, x, angle, v, w));
  PAR_TRY(MPI_COMM_WORLD,
          moreau_walls_add(moreau_sim_walls(sim), origin, up, MOREAU_WALL_FIXED, NULL, 0.0, 0.0, 0, NULL));
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_setup(sim, 1e-9));
  moreau_body b0 = clusters_body(sim, 0);
  const double im = b0.inv_mass, ii = b0.inv_inertia;
  /* Relative velocity of the floor with respect to the body at the point. */
  double ua[2] = {v[0] - w * ca[1], v[1] + w * ca[0]};
  double un = -(ua[0] * n[0] + ua[1] * n[1]), ut = -(ua[0] * t[0] + ua[1] * t[1]);
  double Wnn = im + ii * ra_n * ra_n, Wtt = im + ii * ra_t * ra_t, Wnt = ii * ra_n * ra_t, Pn, Pt;
  if (mu == 0.0) {
    Pn = -un / Wnn;
    Pt = 0.0;
  } else {
    double det = Wnn * Wtt - Wnt * Wnt;
    Pn = -(Wtt * un - Wnt * ut) / det;
    Pt = -(-Wnt * un + Wnn * ut) / det;
    ck_assert_msg(fabs(Pt) < mu * Pn, "the scene should stick: |P_t| %g, mu P_n %g", fabs(Pt), mu * Pn);
  }
  double v_after[2] = {v[0] - im * (Pn * n[0] + Pt * t[0]), v[1] - im * (Pn * n[1] + Pt * t[1])};
  double w_after = w - ii * (ra_n * Pn + ra_t * Pt);

  PAR_TRY(MPI_COMM_WORLD, moreau_sim_step(sim));
  moreau_body b = clusters_body(sim, 0);
  double f[3];
  ck_assert_msg(clusters_contact_count(sim) == 1, "expected one contact (disk %d), found %lld", low,
                (long long)clusters_contact_count(sim));
  ck_assert_int_eq(clusters_contact_force(sim, 0, MOREAU_WALL_GID(0), (int32_t)low << 16, f), 1);
  double err_v = (fabs(b.v[0] - v_after[0]) + fabs(b.v[1] - v_after[1]) + fabs(b.w[2] - w_after) * bound);
  double err_p = fabs(f[0] * DT - Pn) + fabs(f[1] * DT - Pt);
  if (par_rank(MPI_COMM_WORLD) == 0)
    printf("impact, mu %g: disk %d, lever arm (%.4f, %.4f); after: v (%.6f, %.6f), w %.6f; errors: velocity %.2g, "
           "impulse %.2g\n",
           mu, low, ca[0], ca[1], b.v[0], b.v[1], b.w[2], err_v, err_p);
  ck_assert_msg(fabs(ca[0]) > 0.1, "the contact should be off the line of the centre of mass (%g)", ca[0]);
  ck_assert_msg(fabs(w_after - w) > 0.1, "the impact should change the spin (%g to %g)", w, w_after);
  ck_assert_msg(err_v < 1e-12, "velocities after the impact deviate by %g", err_v);
  ck_assert_msg(err_p < 1e-12 * fabs(Pn), "the impulse deviates by %g (P_n %g)", err_p, Pn);
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}

START_TEST(test_impact_frictionless) { check_impact(0.0); }
END_TEST

START_TEST(test_impact_sticking) { check_impact(10.0); }
END_TEST

/* A free trimer (eta 0.5) with v = (0.3, -0.2) and spin 7: after n steps x =
 * x0 + v t, the orientation is the angle w t, and v, w and the kinetic
 * energy are unchanged. Two trimers far apart check that they do not see
 * each other. */
START_TEST(test_free_spin)
{
  const double g[3] = {0, 0, 0}, v[3] = {0.3, -0.2, 0}, x0[3] = {1.0, 2.0, 0}, x1[3] = {40.0, 2.0, 0};
  const double w = 7.0;
  double bound, worst_x = 0.0, worst_q = 0.0, worst_v = 0.0;
  moreau_shapes *shapes = NULL;
  moreau_sim *sim = NULL;
  const int steps = 2000;
  PAR_TRY(MPI_COMM_WORLD, trimer_table(0.5, &shapes, &bound));
  PAR_TRY(MPI_COMM_WORLD, clusters_sim_create(MPI_COMM_WORLD, 0.5, DT, g, &shapes, &sim));
  PAR_TRY(MPI_COMM_WORLD, clusters_add(sim, 0, 1, bound, x0, 0.0, v, w));
  PAR_TRY(MPI_COMM_WORLD, clusters_add(sim, 1, 1, bound, x1, 0.0, v, -w));
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_setup(sim, 1e-9));
  double e0 = par_kinetic_energy(sim);
  for (int step = 1; step <= steps; step++) {
    PAR_TRY(MPI_COMM_WORLD, moreau_sim_step(sim));
    double tt = step * DT, q[4];
    moreau_body b = clusters_body(sim, 0);
    clusters_angle_q(w * tt, q);
    /* q and -q are the same orientation. */
    double dq = 0.0, dq_neg = 0.0;
    for (int k = 0; k < 4; k++) {
      dq += fabs(b.q[k] - q[k]);
      dq_neg += fabs(b.q[k] + q[k]);
    }
    worst_q = fmax(worst_q, fmin(dq, dq_neg));
    worst_x = fmax(worst_x, fabs(b.x[0] - x0[0] - v[0] * tt) + fabs(b.x[1] - x0[1] - v[1] * tt));
    worst_v = fmax(worst_v, fabs(b.v[0] - v[0]) + fabs(b.v[1] - v[1]) + fabs(b.w[2] - w));
  }
  double e = par_kinetic_energy(sim);
  if (par_rank(MPI_COMM_WORLD) == 0)
    printf("free spin, %d steps: position %.2g, quaternion %.2g, velocities %.2g, energy %.2g (relative)\n", steps,
           worst_x, worst_q, worst_v, fabs(e - e0) / e0);
  ck_assert_msg(clusters_contact_count(sim) == 0, "the free trimers found contacts");
  ck_assert_msg(worst_x < 1e-12, "the position deviates from x0 + v t by %g", worst_x);
  ck_assert_msg(worst_q < 1e-10, "the orientation deviates from the angle w t by %g", worst_q);
  ck_assert_msg(worst_v < 1e-14, "the velocities change by %g", worst_v);
  ck_assert_msg(fabs(e - e0) < 1e-14 * e0, "the kinetic energy changes by %g of itself", fabs(e - e0) / e0);
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}
END_TEST

/* The most negative normal velocity after the step, over the floor
 * contacts that were closed at the midpoint (gap <= 0), over every rank:
 * Signorini requires u_n+ >= 0 there (no restitution). */
static double closed_contacts_min_un(const moreau_sim *sim)
{
  const moreau_contacts *c = moreau_sim_contacts(sim);
  const moreau_bodies *b = moreau_sim_bodies(sim);
  double worst = 0.0;
  for (moreau_lid k = 0; k < c->n; k++) {
    if (c->b[k] >= 0 || c->gap[k] > 0.0) continue;
    moreau_lid i = c->a[k];
    const double *ca = &c->ca[3 * k], *n = &c->normal[3 * k], w = b->w[3 * i + 2];
    /* The floor's velocity relative to the body's point, along n (a to b). */
    double un = -((b->v[3 * i] - w * ca[1]) * n[0] + (b->v[3 * i + 1] + w * ca[0]) * n[1]);
    worst = fmin(worst, un);
  }
  return -par_max(moreau_sim_comm(sim), -worst);
}

/* A trimer (eta 0.3) thrown spinning along the floor under gravity bounces
 * and rolls on its disks: contacts far off the line of its centre of mass,
 * where the sticking solution of a contact may pull while the contact must
 * press and slide. Every closed contact must end the step with u_n >= 0 (to
 * the solver's tolerance); a local solve that opened such contacts let a disk
 * sink steadily into the floor (a quarter of its radius within a few hundred
 * steps in a pile of trimers), and overlaps must stay at the scheme's v dt / 2
 * of an impact. */
START_TEST(test_rolling_on_floor)
{
  const double g[3] = {0, -G, 0}, origin[3] = {0, 0, 0}, up[3] = {0, 1, 0}, v[3] = {1.0, 0.0, 0};
  const double dt = 2e-4, speed = 5.0; /* the largest speed of a point of the trimer: |v| + |w| R */
  double bound, worst = 0.0, worst_un = 0.0;
  moreau_shapes *shapes = NULL;
  moreau_sim *sim = NULL;
  PAR_TRY(MPI_COMM_WORLD, trimer_table(0.3, &shapes, &bound));
  const double r_c = shapes->radius[0] * 0.1, x[3] = {0, 0.1, 0};
  PAR_TRY(MPI_COMM_WORLD, clusters_sim_create(MPI_COMM_WORLD, 0.5, dt, g, &shapes, &sim));
  PAR_TRY(MPI_COMM_WORLD, clusters_add(sim, 0, 1, 0.1, x, 0.3, v, -40.0));
  PAR_TRY(MPI_COMM_WORLD,
          moreau_walls_add(moreau_sim_walls(sim), origin, up, MOREAU_WALL_FIXED, NULL, 0.0, 0.0, 0, NULL));
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_setup(sim, 1e-9));
  for (int step = 1; step <= 3000; step++) {
    PAR_TRY(MPI_COMM_WORLD, moreau_sim_step(sim));
    worst = fmax(worst, moreau_sim_stats(sim)->max_overlap);
    worst_un = fmin(worst_un, closed_contacts_min_un(sim));
  }
  moreau_body b = clusters_body(sim, 0);
  if (par_rank(MPI_COMM_WORLD) == 0)
    printf("rolling trimer: largest overlap %.3g of a disk's radius (%.3g of speed dt / 2), most negative u_n at a "
           "closed contact %.3g; travelled %.3f, spin now %.3f\n",
           worst / r_c, worst / (0.5 * speed * dt), worst_un, b.x[0], b.w[2]);
  ck_assert_msg(b.x[0] > 0.2, "the trimer should travel along the floor (x = %g)", b.x[0]);
  ck_assert_msg(worst_un > -1e-9 * speed, "a closed contact ends a step approaching at %g", worst_un);
  ck_assert_msg(worst < 0.5 * speed * dt, "an overlap of %g, beyond the %g of an impact at the largest speed", worst,
                0.5 * speed * dt);
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}
END_TEST

int main(int argc, char **argv)
{
  int status;
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("rigid clusters 2D");
  TCase *tc = tcase_create("closed forms");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_lever_rule);
  tcase_add_test(tc, test_impact_frictionless);
  tcase_add_test(tc, test_impact_sticking);
  tcase_add_test(tc, test_free_spin);
  tcase_add_test(tc, test_rolling_on_floor);
  suite_add_tcase(s, tc);
  status = par_run_suite(MPI_COMM_WORLD, s, NULL);
  MPI_Finalize();
  return status;
}
