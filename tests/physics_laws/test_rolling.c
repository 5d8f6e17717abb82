/* The rolling law (src/law/rolling.c) against closed forms, for a disk
 * (2D) or sphere (3D) of inertia k m r^2 (k = 1/2, 2/5) on a floor, r* = r:
 * - on an incline with large mu, it stays at rest while tan(theta) <=
 *   mu_r, its contact torque m g sin r; beyond, it rolls without slipping
 *   at g (sin - mu_r cos) / (1 + k) (2/3 in 2D, 5/7 in 3D), the torque on
 *   its threshold mu_r r m g cos;
 * - rolling on a flat floor from v0 (spin -v0 / r), it decelerates at
 *   mu_r g / (1 + k) and stops at t = v0 (1 + k) / (mu_r g), then stays;
 * - torsion (3D): spinning about the vertical at w0, its spin decreases at
 *   mu_o g / (k r) and stops at t = k r w0 / (mu_o g) = (2/5) r w0 /
 *   (mu_o g);
 * - between two disks the threshold is mu_r r* f_n with r* = r1 r2 /
 *   (r1 + r2).
 * Constant torques make the midpoint velocities exact: checks at 1e-9 of
 * the run's scales are round-off (the 3D local solve iterates its blocks to
 * 1e-13). */
#include <check.h>
#include <math.h>
#include <mpi.h>
#include <stdlib.h>

#include "laws_scene.h"

static const double G = LAWS_G, R = LAWS_R, DT = LAWS_DT;

static double inertia_factor(int dim) { return dim == 2 ? 0.5 : 0.4; }

/* mu_r = 0.1 with mu = 1 (never reached: rolling needs a friction force of
 * m g (sin k + mu_r cos) / (1 + k), below mu m g cos for these slopes). The
 * torque on the floor opposes the floor's relative spin -w_z: it is
 * negative for a body turning (or tending to turn) with w_z < 0. */
START_TEST(test_incline_rolling_friction)
{
  const double mu_r = 0.1;
  const moreau_pair_law pair = {.mu = 1.0, .mu_r = mu_r};
  for (int dim = 2; dim <= 3; dim++) {
    double k = inertia_factor(dim), s, c;
    laws_sin_cos(0.05, &s, &c);
    laws_motion rest = {.a = 0, .alpha = 0, .reaction = {G * s, -G * c}, .torque = -G * s * R, .check_torque = 1};
    laws_sin_cos(0.3, &s, &c);
    double a = G * (s - mu_r * c) / (1 + k);
    laws_motion roll = {
        .a = a, .alpha = -a / R, .reaction = {G * s - a, -G * c}, .torque = -mu_r * R * G * c, .check_torque = 1};
    if (dim == 3) {
      rest.torque = -rest.torque; /* the size of the tangential part */
      roll.torque = -roll.torque;
    }
    laws_check_incline(dim, 300, "rolling", &pair, 0.05, 0, &rest, "tan 0.05 < mu_r: rest");
    laws_check_incline(dim, 300, "rolling", &pair, 0.3, 0, &roll, "tan 0.3 > mu_r: rolls");
  }
}
END_TEST

/* Rolling without slipping on a flat floor from v0 = 0.5 with mu_r = 0.2:
 * v = max(0, v0 - mu_r g t / (1 + k)) and w_z = -v / r at every step (the
 * stop lies 0.26 (2D) and 0.78 (3D) of a step past a step boundary, away
 * from round-off); then it stays at rest. */
START_TEST(test_rolling_stops)
{
  const double mu_r = 0.2, v0 = 0.5;
  const moreau_pair_law pair = {.mu = 1.0, .mu_r = mu_r};
  for (int dim = 2; dim <= 3; dim++) {
    double decel = mu_r * G / (1 + inertia_factor(dim)), worst = 0.0;
    const double w0[3] = {0, 0, -v0 / R};
    moreau_sim *sim = laws_incline(dim, "rolling", &pair, 0.0, G, R, 0, v0, w0);
    int steps = (int)(v0 / (decel * DT)) + 30;
    for (int step = 1; step <= steps; step++) {
      PAR_TRY(moreau_sim_comm(sim), moreau_sim_step(sim));
      moreau_body b = laws_body_get(sim, 0);
      double v = fmax(0.0, v0 - decel * step * DT);
      worst = fmax(worst, (fabs(b.v[0] - v) + fabs(b.w[2] * R + v) + fabs(b.w[0] * R) + fabs(b.w[1] * R)) / v0);
    }
    if (par_rank(MPI_COMM_WORLD) == 0)
      printf("%dD rolling to a stop in %g s: error of v and w r %.2g of v0\n", dim, v0 / decel, worst);
    ck_assert_msg(worst < 1e-9, "%dD: v, -w r deviate from max(0, v0 - mu_r g t / (1 + k)) by %g of v0", dim, worst);
    PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
  }
}
END_TEST

/* A sphere spinning about the vertical at w0 = 2 on a flat floor, mu_o =
 * 0.1 (mu_r = 0.1 too: no rolling here): w_y = max(0, w0 - mu_o g t / (k r))
 * (stop at 0.408 s, 0.75 of a step past a boundary), no other motion, the
 * contact's normal torque mu_o r m g while it spins. */
START_TEST(test_torsion_stops)
{
  const double mu_o = 0.1, w0 = 2.0, k = inertia_factor(3);
  const moreau_pair_law pair = {.mu = 1.0, .mu_r = 0.1, .mu_o = mu_o};
  const double spin[3] = {0, w0, 0}, decel = mu_o * G / (k * R);
  moreau_sim *sim = laws_incline(3, "rolling", &pair, 0.0, G, R, 0, 0.0, spin);
  double worst = 0.0, worst_t = 0.0;
  int steps = (int)(w0 / (decel * DT)) + 30;
  for (int step = 1; step <= steps; step++) {
    PAR_TRY(moreau_sim_comm(sim), moreau_sim_step(sim));
    moreau_body b = laws_body_get(sim, 0);
    laws_contact c = laws_contact_get(sim, 0, MOREAU_WALL_GID(0));
    double m = 1.0 / b.inv_mass, w = fmax(0.0, w0 - decel * step * DT);
    worst = fmax(worst, (fabs(b.w[1] - w) + fabs(b.w[0]) + fabs(b.w[2])) / w0 +
                            (fabs(b.v[0]) + fabs(b.v[1]) + fabs(b.v[2])) / (w0 * R));
    if (w > 0.0) worst_t = fmax(worst_t, fabs(fabs(c.state[0]) - mu_o * R * m * G) / (m * G * R));
  }
  if (par_rank(MPI_COMM_WORLD) == 0)
    printf("3D torsion to a stop in %g s: error of the spin %.2g of w0, of the torque %.2g of m g r\n", w0 / decel,
           worst, worst_t);
  ck_assert_msg(worst < 1e-9, "the spin deviates from max(0, w0 - mu_o g t / (k r)) by %g of w0", worst);
  ck_assert_msg(worst_t < 1e-9, "the torsion torque deviates from mu_o r m g by %g of m g r", worst_t);
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}
END_TEST

/* The threshold between two bodies uses r* = r1 r2 / (r1 + r2): a free
 * disk (r2 = 0.25) pressed by F = 10 against a fixed disk (r1 = 0.75; the
 * radii sum to 1 exactly, so the gap is 0, not a round-off that the
 * closing target would turn into a velocity of 2 gap / dt), no gravity, mu = 1, mu_r = 0.1, under an external torque
 * tau. Below tau_c = mu_r r* F it stays at rest and the contact holds it with the torque -tau on the free disk (which
 * is body b of the contact: the fixed disk has the smaller gid). Above, it starts to roll on the fixed disk without
 * slipping: in the first step, from the initial geometry (the midpoint of a body at rest is its position), I_c dw/dt =
 * tau - tau_c with I_c = (1 + k) m r2^2 about the contact point, and v = w r2 along the tangent (exact for the first
 * step: round-off, 1e-9). */
START_TEST(test_pair_rolling_threshold)
{
  const double r1 = 0.75, r2 = 0.25, F = 10.0, mu_r = 0.1, r_star = r1 * r2 / (r1 + r2), tau_c = mu_r * r_star * F;
  const double zero[3] = {0, 0, 0};
  const moreau_pair_law pair = {.mu = 1.0, .mu_r = mu_r};
  for (int above = 0; above <= 1; above++) {
    moreau_sim *sim = NULL;
    double tau = (above ? 1.05 : 0.95) * tau_c, worst = 0.0;
    laws_body fixed = {.radius = r1, .fixed = 1};
    laws_body free = {.x = {r1 + r2, 0, 0}, .f_ext = {-F, 0, 0}, .t_ext = {0, 0, tau}, .radius = r2};
    PAR_TRY(MPI_COMM_WORLD, laws_sim_create(2, "rolling", &pair, DT, zero, &sim));
    PAR_TRY(MPI_COMM_WORLD, laws_add_body(sim, 0, &fixed));
    PAR_TRY(MPI_COMM_WORLD, laws_add_body(sim, 1, &free));
    PAR_TRY(MPI_COMM_WORLD, moreau_sim_setup(sim, 1e-9));
    for (int step = 1; step <= (above ? 1 : 100); step++) {
      PAR_TRY(moreau_sim_comm(sim), moreau_sim_step(sim));
      moreau_body b = laws_body_get(sim, 1);
      laws_contact c = laws_contact_get(sim, 0, 1);
      ck_assert_msg(c.found == 1, "the disks are not in contact");
      if (!above) {
        worst = fmax(worst, fabs(c.state[0] + tau) / tau_c + fabs(c.force[0] - F) / F +
                                (fabs(b.v[0]) + fabs(b.v[1]) + fabs(b.w[2] * r2)) / (F * DT / (1.0 / b.inv_mass)));
      } else {
        double m = 1.0 / b.inv_mass, w = (tau - tau_c) * DT / (1.5 * m * r2 * r2);
        worst = fabs(b.w[2] - w) / w + fabs(b.v[1] - w * r2) / (w * r2) + fabs(c.state[0] + tau_c) / tau_c;
      }
    }
    if (par_rank(MPI_COMM_WORLD) == 0)
      printf("2D pair, tau = %.2f tau_c (r* = %.4g): error %.2g\n", tau / tau_c, r_star, worst);
    ck_assert_msg(worst < 1e-9, "tau = %.2f tau_c: the motion deviates by %g (relative)", tau / tau_c, worst);
    PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
  }
}
END_TEST

int main(int argc, char **argv)
{
  int status;
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("rolling law");
  TCase *tc = tcase_create("closed forms");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_incline_rolling_friction);
  tcase_add_test(tc, test_rolling_stops);
  tcase_add_test(tc, test_torsion_stops);
  tcase_add_test(tc, test_pair_rolling_threshold);
  suite_add_tcase(s, tc);
  status = par_run_suite(MPI_COMM_WORLD, s, NULL);
  MPI_Finalize();
  return status;
}
