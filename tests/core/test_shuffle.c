/* moreau_rng_shuffle, the NLGS sweep's fresh order: at every size it is
 * textbook Fisher-Yates over moreau_rng_below, the same permutation and the
 * same generator state after as the plain loop here, on both sides of the
 * size from which it draws ahead and prefetches; every entry comes out once;
 * and the 24 orders of 4 entries come out equally often (chi-square). Serial. */
#include <check.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "check_runner.h"
#include "moreau/rng.h"

/* The plain loop: a[i] with a[j], j = below(i + 1), i from n - 1 down. */
static void fisher_yates(moreau_rng *r, moreau_lid *a, moreau_lid n)
{
  for (moreau_lid i = n - 1; i > 0; i--) {
    moreau_lid j = (moreau_lid)moreau_rng_below(r, (uint32_t)(i + 1)), t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}

START_TEST(test_same_as_fisher_yates)
{
  /* Around the prefetching shuffle's threshold (2^16) and its look-ahead (32). */
  const moreau_lid sizes[] = {0, 1, 2, 33, 1000, 65535, 65536, 65537, 65536 + 32, 200003};
  for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
    const moreau_lid n = sizes[s];
    moreau_lid *a = malloc(((size_t)n + 1) * sizeof(*a)), *b = malloc(((size_t)n + 1) * sizeof(*b));
    char *seen = calloc((size_t)n + 1, 1);
    ck_assert(a && b && seen);
    for (moreau_lid i = 0; i < n; i++)
      a[i] = b[i] = 3 * i + 7; /* not the identity, so a swap with the wrong slot shows */
    moreau_rng ra, rb;
    moreau_rng_seed(&ra, 12345, (uint64_t)s);
    rb = ra;
    for (int rep = 0; rep < 2; rep++) { /* twice: the second from the first's state and order */
      moreau_rng_shuffle(&ra, a, n);
      fisher_yates(&rb, b, n);
      ck_assert_msg(memcmp(a, b, (size_t)n * sizeof(*a)) == 0, "n = %d, pass %d: not Fisher-Yates' order", n, rep);
      ck_assert_msg(memcmp(&ra, &rb, sizeof(ra)) == 0, "n = %d, pass %d: another generator state after", n, rep);
    }
    for (moreau_lid i = 0; i < n; i++) {
      ck_assert(a[i] >= 7 && (a[i] - 7) % 3 == 0 && (a[i] - 7) / 3 < n);
      ck_assert_msg(!seen[(a[i] - 7) / 3], "n = %d: entry %d twice", n, a[i]);
      seen[(a[i] - 7) / 3] = 1;
    }
    moreau_lid moved = 0;
    for (moreau_lid i = 0; i < n; i++)
      moved += a[i] != 3 * i + 7;
    ck_assert_msg(n < 3 || moved > 0, "n = %d: nothing moved", n);
    free(a);
    free(b);
    free(seen);
  }
}
END_TEST

START_TEST(test_uniform_on_four)
{
  enum { N = 4, ORDERS = 24, TRIALS = 24000 };
  int count[ORDERS] = {0};
  moreau_rng r;
  moreau_rng_seed(&r, 2026, 0);
  for (int t = 0; t < TRIALS; t++) {
    moreau_lid a[N] = {0, 1, 2, 3};
    moreau_rng_shuffle(&r, a, N);
    /* The order's rank among the 24 (Lehmer code). */
    int code = 0;
    for (int i = 0; i < N; i++) {
      int smaller = 0;
      for (int j = i + 1; j < N; j++)
        smaller += a[j] < a[i];
      code = code * (N - i) + smaller;
    }
    count[code]++;
  }
  double chi2 = 0.0, expect = (double)TRIALS / ORDERS;
  for (int k = 0; k < ORDERS; k++)
    chi2 += (count[k] - expect) * (count[k] - expect) / expect;
  /* 23 degrees of freedom: P(chi2 > 60) < 1e-4; a swap of j in [0, i) (one
   * order never drawn) gives chi2 of 24000 and more. */
  ck_assert_msg(chi2 < 60.0, "chi2 = %g over the 24 orders of 4", chi2);
}
END_TEST

int main(int argc, char **argv)
{
  int status;
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("shuffle");
  TCase *tc = tcase_create("shuffle");
  tcase_add_test(tc, test_same_as_fisher_yates);
  tcase_add_test(tc, test_uniform_on_four);
  suite_add_tcase(s, tc);
  status = moreau_test_run_suite(s);
  MPI_Finalize();
  return status;
}
