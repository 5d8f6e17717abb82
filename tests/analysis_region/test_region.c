/* Exact solid volume in a region: the disk-rectangle area and the
 * ball-box volume against closed forms (full, half-plane and half-space
 * cuts, quadrant, octant), against quadrature of an independent integrand
 * for random boxes, and summed over tilings; the solid fraction of lattice
 * packings; periodic and Lees-Edwards images; the same double on every rank
 * count. */
#include <check.h>
#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "moreau/analysis.h"
#include "moreau/rng.h"
#include "parallel.h"

/* Gauss-Legendre nodes and weights on [0, 1] (Newton on P_n from the
 * Chebyshev guess). */
#define GL_MAX 80
static void gauss_legendre(int n, double *x, double *w)
{
  for (int i = 0; i < n; i++) {
    double t = cos(M_PI * (i + 0.75) / (n + 0.5)), dp = 0.0;
    for (int it = 0; it < 100; it++) {
      double p0 = 1.0, p1 = t;
      for (int k = 2; k <= n; k++) {
        double p2 = ((2 * k - 1) * t * p1 - (k - 1) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = n * (t * p1 - p0) / (t * t - 1.0);
      double dt = p1 / dp;
      t -= dt;
      if (fabs(dt) < 1e-17) break;
    }
    x[i] = 0.5 * (1.0 - t);
    w[i] = 1.0 / ((1.0 - t * t) * dp * dp);
  }
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The integral of f over [a, b] within [centre - r, centre + r], in the
 * angle t of z = centre - r cos t (dz = r sin t dt), which takes away the
 * square-root branch points of a circle's ordinate at centre -+ r; split at
 * the breakpoints bp (kinks: a circle meeting an edge or a corner), each
 * piece [p, q] mapped again by t = p + (q - p)(1 - cos pi u)/2, which turns
 * the power (t - t*)^(k/2) of f at a kink into a function of u analytic on
 * [0, 1]. Gauss-Legendre in u then converges geometrically in n. */
typedef double (*integrand)(double z, const void *ctx);
static double angle_of(double z, double centre, double r) { return acos(fmax(-1.0, fmin(1.0, (centre - z) / r))); }

static double integrate(integrand f, const void *ctx, double centre, double r, double a, double b, const double *bp,
                        int nbp, int n)
{
  double x[GL_MAX], w[GL_MAX], cuts[64], sum = 0.0;
  int nc = 0;
  if (!(b > a)) return 0.0;
  gauss_legendre(n, x, w);
  cuts[nc++] = angle_of(a, centre, r);
  for (int i = 0; i < nbp; i++)
    if (bp[i] > a && bp[i] < b) cuts[nc++] = angle_of(bp[i], centre, r);
  cuts[nc++] = angle_of(b, centre, r);
  qsort(cuts, (size_t)nc, sizeof(double), cmp_double);
  for (int s = 0; s + 1 < nc; s++) {
    double p = cuts[s], q = cuts[s + 1];
    for (int i = 0; i < n; i++) {
      double u = x[i], t = p + (q - p) * 0.5 * (1.0 - cos(M_PI * u));
      sum += w[i] * f(centre - r * cos(t), ctx) * r * sin(t) * (q - p) * 0.5 * M_PI * sin(M_PI * u);
    }
  }
  return sum;
}

typedef struct {
  double c[3], r, lo[3], hi[3];
} shape_box;

/* The chord of the disk at abscissa x inside [lo[1], hi[1]]: elementary,
 * and independent of the closed form. */
static double chord(double x, const void *ctx)
{
  const shape_box *s = ctx;
  double h = s->r * s->r - (x - s->c[0]) * (x - s->c[0]);
  if (h <= 0.0) return 0.0;
  h = sqrt(h);
  double top = fmin(s->hi[1], s->c[1] + h), bottom = fmax(s->lo[1], s->c[1] - h);
  return top > bottom ? top - bottom : 0.0;
}

static double disk_quadrature(const shape_box *s, int n)
{
  double bp[4];
  int nbp = 0;
  for (int j = 0; j < 2; j++) {
    double y = (j ? s->hi[1] : s->lo[1]) - s->c[1];
    if (fabs(y) < s->r) {
      bp[nbp++] = s->c[0] - sqrt(s->r * s->r - y * y);
      bp[nbp++] = s->c[0] + sqrt(s->r * s->r - y * y);
    }
  }
  return integrate(chord, s, s->c[0], s->r, fmax(s->lo[0], s->c[0] - s->r), fmin(s->hi[0], s->c[0] + s->r), bp, nbp, n);
}

/* The slice of the ball at height z inside the box's rectangle: the disk of
 * radius sqrt(r^2 - (z - c_z)^2), by the 2D closed form (checked above). */
static double slice(double z, const void *ctx)
{
  const shape_box *s = ctx;
  double h = s->r * s->r - (z - s->c[2]) * (z - s->c[2]);
  return h > 0.0 ? moreau_disk_box_area(s->c, sqrt(h), s->lo, s->hi) : 0.0;
}

static double ball_quadrature(const shape_box *s, int n)
{
  double bp[32], d[8];
  int nbp = 0, nd = 0;
  for (int i = 0; i < 2; i++) {
    double x = (i ? s->hi[0] : s->lo[0]) - s->c[0];
    d[nd++] = fabs(x);
    for (int j = 0; j < 2; j++) {
      double y = (j ? s->hi[1] : s->lo[1]) - s->c[1];
      if (i == 0) d[nd++] = fabs(y);
      d[nd++] = sqrt(x * x + y * y);
    }
  }
  for (int k = 0; k < nd; k++)
    if (d[k] < s->r) {
      bp[nbp++] = s->c[2] - sqrt(s->r * s->r - d[k] * d[k]);
      bp[nbp++] = s->c[2] + sqrt(s->r * s->r - d[k] * d[k]);
    }
  return integrate(slice, s, s->c[2], s->r, fmax(s->lo[2], s->c[2] - s->r), fmin(s->hi[2], s->c[2] + s->r), bp, nbp, n);
}

/* Circular segment beyond distance d from the centre, from its angle. */
static double segment(double d, double r)
{
  double theta = 2.0 * acos(d / r);
  return 0.5 * r * r * (theta - sin(theta));
}

/* Spherical cap beyond distance d, from its height h = r - d. */
static double cap(double d, double r)
{
  double h = r - d;
  return M_PI * h * h * (3.0 * r - h) / 3.0;
}

START_TEST(test_disk_closed_forms)
{
  const double c[2] = {0.7, -2.1}, r = 1.3, big = 10.0, area = M_PI * r * r;
  /* Inside, also touching all four sides. */
  const double lo0[2] = {-5, -7}, hi0[2] = {3, 1}, lot[2] = {c[0] - r, c[1] - r}, hit[2] = {c[0] + r, c[1] + r};
  ck_assert_double_eq(moreau_disk_box_area(c, r, lo0, hi0), area);
  ck_assert_double_eq(moreau_disk_box_area(c, r, lot, hit), area);
  /* Outside, also tangent; degenerate and inverted rectangles. */
  const double lo1[2] = {c[0] + r, -big}, hi1[2] = {big, big};
  ck_assert_double_eq(moreau_disk_box_area(c, r, lo1, hi1), 0.0);
  const double lo2[2] = {0.0, -big}, hi2[2] = {0.0, big}, hi3[2] = {-1.0, big};
  ck_assert_double_eq(moreau_disk_box_area(c, r, lo2, hi2), 0.0);
  ck_assert_double_eq(moreau_disk_box_area(c, r, lo2, hi3), 0.0);
  ck_assert_double_eq(moreau_disk_box_area(c, 0.0, lo0, hi0), 0.0);
  /* Half-plane cuts at distance d along each axis and side: segments. */
  for (int k = 0; k < 2; k++)
    for (int side = 0; side < 2; side++)
      for (double d = -1.25; d <= 1.25; d += 0.125) {
        double lo[2] = {-big, -big}, hi[2] = {big, big};
        if (side)
          lo[k] = c[k] + d;
        else
          hi[k] = c[k] - d;
        double got = moreau_disk_box_area(c, r, lo, hi), want = segment(d, r);
        ck_assert_msg(fabs(got - want) < 1e-14 * area, "axis %d side %d d %g: %.17g vs %.17g", k, side, d, got, want);
      }
  /* The four quadrants at the centre, and a strip through it. */
  for (int q = 0; q < 4; q++) {
    double lo[2] = {q & 1 ? c[0] : -big, q & 2 ? c[1] : -big}, hi[2] = {q & 1 ? big : c[0], q & 2 ? big : c[1]};
    ck_assert_double_eq_tol(moreau_disk_box_area(c, r, lo, hi), area / 4.0, 1e-15 * area);
  }
  const double los[2] = {c[0] - 0.5, -big}, his[2] = {c[0] + 0.5, big};
  ck_assert_double_eq_tol(moreau_disk_box_area(c, r, los, his), area - 2.0 * segment(0.5, r), 1e-14 * area);
}
END_TEST

START_TEST(test_ball_closed_forms)
{
  const double c[3] = {0.7, -2.1, 3.3}, r = 1.3, big = 10.0, vol = 4.0 / 3.0 * M_PI * r * r * r;
  const double lo0[3] = {-5, -7, 0}, hi0[3] = {3, 1, 5}, lot[3] = {c[0] - r, c[1] - r, c[2] - r},
               hit[3] = {c[0] + r, c[1] + r, c[2] + r};
  ck_assert_double_eq(moreau_sphere_box_volume(c, r, lo0, hi0), vol);
  ck_assert_double_eq(moreau_sphere_box_volume(c, r, lot, hit), vol);
  const double lo1[3] = {-big, -big, c[2] + r}, hi1[3] = {big, big, big};
  ck_assert_double_eq(moreau_sphere_box_volume(c, r, lo1, hi1), 0.0);
  const double lo2[3] = {-big, 0.0, -big}, hi2[3] = {big, 0.0, big};
  ck_assert_double_eq(moreau_sphere_box_volume(c, r, lo2, hi2), 0.0);
  ck_assert_double_eq(moreau_sphere_box_volume(c, -1.0, lo0, hi0), 0.0);
  /* Half-space cuts: caps, hemispheres at d = 0. */
  for (int k = 0; k < 3; k++)
    for (int side = 0; side < 2; side++)
      for (double d = -1.25; d <= 1.25; d += 0.125) {
        double lo[3] = {-big, -big, -big}, hi[3] = {big, big, big};
        if (side)
          lo[k] = c[k] + d;
        else
          hi[k] = c[k] - d;
        double got = moreau_sphere_box_volume(c, r, lo, hi), want = cap(d, r);
        ck_assert_msg(fabs(got - want) < 1e-14 * vol, "axis %d side %d d %g: %.17g vs %.17g", k, side, d, got, want);
      }
  /* The eight octants at the centre; a quarter (two half-spaces). */
  for (int q = 0; q < 8; q++) {
    double lo[3], hi[3];
    for (int k = 0; k < 3; k++) {
      lo[k] = q >> k & 1 ? c[k] : -big;
      hi[k] = q >> k & 1 ? big : c[k];
    }
    ck_assert_double_eq_tol(moreau_sphere_box_volume(c, r, lo, hi), vol / 8.0, 1e-15 * vol);
  }
  const double loq[3] = {c[0], -big, c[2]}, hiq[3] = {big, big, big};
  ck_assert_double_eq_tol(moreau_sphere_box_volume(c, r, loq, hiq), vol / 4.0, 1e-15 * vol);
}
END_TEST

static void random_box(moreau_rng *rng, const double c[3], double r, shape_box *s)
{
  memcpy(s->c, c, sizeof(s->c));
  s->r = r;
  for (int k = 0; k < 3; k++) {
    double a = c[k] + (3.0 * moreau_rng_uniform(rng) - 1.5) * r, b = c[k] + (3.0 * moreau_rng_uniform(rng) - 1.5) * r;
    s->lo[k] = fmin(a, b);
    s->hi[k] = fmax(a, b);
  }
}

/* Bound: the quadrature error falls geometrically with the nodes, so once
 * 40 and 80 nodes per piece agree to the rounding of their sums (a few
 * hundred terms: checked below 1e-14 of the full area; measured up to
 * 4e-15 over 3000 boxes), the 80-node value is exact to that rounding. The
 * closed form (a few dozen terms of size r^2) must match it to 2e-14 of the
 * full area, about ten times the largest difference measured (1.7e-15). */
START_TEST(test_disk_random_boxes)
{
  const double c[3] = {0.7, -2.1, 0.0}, r = 1.3, area = M_PI * r * r;
  moreau_rng rng;
  moreau_rng_seed(&rng, 21, 0);
  for (int t = 0; t < 500; t++) {
    shape_box s;
    random_box(&rng, c, r, &s);
    double q40 = disk_quadrature(&s, 40), q80 = disk_quadrature(&s, 80), got = moreau_disk_box_area(c, r, s.lo, s.hi);
    ck_assert_msg(fabs(q40 - q80) < 1e-14 * area, "box %d: quadrature unconverged %.3g", t, q40 - q80);
    ck_assert_msg(fabs(got - q80) < 2e-14 * area, "box %d: %.17g vs quadrature %.17g", t, got, q80);
  }
}
END_TEST

/* Bound as for the disk, the integrand being the 2D closed form (checked
 * above at every height). */
START_TEST(test_ball_random_boxes)
{
  const double c[3] = {0.7, -2.1, 3.3}, r = 1.3, vol = 4.0 / 3.0 * M_PI * r * r * r;
  moreau_rng rng;
  moreau_rng_seed(&rng, 22, 0);
  for (int t = 0; t < 300; t++) {
    shape_box s;
    random_box(&rng, c, r, &s);
    double q40 = ball_quadrature(&s, 40), q80 = ball_quadrature(&s, 80),
           got = moreau_sphere_box_volume(c, r, s.lo, s.hi);
    ck_assert_msg(fabs(q40 - q80) < 1e-14 * vol, "box %d: quadrature unconverged %.3g", t, q40 - q80);
    ck_assert_msg(fabs(got - q80) < 2e-14 * vol, "box %d: %.17g vs quadrature %.17g", t, got, q80);
  }
}
END_TEST

/* Boxes of a grid tiling space (cell h, shifted by a random origin) sum to
 * the whole body: every cell near the body is cut, so this adds hundreds of
 * closed-form pieces whose errors would show. */
START_TEST(test_tilings)
{
  const double c[3] = {0.7, -2.1, 3.3}, r = 1.3;
  const double cells[3] = {0.37, 0.5, 1.1};
  moreau_rng rng;
  moreau_rng_seed(&rng, 23, 0);
  for (int t = 0; t < 3; t++) {
    double h = cells[t], o[3], sum2 = 0.0, sum3 = 0.0;
    for (int k = 0; k < 3; k++)
      o[k] = c[k] - r - h * (1.0 + moreau_rng_uniform(&rng));
    int n = (int)ceil((2.0 * r) / h) + 3;
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        double lo[3] = {o[0] + i * h, o[1] + j * h, 0}, hi[3] = {o[0] + (i + 1) * h, o[1] + (j + 1) * h, 0};
        sum2 += moreau_disk_box_area(c, r, lo, hi);
        for (int k = 0; k < n; k++) {
          lo[2] = o[2] + k * h;
          hi[2] = o[2] + (k + 1) * h;
          sum3 += moreau_sphere_box_volume(c, r, lo, hi);
        }
      }
    ck_assert_msg(fabs(sum2 - M_PI * r * r) < 1e-12, "cell %g: disk %.17g", h, sum2);
    ck_assert_msg(fabs(sum3 - 4.0 / 3.0 * M_PI * r * r * r) < 1e-12, "cell %g: ball %.17g", h, sum3);
  }
}
END_TEST

/* Bodies of a list, body j owned by rank j % size (all of them on comm =
 * MPI_COMM_SELF). */
static moreau_bodies *make_bodies(MPI_Comm comm, int dim, const double *x, const double *r, int n)
{
  moreau_bodies *b;
  int rank = par_rank(comm), size = par_size(comm);
  ck_assert_int_eq(moreau_bodies_create(comm, dim, &b), MOREAU_SUCCESS);
  for (int j = 0; j < n; j++) {
    if (j % size != rank) continue;
    moreau_body body;
    memset(&body, 0, sizeof(body));
    body.gid = j;
    memcpy(body.x, &x[3 * j], sizeof(body.x));
    body.radius = r[j];
    body.q[0] = 1.0;
    ck_assert_int_eq(moreau_bodies_push_owned(b, &body), MOREAU_SUCCESS);
  }
  return b;
}

/* The fraction over MPI_COMM_WORLD with the bodies spread over the ranks,
 * checked to be the same double as with all bodies on one rank. */
static double fraction_everywhere(const moreau_domain *d, int dim, const double *x, const double *r, int n,
                                  const double lo[3], const double hi[3])
{
  double all, one;
  moreau_bodies *b = make_bodies(MPI_COMM_WORLD, dim, x, r, n), *b1 = make_bodies(MPI_COMM_SELF, dim, x, r, n);
  PAR_TRY(MPI_COMM_WORLD, moreau_solid_fraction_region(MPI_COMM_WORLD, d, b, lo, hi, &all));
  PAR_TRY(MPI_COMM_WORLD, moreau_solid_fraction_region(MPI_COMM_SELF, d, b1, lo, hi, &one));
  PAR_CHECK(MPI_COMM_WORLD, memcmp(&all, &one, sizeof(double)) == 0, "%d ranks: %.17g, one rank: %.17g",
            par_size(MPI_COMM_WORLD), all, one);
  ck_assert_int_eq(moreau_bodies_destroy(&b), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_bodies_destroy(&b1), MOREAU_SUCCESS);
  return all;
}

/* Touching disks of radius R on a triangular lattice (rows 2R apart along x,
 * sqrt(3) R apart along y, odd rows shifted by R), covering the region with
 * a margin; no periodic box. A region of whole lattice periods (2R by
 * 2 sqrt(3) R), placed anywhere, holds pi / (2 sqrt 3) of solid. */
START_TEST(test_hexagonal_packing)
{
  const double R = 0.5, dy = sqrt(3.0) * R;
  const int nx = 14, ny = 16;
  double *x = malloc(3 * sizeof(double) * nx * ny), *r = malloc(sizeof(double) * nx * ny);
  int n = 0;
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) {
      x[3 * n] = 2.0 * R * i + (j % 2 ? R : 0.0);
      x[3 * n + 1] = dy * j;
      x[3 * n + 2] = 0.0;
      r[n++] = R;
    }
  moreau_domain *d;
  ck_assert_int_eq(moreau_domain_create(2, &d), MOREAU_SUCCESS);
  const double lo[2][3] = {{3.1234, 4.321, 0}, {5.0, 2.0 * dy, 0}};
  const double span[2][2] = {{4 * R, 2 * dy}, {8 * R, 4 * dy}};
  for (int t = 0; t < 2; t++) {
    double hi[3] = {lo[t][0] + span[t][0], lo[t][1] + span[t][1], 0};
    double phi = fraction_everywhere(d, 2, x, r, n, lo[t], hi);
    ck_assert_msg(fabs(phi - M_PI / (2.0 * sqrt(3.0))) < 1e-12, "region %d: %.17g", t, phi);
  }
  ck_assert_int_eq(moreau_domain_destroy(&d), MOREAU_SUCCESS);
  free(x);
  free(r);
}
END_TEST

/* Touching spheres on a simple cubic lattice of spacing 2R: any region of
 * whole periods holds pi / 6 of solid. */
START_TEST(test_cubic_packing)
{
  const double R = 0.5;
  const int m = 8;
  double *x = malloc(3 * sizeof(double) * m * m * m), *r = malloc(sizeof(double) * m * m * m);
  int n = 0;
  for (int k = 0; k < m; k++)
    for (int j = 0; j < m; j++)
      for (int i = 0; i < m; i++) {
        x[3 * n] = 2.0 * R * i;
        x[3 * n + 1] = 2.0 * R * j;
        x[3 * n + 2] = 2.0 * R * k;
        r[n++] = R;
      }
  moreau_domain *d;
  ck_assert_int_eq(moreau_domain_create(3, &d), MOREAU_SUCCESS);
  const double lo[3] = {1.2345, 2.0, 1.61803}, hi[3] = {lo[0] + 4 * R, lo[1] + 6 * R, lo[2] + 8 * R};
  double phi = fraction_everywhere(d, 3, x, r, n, lo, hi);
  ck_assert_msg(fabs(phi - M_PI / 6.0) < 1e-12, "%.17g", phi);
  ck_assert_int_eq(moreau_domain_destroy(&d), MOREAU_SUCCESS);
  free(x);
  free(r);
}
END_TEST

static moreau_domain *periodic_box(int dim, double len)
{
  moreau_domain *d;
  const double lo[3] = {0, 0, 0}, hi[3] = {len, len, len};
  ck_assert_int_eq(moreau_domain_create(dim, &d), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_domain_set_box(d, lo, hi), MOREAU_SUCCESS);
  for (int k = 0; k < dim; k++)
    ck_assert_int_eq(moreau_domain_set_periodic(d, k, 1), MOREAU_SUCCESS);
  return d;
}

/* A fully periodic box of side 10 with a sphere straddling a face (A), one
 * straddling a corner of three faces (B), and one inside (C). */
START_TEST(test_periodic_images)
{
  const double len = 10.0;
  const double x[9] = {9.5, 5.0, 5.0, 9.4, 0.3, 9.9, 4.0, 4.0, 4.0}, r[3] = {1.0, 0.8, 1.2};
  moreau_domain *d = periodic_box(3, len);
  /* The region equal to the box holds the three volumes, exactly. */
  const double lo[3] = {0, 0, 0}, hi[3] = {len, len, len};
  double vol = 0.0;
  for (int j = 0; j < 3; j++)
    vol += 4.0 / 3.0 * M_PI * r[j] * r[j] * r[j];
  double phi = fraction_everywhere(d, 3, x, r, 3, lo, hi);
  ck_assert_double_eq(phi, vol / (len * len * len));
  /* A slab 0.3 thick at x = 0, whole along y and z: the image of A (its
   * centre 0.5 beyond the face) between 0.5 and 0.8 from its centre, and
   * that of B (0.6 beyond) from 0.6 on. */
  const double slo[3] = {0, 0, 0}, shi[3] = {0.3, len, len};
  double want = (cap(0.5, 1.0) - cap(0.8, 1.0) + cap(0.6, 0.8)) / (0.3 * len * len);
  phi = fraction_everywhere(d, 3, x, r, 3, slo, shi);
  ck_assert_msg(fabs(phi - want) < 1e-14, "slab: %.17g vs %.17g", phi, want);
  /* A region longer than a period along x, shorter along y, reaching past
   * the box along x and z: neither A nor C reaches it (their z ranges miss
   * it), and B reaches it through four images, listed by hand: x in
   * {9.4, -0.6} times y in {0.3, 10.3}, at z = 9.9 (its images at z = -0.1
   * and 19.9 miss it). */
  const double rlo[3] = {-0.5, 0.2, 9.0}, rhi[3] = {10.5, 9.95, 10.05};
  want = 0.0;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      const double image[3] = {i ? -0.6 : 9.4, j ? 10.3 : 0.3, 9.9};
      want += moreau_sphere_box_volume(image, 0.8, rlo, rhi);
    }
  want /= (rhi[0] - rlo[0]) * (rhi[1] - rlo[1]) * (rhi[2] - rlo[2]);
  phi = fraction_everywhere(d, 3, x, r, 3, rlo, rhi);
  ck_assert_msg(want > 0.0 && fabs(phi - want) < 1e-14, "region: %.17g vs %.17g", phi, want);
  ck_assert_int_eq(moreau_domain_destroy(&d), MOREAU_SUCCESS);
}
END_TEST

/* Lees-Edwards in 2D (flow x, gradient y, box of side 10, offset 3): a disk
 * of radius 1 at (2, 9.6) crosses the upper gradient face; its image one
 * period down is displaced by -3 along flow, to (-1, -0.4), and so, one flow
 * period on, to (9, -0.4). */
START_TEST(test_lees_edwards_images)
{
  const double len = 10.0, x[3] = {2.0, 9.6, 0.0}, r[1] = {1.0};
  moreau_domain *d = periodic_box(2, len);
  ck_assert_int_eq(moreau_domain_set_lees_edwards(d, 0, 1, 0.5), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_domain_set_lees_edwards_offset(d, 3.0), MOREAU_SUCCESS);
  /* The image's part in [8, 10] x [0, 0.5]: the disk spans x there, and
   * the strip is 0.4 to 0.9 above its centre. An image displaced the other
   * way, to (5, -0.4), would miss it. */
  const double want = segment(0.4, 1.0) - segment(0.9, 1.0);
  const double lo[3] = {8.0, 0.0, 0}, hi[3] = {10.0, 0.5, 0};
  double phi = fraction_everywhere(d, 2, x, r, 1, lo, hi);
  ck_assert_msg(fabs(phi - want / 1.0) < 1e-14, "corner: %.17g vs %.17g", phi, want);
  /* A whole flow period: the same part, whatever the offset. */
  const double flo[3] = {0.0, 0.0, 0}, fhi[3] = {len, 0.5, 0};
  phi = fraction_everywhere(d, 2, x, r, 1, flo, fhi);
  ck_assert_msg(fabs(phi - want / 5.0) < 1e-14, "strip: %.17g vs %.17g", phi, want / 5.0);
  /* The whole box: the disk, exactly. */
  const double blo[3] = {0.0, 0.0, 0}, bhi[3] = {len, len, 0};
  phi = fraction_everywhere(d, 2, x, r, 1, blo, bhi);
  ck_assert_double_eq(phi, M_PI / (len * len));
  ck_assert_int_eq(moreau_domain_destroy(&d), MOREAU_SUCCESS);
}
END_TEST

/* An empty or inverted region, and a domain of the wrong dimension: one
 * input error on every rank. */
START_TEST(test_bad_region)
{
  const double x[3] = {0, 0, 0}, r[1] = {1.0};
  moreau_bodies *b = make_bodies(MPI_COMM_WORLD, 3, x, r, 1);
  moreau_domain *d2, *d3;
  double phi;
  ck_assert_int_eq(moreau_domain_create(2, &d2), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_domain_create(3, &d3), MOREAU_SUCCESS);
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 0}, ok[3] = {1, 1, 1};
  ck_assert_int_eq(moreau_solid_fraction_region(MPI_COMM_WORLD, d3, b, lo, hi, &phi), MOREAU_ERR_INPUT);
  ck_assert_ptr_nonnull(strstr(moreau_error_message(), "axis 2 is [0, 0]"));
  moreau_error_clear();
  ck_assert_int_eq(moreau_solid_fraction_region(MPI_COMM_WORLD, d2, b, lo, ok, &phi), MOREAU_ERR_INPUT);
  moreau_error_clear();
  ck_assert_int_eq(moreau_domain_destroy(&d2), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_domain_destroy(&d3), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_bodies_destroy(&b), MOREAU_SUCCESS);
}
END_TEST

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("analysis_region");
  TCase *tc = tcase_create("region");
  tcase_add_test(tc, test_disk_closed_forms);
  tcase_add_test(tc, test_ball_closed_forms);
  tcase_add_test(tc, test_disk_random_boxes);
  tcase_add_test(tc, test_ball_random_boxes);
  tcase_add_test(tc, test_tilings);
  tcase_add_test(tc, test_hexagonal_packing);
  tcase_add_test(tc, test_cubic_packing);
  tcase_add_test(tc, test_periodic_images);
  tcase_add_test(tc, test_lees_edwards_images);
  tcase_add_test(tc, test_bad_region);
  suite_add_tcase(s, tc);
  int status = par_run_suite(MPI_COMM_WORLD, s, NULL);
  MPI_Finalize();
  return status;
}
