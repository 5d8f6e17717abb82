/* Lees-Edwards images, on one rank:
 * - a body crossing the gradient face comes back through the other one with
 *   its flow velocity shifted by exactly the velocity difference across the
 *   box (-rate L upward, +rate L downward) and its flow position by the
 *   offset of the images at that time;
 * - two bodies in contact across the gradient face feel the velocity of the
 *   images: the collision equals that of the same pair in a plain periodic
 *   box where body 1 carries the image's extra velocity itself (1e-12), in
 *   2D and in 3D (where the image's velocity is a tangential target, which
 *   the row keeps in its extra entry);
 * - a dilute sheared gas whose bodies cross the gradient faces keeps the
 *   imposed linear profile v_x = rate (y - L/2) (see below). */
#include <math.h>
#include <stdio.h>

#include "moreau/rng.h"
#include "parallel.h"
#include "scene.h"
#include "shear_scene.h"

static double wrapped(double x, double len)
{
  double r = fmod(x, len);
  return r < 0 ? r + len : r;
}

START_TEST(crossing_shifts_velocity_by_the_jump)
{
  const double len = 4.0, rate = 2.0, dt = 1e-2, jump = rate * len;
  const double x_up[3] = {1.0, 3.9, 0}, v_up[3] = {0.1, 1.0, 0};
  const double x_down[3] = {3.0, 0.05, 0}, v_down[3] = {-0.3, -1.0, 0};
  moreau_sim *sim;
  moreau_bodies *b;
  int crossed[2] = {0, 0};
  PAR_TRY(MPI_COMM_SELF, shear_sim_create(MPI_COMM_SELF, 2, len, 1, 1, rate, dt, 0.3, 0.0, &sim));
  PAR_TRY(MPI_COMM_SELF, scene_add_body(sim, 0, x_up, v_up, 0.1, 1.0, 0));
  PAR_TRY(MPI_COMM_SELF, scene_add_body(sim, 1, x_down, v_down, 0.1, 1.0, 0));
  PAR_TRY(MPI_COMM_SELF, moreau_sim_setup(sim, 0.0));
  b = moreau_sim_bodies(sim);
  for (int s = 0; s < 30; s++) {
    double x_before[2][3], v_before[2][3], expected;
    moreau_lees_edwards le;
    for (moreau_lid i = 0; i < 2; i++)
      for (int k = 0; k < 3; k++) {
        x_before[b->gid[i]][k] = b->x[3 * i + k];
        v_before[b->gid[i]][k] = b->v[3 * i + k];
      }
    PAR_TRY(MPI_COMM_SELF, moreau_sim_step(sim));
    moreau_domain_get_lees_edwards(moreau_sim_domain(sim), &le);
    for (moreau_lid i = 0; i < 2; i++) {
      moreau_gid g = b->gid[i];
      ck_assert_msg(b->x[3 * i + 1] >= 0.0 && b->x[3 * i + 1] < len, "body %lld outside: y = %g", (long long)g,
                    b->x[3 * i + 1]);
      if (fabs(b->x[3 * i + 1] - x_before[g][1]) < 0.5 * len) {
        ck_assert_msg(b->v[3 * i] == v_before[g][0], "body %lld: velocity changed without a crossing", (long long)g);
        continue;
      }
      /* Crossed at the midpoint of this step (the offset then was the
       * present one less half a step of sliding). */
      int m = g == 0 ? -1 : 1;
      ck_assert_msg(b->v[3 * i] == v_before[g][0] + m * jump,
                    "body %lld: velocity %.17g after the crossing, "
                    "expected %.17g",
                    (long long)g, b->v[3 * i], v_before[g][0] + m * jump);
      expected =
          x_before[g][0] + 0.5 * dt * v_before[g][0] + m * (le.offset - 0.5 * dt * jump) + 0.5 * dt * b->v[3 * i];
      ck_assert_msg(fabs(wrapped(expected, len) - b->x[3 * i]) < 1e-12,
                    "body %lld: x = %.17g after the crossing, "
                    "expected %.17g",
                    (long long)g, b->x[3 * i], wrapped(expected, len));
      crossed[g]++;
    }
  }
  ck_assert_msg(crossed[0] == 1 && crossed[1] == 1, "crossings: %d up, %d down (expected one each)", crossed[0],
                crossed[1]);
  PAR_TRY(MPI_COMM_SELF, moreau_sim_destroy(&sim));
}
END_TEST

/* Body 0 near the top, body 1 near the bottom under its image; both at rest
 * in their own frames but approaching along y. With Lees-Edwards at rate
 * the image of body 1 slides at rate L along x: the contact is a sliding,
 * frictional impact (in 3D, off centre along z too). */
static moreau_err run_across(int dim, int le, double *state)
{
  const double len = 4.0, rate = 0.25, dt = 1e-2, z = dim == 3 ? 2.0 : 0.0;
  const double x0[3] = {2.0, 3.6, z}, v0[3] = {0.0, 1.0, 0}, x1[3] = {2.1, 0.55, z + 0.05 * (dim - 2)};
  double v1[3] = {le ? 0.0 : rate * len, -1.0, 0};
  moreau_sim *sim;
  MOREAU_CALL(shear_sim_create(MPI_COMM_SELF, dim, len, 1, le, rate, dt, 0.4, 0.2, &sim));
  MOREAU_CALL(scene_add_body(sim, 0, x0, v0, 0.4, 1.0, 0));
  MOREAU_CALL(scene_add_body(sim, 1, x1, v1, 0.4, 1.5, 0));
  MOREAU_CALL(moreau_sim_setup(sim, 0.0));
  for (int s = 0; s < 25; s++)
    MOREAU_CALL(moreau_sim_step(sim));
  const moreau_bodies *b = moreau_sim_bodies(sim);
  for (moreau_lid i = 0; i < 2; i++) {
    int g = (int)b->gid[i];
    state[4 * g] = b->v[3 * i] + (le && g == 1 ? rate * len : 0.0);
    state[4 * g + 1] = b->v[3 * i + 1];
    state[4 * g + 2] = b->w[3 * i + 2];
    state[4 * g + 3] = b->x[3 * i + 1];
  }
  MOREAU_CALL(moreau_sim_destroy(&sim));
  return MOREAU_SUCCESS;
}

static void check_across(int dim)
{
  double with_le[8], plain[8], worst = 0.0;
  PAR_TRY(MPI_COMM_SELF, run_across(dim, 1, with_le));
  PAR_TRY(MPI_COMM_SELF, run_across(dim, 0, plain));
  for (int k = 0; k < 8; k++)
    worst = fmax(worst, fabs(with_le[k] - plain[k]));
  printf("%dD impact across the Lees-Edwards face: spins %.6g %.6g, vy %.6g %.6g; largest difference %.3g\n", dim,
         with_le[2], with_le[6], with_le[1], with_le[5], worst);
  /* Friction acted (the sliding image spun both bodies) and they separated. */
  ck_assert_msg(fabs(with_le[2]) > 0.1 && fabs(with_le[6]) > 0.1, "no spin from the sliding contact: %g, %g",
                with_le[2], with_le[6]);
  ck_assert_msg(with_le[1] < with_le[5], "the bodies did not separate: vy %g below, %g above", with_le[1], with_le[5]);
  ck_assert_msg(worst <= 1e-12, "Lees-Edwards and moving-image runs differ by %g", worst);
}

START_TEST(contact_across_face_feels_image_velocity) { check_across(2); }
END_TEST

START_TEST(contact_across_face_feels_image_velocity_3d) { check_across(3); }
END_TEST

/* A dilute gas of point-like disks (radius 1e-8: they never meet) with the
 * imposed profile v_x = rate (y - L/2) and random v_y in [-1, 1], run until
 * most of them have crossed the gradient faces. Without contacts, body i
 * keeps v_x - rate (y - L/2) = d_i - rate v_y t exactly (d_i its initial
 * departure, 0 here) if and only if every crossing shifted x, y and v_x
 * consistently: that is checked per body to 1e-9. The Eulerian profile,
 * the mean v_x in ten bins of y, must stay rate (y_bin - L/2) within four
 * standard errors of the bin's mean: the departures average out because
 * v_y is symmetric, while one missed or doubled jump (rate L = 5) in a
 * crossing moves a bin's mean by far more. */
START_TEST(dilute_flow_keeps_linear_profile)
{
  enum { NX = 50, NY = 40, BINS = 10, STEPS = 800 };
  const double len = 10.0, rate = 0.5, dt = 1e-2, t = STEPS * dt;
  double sum[BINS] = {0}, sum2[BINS] = {0}, y0[NX * NY], worst = 0.0, worst_bin = 0.0;
  int count[BINS] = {0}, crossed = 0;
  moreau_sim *sim;
  moreau_bodies *b;
  int64_t contacts = 0;
  PAR_TRY(MPI_COMM_SELF, shear_sim_create(MPI_COMM_SELF, 2, len, 1, 1, rate, dt, 0.3, 0.0, &sim));
  for (int j = 0; j < NY; j++)
    for (int i = 0; i < NX; i++) {
      moreau_rng rng;
      double x[3], v[3] = {0, 0, 0};
      moreau_rng_seed(&rng, 5, (uint64_t)(j * NX + i));
      x[0] = (i + moreau_rng_uniform(&rng)) * len / NX;
      x[1] = (j + moreau_rng_uniform(&rng)) * len / NY;
      x[2] = 0.0;
      v[0] = rate * (x[1] - 0.5 * len);
      v[1] = 2.0 * moreau_rng_uniform(&rng) - 1.0;
      y0[j * NX + i] = x[1];
      PAR_TRY(MPI_COMM_SELF, scene_add_body(sim, j * NX + i, x, v, 1e-8, 1.0, 0));
    }
  PAR_TRY(MPI_COMM_SELF, moreau_sim_setup(sim, 0.0));
  b = moreau_sim_bodies(sim);
  for (int s = 0; s < STEPS; s++) {
    PAR_TRY(MPI_COMM_SELF, moreau_sim_step(sim));
    contacts += moreau_sim_stats(sim)->n_contacts_global;
  }
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    double y = b->x[3 * i + 1], departure = b->v[3 * i] - rate * (y - 0.5 * len);
    int bin = (int)(y / len * BINS);
    worst = fmax(worst, fabs(departure + rate * b->v[3 * i + 1] * t));
    double y_end = y0[b->gid[i]] + b->v[3 * i + 1] * t;
    crossed += y_end < 0.0 || y_end >= len;
    sum[bin] += departure;
    sum2[bin] += departure * departure;
    count[bin]++;
  }
  for (int k = 0; k < BINS; k++) {
    double mean = sum[k] / count[k], var = sum2[k] / count[k] - mean * mean;
    worst_bin = fmax(worst_bin, fabs(mean) / (sqrt(var / count[k]) + 1e-300));
  }
  printf("dilute Lees-Edwards flow: %d bodies, %d crossed at least once; per-body departure from the sheared "
         "trajectory %.3g; worst bin mean %.2f standard errors from the profile\n",
         NX * NY, crossed, worst, worst_bin);
  ck_assert_msg(contacts == 0, "%lld contacts: the flow is not contact-free", (long long)contacts);
  ck_assert_msg(crossed > NX * NY / 4, "only %d bodies crossed the gradient faces", crossed);
  ck_assert_msg(worst <= 1e-9, "a body's velocity departs from its sheared trajectory by %g", worst);
  ck_assert_msg(worst_bin <= 4.0, "a bin's mean velocity is %.2f standard errors from the profile", worst_bin);
  PAR_TRY(MPI_COMM_SELF, moreau_sim_destroy(&sim));
}
END_TEST

TCase *shear_le_case(void)
{
  TCase *tc = tcase_create("lees_edwards");
  tcase_add_test(tc, crossing_shifts_velocity_by_the_jump);
  tcase_add_test(tc, contact_across_face_feels_image_velocity);
  tcase_add_test(tc, contact_across_face_feels_image_velocity_3d);
  tcase_add_test(tc, dilute_flow_keeps_linear_profile);
  return tc;
}
