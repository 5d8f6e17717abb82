/* The MD comparison law (-method md; src/law/md_spring_dashpot.c) against
 * the closed form of a binary collision of soft disks (seed 004 appendix B,
 * eq 12): the overlap d of a linear spring-dashpot pair of reduced mass m*
 * is a damped oscillation, d(t) = (v0 / w_d) exp(-z w0 t) sin(w_d t) with
 * w0 = sqrt(k / m*), z = g / (2 sqrt(k m*)), w_d = w0 sqrt(1 - z^2), while
 * the force k d + g d' presses; it stops pressing (the dashpot never pulls)
 * at tan(w_d t*) = -2 z sqrt(1 - z^2) / (1 - 2 z^2), after which the disks
 * fly apart at the velocity d'(t*): the restitution coefficient is
 * e = |d'(t*)| / v0 and the contact lasts t*. An undamped pair (g = 0)
 * bounces elastically after pi / w0. And the friction of eq 2 (RC1): a disk
 * sliding on a plane under its weight is slowed by mu m g once the slip is
 * above mu m g / g_t, and by g_t u_t below. Every rank count gives the same
 * verdict (the bodies are distributed by setup). */
#include <check.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "parallel.h"
#include "scene.h"

static const moreau_law *md_law(void)
{
  const moreau_law *l = moreau_law_find("md_spring_dashpot");
  ck_assert_ptr_nonnull(l);
  ck_assert(moreau_law_is_explicit(l));
  return l;
}

static void set_md_pair(moreau_sim *sim, double mu, double k, double g_n, double g_t)
{
  moreau_pair_law pair = {.mu = mu, .k_n = k, .g_n = g_n, .g_t = g_t};
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_set_law(sim, md_law()));
  PAR_TRY(MPI_COMM_WORLD, moreau_materials_set_pair(moreau_sim_materials(sim), 0, 0, &pair));
}

/* The closed form: restitution and contact time of the clipped damped
 * oscillator. */
static void collision_closed_form(double k, double g, double m_red, double *e, double *t_contact)
{
  const double w0 = sqrt(k / m_red), z = g / (2.0 * sqrt(k * m_red)), wd = w0 * sqrt(1.0 - z * z);
  double phase = M_PI - atan2(2.0 * z * sqrt(1.0 - z * z), 1.0 - 2.0 * z * z);
  *t_contact = phase / wd;
  double dd = exp(-z * w0 * *t_contact) * (cos(wd * *t_contact) - z * w0 / wd * sin(wd * *t_contact));
  *e = -dd;
}

/* Two equal disks (radius 0.5, mass m) meeting head-on at relative speed
 * v0; returns the measured restitution and contact time (steps with a
 * pressing contact times dt). */
static void collide(double k, double g, double dt, double *e, double *t_contact)
{
  moreau_sim *sim;
  const double v0 = 1.0, rad = 0.5, rho = 1.0;
  double xa[3] = {0, 0, 0}, xb[3] = {2 * rad + 0.5 * v0 * dt, 0, 0}, va[3] = {0.5 * v0, 0, 0},
         vb[3] = {-0.5 * v0, 0, 0};
  moreau_body a, b;
  moreau_err err = MOREAU_SUCCESS;
  long pressing = 0;
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_create(MPI_COMM_WORLD, 2, &sim));
  set_md_pair(sim, 0.3, k, g, 0.0);
  moreau_sim_set_dt(sim, dt);
  if (moreau_sim_rank(sim) == 0) {
    err = scene_add_body(sim, 0, xa, va, rad, rho, 0);
    err = err ? err : scene_add_body(sim, 1, xb, vb, rad, rho, 0);
  }
  PAR_TRY(MPI_COMM_WORLD, err);
  moreau_sim_set_alert(sim, 0.1);
  PAR_TRY(moreau_sim_comm(sim), moreau_sim_setup(sim, 0.01));
  for (long s = 0; s < 100000; s++) {
    PAR_TRY(moreau_sim_comm(sim), moreau_sim_step(sim));
    double fn = 0.0;
    const moreau_contacts *c = moreau_sim_contacts(sim);
    for (moreau_lid i = 0; i < c->n; i++)
      fn += c->force[3 * i];
    MPI_Allreduce(MPI_IN_PLACE, &fn, 1, MPI_DOUBLE, MPI_SUM, moreau_sim_comm(sim));
    if (fn > 0.0)
      pressing++;
    else if (pressing)
      break;
  }
  ck_assert_int_eq(par_get_body(moreau_sim_bodies(sim), 0, &a), 1);
  ck_assert_int_eq(par_get_body(moreau_sim_bodies(sim), 1, &b), 1);
  *e = (b.v[0] - a.v[0]) / v0;
  *t_contact = pressing * dt;
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}

START_TEST(test_collision)
{
  const double m_red = 0.5 * M_PI * 0.25; /* two disks of radius 0.5, density 1 */
  const double k = 1e4, t0 = M_PI * sqrt(m_red / k);
  const double dampings[] = {0.0, 5.0, 20.0};
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < 3; i++) {
    double e, t, e_ref, t_ref;
    collision_closed_form(k, dampings[i], m_red, &e_ref, &t_ref);
    collide(k, dampings[i], t0 / 1000, &e, &t);
    if (!rank)
      printf("g_n %g: restitution %.6f (closed form %.6f, %+.1e), contact time %.6f (%.6f, %+.1e)\n", dampings[i], e,
             e_ref, e / e_ref - 1, t, t_ref, t / t_ref - 1);
    /* The scheme is second order in dt for the spring; the dashpot reads the
     * relative velocity at the start of each step (first order): at 1000
     * steps per contact both stay within 3e-3. */
    ck_assert_msg(fabs(e - e_ref) <= 3e-3 * e_ref, "g_n %g: restitution %.6f, closed form %.6f", dampings[i], e, e_ref);
    ck_assert_msg(fabs(t - t_ref) <= 3e-3 * t_ref, "g_n %g: contact time %.6f, closed form %.6f", dampings[i], t,
                  t_ref);
  }
}
END_TEST

/* A disk (mass m, I = m r^2 / 2) sliding on a fixed floor at v0 with no
 * spin, under gravity g: Coulomb's mu m g decelerates the slip
 * u = v + w r at (1 + m r^2 / I) mu g = 3 mu g while u > mu m g / g_t, then
 * the regularized branch makes it decay exponentially at rate 3 g_t / m. The
 * disk ends rolling at 2 v0 / 3 (angular momentum about the contact point is
 * conserved); measured after the slip has decayed. */
START_TEST(test_regularized_friction)
{
  moreau_sim *sim;
  const double rad = 0.5, rho = 1.0, v0 = 3.0, mu = 0.2, grav = 1.0, k = 1e5;
  const double m = rho * M_PI * rad * rad, g_n = 2.0 * sqrt(k * m), g_t = 50.0;
  const double dt = 0.05 * sqrt(m / k);
  double x[3] = {0, rad - m * grav / k, 0}, v[3] = {v0, 0, 0};
  moreau_body b;
  moreau_err err = MOREAU_SUCCESS;
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_create(MPI_COMM_WORLD, 2, &sim));
  set_md_pair(sim, mu, k, g_n, g_t);
  moreau_sim_set_dt(sim, dt);
  moreau_sim_set_gravity(sim, (const double[3]){0, -grav, 0});
  PAR_TRY(MPI_COMM_WORLD, scene_add_fixed_wall(sim, 0, 0, 0, 1));
  if (moreau_sim_rank(sim) == 0) err = scene_add_body(sim, 0, x, v, rad, rho, 0);
  PAR_TRY(MPI_COMM_WORLD, err);
  PAR_TRY(moreau_sim_comm(sim), moreau_sim_setup(sim, 0.01));
  /* Coulomb phase: the slip falls from v0 to about 0 in v0 / (3 mu g) = 5. */
  const double t_slide = v0 / (3.0 * mu * grav);
  long half = lround(0.5 * t_slide / dt), end = lround(1.5 * t_slide / dt);
  for (long s = 0; s < end; s++) {
    PAR_TRY(moreau_sim_comm(sim), moreau_sim_step(sim));
    if (s + 1 == half) {
      ck_assert_int_eq(par_get_body(moreau_sim_bodies(sim), 0, &b), 1);
      double t = (s + 1) * dt;
      ck_assert_msg(fabs(b.v[0] - (v0 - mu * grav * t)) <= 2e-3 * v0, "sliding: v %.6f, Coulomb %.6f", b.v[0],
                    v0 - mu * grav * t);
    }
  }
  ck_assert_int_eq(par_get_body(moreau_sim_bodies(sim), 0, &b), 1);
  ck_assert_msg(fabs(b.v[0] - 2.0 * v0 / 3.0) <= 2e-3 * v0, "rolling at the end: v %.6f, expected 2 v0 / 3 = %.6f",
                b.v[0], 2.0 * v0 / 3.0);
  ck_assert_msg(fabs(b.v[0] + b.w[2] * rad) <= 1e-3 * v0, "the slip has decayed: %g", b.v[0] + b.w[2] * rad);
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}
END_TEST

int main(int argc, char **argv)
{
  int status;
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("physics_md");
  TCase *tc = tcase_create("md");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_collision);
  tcase_add_test(tc, test_regularized_friction);
  suite_add_tcase(s, tc);
  status = par_run_suite(MPI_COMM_WORLD, s, NULL);
  MPI_Finalize();
  return status;
}
