/* The domain: identity without periodic axes (bitwise), minimum image and
 * Lees-Edwards images against brute force over the image lattice, wrapping
 * across faces (exact shifts, consistency with the separation), the
 * Lees-Edwards offset over long runs, and input errors. Serial. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check_runner.h"
#include "moreau/domain.h"
#include "moreau/rng.h"

/* Check records every passing assertion with a write to its runner, which
 * dominates loops over millions of cases: assert only on failure (used
 * throughout for uniformity). */
#define FAST_ASSERT(cond)                                                                                              \
  do {                                                                                                                 \
    if (!(cond)) ck_assert(cond);                                                                                      \
  } while (0)
#define FAST_ASSERT_MSG(cond, ...)                                                                                     \
  do {                                                                                                                 \
    if (!(cond)) ck_assert_msg(cond, __VA_ARGS__);                                                                     \
  } while (0)

static void setup(void) { moreau_error_clear(); }

static moreau_domain *make_domain(int dim, const double lo[3], const double hi[3], const int periodic[3])
{
  moreau_domain *d = NULL;
  ck_assert_int_eq(moreau_domain_create(dim, &d), MOREAU_SUCCESS);
  if (lo) ck_assert_int_eq(moreau_domain_set_box(d, lo, hi), MOREAU_SUCCESS);
  for (int k = 0; periodic && k < dim; k++)
    ck_assert_int_eq(moreau_domain_set_periodic(d, k, periodic[k]), MOREAU_SUCCESS);
  return d;
}

static double uniform(moreau_rng *r, double a, double b) { return a + (b - a) * moreau_rng_uniform(r); }

/* A value spread over the whole double range: random sign, mantissa and
 * exponent in [-1000, 1000] (so subnormals too), and sometimes zero. */
static double any_magnitude(moreau_rng *r)
{
  uint32_t pick = moreau_rng_below(r, 16);
  double sign = moreau_rng_below(r, 2) ? -1.0 : 1.0;
  if (pick == 0) return sign * 0.0;
  return sign * ldexp(1.0 + moreau_rng_uniform(r), (int)moreau_rng_below(r, 2001) - 1000);
}

static int bitwise_equal(double a, double b) { return memcmp(&a, &b, sizeof(a)) == 0; }

/* 1. Without periodic axes every query is the identity, bitwise. */
START_TEST(test_no_periodic_identity)
{
  const double lo[3] = {-1.0, 0.5, 2.0}, hi[3] = {3.0, 1.5, 7.0};
  const int periodic_x[3] = {1, 0, 0};
  moreau_rng r;
  moreau_rng_seed(&r, 11, 0);
  for (int variant = 0; variant < 6; variant++) {
    int dim = 2 + variant % 2;
    /* No box; a box without periodic axes; a periodic axis switched off. */
    moreau_domain *d = make_domain(dim, variant >= 2 ? lo : NULL, hi, variant >= 4 ? periodic_x : NULL);
    if (variant >= 4) {
      FAST_ASSERT(moreau_domain_any_periodic(d));
      ck_assert_int_eq(moreau_domain_set_periodic(d, 0, 0), MOREAU_SUCCESS);
    }
    FAST_ASSERT(!moreau_domain_any_periodic(d));
    for (int i = 0; i < 20000; i++) {
      double xa[3], xb[3], dx[3], shift[3] = {7, 7, 7}, vshift[3] = {7, 7, 7}, x[3], v[3], x0[3], v0[3];
      int m1, m2;
      for (int k = 0; k < 3; k++) {
        xa[k] = any_magnitude(&r);
        xb[k] = i % 3 ? any_magnitude(&r) : xa[k] * (1 + uniform(&r, -1e-15, 1e-15));
        x[k] = x0[k] = any_magnitude(&r);
        v[k] = v0[k] = any_magnitude(&r);
      }
      if (dim == 2) xa[2] = xb[2] = 0.0;
      moreau_domain_separation(d, xa, xb, dx, shift, vshift);
      for (int k = 0; k < 3; k++) {
        double want = xb[k] - xa[k];
        FAST_ASSERT_MSG(bitwise_equal(dx[k], want), "variant %d axis %d: dx %a, xb - xa %a", variant, k, dx[k], want);
        FAST_ASSERT_MSG(bitwise_equal(shift[k], 0.0) && bitwise_equal(vshift[k], 0.0), "variant %d: nonzero shift",
                        variant);
      }
      moreau_domain_separation(d, xa, xb, dx, NULL, NULL);
      FAST_ASSERT(bitwise_equal(dx[0], xb[0] - xa[0]) && bitwise_equal(dx[1], xb[1] - xa[1]));
      m1 = moreau_domain_wrap(d, x, v);
      m2 = moreau_domain_wrap(d, x, NULL);
      FAST_ASSERT(m1 == 0 && m2 == 0);
      FAST_ASSERT_MSG(!memcmp(x, x0, sizeof(x)) && !memcmp(v, v0, sizeof(v)), "variant %d: wrap moved a body", variant);
    }
    ck_assert_int_eq(moreau_domain_destroy(&d), MOREAU_SUCCESS);
    ck_assert_ptr_null(d);
  }
}
END_TEST

/* Brute-force nearest image over ranges of images: per periodic axis k the
 * shift n L_k with |n| <= range; with Lees-Edwards, the gradient index m also
 * moves the flow coordinate by m * offset. Returns the squared distance and
 * the gradient index of the best image in *best_m. */
static double brute_force(int dim, const double lo[3], const double hi[3], const int periodic[3], int le_on, int f,
                          int g, double offset, int range, const double xa[3], const double xb[3], double best_dx[3],
                          int *best_m)
{
  int n[3], lim[3];
  double best = INFINITY;
  for (int k = 0; k < 3; k++)
    lim[k] = k < dim && periodic[k] ? range : 0;
  for (n[0] = -lim[0]; n[0] <= lim[0]; n[0]++)
    for (n[1] = -lim[1]; n[1] <= lim[1]; n[1]++)
      for (n[2] = -lim[2]; n[2] <= lim[2]; n[2]++) {
        double dx[3], r2 = 0;
        for (int k = 0; k < 3; k++)
          dx[k] = xb[k] + n[k] * (hi[k] - lo[k]) - xa[k];
        if (le_on) dx[f] += n[g] * offset;
        for (int k = 0; k < 3; k++)
          r2 += dx[k] * dx[k];
        if (r2 < best) {
          best = r2;
          memcpy(best_dx, dx, sizeof(dx));
          if (best_m) *best_m = le_on ? n[g] : 0;
        }
      }
  return best;
}

/* 2. Plain periodic axes: the nearest image from brute force over 9^dim
 * images (points up to a box length outside the box), in 2D and 3D, with
 * every axis or some of them periodic. */
START_TEST(test_periodic_minimum_image)
{
  const double lo[3] = {-1.3, 0.7, 2.1}, hi[3] = {2.2, 1.9, 5.0};
  const int sets[5][3] = {{1, 1, 1}, {1, 0, 0}, {0, 1, 0}, {1, 0, 1}, {0, 1, 1}};
  moreau_rng r;
  moreau_rng_seed(&r, 12, 0);
  for (int dim = 2; dim <= 3; dim++) {
    for (int s = 0; s < 5; s++) {
      moreau_domain *d = make_domain(dim, lo, hi, sets[s]);
      for (int i = 0; i < 4000; i++) {
        double xa[3] = {0, 0, 0}, xb[3] = {0, 0, 0}, dx[3], shift[3], vshift[3], want[3] = {0, 0, 0};
        for (int k = 0; k < dim; k++) {
          double len = hi[k] - lo[k];
          xa[k] = uniform(&r, lo[k] - len, hi[k] + len);
          xb[k] = uniform(&r, lo[k] - len, hi[k] + len);
        }
        brute_force(dim, lo, hi, sets[s], 0, 0, 1, 0.0, 4, xa, xb, want, NULL);
        moreau_domain_separation(d, xa, xb, dx, shift, vshift);
        for (int k = 0; k < 3; k++) {
          double len = hi[k] - lo[k];
          FAST_ASSERT_MSG(fabs(dx[k] - want[k]) <= 1e-12 * len, "dim %d set %d axis %d: dx %.17g, brute force %.17g",
                          dim, s, k, dx[k], want[k]);
          FAST_ASSERT(vshift[k] == 0.0);
          if (k < dim && sets[s][k]) {
            FAST_ASSERT(fabs(dx[k]) <= 0.5 * len);
            FAST_ASSERT_MSG(shift[k] == nearbyint(shift[k] / len) * len, "shift %.17g not a multiple of %g", shift[k],
                            len);
            FAST_ASSERT(fabs(xb[k] + shift[k] - xa[k] - dx[k]) <= 1e-12 * len);
          } else {
            FAST_ASSERT(bitwise_equal(dx[k], xb[k] - xa[k]) && shift[k] == 0.0);
          }
        }
      }
      ck_assert_int_eq(moreau_domain_destroy(&d), MOREAU_SUCCESS);
    }
  }
  /* Small hand case: across the face the short way round. */
  {
    const double l1[3] = {0, 0, 0}, h1[3] = {1, 1, 1};
    const int p1[3] = {1, 1, 1};
    moreau_domain *d = make_domain(2, l1, h1, p1);
    double xa[3] = {0.125, 0.5, 0}, xb[3] = {0.875, 0.5, 0}, dx[3], shift[3];
    moreau_domain_separation(d, xa, xb, dx, shift, NULL);
    FAST_ASSERT(dx[0] == -0.25 && dx[1] == 0.0 && shift[0] == -1.0 && shift[1] == 0.0);
    moreau_domain_separation(d, xb, xa, dx, shift, NULL);
    FAST_ASSERT(dx[0] == 0.25 && shift[0] == 1.0);
    ck_assert_int_eq(moreau_domain_destroy(&d), MOREAU_SUCCESS);
  }
}
END_TEST

typedef struct {
  int dim, f, g;
  int periodic[3];
  double rate;
} le_case;

/* 3. Lees-Edwards: for random pairs the result is an image of the lattice
 * (gradient index m, flow shift m * offset + n L_f) with every periodic
 * component within half a period and vshift = m * rate * L_g; it is the
 * brute-force nearest image whenever that is within half the shortest period
 * (the only range where the nearest image is unique and the one detection
 * needs); and pairs built as a known displacement plus a known image are
 * recovered exactly. Offsets include 0 and values next to L_f. */
START_TEST(test_lees_edwards_separation)
{
  const double lo[3] = {-0.4, 1.1, -2.0}, hi[3] = {2.9, 3.6, 0.7};
  const le_case cases[] = {
      {2, 0, 1, {1, 1, 0}, 0.7},  {2, 1, 0, {1, 1, 0}, -1.3}, {3, 0, 1, {1, 1, 1}, 0.45},
      {3, 0, 1, {1, 1, 0}, -2.0}, {3, 2, 0, {1, 0, 1}, 0.3},  {2, 0, 1, {1, 1, 0}, 0.0},
  };
  moreau_rng r;
  moreau_rng_seed(&r, 13, 0);
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    const le_case *lc = &cases[c];
    const int f = lc->f, g = lc->g, dim = lc->dim;
    moreau_domain *d = make_domain(dim, lo, hi, lc->periodic);
    double lf = hi[f] - lo[f], lg = hi[g] - lo[g], lmin = INFINITY, vj = lc->rate * lg;
    const double offsets[] = {0.0, 0.25 * lf, 0.5 * lf, 0.9 * lf, nextafter(lf, 0.0), lf * (1 - 1e-12), 1e-14, -1};
    int compared = 0;
    for (int k = 0; k < dim; k++)
      if (lc->periodic[k]) lmin = fmin(lmin, hi[k] - lo[k]);
    ck_assert_int_eq(moreau_domain_set_lees_edwards(d, f, g, lc->rate), MOREAU_SUCCESS);
    for (size_t o = 0; o < sizeof(offsets) / sizeof(offsets[0]); o++) {
      moreau_lees_edwards le;
      double offset = offsets[o] >= 0 ? offsets[o] : uniform(&r, 0, lf);
      ck_assert_int_eq(moreau_domain_set_lees_edwards_offset(d, offset), MOREAU_SUCCESS);
      moreau_domain_get_lees_edwards(d, &le);
      FAST_ASSERT(le.on && le.flow == f && le.gradient == g && le.rate == lc->rate && le.offset == offset);
      FAST_ASSERT(le.velocity_jump == vj);
      for (int i = 0; i < 3000; i++) {
        double xa[3] = {0, 0, 0}, xb[3] = {0, 0, 0}, dx[3], shift[3], vshift[3], want[3] = {0, 0, 0}, rest[3];
        int bm = 0, m;
        for (int k = 0; k < dim; k++) {
          double len = hi[k] - lo[k];
          xa[k] = uniform(&r, lo[k] - 0.5 * len, hi[k] + 0.5 * len);
          xb[k] = uniform(&r, lo[k] - 0.5 * len, hi[k] + 0.5 * len);
        }
        double best = sqrt(brute_force(dim, lo, hi, lc->periodic, 1, f, g, offset, 4, xa, xb, want, &bm));
        moreau_domain_separation(d, xa, xb, dx, shift, vshift);
        m = (int)nearbyint(shift[g] / lg);
        FAST_ASSERT_MSG(shift[g] == m * lg, "shift along gradient %.17g is not a multiple of %g", shift[g], lg);
        FAST_ASSERT_MSG(vshift[f] == m * vj && vshift[g] == 0.0 && vshift[3 - f - g] == 0.0,
                        "case %zu: vshift %g for m = %d, want %g", c, vshift[f], m, m * vj);
        rest[f] = (shift[f] - m * offset) / lf;
        FAST_ASSERT_MSG(fabs(rest[f] - nearbyint(rest[f])) < 1e-9, "flow shift %.17g is not m offset + n L_f",
                        shift[f]);
        for (int k = 0; k < 3; k++) {
          double len = hi[k] - lo[k];
          FAST_ASSERT(fabs(xb[k] + shift[k] - xa[k] - dx[k]) <= 1e-12 * (len + 1));
          if (k < dim && lc->periodic[k])
            FAST_ASSERT_MSG(fabs(dx[k]) <= 0.5 * len * (1 + 1e-12), "axis %d: |dx| %g > half of %g", k, dx[k], len);
          else
            FAST_ASSERT(bitwise_equal(dx[k], xb[k] - xa[k]) && shift[k] == 0.0);
        }
        if (best < 0.499 * lmin) {
          compared++;
          FAST_ASSERT_MSG(m == bm, "gradient image %d, brute force %d", m, bm);
          for (int k = 0; k < 3; k++)
            FAST_ASSERT_MSG(fabs(dx[k] - want[k]) <= 1e-12 * lmin,
                            "case %zu offset %g axis %d: %.17g, brute force %.17g", c, offset, k, dx[k], want[k]);
        }
      }
      /* A known displacement seen through a known image. */
      for (int i = 0; i < 3000; i++) {
        double xa[3] = {0, 0, 0}, xb[3], disp[3] = {0, 0, 0}, dx[3], shift[3], vshift[3], norm;
        int m = (int)moreau_rng_below(&r, 5) - 2, n[3];
        do {
          norm = 0;
          for (int k = 0; k < dim; k++) {
            disp[k] = uniform(&r, -0.45, 0.45) * lmin;
            norm += disp[k] * disp[k];
          }
        } while (sqrt(norm) >= 0.45 * lmin);
        for (int k = 0; k < 3; k++) {
          n[k] = k < dim && lc->periodic[k] && k != g ? (int)moreau_rng_below(&r, 5) - 2 : 0;
          if (k < dim) xa[k] = uniform(&r, lo[k], hi[k]);
          xb[k] = xa[k] + disp[k] - n[k] * (hi[k] - lo[k]);
        }
        xb[g] -= m * lg;
        xb[f] -= m * offset;
        moreau_domain_separation(d, xa, xb, dx, shift, vshift);
        FAST_ASSERT_MSG(vshift[f] == m * vj, "case %zu: vshift %.17g for image %d, want %.17g", c, vshift[f], m,
                        m * vj);
        FAST_ASSERT(fabs(shift[g] - m * lg) <= 1e-12 * lg);
        FAST_ASSERT(fabs(shift[f] - m * offset - n[f] * lf) <= 1e-12 * lf * 4);
        for (int k = 0; k < 3; k++)
          FAST_ASSERT_MSG(fabs(dx[k] - disp[k]) <= 1e-12 * lmin * 4, "case %zu axis %d: dx %.17g, built from %.17g", c,
                          k, dx[k], disp[k]);
      }
    }
    FAST_ASSERT_MSG(compared > 1000, "case %zu: only %d pairs within range of brute force", c, compared);
    ck_assert_int_eq(moreau_domain_destroy(&d), MOREAU_SUCCESS);
  }
}
END_TEST

/* 4a. Crossing a gradient face shifts by exactly one period, -+offset along
 * flow and -+rate L_g in velocity; a position at hi becomes lo; a body many
 * periods out comes back with the matching count. */
START_TEST(test_wrap_exact)
{
  const double lo[3] = {-0.3, 0.1, 0}, hi[3] = {1.7, 2.3, 0}, lf = 1.7 - -0.3, lg = 2.3 - 0.1;
  const int periodic[3] = {1, 1, 0};
  const double rate = 0.37, offset = 0.6;
  moreau_domain *d = make_domain(2, lo, hi, periodic);
  moreau_lees_edwards le;
  double x[3], v[3];
  ck_assert_int_eq(moreau_domain_set_lees_edwards(d, 0, 1, rate), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_domain_set_lees_edwards_offset(d, offset), MOREAU_SUCCESS);
  moreau_domain_get_lees_edwards(d, &le);
  FAST_ASSERT(le.velocity_jump == rate * lg);

  /* Up through the gradient face: m = -1. */
  x[0] = 0.5, x[1] = 2.31, x[2] = 0, v[0] = 0.2, v[1] = -0.1, v[2] = 0;
  ck_assert_int_eq(moreau_domain_wrap(d, x, v), -1);
  FAST_ASSERT(x[1] == 2.31 - lg && x[0] == 0.5 - offset);
  FAST_ASSERT(v[0] == 0.2 - rate * lg && v[1] == -0.1);
  /* Down: m = +1. */
  x[0] = 0.5, x[1] = 0.09, v[0] = 0.2, v[1] = -0.1;
  ck_assert_int_eq(moreau_domain_wrap(d, x, v), 1);
  FAST_ASSERT(x[1] == 0.09 + lg && x[0] == 0.5 + offset);
  FAST_ASSERT(v[0] == 0.2 + rate * lg && v[1] == -0.1);
  /* The flow shift carries the body out of the flow range: wrapped too. */
  x[0] = -0.2, x[1] = 2.4, v[0] = 0;
  ck_assert_int_eq(moreau_domain_wrap(d, x, v), -1);
  FAST_ASSERT_MSG(x[0] == (-0.2 - offset) + lf && x[1] == 2.4 - lg, "x %.17g %.17g", x[0], x[1]);
  FAST_ASSERT(v[0] == -rate * lg);
  /* v may be NULL. */
  x[0] = 0.5, x[1] = 2.31;
  ck_assert_int_eq(moreau_domain_wrap(d, x, NULL), -1);
  FAST_ASSERT(x[0] == 0.5 - offset);
  /* A body inside stays bitwise where it is, also right below hi. */
  x[0] = nextafter(1.7, 0), x[1] = nextafter(2.3, 0), v[0] = 1, v[1] = 2;
  ck_assert_int_eq(moreau_domain_wrap(d, x, v), 0);
  FAST_ASSERT(x[0] == nextafter(1.7, 0) && x[1] == nextafter(2.3, 0) && v[0] == 1 && v[1] == 2);
  x[0] = -0.3, x[1] = 0.1;
  ck_assert_int_eq(moreau_domain_wrap(d, x, v), 0);
  FAST_ASSERT(x[0] == -0.3 && x[1] == 0.1);
  /* Exactly at hi: lo (along gradient with the Lees-Edwards shift). */
  x[0] = 1.7, x[1] = 1.0, v[0] = 0;
  ck_assert_int_eq(moreau_domain_wrap(d, x, v), 0);
  FAST_ASSERT(x[0] == -0.3 && v[0] == 0);
  x[0] = 1.0, x[1] = 2.3;
  ck_assert_int_eq(moreau_domain_wrap(d, x, v), -1);
  FAST_ASSERT(x[1] == 0.1 && x[0] == 1.0 - offset && v[0] == -rate * lg);
  /* Many periods out: m counts them. */
  for (int p = -7; p <= 7; p++) {
    double y = 1.3 + p * lg, want_f;
    x[0] = 0.4, x[1] = y, v[0] = 0.25;
    ck_assert_int_eq(moreau_domain_wrap(d, x, v), -p);
    want_f = fmod(0.4 - p * offset - lo[0], lf);
    want_f += want_f < 0 ? lf + lo[0] : lo[0];
    FAST_ASSERT_MSG(fabs(x[1] - 1.3) < 1e-13 && fabs(x[0] - want_f) < 1e-13, "p = %d: x %.17g %.17g", p, x[0], x[1]);
    FAST_ASSERT(v[0] == 0.25 + -p * (rate * lg));
  }
  ck_assert_int_eq(moreau_domain_destroy(&d), MOREAU_SUCCESS);

  /* Plain periodic: no count, hi maps to lo also where hi - L is not lo in
   * floating point. */
  {
    const double l2[3] = {0.1, 0.1, 0.1}, h2[3] = {0.7, 0.7, 0.7};
    const int p2[3] = {1, 0, 1};
    double len = 0.7 - 0.1;
    d = make_domain(3, l2, h2, p2);
    x[0] = 0.7, x[1] = 5.0, x[2] = 0.7 + 3 * len, v[0] = v[1] = v[2] = 1.0;
    ck_assert_int_eq(moreau_domain_wrap(d, x, v), 0);
    FAST_ASSERT_MSG(x[0] == 0.1 && x[1] == 5.0 && x[2] >= 0.1 && x[2] < 0.7, "x %.17g %.17g %.17g", x[0], x[1], x[2]);
    FAST_ASSERT(v[0] == 1.0 && v[1] == 1.0 && v[2] == 1.0);
    /* Values a rounding error outside: still inside afterwards. */
    for (int i = 0; i < 64; i++) {
      x[0] = nextafter(0.1, -1) - i * 1e-17, x[2] = nextafter(0.7, 2) + i * 1e-17;
      moreau_domain_wrap(d, x, NULL);
      FAST_ASSERT_MSG(x[0] >= 0.1 && x[0] < 0.7 && x[2] >= 0.1 && x[2] < 0.7, "x %.17g %.17g", x[0], x[2]);
    }
    ck_assert_int_eq(moreau_domain_destroy(&d), MOREAU_SUCCESS);
  }
}
END_TEST

/* 4b. Random bodies up to five periods out: wrapping puts them in the box,
 * changes the velocity by exactly m rate L_g, and does not change what the
 * separation to a fixed point sees (position and velocity of the image). */
START_TEST(test_wrap_separation_consistent)
{
  const double lo[3] = {-0.4, 1.1, -2.0}, hi[3] = {2.9, 3.6, 0.7};
  const le_case cases[] = {
      {2, 0, 1, {1, 1, 0}, 0.7}, {3, 0, 1, {1, 1, 1}, -0.45}, {3, 2, 0, {1, 0, 1}, 1.5}, {3, 0, 0, {1, 0, 1}, 0}};
  moreau_rng r;
  moreau_rng_seed(&r, 14, 0);
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    const le_case *lc = &cases[c];
    int le_on = lc->f != lc->g;
    double size = 0;
    moreau_domain *d = make_domain(lc->dim, lo, hi, lc->periodic);
    moreau_lees_edwards le;
    for (int k = 0; k < lc->dim; k++)
      size = fmax(size, hi[k] - lo[k]);
    if (le_on) {
      ck_assert_int_eq(moreau_domain_set_lees_edwards(d, lc->f, lc->g, lc->rate), MOREAU_SUCCESS);
      ck_assert_int_eq(moreau_domain_set_lees_edwards_offset(d, 0.37 * (hi[lc->f] - lo[lc->f])), MOREAU_SUCCESS);
    }
    moreau_domain_get_lees_edwards(d, &le);
    for (int i = 0; i < 20000; i++) {
      double xa[3] = {0, 0, 0}, x[3] = {0, 0, 0}, x0[3], v[3], v0[3], dx0[3], dx1[3], vs0[3], vs1[3];
      int m;
      for (int k = 0; k < lc->dim; k++) {
        double len = hi[k] - lo[k];
        xa[k] = uniform(&r, lo[k], hi[k]);
        x[k] = uniform(&r, lo[k] - 5 * len, hi[k] + 5 * len);
      }
      for (int k = 0; k < 3; k++)
        v[k] = uniform(&r, -1, 1);
      memcpy(x0, x, sizeof(x));
      memcpy(v0, v, sizeof(v));
      moreau_domain_separation(d, xa, x0, dx0, NULL, vs0);
      m = moreau_domain_wrap(d, x, v);
      if (!le_on) FAST_ASSERT(m == 0);
      for (int k = 0; k < 3; k++) {
        if (k < lc->dim && lc->periodic[k])
          FAST_ASSERT_MSG(x[k] >= lo[k] && x[k] < hi[k], "axis %d: %.17g outside [%g, %g)", k, x[k], lo[k], hi[k]);
        else
          FAST_ASSERT(x[k] == x0[k]);
        if (le_on && k == lc->f)
          FAST_ASSERT_MSG(v[k] == v0[k] + m * le.velocity_jump, "v %.17g from %.17g with m = %d", v[k], v0[k], m);
        else
          FAST_ASSERT(v[k] == v0[k]);
      }
      if (le_on)
        FAST_ASSERT_MSG(fabs(x[lc->g] - (x0[lc->g] + m * (hi[lc->g] - lo[lc->g]))) <= 1e-12 * size,
                        "gradient count %d does not match the move %.17g -> %.17g", m, x0[lc->g], x[lc->g]);
      moreau_domain_separation(d, xa, x, dx1, NULL, vs1);
      for (int k = 0; k < 3; k++) {
        FAST_ASSERT_MSG(fabs(dx1[k] - dx0[k]) <= 1e-12 * size, "case %zu axis %d: %.17g after wrap, %.17g before", c, k,
                        dx1[k], dx0[k]);
        FAST_ASSERT(fabs((v[k] + vs1[k]) - (v0[k] + vs0[k])) <= 1e-12 * (1 + fabs(le.velocity_jump) * 8));
      }
    }
    ck_assert_int_eq(moreau_domain_destroy(&d), MOREAU_SUCCESS);
  }
}
END_TEST

/* 5. The offset over 1e7 steps. With a dyadic step everything is exact and
 * the offset must equal the integer closed form bitwise; with a general step
 * it must stay within the rounding of the additions (each rounds at the scale
 * of L_f) of the closed form fmod(n * step, L_f) in long double. */
static void run_advance_dyadic(double rate)
{
  /* L_g = 2, L_f = 3, dt = 2^-10: each step is rate * 2^-9 exactly, a whole
   * number of units 2^-11 when rate is a multiple of 1/4. */
  const double lo[3] = {-1.5, -1, 0}, hi[3] = {1.5, 1, 0};
  const int periodic[3] = {1, 1, 0};
  const int64_t units_per_step = (int64_t)(rate * 4), units_lf = 3 * 2048;
  moreau_domain *d = make_domain(2, lo, hi, periodic);
  moreau_lees_edwards le;
  ck_assert_int_eq(moreau_domain_set_lees_edwards(d, 0, 1, rate), MOREAU_SUCCESS);
  for (int64_t n = 1; n <= 10000000; n++) {
    moreau_domain_advance(d, 0x1p-10);
    if (n % 250000 == 0 || n < 5000) {
      int64_t units = (n * units_per_step) % units_lf;
      double want = ldexp((double)(units < 0 ? units + units_lf : units), -11);
      moreau_domain_get_lees_edwards(d, &le);
      FAST_ASSERT_MSG(le.offset == want, "rate %g step %ld: offset %.17g, exact %.17g", rate, (long)n, le.offset, want);
    }
  }
  ck_assert_int_eq(moreau_domain_destroy(&d), MOREAU_SUCCESS);
}

static void run_advance_general(double rate, double dt)
{
  const double lo[3] = {0.2, -0.35, 0}, hi[3] = {1.3, 0.8, 0};
  const int periodic[3] = {1, 1, 0};
  const double lf = 1.3 - 0.2;
  const long steps = 10000000;
  /* Each step rounds once in the addition and at most once more when a
   * negative remainder is moved up by L_f. */
  const double tol = 2.0 * steps * DBL_EPSILON * lf;
  moreau_domain *d = make_domain(2, lo, hi, periodic);
  moreau_lees_edwards le;
  double worst = 0, step;
  ck_assert_int_eq(moreau_domain_set_lees_edwards(d, 0, 1, rate), MOREAU_SUCCESS);
  moreau_domain_get_lees_edwards(d, &le);
  step = le.velocity_jump * dt;
  for (long n = 1; n <= steps; n++) {
    moreau_domain_advance(d, dt);
    moreau_domain_get_lees_edwards(d, &le);
    FAST_ASSERT_MSG(le.offset >= 0 && le.offset < lf, "step %ld: offset %.17g outside [0, %g)", n, le.offset, lf);
    if (n % 100000 == 0) {
      long double want = fmodl((long double)step * n, (long double)lf), err;
      if (want < 0) want += lf;
      err = fabsl((long double)le.offset - want);
      /* Near 0 and L_f the two are the same point of the circle. */
      err = fminl(err, (long double)lf - err);
      worst = fmax(worst, (double)err);
    }
  }
  FAST_ASSERT_MSG(worst <= tol, "rate %g dt %g: offset off the closed form by %g (bound %g)", rate, dt, worst, tol);
  ck_assert_int_eq(moreau_domain_destroy(&d), MOREAU_SUCCESS);
}

START_TEST(test_advance_dyadic) { run_advance_dyadic(0.75); }
END_TEST

START_TEST(test_advance_dyadic_negative) { run_advance_dyadic(-1.25); }
END_TEST

START_TEST(test_advance_general) { run_advance_general(0.3, 1e-4); }
END_TEST

START_TEST(test_advance_general_fast_negative) { run_advance_general(-7.1, 3.3e-2); }
END_TEST

/* Offsets given from outside are reduced into [0, L_f); a new box keeps the
 * state consistent. */
START_TEST(test_offset_reduction)
{
  const double lo[3] = {0, 0, 0}, hi[3] = {2, 4, 0};
  const int periodic[3] = {1, 1, 0};
  const double cases[][2] = {{-0.5, 1.5}, {5.0, 1.0}, {2.0, 0.0}, {-2.0, 0.0}, {0.0, 0.0}, {-1e-30, 0.0}};
  moreau_domain *d = make_domain(2, lo, hi, periodic);
  moreau_lees_edwards le;
  ck_assert_int_eq(moreau_domain_set_lees_edwards(d, 0, 1, 0.5), MOREAU_SUCCESS);
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    ck_assert_int_eq(moreau_domain_set_lees_edwards_offset(d, cases[i][0]), MOREAU_SUCCESS);
    moreau_domain_get_lees_edwards(d, &le);
    FAST_ASSERT_MSG(bitwise_equal(le.offset, cases[i][1]), "offset %g restored as %.17g, want %g", cases[i][0],
                    le.offset, cases[i][1]);
  }
  ck_assert_int_eq(moreau_domain_set_lees_edwards_offset(d, 1.5), MOREAU_SUCCESS);
  moreau_domain_advance(d, -1.0);
  moreau_domain_get_lees_edwards(d, &le);
  FAST_ASSERT(le.offset == 1.5); /* 1.5 - 0.5 * 4 = -0.5 -> 1.5 */
  /* Steps longer than the flow period: 1 + 0.5 * 4 * 10.25 = 21.5 -> 1.5. */
  ck_assert_int_eq(moreau_domain_set_lees_edwards_offset(d, 1.0), MOREAU_SUCCESS);
  moreau_domain_advance(d, 10.25);
  moreau_domain_get_lees_edwards(d, &le);
  FAST_ASSERT_MSG(le.offset == 1.5, "offset %.17g after a long step, want 1.5", le.offset);
  moreau_domain_advance(d, -10.25);
  moreau_domain_get_lees_edwards(d, &le);
  FAST_ASSERT_MSG(le.offset == 1.0, "offset %.17g after a long step back, want 1", le.offset);
  ck_assert_int_eq(moreau_domain_set_lees_edwards_offset(d, 1.5), MOREAU_SUCCESS);
  /* A smaller box: the offset is reduced, the velocity jump follows L_g. */
  {
    const double hi2[3] = {1, 3, 0};
    ck_assert_int_eq(moreau_domain_set_box(d, lo, hi2), MOREAU_SUCCESS);
    moreau_domain_get_lees_edwards(d, &le);
    FAST_ASSERT(le.offset == 0.5 && le.velocity_jump == 1.5);
  }
  ck_assert_int_eq(moreau_domain_destroy(&d), MOREAU_SUCCESS);
}
END_TEST

/* Accessors. */
START_TEST(test_accessors)
{
  const double lo[3] = {1, 2, 3}, hi[3] = {4, 5, 6};
  double glo[3] = {9, 9, 9}, ghi[3] = {9, 9, 9};
  moreau_lees_edwards le;
  moreau_domain *d = NULL;
  ck_assert_int_eq(moreau_domain_create(2, &d), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_domain_dim(d), 2);
  FAST_ASSERT(!moreau_domain_has_box(d) && !moreau_domain_any_periodic(d));
  moreau_domain_get_box(d, glo, ghi);
  FAST_ASSERT(glo[0] == 0 && glo[1] == 0 && glo[2] == 0 && ghi[0] == 0 && ghi[1] == 0 && ghi[2] == 0);
  moreau_domain_get_lees_edwards(d, &le);
  FAST_ASSERT(!le.on && le.offset == 0 && le.velocity_jump == 0);
  ck_assert_int_eq(moreau_domain_set_box(d, lo, hi), MOREAU_SUCCESS);
  FAST_ASSERT(moreau_domain_has_box(d));
  moreau_domain_get_box(d, glo, ghi);
  FAST_ASSERT(glo[0] == 1 && glo[1] == 2 && glo[2] == 0 && ghi[0] == 4 && ghi[1] == 5 && ghi[2] == 0);
  ck_assert_int_eq(moreau_domain_set_periodic(d, 1, 1), MOREAU_SUCCESS);
  FAST_ASSERT(moreau_domain_is_periodic(d, 1) && !moreau_domain_is_periodic(d, 0));
  FAST_ASSERT(!moreau_domain_is_periodic(d, 2) && !moreau_domain_is_periodic(d, -1));
  FAST_ASSERT(moreau_domain_any_periodic(d));
  ck_assert_int_eq(moreau_domain_destroy(&d), MOREAU_SUCCESS);
  ck_assert_ptr_null(d);
  ck_assert_int_eq(moreau_domain_destroy(&d), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_domain_create(3, &d), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_domain_dim(d), 3);
  ck_assert_int_eq(moreau_domain_set_box(d, lo, hi), MOREAU_SUCCESS);
  moreau_domain_get_box(d, glo, ghi);
  FAST_ASSERT(glo[2] == 3 && ghi[2] == 6);
  ck_assert_int_eq(moreau_domain_destroy(&d), MOREAU_SUCCESS);
}
END_TEST

/* The pending error is an input error with a message containing each of
 * the words; then it is cleared. */
static void expect_input_error(moreau_err err, const char *w1, const char *w2, const char *w3)
{
  const char *msg = moreau_error_message();
  ck_assert_int_eq(err, MOREAU_ERR_INPUT);
  FAST_ASSERT_MSG(msg[0] != '\0', "no message");
  FAST_ASSERT_MSG(!strchr(msg, '\n'), "message on more than one line: %s", msg);
  FAST_ASSERT_MSG(!w1 || strstr(msg, w1), "'%s' not in: %s", w1, msg);
  FAST_ASSERT_MSG(!w2 || strstr(msg, w2), "'%s' not in: %s", w2, msg);
  FAST_ASSERT_MSG(!w3 || strstr(msg, w3), "'%s' not in: %s", w3, msg);
  moreau_error_clear();
}

/* 6. Input errors. */
START_TEST(test_input_errors)
{
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 2, 3};
  const double nan_ = NAN, inf_ = INFINITY;
  const char *const along[3] = {"along x", "along y", "along z"};
  moreau_domain *d = NULL;
  expect_input_error(moreau_domain_create(1, &d), "1", NULL, NULL);
  ck_assert_ptr_null(d);
  ck_assert_int_eq(moreau_domain_create(3, &d), MOREAU_SUCCESS);

  /* Periodic without a box, bad axes. */
  expect_input_error(moreau_domain_set_periodic(d, 0, 1), "x", "box", NULL);
  FAST_ASSERT(!moreau_domain_is_periodic(d, 0));
  expect_input_error(moreau_domain_set_lees_edwards(d, 0, 1, 1.0), NULL, NULL, NULL);

  /* Bad boxes, each axis. */
  for (int k = 0; k < 3; k++) {
    double blo[3] = {0, 0, 0}, bhi[3] = {1, 1, 1};
    bhi[k] = 0;
    expect_input_error(moreau_domain_set_box(d, blo, bhi), along[k], "hi > lo", NULL);
    bhi[k] = -1;
    expect_input_error(moreau_domain_set_box(d, blo, bhi), along[k], NULL, NULL);
    bhi[k] = nan_;
    expect_input_error(moreau_domain_set_box(d, blo, bhi), along[k], NULL, NULL);
    bhi[k] = inf_;
    expect_input_error(moreau_domain_set_box(d, blo, bhi), along[k], NULL, NULL);
    bhi[k] = 1, blo[k] = -inf_;
    expect_input_error(moreau_domain_set_box(d, blo, bhi), along[k], NULL, NULL);
    bhi[k] = DBL_MAX, blo[k] = -DBL_MAX;
    expect_input_error(moreau_domain_set_box(d, blo, bhi), along[k], NULL, NULL);
  }
  FAST_ASSERT(!moreau_domain_has_box(d));
  ck_assert_int_eq(moreau_domain_set_box(d, lo, hi), MOREAU_SUCCESS);
  expect_input_error(moreau_domain_set_periodic(d, 3, 1), "3", NULL, NULL);
  expect_input_error(moreau_domain_set_periodic(d, -1, 1), "-1", NULL, NULL);

  /* Lees-Edwards: axes periodic, different, in range; finite rate. */
  ck_assert_int_eq(moreau_domain_set_periodic(d, 0, 1), MOREAU_SUCCESS);
  expect_input_error(moreau_domain_set_lees_edwards(d, 0, 1, 1.0), "periodic", NULL, NULL);
  expect_input_error(moreau_domain_set_lees_edwards(d, 1, 0, 1.0), "periodic", NULL, NULL);
  ck_assert_int_eq(moreau_domain_set_periodic(d, 1, 1), MOREAU_SUCCESS);
  expect_input_error(moreau_domain_set_lees_edwards(d, 1, 1, 1.0), "differ", NULL, NULL);
  expect_input_error(moreau_domain_set_lees_edwards(d, 0, 3, 1.0), NULL, NULL, NULL);
  expect_input_error(moreau_domain_set_lees_edwards(d, 0, 1, nan_), "rate", NULL, NULL);
  expect_input_error(moreau_domain_set_lees_edwards(d, 0, 1, -inf_), "rate", NULL, NULL);
  expect_input_error(moreau_domain_set_lees_edwards_offset(d, 0.5), "Lees-Edwards", NULL, NULL);
  {
    moreau_lees_edwards le;
    moreau_domain_get_lees_edwards(d, &le);
    FAST_ASSERT(!le.on);
  }
  ck_assert_int_eq(moreau_domain_set_lees_edwards(d, 0, 1, 1.0), MOREAU_SUCCESS);
  expect_input_error(moreau_domain_set_lees_edwards_offset(d, nan_), "offset", NULL, NULL);
  expect_input_error(moreau_domain_set_periodic(d, 1, 0), "y", NULL, NULL);
  FAST_ASSERT(moreau_domain_is_periodic(d, 1));
  ck_assert_int_eq(moreau_domain_set_periodic(d, 2, 0), MOREAU_SUCCESS);

  /* Cutoff: x has L = 1, y L = 2, z (bounded) L = 3. */
  ck_assert_int_eq(moreau_domain_check_cutoff(d, 0.5), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_domain_check_cutoff(d, 0.0), MOREAU_SUCCESS);
  expect_input_error(moreau_domain_check_cutoff(d, 0.6), "axis x", "length 1", "0.6");
  expect_input_error(moreau_domain_check_cutoff(d, -1.0), "cutoff", NULL, NULL);
  expect_input_error(moreau_domain_check_cutoff(d, nan_), "cutoff", NULL, NULL);
  ck_assert_int_eq(moreau_domain_destroy(&d), MOREAU_SUCCESS);

  {
    const double l2[3] = {0, 0, 0}, h2[3] = {5, 0.75, 0.1};
    const int p2[3] = {0, 1, 0};
    d = make_domain(3, l2, h2, p2);
    ck_assert_int_eq(moreau_domain_check_cutoff(d, 0.375), MOREAU_SUCCESS);
    expect_input_error(moreau_domain_check_cutoff(d, 0.4), "axis y", "length 0.75", "0.4");
    ck_assert_int_eq(moreau_domain_destroy(&d), MOREAU_SUCCESS);
  }
}
END_TEST

int main(int argc, char **argv)
{
  int status;
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("domain");
  TCase *tc = tcase_create("domain");
  TCase *slow = tcase_create("advance");
  tcase_add_checked_fixture(tc, setup, NULL);
  tcase_add_test(tc, test_no_periodic_identity);
  tcase_add_test(tc, test_periodic_minimum_image);
  tcase_add_test(tc, test_lees_edwards_separation);
  tcase_add_test(tc, test_wrap_exact);
  tcase_add_test(tc, test_wrap_separation_consistent);
  tcase_add_test(tc, test_offset_reduction);
  tcase_add_test(tc, test_accessors);
  tcase_add_test(tc, test_input_errors);
  suite_add_tcase(s, tc);
  /* 1e7 steps each. */
  tcase_set_timeout(slow, 120);
  tcase_add_checked_fixture(slow, setup, NULL);
  tcase_add_test(slow, test_advance_dyadic);
  tcase_add_test(slow, test_advance_dyadic_negative);
  tcase_add_test(slow, test_advance_general);
  tcase_add_test(slow, test_advance_general_fast_negative);
  suite_add_tcase(s, slow);
  status = moreau_test_run_suite(s);
  MPI_Finalize();
  return status;
}
