/* Walls with imposed motion and imposed force, against closed forms:
 * a piston moving at constant velocity drags a disk along a frictionless
 * floor at its own speed; a massive force-driven wall pressing a column of
 * disks against the floor is held by exactly its drive at every contact, and
 * its reaction goes into walls->reaction; a pressure-driven wall is pushed
 * by the pressure times the current length of its face as a side wall moves
 * in (biaxial box), and the face of a wall is its part inside the others
 * (2D and 3D closed forms). Runs on any number of ranks. */
#include <check.h>
#include <math.h>
#include <mpi.h>
#include <stdlib.h>

#include "moreau/error.h"

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

/* A biaxial box of width W: floor, a left wall moving in at V, a fixed right
 * wall and a top wall under pressure P, resting on a column of disks far from
 * the left wall. Before each step the drive is P times the top wall's current
 * length, W - x_left; the column holds the wall still, so the stress the
 * packing exerts on it, reaction / length, is P. */
START_TEST(test_pressure_wall_biaxial)
{
  moreau_sim *sim;
  moreau_walls *walls;
  const int n = 4;
  const double r = 0.5, W = 10.0, V = 0.5, P = 3.0, M = 5.0, dt = 1e-3;
  double left[3] = {0, 0, 0}, right[3] = {W, 0, 0}, top[3] = {0, 2 * r * n, 0}, down[3] = {0, -1, 0};
  double nx[3] = {1, 0, 0}, mnx[3] = {-1, 0, 0}, vel[3] = {V, 0, 0};
  int it;
  ck_assert_int_eq(moreau_sim_create(MPI_COMM_WORLD, 2, &sim), 0);
  walls = moreau_sim_walls(sim);
  moreau_sim_set_dt(sim, dt);
  for (int i = 0; i < n && rank() == 0; i++) {
    double x[3] = {W - 3.0, r + 2 * r * i, 0};
    ck_assert_int_eq(scene_add_body(sim, i, x, NULL, r, 1.0, 0), 0);
  }
  ck_assert_int_eq(scene_add_fixed_wall(sim, 0, 0, 0, 1), 0);
  ck_assert_int_eq(moreau_walls_add(walls, left, nx, MOREAU_WALL_VELOCITY, vel, 0, 0, 0, NULL), 0);
  ck_assert_int_eq(moreau_walls_add(walls, right, mnx, MOREAU_WALL_FIXED, NULL, 0, 0, 0, NULL), 0);
  ck_assert_int_eq(moreau_walls_add(walls, top, down, MOREAU_WALL_FORCE, NULL, M, 0, 0, &it), 0);
  ck_assert_int_eq(moreau_walls_set_pressure(walls, it, P), 0);
  moreau_nlgs_set_tolerance(moreau_sim_nlgs(sim), 1e-13, MOREAU_NLGS_NORM_MEAN);
  moreau_nlgs_set_iterations(moreau_sim_nlgs(sim), 1, 1000000);
  ck_assert_int_eq(moreau_sim_setup(sim, 0.01), 0);
  for (int step = 0; step < 40; step++) {
    double length = W - walls->point[3 * 1];
    ck_assert_int_eq(moreau_walls_update_drive(walls, 2, 0.0), 0);
    ck_assert_msg(fabs(walls->drive[it] - P * length) <= 1e-12 * P * length,
                  "step %d: drive %.17g, expected P x (W - x_left) = %.17g", step, walls->drive[it], P * length);
    ck_assert_int_eq(moreau_sim_step(sim), 0);
    ck_assert_msg(fabs(walls->reaction[3 * it + 1] / length - P) < 1e-9 * P,
                  "step %d: the packing's stress on the wall %.17g, expected %g", step,
                  walls->reaction[3 * it + 1] / length, P);
  }
  ck_assert(fabs(walls->point[3] - 40 * dt * V) < 1e-12);
  ck_assert_int_eq(moreau_sim_destroy(&sim), 0);
}
END_TEST

static void add_wall(moreau_walls *w, double px, double py, double pz, double nx, double ny, double nz)
{
  double p[3] = {px, py, pz}, n[3] = {nx, ny, nz};
  ck_assert_int_eq(moreau_walls_add(w, p, n, MOREAU_WALL_FIXED, NULL, 0, 0, 0, NULL), 0);
}

/* Faces: a 2D wedge (the top wall y = 1 meets x = 0 and x + y = 4: length
 * 3), a 3D box 2 x 3 x 4 (faces 12, 8 and 6), and a wall the others do not
 * bound (refused). */
START_TEST(test_wall_faces)
{
  moreau_walls *w;
  double size;
  ck_assert_int_eq(moreau_walls_create(&w), 0);
  add_wall(w, 0, 0, 0, 0, 1, 0);
  add_wall(w, 0, 0, 0, 1, 0, 0);
  add_wall(w, 4, 0, 0, -1, -1, 0);
  add_wall(w, 0, 1, 0, 0, -1, 0);
  ck_assert_int_eq(moreau_walls_face_size(w, 2, 3, &size), 0);
  ck_assert_msg(fabs(size - 3.0) < 1e-12, "wedge: top length %.17g, expected 3", size);
  ck_assert_int_eq(moreau_walls_face_size(w, 2, 0, &size), 0);
  ck_assert_msg(fabs(size - 4.0) < 1e-12, "wedge: floor length %.17g, expected 4", size);
  ck_assert_int_eq(moreau_walls_destroy(&w), 0);

  ck_assert_int_eq(moreau_walls_create(&w), 0);
  for (int k = 0; k < 3; k++) {
    double hi[3] = {2, 3, 4}, lo[3] = {0, 0, 0}, n[3] = {0, 0, 0};
    n[k] = 1;
    add_wall(w, lo[0], lo[1], lo[2], n[0], n[1], n[2]);
    n[k] = -1;
    add_wall(w, hi[0], hi[1], hi[2], n[0], n[1], n[2]);
  }
  for (int k = 0; k < 3; k++) {
    const double expected[3] = {12, 8, 6};
    ck_assert_int_eq(moreau_walls_face_size(w, 3, 2 * k + 1, &size), 0);
    ck_assert_msg(fabs(size - expected[k]) < 1e-12 * expected[k], "box: face %d area %.17g, expected %g", 2 * k + 1,
                  size, expected[k]);
  }
  ck_assert_int_eq(moreau_walls_destroy(&w), 0);

  ck_assert_int_eq(moreau_walls_create(&w), 0);
  add_wall(w, 0, 0, 0, 0, 1, 0);
  add_wall(w, 0, 0, 0, 1, 0, 0);
  ck_assert_int_eq(moreau_walls_face_size(w, 2, 0, &size), MOREAU_ERR_INPUT);
  moreau_error_clear();
  ck_assert_int_eq(moreau_walls_destroy(&w), 0);
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
  tcase_add_test(tc, test_pressure_wall_biaxial);
  tcase_add_test(tc, test_wall_faces);
  suite_add_tcase(s, tc);
  failed = moreau_test_run_suite(s);
  MPI_Finalize();
  return failed;
}
