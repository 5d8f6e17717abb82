/* A binary collision across a periodic face is the same collision inside
 * the box: two bodies that meet through the x face of a periodic box (one
 * of them goes back through it after the impact) end with the velocities, spins
 * and positions (modulo the period) of the same pair placed half a period
 * away, in the middle of a bounded box, to 1e-12. Oblique, frictional
 * (sliding then sticking) and with restitution, in 2D and 3D. */
#include <math.h>
#include <stdio.h>

#include "parallel.h"
#include "scene.h"
#include "shear_scene.h"

#define LEN 10.0
#define STEPS 60
#define TOL 1e-12

typedef struct {
  double x[2][3], v[2][3], w[2][3];
} pair_state;

/* Runs the pair with body 0 at x0 and body 1 at x1 (in the box) and returns
 * the final state, positions wrapped into [0, LEN). */
static moreau_err run_pair(int dim, int periodic, const double *x0, const double *x1, pair_state *out, double *impulse)
{
  moreau_sim *sim;
  const double v0[3] = {-0.2, 0.3, dim == 3 ? -0.2 : 0.0}, v1[3] = {-2.0, -0.2, dim == 3 ? 0.1 : 0.0};
  MOREAU_CALL(shear_sim_create(MPI_COMM_SELF, dim, LEN, periodic, 0, 0.0, 1e-2, 0.3, 0.5, &sim));
  MOREAU_CALL(scene_add_body(sim, 0, x0, v0, 0.5, 1.0, 0));
  MOREAU_CALL(scene_add_body(sim, 1, x1, v1, 0.6, 2.0, 0));
  moreau_sim_bodies(sim)->w[2] = 0.5;
  MOREAU_CALL(moreau_sim_setup(sim, 0.0));
  *impulse = 0.0;
  for (int s = 0; s < STEPS; s++) {
    MOREAU_CALL(moreau_sim_step(sim));
    const moreau_contacts *c = moreau_sim_contacts(sim);
    for (moreau_lid k = 0; k < c->n; k++)
      *impulse += c->force[3 * k] * 1e-2;
  }
  const moreau_bodies *b = moreau_sim_bodies(sim);
  for (int i = 0; i < 2; i++) {
    moreau_lid l = b->gid[0] == i ? 0 : 1;
    for (int k = 0; k < 3; k++) {
      out->x[i][k] = b->x[3 * l + k];
      out->v[i][k] = b->v[3 * l + k];
      out->w[i][k] = b->w[3 * l + k];
    }
  }
  MOREAU_CALL(moreau_sim_destroy(&sim));
  return MOREAU_SUCCESS;
}

/* Distance of two coordinates along a period. */
static double periodic_diff(double a, double b)
{
  double d = fmod(fabs(a - b), LEN);
  return fmin(d, LEN - d);
}

static void check_face(int dim)
{
  /* Across the face: 9.2 and 0.3 are 1.1 apart through it (radii 0.5 + 0.6:
   * they touch at once, obliquely since y differs); inside: the same pair
   * moved by half a period. */
  const double a0[3] = {9.2, 5.0, 5.0}, a1[3] = {0.3, 5.4, 5.2};
  const double b0[3] = {4.2, 5.0, 5.0}, b1[3] = {5.3, 5.4, 5.2};
  pair_state across, inside;
  double imp_across, imp_inside, worst = 0.0;
  PAR_TRY(MPI_COMM_SELF, run_pair(dim, 1, a0, a1, &across, &imp_across));
  PAR_TRY(MPI_COMM_SELF, run_pair(dim, 0, b0, b1, &inside, &imp_inside));
  for (int i = 0; i < 2; i++)
    for (int k = 0; k < dim; k++) {
      worst = fmax(worst, fabs(across.v[i][k] - inside.v[i][k]));
      worst = fmax(worst, fabs(across.w[i][k] - inside.w[i][k]));
      worst = fmax(worst, periodic_diff(across.x[i][k], inside.x[i][k] + (k == 0 ? 5.0 : 0.0)));
    }
  printf("%dD collision across the face: normal impulse %.6g (inside %.6g), largest difference %.3g\n", dim, imp_across,
         imp_inside, worst);
  /* The collision happened (a real impulse) and body 1, pushing body 0,
   * went back through the face. */
  ck_assert_msg(imp_inside > 0.1, "no collision inside (impulse %g)", imp_inside);
  ck_assert_msg(across.x[1][0] > 5.0, "body 1 did not cross the face (x = %g)", across.x[1][0]);
  for (int i = 0; i < 2; i++)
    ck_assert_msg(across.x[i][0] >= 0.0 && across.x[i][0] < LEN, "body %d outside the box: x = %g", i, across.x[i][0]);
  ck_assert_msg(fabs(imp_across - imp_inside) <= TOL, "impulses differ: %.17g and %.17g", imp_across, imp_inside);
  ck_assert_msg(worst <= TOL, "states differ by %g", worst);
}

START_TEST(collision_across_face_2d) { check_face(2); }
END_TEST

START_TEST(collision_across_face_3d) { check_face(3); }
END_TEST

TCase *shear_face_case(void)
{
  TCase *tc = tcase_create("face");
  tcase_add_test(tc, collision_across_face_2d);
  tcase_add_test(tc, collision_across_face_3d);
  return tc;
}
