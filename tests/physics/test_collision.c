/* Seed 000 eqs 36-38: binary frontal collision of two disks with external
 * forces; u_n+ = -e_n u_n- and f_n = impulsive + static part, to 1e-10.
 * The line of centres is the x axis, or turned by an angle (the normal then
 * has two nonzero components, so the relative velocity must be taken in the
 * contact frame, not in world components).
 * Runs on any number of ranks: rank 0 adds the disks, setup distributes
 * them, and the checks read the bodies and the contact by global id. */
#include <check.h>
#include <math.h>
#include <mpi.h>
#include <stdlib.h>

#include "parallel.h"
#include "scene.h"

static void collide(double e_n, double angle)
{
  moreau_sim *sim;
  const double r1 = 0.5, r2 = 0.8, rho1 = 2.0, rho2 = 1.3, dt = 1e-3;
  const double v1 = 1.7, v2 = -0.9, F1 = 3.0, F2 = 1.25; /* F1 >= F2 >= 0 as in the paper */
  const double d[3] = {cos(angle), sin(angle), 0}, l = r1 + r2 + 0.5 * dt * (v1 - v2);
  double x1[3] = {0, 0, 0}, x2[3] = {l * d[0], l * d[1], 0};
  double va[3] = {v1 * d[0], v1 * d[1], 0}, vb[3] = {v2 * d[0], v2 * d[1], 0};
  moreau_body a, b;
  par_contact *c;
  int64_t nc;
  moreau_err err = MOREAU_SUCCESS;
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_create(MPI_COMM_WORLD, 2, &sim));
  PAR_TRY(MPI_COMM_WORLD, scene_set_law(sim, 0.3, e_n, 0.0));
  moreau_sim_set_dt(sim, dt);
  if (moreau_sim_rank(sim) == 0) {
    err = scene_add_body(sim, 0, x1, va, r1, rho1, 0);
    err = err ? err : scene_add_body(sim, 1, x2, vb, r2, rho2, 0);
    err = err ? err : moreau_bodies_enable_external(moreau_sim_bodies(sim));
    if (!err) {
      for (int k = 0; k < 2; k++) {
        moreau_sim_bodies(sim)->f_ext[k] = F1 * d[k];
        moreau_sim_bodies(sim)->f_ext[3 + k] = -F2 * d[k];
      }
    }
  }
  PAR_TRY(MPI_COMM_WORLD, err);
  moreau_nlgs_set_tolerance(moreau_sim_nlgs(sim), 1e-14, MOREAU_NLGS_NORM_MEAN);
  PAR_TRY(moreau_sim_comm(sim), moreau_sim_setup(sim, 0.01));
  PAR_TRY(moreau_sim_comm(sim), moreau_sim_step(sim));

  /* The disks touch exactly at the midpoint of the step (gap 0). */
  par_gather_contacts(moreau_sim_comm(sim), moreau_sim_bodies(sim), moreau_sim_contacts(sim), &c, &nc);
  ck_assert_int_eq(nc, 1);
  ck_assert(fabs(c[0].gap) < 1e-12);
  ck_assert_int_eq(par_get_body(moreau_sim_bodies(sim), 0, &a), 1);
  ck_assert_int_eq(par_get_body(moreau_sim_bodies(sim), 1, &b), 1);
  double m1 = 1.0 / a.inv_mass, m2 = 1.0 / b.inv_mass;
  double un_minus = v2 - v1, un_plus = (b.v[0] - a.v[0]) * d[0] + (b.v[1] - a.v[1]) * d[1];
  double fn_expected = -(1.0 / dt) * m1 * m2 / (m1 + m2) * (1.0 + e_n) * un_minus + (m2 * F1 + m1 * F2) / (m1 + m2);
  ck_assert_msg(fabs(un_plus + e_n * un_minus) < 1e-10 * fabs(un_minus), "e_n %g: u_n+ %.17g, expected %.17g", e_n,
                un_plus, -e_n * un_minus);
  ck_assert_msg(fabs(c[0].force[0] - fn_expected) < 1e-10 * fabs(fn_expected), "e_n %g: f_n %.17g, expected %.17g", e_n,
                c[0].force[0], fn_expected);
  ck_assert(fabs(c[0].force[1]) < 1e-12 * fn_expected);
  /* Momentum balance: the contact impulse is internal. */
  double p0 = m1 * v1 + m2 * v2 + dt * (F1 - F2);
  double p1 = (m1 * a.v[0] + m2 * b.v[0]) * d[0] + (m1 * a.v[1] + m2 * b.v[1]) * d[1];
  ck_assert(fabs(p1 - p0) < 1e-12 * fabs(m1 * v1));
  free(c);
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}

START_TEST(test_collision_en0) { collide(0.0, 0.0); }
END_TEST

START_TEST(test_collision_en_half) { collide(0.5, 0.0); }
END_TEST

START_TEST(test_collision_en1) { collide(1.0, 0.0); }
END_TEST

START_TEST(test_collision_oblique) { collide(0.5, 0.6); }
END_TEST

/* Receding disks within the alert distance must not be held together. */
START_TEST(test_no_adhesion)
{
  moreau_sim *sim;
  double x1[3] = {0, 0, 0}, x2[3] = {2.01, 0, 0}, va[3] = {-1, 0, 0}, vb[3] = {1, 0, 0};
  moreau_body a, b;
  par_contact *c;
  int64_t nc;
  moreau_err err = MOREAU_SUCCESS;
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_create(MPI_COMM_WORLD, 2, &sim));
  moreau_sim_set_dt(sim, 1e-3);
  moreau_sim_set_alert(sim, 0.1);
  if (moreau_sim_rank(sim) == 0) {
    err = scene_add_body(sim, 0, x1, va, 1.0, 1.0, 0);
    err = err ? err : scene_add_body(sim, 1, x2, vb, 1.0, 1.0, 0);
  }
  PAR_TRY(MPI_COMM_WORLD, err);
  PAR_TRY(moreau_sim_comm(sim), moreau_sim_setup(sim, 0.01));
  PAR_TRY(moreau_sim_comm(sim), moreau_sim_step(sim));
  par_gather_contacts(moreau_sim_comm(sim), moreau_sim_bodies(sim), moreau_sim_contacts(sim), &c, &nc);
  ck_assert_int_eq(nc, 1);
  ck_assert(c[0].force[0] == 0.0);
  ck_assert_int_eq(par_get_body(moreau_sim_bodies(sim), 0, &a), 1);
  ck_assert_int_eq(par_get_body(moreau_sim_bodies(sim), 1, &b), 1);
  ck_assert(a.v[0] == -1.0 && b.v[0] == 1.0);
  free(c);
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}
END_TEST

int main(int argc, char **argv)
{
  int status;
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("collision");
  TCase *tc = tcase_create("binary");
  tcase_add_test(tc, test_collision_en0);
  tcase_add_test(tc, test_collision_en_half);
  tcase_add_test(tc, test_collision_en1);
  tcase_add_test(tc, test_collision_oblique);
  tcase_add_test(tc, test_no_adhesion);
  suite_add_tcase(s, tc);
  status = par_run_suite(MPI_COMM_WORLD, s, NULL);
  MPI_Finalize();
  return status;
}
