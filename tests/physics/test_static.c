/* Static solutions with closed forms: a disk resting on the floor carries its
 * weight at every step without drift (test b), and a column of N disks carries
 * k m g at the k-th contact from the top, with the cold-start iteration count
 * growing like N^2 (seed 001 eqs 1.31-1.34; test c). */
#include <check.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "scene.h"

START_TEST(test_disk_at_rest)
{
  moreau_sim *sim;
  const double r = 0.25, g = 9.81;
  double x[3] = {0.3, r, 0};
  ck_assert_int_eq(moreau_sim_create(MPI_COMM_SELF, 2, &sim), 0);
  sim->dt = 1e-3;
  sim->gravity[1] = -g;
  ck_assert_int_eq(scene_add_body(sim, 0, x, NULL, r, 2500.0, 0), 0);
  ck_assert_int_eq(scene_add_fixed_wall(sim, 0, 0, 0, 1), 0);
  moreau_nlgs_set_tolerance(sim->nlgs, 1e-12, MOREAU_NLGS_NORM_MEAN);
  ck_assert_int_eq(moreau_sim_setup(sim, 0.01), 0);
  double weight = g / sim->bodies->inv_mass[0], worst = 0.0;
  for (int step = 0; step < 10000; step++) {
    ck_assert_int_eq(moreau_sim_step(sim), 0);
    double err = fabs(-sim->walls->reaction[1] - weight) / weight;
    worst = fmax(worst, err);
  }
  ck_assert_msg(worst < 1e-12, "floor reaction deviates from the weight by %g (relative)", worst);
  ck_assert_msg(fabs(sim->bodies->x[1] - r) < 1e-12 * r, "height drifted to %.17g", sim->bodies->x[1]);
  ck_assert(fabs(sim->bodies->x[0] - 0.3) < 1e-15);
  ck_assert(fabs(sim->walls->reaction[0]) < 1e-12 * weight);
  moreau_sim_destroy(&sim);
}
END_TEST

/* Builds a column of n disks standing on the floor, solves one step from
 * rest with zero initial forces and returns the sweeps used. */
static int column(int n, double tol, int check_forces, uint64_t seed)
{
  moreau_sim *sim;
  const double r = 0.5, g = 9.81;
  moreau_nlgs_result res;
  ck_assert_int_eq(moreau_sim_create(MPI_COMM_SELF, 2, &sim), 0);
  sim->dt = 1e-3;
  sim->gravity[1] = -g;
  for (int i = 0; i < n; i++) {
    double x[3] = {0, r + 2 * r * i, 0};
    ck_assert_int_eq(scene_add_body(sim, i, x, NULL, r, 1.0, 0), 0);
  }
  ck_assert_int_eq(scene_add_fixed_wall(sim, 0, 0, 0, 1), 0);
  moreau_nlgs_set_tolerance(sim->nlgs, tol, MOREAU_NLGS_NORM_QUAD);
  moreau_nlgs_set_iterations(sim->nlgs, 1, 10000000);
  moreau_nlgs_set_seed(sim->nlgs, seed);
  ck_assert_int_eq(moreau_sim_setup(sim, 0.01), 0);
  ck_assert_int_eq(moreau_sim_step(sim), 0);
  res = sim->solve;
  ck_assert(res.converged);
  if (check_forces) {
    double mg = g / sim->bodies->inv_mass[0];
    const moreau_contacts *c = sim->contacts;
    ck_assert_int_eq(c->n, n);
    for (moreau_lid k = 0; k < c->n; k++) {
      /* Contact above body gid_a: (n - 1 - gid_a) bodies over it, plus gid_a itself
       * for the floor contact of the lowest one. */
      double expected = c->b[k] < 0 ? n * mg : (double)(n - 1 - c->gid_a[k]) * mg;
      ck_assert_msg(fabs(c->force[3 * k] - expected) < 1e-6 * n * mg, "n %d contact %lld-%lld: f_n %.10g expected %.10g",
                    n, (long long)c->gid_a[k], (long long)c->gid_b[k], c->force[3 * k], expected);
    }
  }
  moreau_sim_destroy(&sim);
  return res.iterations;
}

START_TEST(test_column_forces) { column(20, 1e-12, 1, 7); }
END_TEST

START_TEST(test_column_iterations_grow_as_n2)
{
  /* Average over seeds: one random sweep order is a noisy sample. */
  const int sizes[3] = {10, 20, 40};
  double it[3] = {0, 0, 0};
  for (int s = 0; s < 3; s++)
    for (uint64_t seed = 1; seed <= 5; seed++) it[s] += column(sizes[s], 1e-6, 0, seed) / 5.0;
  double p1 = log(it[1] / it[0]) / log(2.0), p2 = log(it[2] / it[1]) / log(2.0);
  printf("column iterations: N=10: %g, N=20: %g, N=40: %g; exponents %.2f %.2f\n", it[0], it[1], it[2], p1, p2);
  ck_assert_msg(p1 > 1.6 && p1 < 2.4 && p2 > 1.6 && p2 < 2.4, "iteration exponents %.2f %.2f are not near 2", p1, p2);
}
END_TEST

int main(int argc, char **argv)
{
  int failed;
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("static");
  TCase *tc = tcase_create("closed forms");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_disk_at_rest);
  tcase_add_test(tc, test_column_forces);
  tcase_add_test(tc, test_column_iterations_grow_as_n2);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  MPI_Finalize();
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
