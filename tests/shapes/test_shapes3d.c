/* Shapes in 3D: mass properties of unions of spheres against closed forms
 * (single sphere; inclusion-exclusion with spherical caps where no three
 * spheres meet, and for seed 003's trimer with its triple intersection),
 * against Monte Carlo for other clumps where three or four meet, principal
 * axes, and invariance under moving and turning the input. */
#include <check.h>
#include <math.h>
#include <mpi.h>
#include <string.h>

#include "check_runner.h"
#include "moreau/rng.h"
#include "moreau/shapes.h"

#define REL(a, b) (fabs((a) - (b)) / fabs(b))

/* Raw moments about the origin: V, int x (3), int x x^T (9). */
typedef struct {
  double v, m1[3], m2[9];
} raw_moments;

/* Adds sign times the moments of the part z >= a of the ball (c, r), z
 * along the unit axis u: with the slice radius^2 r^2 - z^2,
 * V = pi [r^2 z - z^3/3], int z = pi [r^2 z^2/2 - z^4/4],
 * int z^2 = pi [r^2 z^3/3 - z^5/5], int rho^2 = pi/2 [r^4 z - 2 r^2 z^3/3 + z^5/5]
 * from a to r; then int x x^T = V c c^T + int z (c u^T + u c^T)
 * + int rho^2 / 2 (1 - u u^T) + int z^2 u u^T. */
/* The four primitives at z (see add_cap). */
static void cap_primitives(double r, double z, double f[4])
{
  double r2 = r * r, z2 = z * z, z3 = z2 * z, z5 = z3 * z2;
  f[0] = r2 * z - z3 / 3.0;
  f[1] = r2 * z2 / 2.0 - z2 * z2 / 4.0;
  f[2] = r2 * z3 / 3.0 - z5 / 5.0;
  f[3] = r2 * r2 * z - 2.0 * r2 * z3 / 3.0 + z5 / 5.0;
}

static void add_cap(raw_moments *m, double sign, const double c[3], double r, const double u[3], double a)
{
  double fr[4], fa[4];
  cap_primitives(r, r, fr);
  cap_primitives(r, a, fa);
  double v = M_PI * (fr[0] - fa[0]), mz = M_PI * (fr[1] - fa[1]), mzz = M_PI * (fr[2] - fa[2]);
  double mrr = 0.5 * M_PI * (fr[3] - fa[3]);
  m->v += sign * v;
  for (int i = 0; i < 3; i++) {
    m->m1[i] += sign * (v * c[i] + mz * u[i]);
    for (int j = 0; j < 3; j++)
      m->m2[3 * i + j] += sign * (v * c[i] * c[j] + mz * (c[i] * u[j] + u[i] * c[j]) +
                                  0.5 * mrr * ((i == j) - u[i] * u[j]) + mzz * u[i] * u[j]);
  }
}

/* Union of spheres no three of which meet: the spheres minus the lenses of
 * the overlapping pairs, each lens two caps cut by the common plane. */
static void pairwise_union(int n, const double *c, const double *r, raw_moments *m)
{
  const double z[3] = {0.0, 0.0, 1.0};
  memset(m, 0, sizeof(*m));
  for (int i = 0; i < n; i++)
    add_cap(m, 1.0, c + 3 * i, r[i], z, -r[i]);
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double u[3], mu[3], d;
      for (int k = 0; k < 3; k++)
        u[k] = c[3 * j + k] - c[3 * i + k];
      d = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
      if (d >= r[i] + r[j]) continue;
      ck_assert(d > fabs(r[i] - r[j]));
      for (int k = 0; k < 3; k++)
        mu[k] = -(u[k] /= d);
      double s = (d * d + r[i] * r[i] - r[j] * r[j]) / (2.0 * d);
      add_cap(m, -1.0, c + 3 * i, r[i], u, s);
      add_cap(m, -1.0, c + 3 * j, r[j], mu, d - s);
    }
}

/* The raw moments about the origin of a computed mass. */
static void raw_from_mass(const moreau_shape_mass *s, raw_moments *m)
{
  double tr = 0.5 * (s->inertia[0] + s->inertia[4] + s->inertia[8]);
  m->v = s->measure;
  for (int i = 0; i < 3; i++) {
    m->m1[i] = s->measure * s->centroid[i];
    for (int j = 0; j < 3; j++)
      m->m2[3 * i + j] = (i == j) * tr - s->inertia[3 * i + j] + s->measure * s->centroid[i] * s->centroid[j];
  }
}

START_TEST(test_single_sphere)
{
  const double c[3] = {1.5, -2.0, 0.25}, r = 0.8;
  double v = 4.0 / 3.0 * M_PI * r * r * r;
  moreau_shape_mass m;
  ck_assert_int_eq(moreau_shape_union_mass(3, 1, c, &r, &m), MOREAU_SUCCESS);
  ck_assert(REL(m.measure, v) < 1e-15);
  ck_assert(memcmp(m.centroid, c, sizeof(c)) == 0);
  for (int i = 0; i < 9; i++)
    ck_assert(i % 4 == 0 ? REL(m.inertia[i], 0.4 * v * r * r) < 1e-15 : m.inertia[i] == 0.0);
  /* The same through the quadrature: spheres nested in a larger one, first
   * one, then four that overlap each other (all their meeting points
   * buried) and one touching the big sphere from inside. */
  const double c2[18] = {0.0,  0.0, 0.0, 0.2,  -0.1, 0.3, -0.3, 0.2,  0.1,
                         0.25, 0.3, 0.0, -0.1, -0.4, 0.2, 0.0,  0.55, -0.3};
  const double r2[6] = {1.0, 0.4, 0.5, 0.45, 0.35, 1.0 - sqrt(0.55 * 0.55 + 0.3 * 0.3)};
  v = 4.0 / 3.0 * M_PI;
  for (int n = 2; n <= 6; n += 4) {
    ck_assert_int_eq(moreau_shape_union_mass(3, n, c2, r2, &m), MOREAU_SUCCESS);
    ck_assert_msg(REL(m.measure, v) < 1e-10, "nested %d: %.17g", n, m.measure);
    ck_assert(fabs(m.centroid[0]) + fabs(m.centroid[1]) + fabs(m.centroid[2]) < 1e-10);
    for (int i = 0; i < 9; i++)
      ck_assert(fabs(m.inertia[i] - (i % 4 == 0) * 0.4 * v) < 1e-10 * v);
  }
}
END_TEST

/* Compares raw moments, relative to the scales v, v ext, v ext^2. */
static void check_raw(const raw_moments *a, const raw_moments *b, double ext, double tol, const char *what)
{
  ck_assert_msg(REL(a->v, b->v) < tol, "%s: volume %.17g, reference %.17g", what, a->v, b->v);
  for (int i = 0; i < 3; i++)
    ck_assert_msg(fabs(a->m1[i] - b->m1[i]) < tol * b->v * ext, "%s: first moment %d", what, i);
  for (int i = 0; i < 9; i++)
    ck_assert_msg(fabs(a->m2[i] - b->m2[i]) < tol * b->v * ext * ext, "%s: second moment %d: %.17g, %.17g", what, i,
                  a->m2[i], b->m2[i]);
}

/* Clumps where only pairs overlap: exact by inclusion-exclusion. */
START_TEST(test_pairwise_exact)
{
  /* Tetrahedron of edge 2 (circumradius of a face 2/sqrt(3) > r: no triple
   * overlap), shifted off the origin; an asymmetric chain A-B-C (A, C
   * apart); a tangent pair and a disjoint pair. */
  const double s = 1.0 / sqrt(2.0);
  const double tet[12] = {s + 0.3, s, s - 0.2, s + 0.3, -s, -s - 0.2, -s + 0.3, s, -s - 0.2, -s + 0.3, -s, s - 0.2};
  const double rt[4] = {1.1, 1.1, 1.1, 1.1};
  const double chain[9] = {0.0, 0.0, 0.0, 1.3, 0.5, 0.2, 1.8, 1.2, 0.8}, rc[3] = {1.0, 0.7, 0.6};
  const double tangent[6] = {0.0, 0.0, 0.0, 0.96, 1.28, 0.0}, rtg[2] = {1.0, 0.6};
  const double apart[6] = {0.0, 0.0, 0.0, -1.0, 2.0, 1.5}, rap[2] = {0.5, 0.9};
  const struct {
    int n;
    const double *c, *r;
    double ext;
    const char *name;
  } cases[4] = {{4, tet, rt, 2.5, "tetrahedron"},
                {3, chain, rc, 3.0, "chain"},
                {2, tangent, rtg, 2.2, "tangent"},
                {2, apart, rap, 3.5, "apart"}};
  for (int k = 0; k < 4; k++) {
    moreau_shape_mass m;
    raw_moments got, ref;
    ck_assert_int_eq(moreau_shape_union_mass(3, cases[k].n, cases[k].c, cases[k].r, &m), MOREAU_SUCCESS);
    raw_from_mass(&m, &got);
    pairwise_union(cases[k].n, cases[k].c, cases[k].r, &ref);
    check_raw(&got, &ref, cases[k].ext, 1e-8, cases[k].name);
  }
}
END_TEST

/* Clenshaw-Curtis rule of N + 1 points on [-1, 1], N even (a rule other
 * than the code's Gauss-Legendre). */
static void clenshaw_curtis(int N, double *x, double *w)
{
  for (int k = 0; k <= N; k++) {
    double s = 0.0;
    for (int j = 1; j <= N / 2; j++)
      s += (j == N / 2 ? 1.0 : 2.0) / (4.0 * j * j - 1.0) * cos(2.0 * j * k * M_PI / N);
    x[k] = cos(k * M_PI / N);
    w[k] = (k == 0 || k == N ? 1.0 : 2.0) / N * (1.0 - s);
  }
}

/* Area a and polar moment j about the centre of the intersection of three
 * disks of radius rho centred on an equilateral triangle of circumradius
 * d <= rho: an equilateral triangle of circumradius s (its vertices the tips
 * of the pairwise lenses towards the third centre) and three circular
 * segments, each cut from its circle by a chord at e = d + s / 2 from the
 * circle's centre, half-chord b, half-angle al: area rho^2 al - b e, first
 * moment 2 b^3 / 3 along the axis and polar moment rho^4 al / 2 - b e^3 / 2
 * - b^3 e / 6 about the circle's centre (sector minus triangle), moved to the
 * cluster's centre at d from it. */
static void triple_slice(double rho, double d, double *a, double *j)
{
  double s = sqrt(rho * rho - 0.75 * d * d) - 0.5 * d, e = d + 0.5 * s, b = 0.5 * sqrt(3.0) * s, al = atan2(b, e);
  double tri = 0.75 * sqrt(3.0) * s * s, seg = rho * rho * al - b * e, mom = 2.0 / 3.0 * b * b * b;
  double jc = 0.5 * rho * rho * rho * rho * al - 0.5 * b * e * e * e - b * b * b * e / 6.0;
  *a = tri + 3.0 * seg;
  *j = 0.25 * tri * s * s + 3.0 * (jc - 2.0 * d * mom + seg * d * d);
}

/* Exact moments of seed 003's trimer of spheres (radius r, centres on an
 * equilateral triangle of circumradius d in the xy plane about the origin)
 * by inclusion-exclusion: the spheres minus the pairwise lenses (caps) plus
 * the triple intersection, whose slices normal to z are triple_slice's
 * (analytic in z: 129 Clenshaw-Curtis points reach rounding). */
static void trimer_reference(const double *c, double r, raw_moments *m)
{
  const double rr[3] = {r, r, r}, d = c[0];
  double x[129], w[129];
  pairwise_union(3, c, rr, m);
  if (!(d < r)) return;
  double zt = sqrt((r - d) * (r + d));
  clenshaw_curtis(128, x, w);
  for (int k = 0; k <= 128; k++) {
    double z = zt * x[k], a, j;
    triple_slice(sqrt((r - z) * (r + z)), d, &a, &j);
    m->v += zt * w[k] * a;
    m->m2[0] += 0.5 * zt * w[k] * j;
    m->m2[4] += 0.5 * zt * w[k] * j;
    m->m2[8] += zt * w[k] * z * z * a;
  }
}

/* Seed 003's trimer in the three coordinate planes, at eta 0.5 the three
 * spheres meet in one point on the axis, at eta sqrt(3) - 1 they touch:
 * against the exact reference, and the planes against each other. */
START_TEST(test_trimer_planes)
{
  const double etas[4] = {0.2, 0.3, 0.5, sqrt(3.0) - 1.0};
  /* A plane's axes (its first, second, normal) in the xy frame's. */
  const int planes[3][3] = {{0, 1, 2}, {1, 2, 0}, {0, 2, 1}};
  for (int e = 0; e < 4; e++) {
    double c[9], r[3];
    moreau_shape_mass m[3];
    raw_moments ref;
    ck_assert_int_eq(moreau_shape_trimer(etas[e], 1.0, c, r), MOREAU_SUCCESS);
    trimer_reference(c, r[0], &ref);
    for (int p = 0; p < 3; p++) {
      const int *ax = planes[p];
      double cp[9] = {0.0};
      raw_moments got, refp = {ref.v, {0.0}, {0.0}};
      for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) {
          cp[3 * i + ax[k]] = c[3 * i + k];
          refp.m1[ax[i]] = ref.m1[i];
          refp.m2[3 * ax[i] + ax[k]] = ref.m2[3 * i + k];
        }
      ck_assert_int_eq(moreau_shape_union_mass(3, 3, cp, r, m + p), MOREAU_SUCCESS);
      raw_from_mass(m + p, &got);
      check_raw(&got, &refp, 1.0, 1e-10, "trimer");
      ck_assert(REL(m[p].measure, m[0].measure) < 1e-10);
      for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
          ck_assert_msg(fabs(m[p].inertia[3 * ax[i] + ax[k]] - m[0].inertia[3 * i + k]) < 1e-10 * m[0].inertia[8],
                        "eta %g plane %d: inertia %d %d", etas[e], p, i, k);
    }
  }
}
END_TEST

/* Monte Carlo reference for clumps where three or four spheres meet: mean of
 * the indicator times 1, x, x x^T over the bounding box, with the standard
 * error of each; the computed moments must lie within 5 standard errors
 * (the reference supports about 1e-3 relative with 2^22 points). */
static void check_monte_carlo(int n, const double *c, const double *r, uint64_t seed)
{
  double lo[3], hi[3], box = 1.0, sum[13] = {0.0}, sq[13] = {0.0};
  const int N = 1 << 22;
  for (int k = 0; k < 3; k++) {
    lo[k] = INFINITY, hi[k] = -INFINITY;
    for (int i = 0; i < n; i++) {
      lo[k] = fmin(lo[k], c[3 * i + k] - r[i]);
      hi[k] = fmax(hi[k], c[3 * i + k] + r[i]);
    }
    box *= hi[k] - lo[k];
  }
  moreau_rng g;
  moreau_rng_seed(&g, seed, 0);
  for (int p = 0; p < N; p++) {
    double x[3];
    for (int k = 0; k < 3; k++)
      x[k] = lo[k] + (hi[k] - lo[k]) * moreau_rng_uniform(&g);
    int in = 0;
    for (int i = 0; i < n && !in; i++) {
      double dx = x[0] - c[3 * i], dy = x[1] - c[3 * i + 1], dz = x[2] - c[3 * i + 2];
      in = dx * dx + dy * dy + dz * dz < r[i] * r[i];
    }
    if (!in) continue;
    double f[13] = {1.0, x[0], x[1], x[2]};
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        f[4 + 3 * i + j] = x[i] * x[j];
    for (int k = 0; k < 13; k++) {
      sum[k] += f[k];
      sq[k] += f[k] * f[k];
    }
  }
  moreau_shape_mass m;
  raw_moments got;
  ck_assert_int_eq(moreau_shape_union_mass(3, n, c, r, &m), MOREAU_SUCCESS);
  raw_from_mass(&m, &got);
  const double *val[13] = {&got.v, got.m1, got.m1 + 1, got.m1 + 2};
  for (int k = 0; k < 9; k++)
    val[4 + k] = got.m2 + k;
  for (int k = 0; k < 13; k++) {
    double mean = sum[k] / N, err = box * sqrt((sq[k] / N - mean * mean) / N);
    ck_assert_msg(fabs(*val[k] - box * mean) < 5.0 * err, "moment %d: %.10g, Monte Carlo %.10g +- %.2g", k, *val[k],
                  box * mean, err);
  }
}

START_TEST(test_overlapping_monte_carlo)
{
  const double s = 1.0 / sqrt(2.0);
  const double tet[12] = {s, s, s, s, -s, -s, -s, s, -s, -s, -s, s}, rt[4] = {1.6, 1.6, 1.6, 1.6};
  const double three[9] = {0.0, 0.0, 0.0, 0.9, 0.4, 0.1, 0.3, 0.9, 0.6}, r3[3] = {1.0, 0.8, 0.7};
  check_monte_carlo(4, tet, rt, 5);
  check_monte_carlo(3, three, r3, 6);
}
END_TEST

static void rotate(const double q[4], const double v[3], double out[3])
{
  /* out = v + 2 w (u x v) + 2 u x (u x v), q = (w, u). */
  const double *u = q + 1;
  double t[3] = {2.0 * (u[1] * v[2] - u[2] * v[1]), 2.0 * (u[2] * v[0] - u[0] * v[2]),
                 2.0 * (u[0] * v[1] - u[1] * v[0])};
  out[0] = v[0] + q[0] * t[0] + u[1] * t[2] - u[2] * t[1];
  out[1] = v[1] + q[0] * t[1] + u[2] * t[0] - u[0] * t[2];
  out[2] = v[2] + q[0] * t[2] + u[0] * t[1] - u[1] * t[0];
}

/* Principal frame of a shape in the table: R orthonormal with det +1 and the
 * same rotation as q, R^T I R diagonal with the principal moments ascending,
 * the offsets such that given = centroid + R offset. */
static void check_principal(const moreau_shapes *t, moreau_lid s, const double *given)
{
  const double *R = t->axes + 9 * s, *I = t->inertia + 9 * s, *p = t->principal + 3 * s, *q = t->q + 4 * s;
  double tr = I[0] + I[4] + I[8];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      double rtr = 0.0, d = 0.0;
      for (int k = 0; k < 3; k++) {
        rtr += R[3 * k + i] * R[3 * k + j];
        for (int l = 0; l < 3; l++)
          d += R[3 * k + i] * I[3 * k + l] * R[3 * l + j];
      }
      ck_assert_msg(fabs(rtr - (i == j)) < 1e-14, "R^T R [%d][%d] = %.17g", i, j, rtr);
      ck_assert_msg(fabs(d - (i == j ? p[i] : 0.0)) < 1e-12 * tr, "R^T I R [%d][%d] = %.17g", i, j, d);
    }
  double det =
      R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) + R[2] * (R[3] * R[7] - R[4] * R[6]);
  ck_assert(fabs(det - 1.0) < 1e-14);
  ck_assert(p[0] <= p[1] + 1e-11 * tr && p[1] <= p[2] + 1e-11 * tr);
  for (int k = 0; k < 3; k++) {
    double e[3] = {k == 0, k == 1, k == 2}, re[3];
    rotate(q, e, re);
    for (int i = 0; i < 3; i++)
      ck_assert(fabs(re[i] - R[3 * i + k]) < 1e-14);
  }
  for (int c = 0; c < t->count[s]; c++) {
    const double *o = t->offset + 3 * (t->first[s] + c);
    for (int i = 0; i < 3; i++) {
      double x = t->centroid[3 * s + i] + R[3 * i] * o[0] + R[3 * i + 1] * o[1] + R[3 * i + 2] * o[2];
      ck_assert(fabs(x - given[3 * c + i]) < 1e-12 * (1.0 + fabs(given[3 * c + i])));
    }
  }
}

/* Moving and turning the input changes the centroid, the tensor (as Q I Q^T)
 * and the frame, not the volume, principal moments or body-frame offsets
 * (up to the sign of each axis). */
START_TEST(test_principal_and_invariance)
{
  const double base[9] = {0.0, 0.0, 0.0, 0.9, 0.4, 0.1, 0.3, 0.9, 0.6}, r[3] = {1.0, 0.8, 0.7};
  moreau_shapes *t = NULL;
  moreau_lid id;
  moreau_rng g;
  ck_assert_int_eq(moreau_shapes_create(3, &t), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_shapes_add(t, 3, base, r, &id), MOREAU_SUCCESS);
  check_principal(t, 0, base);
  ck_assert(t->principal[0] < 0.99 * t->principal[1] && t->principal[1] < 0.99 * t->principal[2]);
  moreau_rng_seed(&g, 17, 0);
  for (int k = 1; k <= 20; k++) {
    double q[4], nq = 0.0, moved[9], shift[3];
    for (int i = 0; i < 4; i++) {
      q[i] = moreau_rng_uniform(&g) - 0.5;
      nq += q[i] * q[i];
    }
    for (int i = 0; i < 4; i++)
      q[i] /= sqrt(nq);
    for (int i = 0; i < 3; i++)
      shift[i] = 50.0 * (moreau_rng_uniform(&g) - 0.5);
    for (int c = 0; c < 3; c++) {
      rotate(q, base + 3 * c, moved + 3 * c);
      for (int i = 0; i < 3; i++)
        moved[3 * c + i] += shift[i];
    }
    ck_assert_int_eq(moreau_shapes_add(t, 3, moved, r, &id), MOREAU_SUCCESS);
    check_principal(t, id, moved);
    ck_assert(REL(t->measure[id], t->measure[0]) < 1e-10);
    for (int i = 0; i < 3; i++)
      ck_assert_msg(REL(t->principal[3 * id + i], t->principal[i]) < 1e-9, "turn %d: principal %d", k, i);
    ck_assert(REL(t->bounding[id], t->bounding[0]) < 1e-9);
    double gc[3], cols[3][3];
    rotate(q, t->centroid, gc);
    for (int i = 0; i < 3; i++)
      ck_assert(fabs(t->centroid[3 * id + i] - gc[i] - shift[i]) < 1e-10 * 25.0);
    /* Q I Q^T, column by column: Q (I Q^T e_j) with (I Q^T)_j = I (Q^T e_j). */
    for (int j = 0; j < 3; j++) {
      double e[3] = {j == 0, j == 1, j == 2}, qi[4] = {q[0], -q[1], -q[2], -q[3]}, a[3], b[3];
      rotate(qi, e, a);
      for (int i = 0; i < 3; i++)
        b[i] = t->inertia[3 * i] * a[0] + t->inertia[3 * i + 1] * a[1] + t->inertia[3 * i + 2] * a[2];
      rotate(q, b, cols[j]);
    }
    double tr = t->principal[0] + t->principal[1] + t->principal[2];
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        ck_assert(fabs(t->inertia[9 * id + 3 * i + j] - cols[j][i]) < 1e-9 * tr);
    for (int c = 0; c < 9; c++)
      ck_assert_msg(fabs(fabs(t->offset[3 * t->first[id] + c]) - fabs(t->offset[c])) < 1e-8, "turn %d: offset", k);
  }
  ck_assert_int_eq(moreau_shapes_destroy(&t), MOREAU_SUCCESS);
}
END_TEST

/* A symmetric clump (isotropic tensor) keeps the given axes. */
START_TEST(test_symmetric_keeps_axes)
{
  const double s = 1.0 / sqrt(2.0);
  const double tet[12] = {s, s, s, s, -s, -s, -s, s, -s, -s, -s, s}, rt[4] = {1.6, 1.6, 1.6, 1.6};
  moreau_shapes *t = NULL;
  moreau_lid id;
  ck_assert_int_eq(moreau_shapes_create(3, &t), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_shapes_add(t, 4, tet, rt, &id), MOREAU_SUCCESS);
  check_principal(t, id, tet);
  for (int i = 0; i < 9; i++)
    ck_assert(t->axes[i] == (i % 4 == 0));
  ck_assert(fabs(t->principal[0] - t->principal[2]) < 1e-10 * t->principal[0]);
  ck_assert(fabs(t->bounding[0] - (sqrt(1.5) + 1.6)) < 1e-10);
  ck_assert_int_eq(moreau_shapes_destroy(&t), MOREAU_SUCCESS);
}
END_TEST

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("shapes3d");
  TCase *tc = tcase_create("shapes3d");
  tcase_add_test(tc, test_single_sphere);
  tcase_add_test(tc, test_pairwise_exact);
  tcase_add_test(tc, test_trimer_planes);
  tcase_add_test(tc, test_overlapping_monte_carlo);
  tcase_add_test(tc, test_principal_and_invariance);
  tcase_add_test(tc, test_symmetric_keeps_axes);
  suite_add_tcase(s, tc);
  int status = moreau_test_run_suite(s);
  MPI_Finalize();
  return status;
}
