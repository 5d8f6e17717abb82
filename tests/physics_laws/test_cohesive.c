/* The cohesive law (src/law/cohesive.c) against closed forms:
 * - threshold law (2D and 3D): two equal bodies touching and pulled apart
 *   by +-F along their centre line stay bonded under tension F < f_c, and
 *   for F > f_c separate with relative acceleration 2 (F - f_c) / m in the
 *   first step (the bond's f_c still acts) and 2 F / m after;
 * - finite range (2D): the work-energy balance of the separation (the
 *   binding energy f_c d_c is taken, against the same run without
 *   cohesion); a stretched bond at rest holds a tension below f_c, and
 *   closing it is free until the bodies touch;
 * - a hanging cohesive column (2D): the tension above disk k is the weight
 *   of the disks from k down; with (N - 1) m g < f_c < N m g only the
 *   ceiling bond can break, and the column then falls freely.
 * Runs on any number of ranks: every check reads global values. */
#include <check.h>
#include <math.h>
#include <mpi.h>
#include <stdlib.h>

#include "laws_scene.h"

static const double R = 0.5; /* radius of every body */

/* Two bodies of radius R touching along x at gap 0 (body 0 at the origin),
 * pulled apart by +-F; no gravity. */
static moreau_sim *pulled_pair(int dim, const moreau_pair_law *pair, double F, double dt)
{
  moreau_sim *sim = NULL;
  const double zero[3] = {0, 0, 0};
  laws_body b0 = {.x = {0, 0, 0}, .f_ext = {-F, 0, 0}, .radius = R};
  laws_body b1 = {.x = {2 * R, 0, 0}, .f_ext = {F, 0, 0}, .radius = R};
  PAR_TRY(MPI_COMM_WORLD, laws_sim_create(dim, "cohesive", pair, dt, zero, &sim));
  PAR_TRY(MPI_COMM_WORLD, laws_add_body(sim, 0, &b0));
  PAR_TRY(MPI_COMM_WORLD, laws_add_body(sim, 1, &b1));
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_setup(sim, 1e-9));
  return sim;
}

/* Gap (end-of-step positions) and relative velocity of the pulled pair. */
static void pair_state(const moreau_sim *sim, double *gap, double *v_rel, double *mass)
{
  moreau_body b0 = laws_body_get(sim, 0), b1 = laws_body_get(sim, 1);
  *gap = b1.x[0] - b0.x[0] - 2 * R;
  *v_rel = b1.v[0] - b0.v[0];
  *mass = 1.0 / b0.inv_mass;
}

/* F < f_c: a bonded contact carries the tension F (f_n = -F) at every step
 * and the bodies do not move. One contact: the local solve is exact, so the
 * force is right to round-off of the shifted impulse (f_c dt in 1e-3 dt:
 * 1e-12 relative leaves room for it). */
static void check_bond_holds(int dim, double d_c)
{
  const double f_c = 10.0, F = 6.0, dt = 1e-3;
  moreau_pair_law pair = {.mu = 0.5, .f_c = f_c, .d_c = d_c};
  moreau_sim *sim = pulled_pair(dim, &pair, F, dt);
  double gap, v_rel, m;
  for (int step = 0; step < 300; step++) {
    PAR_TRY(moreau_sim_comm(sim), moreau_sim_step(sim));
    laws_contact c = laws_contact_get(sim, 0, 1);
    ck_assert_msg(c.found == 1, "%dD step %d: the bond was not detected", dim, step);
    ck_assert_msg(fabs(c.force[0] + F) < 1e-12 * f_c, "%dD d_c %g step %d: f_n %.17g, expected %g", dim, d_c, step,
                  c.force[0], -F);
  }
  pair_state(sim, &gap, &v_rel, &m);
  ck_assert_msg(fabs(gap) < 1e-12 * R, "%dD d_c %g: the bond opened to %g", dim, d_c, gap);
  ck_assert_msg(fabs(v_rel) < 1e-12, "%dD d_c %g: relative velocity %g", dim, d_c, v_rel);
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}

/* F > f_c, threshold law: in the first step the bond pulls with f_c and
 * breaks; the gap it opens (dt^2 2 (F - f_c) / m, 1e-5) exceeds the bond
 * tolerance (1e-6 r* = 2.5e-7), so from the second step the contact is a
 * plain open one and the relative acceleration is 2 F / m. Constant forces
 * make Moreau's midpoint velocities exact: 1e-12 relative is round-off. */
static void check_bond_breaks(int dim)
{
  const double f_c = 10.0, F = 15.0, dt = 1e-3;
  moreau_pair_law pair = {.mu = 0.5, .f_c = f_c};
  moreau_sim *sim = pulled_pair(dim, &pair, F, dt);
  double gap, v_rel, m, v_prev;
  PAR_TRY(moreau_sim_comm(sim), moreau_sim_step(sim));
  laws_contact c = laws_contact_get(sim, 0, 1);
  pair_state(sim, &gap, &v_rel, &m);
  ck_assert_msg(c.found == 1 && fabs(c.force[0] + f_c) < 1e-12 * f_c, "%dD first step: f_n %.17g, expected %g", dim,
                c.force[0], -f_c);
  double expected = 2 * (F - f_c) * dt / m;
  ck_assert_msg(fabs(v_rel - expected) < 1e-12 * expected, "%dD first step: v_rel %.17g, expected %.17g", dim, v_rel,
                expected);
  for (int step = 1; step < 20; step++) {
    v_prev = v_rel;
    PAR_TRY(moreau_sim_comm(sim), moreau_sim_step(sim));
    pair_state(sim, &gap, &v_rel, &m);
    c = laws_contact_get(sim, 0, 1);
    ck_assert_msg(c.found == 0 || c.force[0] == 0.0, "%dD step %d: the broken bond pulls with %g", dim, step,
                  c.force[0]);
    double a = (v_rel - v_prev) / dt, a_free = 2 * F / m;
    ck_assert_msg(fabs(a - a_free) < 1e-9 * a_free, "%dD step %d: relative acceleration %.17g, expected 2F/m = %.17g",
                  dim, step, a, a_free);
  }
  ck_assert(gap > 0.0);
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}

START_TEST(test_threshold_bond_holds)
{
  check_bond_holds(2, 0.0);
  check_bond_holds(3, 0.0);
}
END_TEST

START_TEST(test_threshold_bond_breaks)
{
  check_bond_breaks(2);
  check_bond_breaks(3);
}
END_TEST

START_TEST(test_range_bond_holds) { check_bond_holds(2, 0.1); }
END_TEST

/* Separation of the pulled pair with a range d_c, until the gap is 2 d_c:
 * the work deficit W = F g - (1/2) mu_red v^2 (mu_red = m / 2, F the
 * relative force of the pair) and the end-of-step gap g_s of the last step
 * in which the bond pulled (f_n = -f_c). */
static void separate(double f_c, double d_c, double F, double dt, double *deficit, double *g_s, double *ke_s,
                     double *v_s)
{
  moreau_pair_law pair = {.mu = 0.5, .f_c = f_c, .d_c = d_c};
  moreau_sim *sim = pulled_pair(2, &pair, F, dt);
  double gap = 0.0, v_rel = 0.0, m = 0.0;
  *g_s = *ke_s = *v_s = 0.0;
  while (gap < 2 * d_c) {
    PAR_TRY(moreau_sim_comm(sim), moreau_sim_step(sim));
    laws_contact c = laws_contact_get(sim, 0, 1);
    pair_state(sim, &gap, &v_rel, &m);
    if (c.found && c.force[0] < 0.0) {
      ck_assert_msg(fabs(c.force[0] + f_c) < 1e-12 * f_c, "gap %g: a stretched bond pulls with %.17g, not f_c", gap,
                    -c.force[0]);
      *g_s = gap;
      *v_s = v_rel;
      *ke_s = 0.25 * m * v_rel * v_rel;
    } else {
      ck_assert_msg(!c.found || c.force[0] == 0.0, "gap %g: the open contact carries %g", gap, c.force[0]);
    }
  }
  *deficit = F * gap - 0.25 * m * v_rel * v_rel;
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}

/* Finite range, F > f_c: while the gap is below d_c the bond pulls with f_c,
 * so at the gap d_c, (1/2) mu_red v^2 = (F - f_c) d_c, and the separation
 * costs the binding energy f_c d_c. The midpoint scheme keeps the
 * work-energy balance of each step exactly under a force constant over the
 * step (v+^2 - v-^2 = 2 a dx), so (1/2) mu_red v^2 = (F - f_c) g_s at the end
 * of the last pulling step, to round-off (1e-10). The bond's end is seen at
 * the step midpoints, so g_s is d_c to within half a step of travel,
 * |g_s - d_c| <= v dt / 2 (a first-order error, 1.1e-4 of d_c here). */
START_TEST(test_range_binding_energy)
{
  const double f_c = 10.0, d_c = 0.1, F = 20.0, dt = 1e-4;
  double w_coh, g_s, ke_s, v_s, w_free, g0, ke0, v0;
  separate(f_c, d_c, F, dt, &w_coh, &g_s, &ke_s, &v_s);
  separate(0.0, d_c, F, dt, &w_free, &g0, &ke0, &v0);
  if (par_rank(MPI_COMM_WORLD) == 0)
    printf("finite range: bond ends at gap %.9g (d_c %g), (1/2) mu v^2 = %.12g there, (F - f_c) g_s = %.12g; "
           "work deficit %.12g (f_c d_c = %g), without cohesion %.3g\n",
           g_s, d_c, ke_s, (F - f_c) * g_s, w_coh, f_c * d_c, w_free);
  ck_assert_msg(g_s > 0.0, "the bond never pulled while stretched");
  ck_assert_msg(fabs(ke_s - (F - f_c) * g_s) < 1e-10 * F * d_c,
                "at the bond's end (1/2) mu v^2 = %.17g, expected %.17g", ke_s, (F - f_c) * g_s);
  ck_assert_msg(fabs(g_s - d_c) <= 0.5 * v_s * dt * (1 + 1e-9), "the bond ended at gap %.17g, d_c %g, half a step %g",
                g_s, d_c, 0.5 * v_s * dt);
  /* Binding energy taken, f_c g_s, against f_c d_c: the same half step. */
  ck_assert_msg(fabs(w_coh - f_c * g_s) < 1e-10 * F * d_c, "work deficit %.17g, expected f_c g_s = %.17g", w_coh,
                f_c * g_s);
  ck_assert_msg(fabs(w_coh - f_c * d_c) <= f_c * 0.5 * v_s * dt * (1 + 1e-9), "work deficit %.17g, f_c d_c %g", w_coh,
                f_c * d_c);
  ck_assert_msg(fabs(w_free) < 1e-10 * F * d_c, "without cohesion the deficit is %.17g", w_free);
  ck_assert(g0 == 0.0);
}
END_TEST

/* Two disks at gap 0.0503 (a closing of 251.5 steps, away from a step
 * boundary), within the range d_c = 0.1, f_c = 10, no
 * gravity. A stretched bond at rest holds any tension up to f_c: pulled by
 * F = 6 it keeps the gap with f_n = -F (one contact, exact to round-off).
 * Closing, it is free: approaching at 0.2 the disks fly at constant
 * velocity (no force) until they touch; the impact is perfectly inelastic
 * (no restitution), so they stop together (symmetric momenta) and touch. */
START_TEST(test_range_stretched_bond)
{
  const double f_c = 10.0, d_c = 0.1, F = 6.0, dt = 1e-3, gap0 = 0.0503, v = 0.1;
  const double zero[3] = {0, 0, 0};
  moreau_pair_law pair = {.mu = 0.5, .f_c = f_c, .d_c = d_c};
  for (int closing = 0; closing <= 1; closing++) {
    moreau_sim *sim = NULL;
    laws_body b0 = {.x = {0, 0, 0}, .v = {closing ? v : 0, 0, 0}, .f_ext = {closing ? 0 : -F, 0, 0}, .radius = R};
    laws_body b1 = {
        .x = {2 * R + gap0, 0, 0}, .v = {closing ? -v : 0, 0, 0}, .f_ext = {closing ? 0 : F, 0, 0}, .radius = R};
    double gap = gap0, v_rel = 0.0, m;
    PAR_TRY(MPI_COMM_WORLD, laws_sim_create(2, "cohesive", &pair, dt, zero, &sim));
    PAR_TRY(MPI_COMM_WORLD, laws_add_body(sim, 0, &b0));
    PAR_TRY(MPI_COMM_WORLD, laws_add_body(sim, 1, &b1));
    PAR_TRY(MPI_COMM_WORLD, moreau_sim_setup(sim, 1e-9));
    for (int step = 1; step <= 300; step++) {
      double before = gap;
      PAR_TRY(moreau_sim_comm(sim), moreau_sim_step(sim));
      laws_contact c = laws_contact_get(sim, 0, 1);
      pair_state(sim, &gap, &v_rel, &m);
      ck_assert_msg(c.found == 1, "step %d: the stretched bond was not detected", step);
      if (!closing) {
        ck_assert_msg(fabs(c.force[0] + F) < 1e-12 * f_c && fabs(gap - gap0) < 1e-12 * R,
                      "step %d: the stretched bond at rest pulls with %.17g (expected %g), gap %.17g", step,
                      -c.force[0], F, gap);
      } else if (before - 2 * v * dt > 0.0) {
        /* Still apart at the end of the step: free flight. */
        ck_assert_msg(c.force[0] == 0.0 && fabs(v_rel + 2 * v) < 1e-15,
                      "step %d: the closing bond carries %g, v_rel %.17g", step, c.force[0], v_rel);
      }
    }
    if (closing) {
      moreau_body b = laws_body_get(sim, 0);
      ck_assert_msg(fabs(v_rel) < 1e-12 && fabs(b.v[0]) < 1e-12 && fabs(gap) < 1e-12 * R,
                    "after the impact: v_rel %g, v_0 %g, gap %g", v_rel, b.v[0], gap);
    }
    PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
  }
}
END_TEST

/* N disks of radius R hanging in a line from a ceiling (y = 0, normal
 * pointing down) under gravity g. */
static moreau_sim *hanging_column(int n, double f_c, double dt)
{
  moreau_sim *sim = NULL;
  const double g[3] = {0, -9.81, 0}, ceiling[3] = {0, 0, 0}, down[3] = {0, -1, 0};
  moreau_pair_law pair = {.mu = 0.5, .f_c = f_c};
  PAR_TRY(MPI_COMM_WORLD, laws_sim_create(2, "cohesive", &pair, dt, g, &sim));
  for (int k = 0; k < n; k++) {
    laws_body b = {.x = {0, -R - 2 * R * k, 0}, .radius = R};
    PAR_TRY(MPI_COMM_WORLD, laws_add_body(sim, k, &b));
  }
  PAR_TRY(MPI_COMM_WORLD, laws_add_wall(sim, ceiling, down));
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_setup(sim, 1e-9));
  return sim;
}

/* The tension f in the contact above disk k (the ceiling for k = 0):
 * f_n = -f. */
static double tension_above(const moreau_sim *sim, int k)
{
  laws_contact c = k == 0 ? laws_contact_get(sim, 0, MOREAU_WALL_GID(0)) : laws_contact_get(sim, k - 1, k);
  ck_assert_msg(c.found == 1, "the contact above disk %d was not detected", k);
  return -c.force[0];
}

/* f_c = 2 N m g: every bond holds; the tension above disk k is (N - k) m g
 * (disks k to N - 1 hang from it), to the NLGS tolerance: the solve stops
 * when a sweep changes the impulses by 1e-10 of their size, and a chain of N
 * contacts contracts by only 1 - O(1 / N^2) per sweep, so the error left is
 * up to N^2 = 225 times the last change (2e-8 of N m g measured); checked at
 * 1e-6 of N m g, the static-force accuracy of these tests. The column stays
 * where it is. */
START_TEST(test_hanging_column_holds)
{
  const int n = 15;
  const double g = 9.81;
  const double m = M_PI * R * R; /* density 1 */
  moreau_sim *sim = hanging_column(n, 2 * n * m * g, 1e-3);
  double worst = 0.0;
  for (int step = 0; step < 100; step++) {
    PAR_TRY(moreau_sim_comm(sim), moreau_sim_step(sim));
    for (int k = 0; k < n; k++)
      worst = fmax(worst, fabs(tension_above(sim, k) - (n - k) * m * g) / (n * m * g));
  }
  if (par_rank(MPI_COMM_WORLD) == 0) printf("hanging column: worst tension error %.3g of N m g\n", worst);
  ck_assert_msg(worst < 1e-6, "the tensions deviate from (N - k) m g by %g of N m g", worst);
  for (int k = 0; k < n; k++) {
    moreau_body b = laws_body_get(sim, k);
    ck_assert_msg(fabs(b.x[1] - (-R - 2 * R * k)) < 1e-9 * R, "disk %d moved to y = %.17g", k, b.x[1]);
  }
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}
END_TEST

/* f_c = (N - 1/2) m g: the ceiling bond alone is loaded beyond f_c (an
 * inner bond carries at most (N - 1) m g), so the solution is unique: the
 * ceiling bond breaks and pulls the falling column with f_c in the first
 * step (velocity -(g - f_c / (N m)) dt) and while its gap is within the bond
 * tolerance, then the column falls freely: acceleration g, no force at
 * any contact, all disks at one velocity. */
START_TEST(test_hanging_column_breaks)
{
  const int n = 15;
  const double g = 9.81, dt = 1e-3;
  const double m = M_PI * R * R, f_c = (n - 0.5) * m * g;
  double v_prev[15];
  moreau_sim *sim = hanging_column(n, f_c, dt);
  /* The falling column's bonds are at zero load, which the solve does not
   * converge on (test_cohesive_convergence.c): cap the sweeps; the checks
   * read the motion, not the convergence flag. */
  moreau_nlgs_set_iterations(moreau_sim_nlgs(sim), 1, 5000);
  PAR_TRY(moreau_sim_comm(sim), moreau_sim_step(sim));
  ck_assert_msg(fabs(tension_above(sim, 0) - f_c) < 1e-9 * f_c, "first step: the ceiling bond pulls with %.17g, f_c %g",
                tension_above(sim, 0), f_c);
  for (int k = 0; k < n; k++) {
    moreau_body b = laws_body_get(sim, k);
    double expected = -(g - f_c / (n * m)) * dt;
    /* The first solve starts cold, and a chain converges slowly: the same
     * 1e-6 of the load scale (here g dt) as the holding column (1e-8
     * measured). */
    ck_assert_msg(fabs(b.v[1] - expected) < 1e-6 * g * dt, "first step: disk %d falls at %.17g, expected %.17g", k,
                  b.v[1], expected);
    v_prev[k] = b.v[1];
  }
  for (int step = 1; step < 15; step++) {
    PAR_TRY(moreau_sim_comm(sim), moreau_sim_step(sim));
    laws_contact top = laws_contact_get(sim, 0, MOREAU_WALL_GID(0));
    int pulled = top.found && top.force[0] < 0.0;
    ck_assert_msg(!pulled || fabs(top.force[0] + f_c) < 1e-9 * f_c, "step %d: the breaking bond pulls with %.17g", step,
                  -top.force[0]);
    for (int k = 0; k < n; k++) {
      moreau_body b = laws_body_get(sim, k);
      double a = (b.v[1] - v_prev[k]) / dt;
      v_prev[k] = b.v[1];
      if (pulled) continue;
      /* The inner bonds' warm start is the tension of the pulled steps,
       * which the solve removes to its tolerance: 1e-6 of the load scale. */
      ck_assert_msg(fabs(a + g) < 1e-6 * g, "step %d: disk %d accelerates at %.17g, expected -g", step, k, a);
      ck_assert_msg(fabs(b.v[1] - v_prev[0]) < 1e-6 * g * dt, "step %d: disk %d falls at %.17g, disk 0 at %.17g", step,
                    k, b.v[1], v_prev[0]);
      if (k > 0)
        ck_assert_msg(fabs(tension_above(sim, k)) < 1e-6 * n * m * g, "step %d: inner bond %d carries %g", step, k,
                      tension_above(sim, k));
    }
    /* The bond tolerance is 1e-6 r: the gap passes it within a few steps. */
    ck_assert_msg(!pulled || step < 5, "step %d: the ceiling still pulls", step);
  }
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}
END_TEST

int main(int argc, char **argv)
{
  int status;
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("cohesive law");
  TCase *tc = tcase_create("closed forms");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_threshold_bond_holds);
  tcase_add_test(tc, test_threshold_bond_breaks);
  tcase_add_test(tc, test_range_bond_holds);
  tcase_add_test(tc, test_range_binding_energy);
  tcase_add_test(tc, test_range_stretched_bond);
  tcase_add_test(tc, test_hanging_column_holds);
  tcase_add_test(tc, test_hanging_column_breaks);
  suite_add_tcase(s, tc);
  status = par_run_suite(MPI_COMM_WORLD, s, NULL);
  MPI_Finalize();
  return status;
}
