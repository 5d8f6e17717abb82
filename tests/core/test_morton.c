/* moreau_morton_key: its masks give the key of the bit-by-bit interleave
 * (the definition, written out here) for random points on grids of every
 * size the code uses and smaller, for points outside the cube (clamped) and
 * on its faces; and a few keys worked by hand. Serial. */
#include <check.h>
#include <mpi.h>
#include <stdint.h>

#include "check_runner.h"
#include "moreau/morton.h"
#include "moreau/rng.h"

/* The definition: from the top bit down, one bit of each axis in turn. */
static uint64_t interleave(const double *x, const double lo[3], double edge, int dim, int bits)
{
  uint32_t q[3] = {0, 0, 0};
  uint64_t key = 0;
  const double top = (double)((1ull << bits) - 1u);
  for (int d = 0; d < dim; d++) {
    double t = (x[d] - lo[d]) / edge;
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    q[d] = (uint32_t)(t * top);
  }
  for (int bit = bits - 1; bit >= 0; bit--)
    for (int d = 0; d < dim; d++)
      key = key << 1 | ((q[d] >> bit) & 1u);
  return key;
}

START_TEST(test_same_as_interleave)
{
  const int bits2[] = {1, 5, 16, 31, 32}, bits3[] = {1, 7, 16, 21};
  const double lo[3] = {-3.0, 2.0, 0.5}, edge = 17.25;
  moreau_rng r;
  moreau_rng_seed(&r, 2026, 11);
  for (int dim = 2; dim <= 3; dim++) {
    const int *bits = dim == 2 ? bits2 : bits3, nbits = dim == 2 ? 5 : 4;
    for (int ib = 0; ib < nbits; ib++)
      for (int i = 0; i < 20000; i++) {
        double x[3];
        /* A tenth of the points outside the cube, some on its faces. */
        for (int d = 0; d < 3; d++) {
          x[d] = lo[d] + edge * (1.2 * moreau_rng_uniform(&r) - 0.1);
          if (i % 97 == 0) x[d] = lo[d] + (d == 0 ? edge : 0.0);
        }
        const uint64_t want = interleave(x, lo, edge, dim, bits[ib]),
                       got = moreau_morton_key(x, lo, edge, dim, bits[ib]);
        ck_assert_msg(got == want, "dim %d, %d bits, point %d: key %llx, interleave %llx", dim, bits[ib], i,
                      (unsigned long long)got, (unsigned long long)want);
      }
  }
}
END_TEST

START_TEST(test_by_hand)
{
  const double lo[3] = {0, 0, 0};
  /* A grid of 4 points an axis over [0, 3]: q is the coordinate itself. */
  const double x10[3] = {1, 0, 0}, x01[3] = {0, 1, 0}, x32[3] = {3, 2, 0}, x001[3] = {0, 0, 1}, x333[3] = {3, 3, 3};
  ck_assert_uint_eq(moreau_morton_key(x10, lo, 3.0, 2, 2), 2); /* x's bit before y's */
  ck_assert_uint_eq(moreau_morton_key(x01, lo, 3.0, 2, 2), 1);
  ck_assert_uint_eq(moreau_morton_key(x32, lo, 3.0, 2, 2), 14); /* x = 11, y = 10: 1110 */
  ck_assert_uint_eq(moreau_morton_key(x001, lo, 3.0, 3, 2), 1);
  ck_assert_uint_eq(moreau_morton_key(x333, lo, 3.0, 3, 2), 63);
  /* The far corner of the largest grids: every bit of the key set. */
  const double far[3] = {1, 1, 1};
  ck_assert(moreau_morton_key(far, lo, 1.0, 2, 32) == UINT64_MAX);
  ck_assert(moreau_morton_key(far, lo, 1.0, 3, 21) == (1ull << 63) - 1);
}
END_TEST

int main(int argc, char **argv)
{
  int status;
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("morton");
  TCase *tc = tcase_create("morton");
  tcase_add_test(tc, test_same_as_interleave);
  tcase_add_test(tc, test_by_hand);
  suite_add_tcase(s, tc);
  status = moreau_test_run_suite(s);
  MPI_Finalize();
  return status;
}
