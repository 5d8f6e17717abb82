/* Walls with imposed motion and imposed force, against closed forms:
 * a piston moving at constant velocity drags a disk along a frictionless
 * floor at its own speed; a massive force-driven wall pressing a column of
 * disks against the floor is held by exactly its drive at every contact, and
 * its reaction goes into walls->reaction. Runs on any number of ranks. */
#include <check.h>
#include <math.h>
#include <mpi.h>
#include <stdlib.h>

#include "check_runner.h"
#include "scene.h"

static int rank(void)
{
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

/* Velocity of the body with global id gid, wherever it lives. */
static void body_velocity(const moreau_sim *sim, moreau_gid gid, double *v)
{
  const moreau_bodies *b = moreau_sim_bodies(sim);
  double local[3] = {0, 0, 0};
  for (moreau_lid i = 0; i < b->n_owned; i++)
    if (b->gid[i] == gid)
      for (int k = 0; k < 3; k++)
        local[k] = b->v[3 * i + k];
  MPI_Allreduce(local, v, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

START_TEST(test_piston_drags_disk)
{
  moreau_sim *sim;
  const double V = 0.7, r = 0.5;
  double x[3] = {2.0, r, 0}, p[3] = {2.0 - r, 0, 0}, nx[3] = {1, 0, 0}, vel[3] = {V, 0, 0}, v[3];
  ck_assert_int_eq(moreau_sim_create(MPI_COMM_WORLD, 2, &sim), 0);
  ck_assert_int_eq(scene_set_law(sim, 0.0, 0.0, 0.0), 0);
  moreau_sim_set_dt(sim, 1e-3);
  moreau_sim_set_gravity(sim, (const double[3]){0.0, -9.81, 0.0});
  if (rank() == 0) ck_assert_int_eq(scene_add_body(sim, 0, x, NULL, r, 1.0, 0), 0);
  ck_assert_int_eq(scene_add_fixed_wall(sim, 0, 0, 0, 1), 0);
  ck_assert_int_eq(moreau_walls_add(moreau_sim_walls(sim), p, nx, MOREAU_WALL_VELOCITY, vel, 0, 0, 0, NULL), 0);
  moreau_nlgs_set_tolerance(moreau_sim_nlgs(sim), 1e-12, MOREAU_NLGS_NORM_MEAN);
  ck_assert_int_eq(moreau_sim_setup(sim, 0.01), 0);
  for (int step = 0; step < 200; step++) {
    ck_assert_int_eq(moreau_sim_step(sim), 0);
    body_velocity(sim, 0, v);
    ck_assert_msg(fabs(v[0] - V) < 1e-12, "step %d: disk moves at %.17g, piston at %g", step, v[0], V);
    ck_assert(fabs(v[1]) < 1e-12);
  }
  /* No friction anywhere: after the first impulse the piston pushes nothing. */
  ck_assert(fabs(moreau_sim_walls(sim)->reaction[3]) < 1e-9);
  ck_assert(fabs(moreau_sim_walls(sim)->point[3] - (2.0 - r + 200 * 1e-3 * V)) < 1e-12);
  ck_assert_int_eq(moreau_sim_destroy(&sim), 0);
}
END_TEST

START_TEST(test_force_wall_column)
{
  moreau_sim *sim;
  const moreau_walls *walls;
  const int n = 4;
  const double r = 0.5, F = 37.0, M = 5.0;
  double top[3] = {0, 2 * r * n, 0}, down[3] = {0, -1, 0}, v[3];
  ck_assert_int_eq(moreau_sim_create(MPI_COMM_WORLD, 2, &sim), 0);
  walls = moreau_sim_walls(sim);
  moreau_sim_set_dt(sim, 1e-3);
  for (int i = 0; i < n && rank() == 0; i++) {
    double x[3] = {0, r + 2 * r * i, 0};
    ck_assert_int_eq(scene_add_body(sim, i, x, NULL, r, 1.0, 0), 0);
  }
  ck_assert_int_eq(scene_add_fixed_wall(sim, 0, 0, 0, 1), 0);
  ck_assert_int_eq(moreau_walls_add(moreau_sim_walls(sim), top, down, MOREAU_WALL_FORCE, NULL, M, F, 0, NULL), 0);
  moreau_nlgs_set_tolerance(moreau_sim_nlgs(sim), 1e-13, MOREAU_NLGS_NORM_MEAN);
  moreau_nlgs_set_iterations(moreau_sim_nlgs(sim), 1, 1000000);
  ck_assert_int_eq(moreau_sim_setup(sim, 0.01), 0);
  for (int step = 0; step < 50; step++) {
    ck_assert_int_eq(moreau_sim_step(sim), 0);
    ck_assert_msg(fabs(walls->reaction[4] - F) < 1e-9 * F, "step %d: the packing pushes the wall with %.17g", step,
                  walls->reaction[4]);
    ck_assert(fabs(-walls->reaction[1] - F) < 1e-9 * F);
    ck_assert(fabs(walls->velocity[4]) < 1e-12);
    for (int i = 0; i < n; i++) {
      body_velocity(sim, i, v);
      ck_assert(fabs(v[1]) < 1e-12);
    }
  }
  ck_assert(fabs(walls->point[4] - 2 * r * n) < 1e-12);
  ck_assert_int_eq(moreau_sim_destroy(&sim), 0);
}
END_TEST

int main(int argc, char **argv)
{
  int failed;
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("walls");
  TCase *tc = tcase_create("driven walls");
  tcase_add_test(tc, test_piston_drags_disk);
  tcase_add_test(tc, test_force_wall_column);
  suite_add_tcase(s, tc);
  failed = moreau_test_run_suite(s);
  MPI_Finalize();
  return failed;
}
