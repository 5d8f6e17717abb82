/* Shapes in 2D: mass properties of unions of disks against closed forms and
 * against an independent exact method (Green's theorem on the exposed arcs),
 * seed 003's trimer and the ring generator, the shapes table and bad input. */
#include <check.h>
#include <math.h>
#include <mpi.h>
#include <string.h>

#include "check_runner.h"
#include "moreau/shapes.h"

#define REL(a, b) (fabs((a) - (b)) / fabs(b))

/* Seed 003 eqs 7-8, the trimer's area by inclusion-exclusion, with ds the
 * seed's d* = d / 2r: three disks, minus the three pairwise lenses
 * 2 r^2 (acos ds - ds sqrt(1 - ds^2)), plus the triple intersection T. As
 * printed in the seed the last terms miss the limits (ds = 0 gives 5.09 r^2,
 * not pi r^2; eq 8's alpha does not vanish at ds = sqrt(3)/2 where T does),
 * so T is derived here: its corners are the inner crossings of two circles,
 * at p = r (sqrt(1 - ds^2) - ds / sqrt(3)) from the centre (eq 7's own
 * factor), so T is the equilateral triangle of circumradius p plus three
 * circular segments of chord p sqrt(3):
 * T = 3 sqrt(3)/4 p^2 + 3/2 r^2 (alpha - sin alpha),
 * sin(alpha/2) = sqrt(3) p / (2 r) = sqrt(3 - 3 ds^2)/2 - ds / 2.
 * Valid for 0 <= ds <= sqrt(3)/2 (T = 0 at the upper end); beyond it the
 * three disks have no common point and T = 0. */
static double trimer_area(double r, double ds)
{
  double lens = 2.0 * r * r * (acos(ds) - ds * sqrt(1.0 - ds * ds));
  double t = 0.0;
  if (ds < 0.5 * sqrt(3.0)) {
    double p = r * (sqrt(1.0 - ds * ds) - ds / sqrt(3.0)),
           alpha = 2.0 * asin(0.5 * sqrt(3.0 - 3.0 * ds * ds) - 0.5 * ds);
    t = 0.75 * sqrt(3.0) * p * p + 1.5 * r * r * (alpha - sin(alpha));
  }
  return 3.0 * M_PI * r * r - 3.0 * lens + t;
}

/* Independent reference: the union's boundary is made of the arcs of each
 * circle outside every other disk, each run counterclockwise about its own
 * circle (the union on its left, also around holes). Green's theorem turns
 * the moments into arc integrals, int x^a y^b dA = closed int x^(a+1) y^b /
 * (a+1) dy, whose integrands are trigonometric polynomials of degree 4:
 * 8-point Gauss-Legendre on sub-arcs of at most pi/16 is exact to rounding.
 * out: A, int x, int y, int x^2, int x y, int y^2. */
static void green_moments(int n, const double *off, const double *r, double out[6])
{
  static const double gx[4] = {0.1834346424956498, 0.5255324099163290, 0.7966664774136267, 0.9602898564975363};
  static const double gw[4] = {0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763};
  memset(out, 0, 6 * sizeof(double));
  for (int i = 0; i < n; i++) {
    double lo[64], hi[64], cx = off[3 * i], cy = off[3 * i + 1];
    int m = 0, covered = 0;
    for (int j = 0; j < n && !covered; j++) {
      if (j == i) continue;
      double dx = off[3 * j] - cx, dy = off[3 * j + 1] - cy, d = hypot(dx, dy);
      /* Equal coincident disks: only the first one counts. */
      if (d + r[i] < r[j] || (d == 0.0 && r[i] == r[j] && j < i)) covered = 1;
      if (covered || d >= r[i] + r[j] || d + r[j] <= r[i]) continue;
      double phi = atan2(dy, dx), beta = acos((d * d + r[i] * r[i] - r[j] * r[j]) / (2.0 * d * r[i]));
      /* Covered arc [phi - beta, phi + beta] as pieces of [0, 2 pi). */
      double a = fmod(phi - beta + 4.0 * M_PI, 2.0 * M_PI), b = a + 2.0 * beta;
      if (b <= 2.0 * M_PI) {
        lo[m] = a, hi[m++] = b;
      } else {
        lo[m] = a, hi[m++] = 2.0 * M_PI;
        lo[m] = 0.0, hi[m++] = b - 2.0 * M_PI;
      }
    }
    if (covered) continue;
    /* Exposed arcs: the complement of the sorted covered pieces. */
    for (int p = 1; p < m; p++)
      for (int q = p; q > 0 && lo[q] < lo[q - 1]; q--) {
        double t = lo[q];
        lo[q] = lo[q - 1], lo[q - 1] = t;
        t = hi[q], hi[q] = hi[q - 1], hi[q - 1] = t;
      }
    double start = 0.0;
    for (int p = 0; p <= m; p++) {
      double end = p < m ? lo[p] : 2.0 * M_PI;
      int k = (int)ceil((end - start) / (M_PI / 16.0));
      for (int s = 0; s < k; s++) {
        double a = start + (end - start) * s / k, b = start + (end - start) * (s + 1) / k;
        for (int g = 0; g < 8; g++) {
          double th = 0.5 * (a + b) + 0.5 * (b - a) * (g < 4 ? -gx[g] : gx[g - 4]);
          double w = 0.5 * (b - a) * gw[g % 4], x = cx + r[i] * cos(th), y = cy + r[i] * sin(th);
          double dy = r[i] * cos(th) * w;
          out[0] += x * dy;
          out[1] += 0.5 * x * x * dy;
          out[2] += x * y * dy;
          out[3] += x * x * x / 3.0 * dy;
          out[4] += 0.5 * x * x * y * dy;
          out[5] += x * y * y * dy;
        }
      }
      if (p < m && hi[p] > start) start = hi[p];
    }
  }
}

/* Checks moreau_shape_union_mass against green_moments. */
static void check_against_green(int n, const double *off, const double *r, double tol)
{
  moreau_shape_mass m;
  double g[6], local[3 * 8];
  ck_assert_int_eq(moreau_shape_union_mass(2, n, off, r, &m), MOREAU_SUCCESS);
  /* About the first centre, so that a far frame cancels no digits. */
  for (int i = 0; i < n; i++)
    for (int k = 0; k < 3; k++)
      local[3 * i + k] = off[3 * i + k] - off[k];
  green_moments(n, local, r, g);
  double cx = g[1] / g[0], cy = g[2] / g[0];
  double polar = g[3] + g[5] - g[0] * (cx * cx + cy * cy), ext = 0.0;
  for (int i = 0; i < n; i++)
    ext = fmax(ext, hypot(local[3 * i], local[3 * i + 1]) + r[i]);
  ck_assert_msg(REL(m.measure, g[0]) < tol, "area %.17g, Green %.17g", m.measure, g[0]);
  ck_assert_msg(fabs(m.centroid[0] - off[0] - cx) < tol * ext && fabs(m.centroid[1] - off[1] - cy) < tol * ext,
                "centroid (%.17g %.17g), Green (%.17g %.17g)", m.centroid[0], m.centroid[1], cx, cy);
  ck_assert_msg(REL(m.inertia[8], polar) < tol, "polar %.17g, Green %.17g", m.inertia[8], polar);
  ck_assert_msg(fabs(m.inertia[1] + (g[4] - g[0] * cx * cy)) < tol * polar, "I_xy %.17g", m.inertia[1]);
  ck_assert_msg(REL(m.inertia[0], g[5] - g[0] * cy * cy) < tol, "I_xx %.17g", m.inertia[0]);
}

START_TEST(test_trimer_area_seed003)
{
  /* d* < sqrt(3)/2 is eta < 1/2; above, the centre is a hole (no triple
   * intersection) up to tangent disks at eta = sqrt(3) - 1. */
  const double etas[] = {0.0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.45, 0.499, 0.55, 0.65, 0.7, sqrt(3.0) - 1.0};
  for (size_t k = 0; k < sizeof(etas) / sizeof(etas[0]); k++) {
    double off[9], r[3];
    moreau_shape_mass m;
    ck_assert_int_eq(moreau_shape_trimer(etas[k], 1.7, off, r), MOREAU_SUCCESS);
    ck_assert_int_eq(moreau_shape_union_mass(2, 3, off, r, &m), MOREAU_SUCCESS);
    double ds = fmin(1.0, sqrt(3.0) * hypot(off[0], off[1]) / (2.0 * r[0])), a = trimer_area(r[0], ds);
    ck_assert_msg(REL(m.measure, a) < 1e-10, "eta %g: area %.17g, eqs 7-8 %.17g", etas[k], m.measure, a);
    ck_assert_msg(hypot(m.centroid[0], m.centroid[1]) < 1e-12, "eta %g: centroid off the centre", etas[k]);
    check_against_green(3, off, r, 1e-10);
  }
}
END_TEST

START_TEST(test_single_disk)
{
  const double off[3] = {3.0, -2.0, 0.0}, r = 0.7, a = M_PI * r * r;
  moreau_shape_mass m;
  ck_assert_int_eq(moreau_shape_union_mass(2, 1, off, &r, &m), MOREAU_SUCCESS);
  ck_assert(REL(m.measure, a) < 1e-15);
  ck_assert(m.centroid[0] == 3.0 && m.centroid[1] == -2.0);
  ck_assert(REL(m.inertia[8], 0.5 * a * r * r) < 1e-15);
  ck_assert(REL(m.inertia[0], 0.25 * a * r * r) < 1e-15 && m.inertia[1] == 0.0);
}
END_TEST

/* Area and centroid of two overlapping disks: the lens is two circular
 * segments cut by the common chord, at s from centre 1 along the axis;
 * a segment of half-angle phi has area r^2 (phi - sin phi cos phi) and its
 * centroid at 2/3 r^3 sin^3 phi / area from its centre. */
START_TEST(test_two_disks_lens)
{
  const double cases[][3] = {{1.0, 0.6, 0.9}, {1.0, 0.6, 0.5}, {0.8, 0.8, 1.2}, {0.5, 1.3, 1.0}};
  const double ang = 0.7, ox = -4.0, oy = 2.5;
  for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
    double r1 = cases[k][0], r2 = cases[k][1], d = cases[k][2], ux = cos(ang), uy = sin(ang);
    double off[6] = {ox, oy, 0.0, ox + d * ux, oy + d * uy, 0.0}, r[2] = {r1, r2};
    double s = (d * d + r1 * r1 - r2 * r2) / (2.0 * d), phi1 = acos(s / r1), phi2 = acos((d - s) / r2);
    double seg1 = r1 * r1 * (phi1 - sin(phi1) * cos(phi1)), seg2 = r2 * r2 * (phi2 - sin(phi2) * cos(phi2));
    double lens = seg1 + seg2;
    /* The textbook lens formula, as a check of the segments. */
    double lens_f = r1 * r1 * acos((d * d + r1 * r1 - r2 * r2) / (2 * d * r1)) +
                    r2 * r2 * acos((d * d + r2 * r2 - r1 * r1) / (2 * d * r2)) -
                    0.5 * sqrt((-d + r1 + r2) * (d + r1 - r2) * (d - r1 + r2) * (d + r1 + r2));
    ck_assert(REL(lens, lens_f) < 1e-13);
    double a1 = M_PI * r1 * r1, a2 = M_PI * r2 * r2, area = a1 + a2 - lens;
    /* Centroid along the axis, from centre 1. */
    double z1 = 2.0 / 3.0 * pow(r1 * sin(phi1), 3) / seg1, z2 = d - 2.0 / 3.0 * pow(r2 * sin(phi2), 3) / seg2;
    double zc = (a2 * d - seg1 * z1 - seg2 * z2) / area;
    moreau_shape_mass m;
    ck_assert_int_eq(moreau_shape_union_mass(2, 2, off, r, &m), MOREAU_SUCCESS);
    ck_assert_msg(REL(m.measure, area) < 1e-10, "case %zu: area %.17g, lens formula %.17g", k, m.measure, area);
    ck_assert_msg(hypot(m.centroid[0] - (ox + zc * ux), m.centroid[1] - (oy + zc * uy)) < 1e-10 * (r1 + r2 + d),
                  "case %zu: centroid", k);
    check_against_green(2, off, r, 1e-10);
  }
}
END_TEST

/* Nested, tangent and apart disks: sums and the larger disk in closed form. */
START_TEST(test_nested_tangent_apart)
{
  moreau_shape_mass m;
  /* One disk inside a larger one; then four more that overlap each other
   * inside it, one touching it from inside: the union is the large disk. */
  const double nested[18] = {0.0, 0.0, 0.0, 0.3,  -0.2, 0.0, -0.3, 0.2, 0.0,
                             0.1, 0.4, 0.0, -0.2, -0.3, 0.0, 0.6,  0.0, 0.0};
  const double rn[6] = {1.0, 0.5, 0.6, 0.5, 0.55, 0.4};
  for (int n = 2; n <= 6; n += 4) {
    ck_assert_int_eq(moreau_shape_union_mass(2, n, nested, rn, &m), MOREAU_SUCCESS);
    ck_assert(REL(m.measure, M_PI) < 1e-12 && hypot(m.centroid[0], m.centroid[1]) < 1e-12);
    ck_assert(REL(m.inertia[8], 0.5 * M_PI) < 1e-12);
  }
  /* Tangent (1 + 0.5 = 1.5 apart), apart (3) and far apart (1e6: each
   * piece is integrated about its own centroid), along a slant. */
  const double dists[3] = {1.5, 3.0, 1e6};
  for (int k = 0; k < 3; k++) {
    double u[2] = {0.6, 0.8}, off[6] = {1.0, 1.0, 0.0, 1.0 + dists[k] * u[0], 1.0 + dists[k] * u[1], 0.0};
    double a1 = M_PI, a2 = M_PI * 0.25, a = a1 + a2, zc = a2 * dists[k] / a;
    double polar = 0.5 * a1 + 0.5 * a2 * 0.25 + a1 * zc * zc + a2 * (dists[k] - zc) * (dists[k] - zc);
    ck_assert_int_eq(moreau_shape_union_mass(2, 2, off, rn, &m), MOREAU_SUCCESS);
    ck_assert_msg(REL(m.measure, a) < 1e-10, "distance %g: area %.17g", dists[k], m.measure);
    ck_assert(hypot(m.centroid[0] - 1.0 - zc * u[0], m.centroid[1] - 1.0 - zc * u[1]) < 1e-10 * dists[k]);
    ck_assert_msg(REL(m.inertia[8], polar) < 1e-10, "polar %.17g, %.17g", m.inertia[8], polar);
  }
}
END_TEST

/* General clusters with triple overlaps, a hole and a far-away frame,
 * against Green's theorem. */
START_TEST(test_clusters_against_green)
{
  const double off1[12] = {0.0, 0.0, 0.0, 1.1, 0.2, 0.0, 0.4, 0.9, 0.0, 1.5, 1.1, 0.0}, r1[4] = {0.8, 0.6, 0.7, 0.5};
  check_against_green(4, off1, r1, 1e-10);
  /* A ring of six with a hole in the middle. */
  double off2[18], r2[6];
  ck_assert_int_eq(moreau_shape_ring(6, 0.2, 2.0, off2, r2), MOREAU_SUCCESS);
  check_against_green(6, off2, r2, 1e-10);
  /* Five disks of mixed sizes in a frame 1e3 away. */
  const double off3[15] = {1000.0, -1000.0, 0.0,    1001.2, -1000.0, 0.0,    1000.5, -999.3,
                           0.0,    999.4,   -999.9, 0.0,    1001.2,  -999.1, 0.0};
  /* The last one overlaps the third by 1e-9. */
  const double r3[5] = {0.7, 0.5, 0.3, 0.3, hypot(0.7, 0.2) - 0.3 + 1e-9};
  check_against_green(5, off3, r3, 1e-10);
}
END_TEST

START_TEST(test_ring_generator)
{
  for (int n = 2; n <= 7; n++) {
    double C = cos(M_PI / n), S = sin(M_PI / n), eta_max = 1.0 - C / (1.0 + S);
    const double fr[] = {0.0, 0.3, 0.7, 1.0};
    for (int k = 0; k < 4; k++) {
      double eta = fr[k] * eta_max, R = 2.5, off[21], r[7];
      ck_assert_int_eq(moreau_shape_ring(n, eta, R, off, r), MOREAU_SUCCESS);
      double c = hypot(off[0], off[1]);
      ck_assert(fabs(c + r[0] - R) < 1e-14 * R);
      /* The boundary point on the bisector of disks 0 and 1, at R' = (1 -
       * eta) R, is on both circles. */
      double w[2] = {(1.0 - eta) * R * C, (1.0 - eta) * R * S};
      ck_assert_msg(fabs(hypot(w[0] - off[0], w[1] - off[1]) - r[0]) < 1e-12 * R, "n %d eta %g", n, eta);
      ck_assert(fabs(hypot(w[0] - off[3], w[1] - off[4]) - r[1]) < 1e-12 * R);
      if (k == 3) ck_assert_msg(fabs(hypot(off[3] - off[0], off[4] - off[1]) - 2.0 * r[0]) < 1e-12 * R, "tangent");
    }
  }
  /* The trimer is the ring of three. */
  double a[9], b[9], ra[3], rb[3];
  ck_assert_int_eq(moreau_shape_trimer(0.4, 1.0, a, ra), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_shape_ring(3, 0.4, 1.0, b, rb), MOREAU_SUCCESS);
  ck_assert(memcmp(a, b, sizeof(a)) == 0 && memcmp(ra, rb, sizeof(ra)) == 0);
}
END_TEST

START_TEST(test_bad_input)
{
  double off[9] = {0.0}, r[3] = {1.0, 0.0, 1.0};
  moreau_shape_mass m;
  ck_assert_int_eq(moreau_shape_trimer(0.75, 1.0, off, r), MOREAU_ERR_INPUT);
  ck_assert_ptr_nonnull(strstr(moreau_error_message(), "nonconvexity eta must be in [0, 0.732051]"));
  moreau_error_clear();
  ck_assert_int_eq(moreau_shape_trimer(-0.1, 1.0, off, r), MOREAU_ERR_INPUT);
  moreau_error_clear();
  ck_assert_int_eq(moreau_shape_ring(3, 0.1, 0.0, off, r), MOREAU_ERR_INPUT);
  moreau_error_clear();
  ck_assert_int_eq(moreau_shape_ring(1, 0.0, 1.0, off, r), MOREAU_ERR_INPUT);
  moreau_error_clear();
  r[1] = 0.0;
  ck_assert_int_eq(moreau_shape_union_mass(2, 3, off, r, &m), MOREAU_ERR_INPUT);
  ck_assert_ptr_nonnull(strstr(moreau_error_message(), "contactor 1 of a shape: radius must be positive"));
  moreau_error_clear();
  r[1] = 1.0;
  off[4] = NAN;
  ck_assert_int_eq(moreau_shape_union_mass(2, 3, off, r, &m), MOREAU_ERR_INPUT);
  moreau_error_clear();
  ck_assert_int_eq(moreau_shape_union_mass(2, 0, off, r, &m), MOREAU_ERR_INPUT);
  moreau_error_clear();
  moreau_shapes *t = NULL;
  ck_assert_int_eq(moreau_shapes_create(4, &t), MOREAU_ERR_INPUT);
  moreau_error_clear();
}
END_TEST

/* The table: offsets about the centroid, mass properties once per shape,
 * and translation/rotation of the input that leave them unchanged. */
START_TEST(test_table_and_invariance)
{
  moreau_shapes *t = NULL;
  ck_assert_int_eq(moreau_shapes_create(2, &t), MOREAU_SUCCESS);
  double off[9], r[3], moved[9];
  ck_assert_int_eq(moreau_shape_trimer(0.3, 1.0, off, r), MOREAU_SUCCESS);
  moreau_lid id[40];
  ck_assert_int_eq(moreau_shapes_add(t, 3, off, r, &id[0]), MOREAU_SUCCESS);
  for (int k = 1; k < 40; k++) {
    /* Turned by k radians and moved, with the disks in another order. */
    double c = cos(k), s = sin(k), tx = 10.0 * k - 77.0, ty = -3.0 * k;
    for (int i = 0; i < 3; i++) {
      int j = (i + k) % 3;
      moved[3 * i] = c * off[3 * j] - s * off[3 * j + 1] + tx;
      moved[3 * i + 1] = s * off[3 * j] + c * off[3 * j + 1] + ty;
      moved[3 * i + 2] = 0.0;
    }
    ck_assert_int_eq(moreau_shapes_add(t, 3, moved, r, &id[k]), MOREAU_SUCCESS);
    ck_assert_int_eq(id[k], k);
    ck_assert(REL(t->measure[k], t->measure[0]) < 1e-12);
    ck_assert_msg(REL(t->inertia[9 * k + 8], t->inertia[8]) < 1e-12, "shape %d: polar %.17g, %.17g", k,
                  t->inertia[9 * k + 8], t->inertia[8]);
    ck_assert(REL(t->bounding[k], t->bounding[0]) < 1e-12);
    ck_assert(fabs(t->centroid[3 * k] - tx) < 1e-12 * fabs(tx) + 1e-12 &&
              fabs(t->centroid[3 * k + 1] - ty) < 1e-12 * 120);
    for (int i = 0; i < 3; i++) {
      int j = (i + k) % 3;
      double *o = t->offset + 3 * t->first[k] + 3 * i;
      ck_assert(fabs(hypot(o[0], o[1]) - hypot(off[3 * j], off[3 * j + 1])) < 1e-11);
      ck_assert(fabs(moved[3 * i] - t->centroid[3 * k] - o[0]) < 1e-12 * 400 && o[2] == 0.0);
    }
  }
  ck_assert_int_eq(t->n_shapes, 40);
  ck_assert_int_eq(t->n_contactors, 120);
  ck_assert(fabs(t->bounding[0] - 1.0) < 1e-12);
  ck_assert_int_eq(moreau_shapes_destroy(&t), MOREAU_SUCCESS);
  ck_assert_ptr_null(t);
  ck_assert_int_eq(moreau_shapes_destroy(&t), MOREAU_SUCCESS);
}
END_TEST

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("shapes2d");
  TCase *tc = tcase_create("shapes2d");
  tcase_add_test(tc, test_trimer_area_seed003);
  tcase_add_test(tc, test_single_disk);
  tcase_add_test(tc, test_two_disks_lens);
  tcase_add_test(tc, test_nested_tangent_apart);
  tcase_add_test(tc, test_clusters_against_green);
  tcase_add_test(tc, test_ring_generator);
  tcase_add_test(tc, test_bad_input);
  tcase_add_test(tc, test_table_and_invariance);
  suite_add_tcase(s, tc);
  int status = moreau_test_run_suite(s);
  MPI_Finalize();
  return status;
}
