/* Rattlers, coordination and sliding on hand-built networks of touching
 * disks (spheres) of radius 1/2, on any rank count (the bodies spread over
 * the ranks by the partition; the removal runs across them). Every figure
 * below is counted by hand. */
#include <math.h>

#include "parallel.h"
#include "scene.h"
#include "texture_test.h"

#define MU 0.5
#define TOL 1e-12

/* 2D network (gids):
 * - a triangle 0, 1, 2 of mutually touching disks: two contacts each, it
 *   stays; its three normals are 60 degrees apart, so its fabric is
 *   isotropic;
 * - a chain 1 - 3 - 4: 4 has one contact (a rattler in round 1), then 3 has
 *   one left (round 2);
 * - 5 alone (no contact: a rattler);
 * - 6 in the corner of two walls: two contacts, partners the two walls;
 * - 7 touching 0 with f_n = 0 exactly: not force-bearing, so 7 has no
 *   contact (a rattler) and 0 keeps two;
 * - 8 fixed (infinite mass) touching 9: 9 is a rattler, 8 a support.
 * Force-bearing contacts: 0-1, 0-2, 1-2, 1-3, 3-4, 6-wall0, 6-wall1, 8-9.
 * Friction: |f_t| = mu f_n on 0-1 and 6-wall0, mu f_n (1 - 1e-12) on 0-2
 * (within the tolerance: sliding), mu f_n (1 - 1e-6) on 1-2 (sticking),
 * 0.3 f_n elsewhere. */
static void forces_2d(const moreau_sim *sim, const moreau_contacts *c, moreau_lid k, const void *ctx, double f[3])
{
  moreau_gid ga = c->gid_a[k], gb = c->gid_b[k];
  (void)sim;
  (void)ctx;
  f[0] = ga == 0 && gb == 7 ? 0.0 : 1.0;
  f[1] = -0.3;
  f[2] = 0.0;
  if ((ga == 0 && gb == 1) || (ga == 6 && gb == MOREAU_WALL_GID(0))) f[1] = MU;
  if (ga == 0 && gb == 2) f[1] = -MU * (1.0 - 1e-12);
  if (ga == 1 && gb == 2) f[1] = MU * (1.0 - 1e-6);
}

static moreau_err network_2d(moreau_sim **sim)
{
  const double h = 0.5 * sqrt(3.0);
  MOREAU_CALL(tt_sim_create(MPI_COMM_WORLD, 2, MU, sim));
  if (par_rank(MPI_COMM_WORLD) == 0) {
    const double xy[10][2] = {{0, 0},   {1, 0},       {0.5, h}, {2, 0},   {3, 0},
                              {10, 10}, {-9.5, -9.5}, {-1, 0},  {10, 12}, {10, 13}};
    for (int i = 0; i < 10; i++)
      MOREAU_CALL(tt_add_body(*sim, i, xy[i][0], xy[i][1], 0.0, 0.5, i == 8));
  }
  /* Walls are replicated: every rank adds them. */
  MOREAU_CALL(scene_add_fixed_wall(*sim, 0.0, -10.0, 0.0, 1.0));
  MOREAU_CALL(scene_add_fixed_wall(*sim, -10.0, 0.0, 1.0, 0.0));
  MOREAU_CALL(tt_step_and_force(*sim, forces_2d, NULL));
  return MOREAU_SUCCESS;
}

/* On the rank owning contact (0, 1, 0): a copy of it as point 1, with f_n = 1
 * and f_t = 0. */
static moreau_err add_second_point(moreau_contacts *c)
{
  moreau_lid n = c->n, k, idx;
  for (k = 0; k < n; k++)
    if (c->gid_a[k] == 0 && c->gid_b[k] == 1) break;
  if (k == n) return MOREAU_SUCCESS;
  MOREAU_CALL(moreau_contacts_push(c, 0, 1, 1, c->a[k], c->b[k], &idx));
  for (int d = 0; d < 3; d++)
    c->normal[3 * idx + d] = c->normal[3 * k + d];
  c->gap[idx] = c->gap[k];
  c->force[3 * idx] = 1.0;
  return MOREAU_SUCCESS;
}

START_TEST(rattlers_2d)
{
  moreau_sim *sim;
  moreau_texture t, r;
  const double lo[3] = {-0.25, -0.25, 0.0}, hi[3] = {1.25, 1.0, 0.0};
  PAR_TRY(MPI_COMM_WORLD, network_2d(&sim));
  PAR_TRY(MPI_COMM_WORLD, tt_texture(sim, NULL, NULL, &t));
  ck_assert_int_eq(t.n_bodies, 10);
  ck_assert_int_eq(t.n_rattlers, 5);
  ck_assert_int_eq(t.rattler_rounds, 2);
  ck_assert_int_eq(t.n_contacts, 8);
  ck_assert_int_eq(t.n_sliding, 3);
  ck_assert_int_eq(t.n_fabric, 3);
  ck_assert_double_eq_tol(t.z, 1.4, TOL);
  ck_assert_double_eq_tol(t.z_c, 1.4, TOL);
  ck_assert_double_eq_tol(t.z_nr, 1.6, TOL);
  ck_assert_double_eq_tol(t.z_c_nr, 1.6, TOL);
  ck_assert_double_eq_tol(t.rattler_fraction, 0.5, TOL);
  ck_assert_double_eq_tol(t.sliding_fraction, 3.0 / 8.0, TOL);
  ck_assert_double_eq_tol(t.a_c, 0.0, TOL);
  ck_assert_double_eq_tol(t.fabric[0], 0.5, TOL);
  ck_assert_double_eq_tol(t.fabric[4], 0.5, TOL);
  ck_assert_double_eq_tol(t.mean_fn, 1.0, TOL);

  /* The triangle alone: its bodies (1 also touches 3, a rattler) and the
   * three contact points inside the region (1-3 is at x = 1.5). */
  PAR_TRY(MPI_COMM_WORLD, tt_texture(sim, lo, hi, &r));
  ck_assert_int_eq(r.n_bodies, 3);
  ck_assert_int_eq(r.n_rattlers, 0);
  ck_assert_int_eq(r.n_contacts, 3);
  ck_assert_int_eq(r.n_sliding, 2);
  ck_assert_int_eq(r.n_fabric, 3);
  ck_assert_double_eq_tol(r.z, 7.0 / 3.0, TOL);
  ck_assert_double_eq_tol(r.z_nr, 2.0, TOL);
  ck_assert_double_eq_tol(r.rattler_fraction, 0.0, TOL);

  /* A second contact point of the pair 0-1 (as between rigid clusters),
   * appended out of key order: one more contact for 0 and 1 (Z_c), the same
   * partners (Z). */
  PAR_TRY(MPI_COMM_WORLD, add_second_point(moreau_sim_contacts(sim)));
  PAR_TRY(MPI_COMM_WORLD, tt_texture(sim, NULL, NULL, &t));
  ck_assert_int_eq(t.n_contacts, 9);
  ck_assert_int_eq(t.n_fabric, 4);
  ck_assert_int_eq(t.n_rattlers, 5);
  ck_assert_double_eq_tol(t.z, 1.4, TOL);
  ck_assert_double_eq_tol(t.z_c, 1.6, TOL);
  ck_assert_double_eq_tol(t.z_nr, 1.6, TOL);
  ck_assert_double_eq_tol(t.z_c_nr, 2.0, TOL);

  /* A region without its domain is refused. */
  const moreau_region region = {{lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}};
  ck_assert_int_eq(moreau_texture_compute(MPI_COMM_WORLD, moreau_sim_part(sim), moreau_sim_bodies(sim),
                                          moreau_sim_contacts(sim), moreau_sim_walls(sim), moreau_sim_materials(sim),
                                          NULL, &region, &r),
                   MOREAU_ERR_INPUT);
  moreau_error_clear();
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}
END_TEST

/* Cohesion raises the friction threshold to mu (f_n + f_c) (seed 003 eq
 * 2): with f_c = 1 the network's forces (|f_t| <= mu f_n, f_n <= 1) are all
 * well inside it, so nothing slides; with f_c = 0 three contacts do. */
START_TEST(sliding_cohesive_2d)
{
  for (int cohesive = 0; cohesive < 2; cohesive++) {
    moreau_sim *sim;
    moreau_texture t;
    moreau_pair_law pair = {.mu = MU, .f_c = cohesive ? 1.0 : 0.0};
    PAR_TRY(MPI_COMM_WORLD, network_2d(&sim));
    PAR_TRY(MPI_COMM_WORLD, moreau_materials_set_pair(moreau_sim_materials(sim), 0, 0, &pair));
    PAR_TRY(MPI_COMM_WORLD, tt_texture(sim, NULL, NULL, &t));
    ck_assert_int_eq(t.n_contacts, 8);
    ck_assert_int_eq(t.n_sliding, cohesive ? 0 : 3);
    PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
  }
}
END_TEST

static void forces_3d(const moreau_sim *sim, const moreau_contacts *c, moreau_lid k, const void *ctx, double f[3])
{
  (void)sim;
  (void)c;
  (void)k;
  (void)ctx;
  f[0] = 2.0;
  f[1] = 0.6;
  f[2] = -0.8; /* |f_T| = 1 = mu f_n: every contact slides */
}

/* 3D: a regular tetrahedron 0-3 (three contacts each: it stays; its six
 * edges are the face diagonals of a cube, an isotropic fabric), 4 touching
 * 0, 1 and 5, and 5 touching 4 only: 5 goes in round 1, then 4 with two
 * contacts left in round 2. */
START_TEST(rattlers_3d)
{
  moreau_sim *sim;
  moreau_texture t;
  const double h = 0.5 * sqrt(3.0);
  PAR_TRY(MPI_COMM_WORLD, tt_sim_create(MPI_COMM_WORLD, 3, MU, &sim));
  if (par_rank(MPI_COMM_WORLD) == 0) {
    const double x[6][3] = {{0, 0, 0},    {1, 0, 0},         {0.5, h, 0}, {0.5, h / 3.0, sqrt(2.0 / 3.0)},
                            {0.5, -h, 0}, {0.5, -h - 1.0, 0}};
    for (int i = 0; i < 6; i++)
      PAR_TRY(MPI_COMM_SELF, tt_add_body(sim, i, x[i][0], x[i][1], x[i][2], 0.5, 0));
  }
  PAR_TRY(MPI_COMM_WORLD, tt_step_and_force(sim, forces_3d, NULL));
  PAR_TRY(MPI_COMM_WORLD, tt_texture(sim, NULL, NULL, &t));
  ck_assert_int_eq(t.n_bodies, 6);
  ck_assert_int_eq(t.n_contacts, 9);
  ck_assert_int_eq(t.n_rattlers, 2);
  ck_assert_int_eq(t.rattler_rounds, 2);
  ck_assert_int_eq(t.n_fabric, 6);
  ck_assert_int_eq(t.n_sliding, 9);
  ck_assert_double_eq_tol(t.z, 3.0, TOL);
  ck_assert_double_eq_tol(t.z_c, 3.0, TOL);
  ck_assert_double_eq_tol(t.z_nr, 3.0, TOL);
  ck_assert_double_eq_tol(t.rattler_fraction, 1.0 / 3.0, TOL);
  ck_assert_double_eq_tol(t.a_c, 0.0, TOL);
  for (int d = 0; d < 3; d++)
    ck_assert_double_eq_tol(t.fabric[4 * d], 1.0 / 3.0, TOL);
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}
END_TEST

TCase *tt_rattlers_case(void)
{
  TCase *tc = tcase_create("rattlers");
  tcase_add_test(tc, rattlers_2d);
  tcase_add_test(tc, rattlers_3d);
  tcase_add_test(tc, sliding_cohesive_2d);
  return tc;
}
