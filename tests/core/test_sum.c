/* Order-independent sums: the same terms added in any order, or split over
 * any number of ranks and reduced, give the same double, also where plain
 * double addition loses everything to cancellation. */
#include <check.h>
#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "check_runner.h"
#include "moreau/rng.h"
#include "moreau/sum.h"

#define NTERMS 20000

/* Terms of both signs spread over 40 binary orders of magnitude, with
 * pairs that cancel exactly: the hard case for a naive sum. */
static void make_terms(double *t, int n)
{
  moreau_rng r;
  moreau_rng_seed(&r, 7, 0);
  for (int i = 0; i < n; i += 2) {
    double m = (moreau_rng_uniform(&r) - 0.5) * ldexp(1.0, (int)moreau_rng_below(&r, 40) - 20);
    t[i] = m;
    if (i + 1 < n) t[i + 1] = moreau_rng_uniform(&r) < 0.5 ? -m : 1e-3 * m;
  }
}

static void shuffle(double *t, int n, moreau_rng *r)
{
  for (int i = n - 1; i > 0; i--) {
    int j = (int)moreau_rng_below(r, (uint32_t)(i + 1));
    double x = t[i];
    t[i] = t[j];
    t[j] = x;
  }
}

static double sum_of(const double *t, int n)
{
  moreau_sum s = {0.0, 0.0};
  for (int i = 0; i < n; i++)
    moreau_sum_add(&s, t[i]);
  return moreau_sum_value(&s);
}

START_TEST(test_cancellation)
{
  const double t[3] = {1e16, 1.0, -1e16};
  const int order[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (int p = 0; p < 6; p++) {
    double u[3] = {t[order[p][0]], t[order[p][1]], t[order[p][2]]};
    ck_assert_double_eq(sum_of(u, 3), 1.0);
  }
}
END_TEST

START_TEST(test_any_order_same_double)
{
  double *t = malloc(NTERMS * sizeof(double));
  moreau_rng r;
  make_terms(t, NTERMS);
  const double ref = sum_of(t, NTERMS);
  int naive_differs = 0;
  double naive_ref = 0.0;
  for (int i = 0; i < NTERMS; i++)
    naive_ref += t[i];
  moreau_rng_seed(&r, 11, 0);
  for (int k = 0; k < 20; k++) {
    shuffle(t, NTERMS, &r);
    double naive = 0.0;
    for (int i = 0; i < NTERMS; i++)
      naive += t[i];
    naive_differs += memcmp(&naive, &naive_ref, sizeof(double)) != 0;
    double s = sum_of(t, NTERMS);
    ck_assert_msg(memcmp(&s, &ref, sizeof(double)) == 0, "order %d: %.17g instead of %.17g", k, s, ref);
  }
  /* The test has teeth: a plain sum of these terms depends on the order. */
  ck_assert_int_gt(naive_differs, 0);
  free(t);
}
END_TEST

START_TEST(test_allreduce_equals_one_rank)
{
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double *t = malloc(NTERMS * sizeof(double));
  moreau_rng r;
  make_terms(t, NTERMS);
  moreau_sum s[2] = {{0.0, 0.0}, {0.0, 0.0}};
  moreau_rng_seed(&r, 3, 0);
  /* Term i goes to a pseudo-random rank (the same draw on every rank); the
   * second sum takes the squares. */
  for (int i = 0; i < NTERMS; i++)
    if ((int)moreau_rng_below(&r, (uint32_t)size) == rank) {
      moreau_sum_add(&s[0], t[i]);
      moreau_sum_add(&s[1], t[i] * t[i]);
    }
  ck_assert_int_eq(moreau_sum_allreduce(MPI_COMM_WORLD, s, 2), MOREAU_SUCCESS);
  double sq_ref, ref = sum_of(t, NTERMS), got = moreau_sum_value(&s[0]), sq = moreau_sum_value(&s[1]);
  for (int i = 0; i < NTERMS; i++)
    t[i] *= t[i];
  sq_ref = sum_of(t, NTERMS);
  ck_assert_msg(memcmp(&got, &ref, sizeof(double)) == 0, "%d ranks: %.17g instead of %.17g", size, got, ref);
  ck_assert_msg(memcmp(&sq, &sq_ref, sizeof(double)) == 0, "%d ranks: %.17g instead of %.17g", size, sq, sq_ref);
  free(t);
}
END_TEST

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("sum");
  TCase *tc = tcase_create("sum");
  tcase_add_test(tc, test_cancellation);
  tcase_add_test(tc, test_any_order_same_double);
  tcase_add_test(tc, test_allreduce_equals_one_rank);
  suite_add_tcase(s, tc);
  int status = moreau_test_run_suite(s);
  MPI_Finalize();
  return status;
}
