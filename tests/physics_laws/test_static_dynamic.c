/* The static_dynamic law (src/law/static_dynamic.c) against closed forms on
 * an incline of slope tan(theta), in 2D and 3D, released from rest:
 * - a block (no rotation) stays at rest while tan(theta) <= mu_s, carried
 *   by (m g sin, m g cos); beyond, it slides at g (sin - mu cos) with the
 *   dynamic mu; between mu and mu_s signorini_coulomb with the same mu
 *   slides;
 * - a disk (sphere) of inertia k m r^2 rolls without slipping at
 *   g sin / (1 + k) while tan(theta) <= mu_s (1 + k) / k, its contact
 *   sticking; beyond, it slides at g (sin - mu cos) and spins up at
 *   mu g cos / (k r); between (1 + k) / k times mu and mu_s
 *   signorini_coulomb slides;
 * - a block sliding on a flat floor keeps the dynamic mu until it stops.
 * Constant forces make Moreau's midpoint velocities exact: the checks are at
 * 1e-9 relative, round-off over a few hundred steps plus the NLGS tolerance
 * of a single contact (solved exactly in one sweep). */
#include <check.h>
#include <math.h>
#include <mpi.h>
#include <stdlib.h>

#include "laws_scene.h"

static const double G = LAWS_G, R = LAWS_R, DT = LAWS_DT;
static const int STEPS = 300;

/* A block: at rest the floor carries (m g sin, -m g cos); sliding, its
 * friction is mu m g cos. */
static laws_motion block_at_rest(double slope)
{
  double s, c;
  laws_sin_cos(slope, &s, &c);
  return (laws_motion){.a = 0, .alpha = 0, .reaction = {G * s, -G * c}};
}

static laws_motion block_sliding(double slope, double mu)
{
  double s, c;
  laws_sin_cos(slope, &s, &c);
  return (laws_motion){.a = G * (s - mu * c), .alpha = 0, .reaction = {mu * G * c, -G * c}};
}

START_TEST(test_block_static_dynamic)
{
  const moreau_pair_law pair = {.mu = 0.3, .mu_s = 0.5}, coulomb = {.mu = 0.3};
  for (int dim = 2; dim <= 3; dim++) {
    laws_motion rest = block_at_rest(0.4), slow = block_sliding(0.4, 0.3), fast = block_sliding(0.6, 0.3);
    laws_motion low = block_at_rest(0.2);
    laws_check_incline(dim, STEPS, "static_dynamic", &pair, 0.2, 1, &low, "block, tan 0.2 < mu: rest");
    laws_check_incline(dim, STEPS, "static_dynamic", &pair, 0.4, 1, &rest, "block, mu < tan 0.4 < mu_s: rest");
    laws_check_incline(dim, STEPS, "signorini_coulomb", &coulomb, 0.4, 1, &slow,
                       "block, signorini_coulomb, tan 0.4 > mu: slides");
    laws_check_incline(dim, STEPS, "static_dynamic", &pair, 0.6, 1, &fast, "block, tan 0.6 > mu_s: slides with mu");
  }
}
END_TEST

/* A disk or sphere of inertia k m r^2: rolling without slipping, the
 * friction force m g sin k / (1 + k) turns it at -a / r; sliding, the
 * friction mu m g cos turns it at -mu g cos / (k r) (w_z < 0 rolls it
 * towards +x). */
static laws_motion disk_rolling(double slope, double k)
{
  double s, c;
  laws_sin_cos(slope, &s, &c);
  double a = G * s / (1 + k);
  return (laws_motion){.a = a, .alpha = -a / R, .reaction = {G * s * k / (1 + k), -G * c}};
}

static laws_motion disk_sliding(double slope, double k, double mu)
{
  double s, c;
  laws_sin_cos(slope, &s, &c);
  return (laws_motion){.a = G * (s - mu * c), .alpha = -mu * G * c / (k * R), .reaction = {mu * G * c, -G * c}};
}

/* mu = 0.2, mu_s = 0.4: rolling needs tan <= mu_s (1 + k) / k (1.2 in 2D,
 * 1.4 in 3D), and mu (1 + k) / k is 0.6 and 0.7; tan 0.9 lies between (the
 * contact sticks under static_dynamic, slides under signorini_coulomb), tan
 * 1.6 beyond both. */
START_TEST(test_disk_static_dynamic)
{
  const moreau_pair_law pair = {.mu = 0.2, .mu_s = 0.4}, coulomb = {.mu = 0.2};
  for (int dim = 2; dim <= 3; dim++) {
    double k = dim == 2 ? 0.5 : 0.4;
    laws_motion roll = disk_rolling(0.9, k), slide = disk_sliding(0.9, k, 0.2), fast = disk_sliding(1.6, k, 0.2);
    laws_check_incline(dim, STEPS, "static_dynamic", &pair, 0.9, 0, &roll, "disk, tan 0.9 < mu_s (1+k)/k: rolls");
    laws_check_incline(dim, STEPS, "signorini_coulomb", &coulomb, 0.9, 0, &slide,
                       "disk, signorini_coulomb, tan 0.9: slides");
    laws_check_incline(dim, STEPS, "static_dynamic", &pair, 1.6, 0, &fast,
                       "disk, tan 1.6 > mu_s (1+k)/k: slides with mu");
  }
}
END_TEST

/* A block sliding on a flat floor from v0 decelerates at mu g and stops:
 * v = max(0, v0 - mu g t) at every step. Once sliding, its contact's
 * sticking test uses mu, so the last step removes at most mu g dt (a
 * sticking test with mu_s = 5 mu would stop it about 2.5 steps early, 5e-3 of
 * v0 off); stopped, it stays. v0 / (mu g dt) = 254.8 keeps the stop away
 * from a step boundary. */
START_TEST(test_block_stops_with_dynamic_mu)
{
  const double mu = 0.2, v0 = 0.5;
  const moreau_pair_law pair = {.mu = mu, .mu_s = 5 * mu};
  for (int dim = 2; dim <= 3; dim++) {
    moreau_sim *sim = laws_incline(dim, "static_dynamic", &pair, 0.0, G, R, 1, v0, NULL);
    double worst = 0.0;
    for (int step = 1; step <= 280; step++) {
      PAR_TRY(moreau_sim_comm(sim), moreau_sim_step(sim));
      moreau_body b = laws_body_get(sim, 0);
      worst = fmax(worst, fabs(b.v[0] - fmax(0.0, v0 - mu * G * step * DT)) / v0);
    }
    if (par_rank(MPI_COMM_WORLD) == 0) printf("%dD block stopping: error of v %.2g of v0\n", dim, worst);
    ck_assert_msg(worst < 1e-9, "%dD: v deviates from max(0, v0 - mu g t) by %g of v0", dim, worst);
    PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
  }
}
END_TEST

int main(int argc, char **argv)
{
  int status;
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("static_dynamic law");
  TCase *tc = tcase_create("closed forms");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_block_static_dynamic);
  tcase_add_test(tc, test_disk_static_dynamic);
  tcase_add_test(tc, test_block_stops_with_dynamic_mu);
  suite_add_tcase(s, tc);
  status = par_run_suite(MPI_COMM_WORLD, s, NULL);
  MPI_Finalize();
  return status;
}
