/* Mass properties of a union of overlapping disks or spheres.
 *
 * The union has no closed form in general, so its moments are integrated
 * numerically, exactly in the innermost variable:
 * 2D: for each x the disks cut chords [y_i - h_i, y_i + h_i] out of the line;
 * their union is a few disjoint intervals whose moments in y (y^0, y^1, y^2)
 * are exact. The x integral is split into panels at every disk's x-extent
 * and at the x of every pairwise circle intersection: inside a panel the
 * active disks and the order of the chord ends do not change, so the
 * integrand is smooth but for the square-root behaviour of a chord at its
 * disk's extent, at a panel end. The substitution x = a + (b - a)(1 - cos t)/2
 * turns that into an analytic integrand in t, integrated by Gauss-Legendre.
 * 3D: the same with one more level: for each x the spheres cut disks out of
 * the plane, whose union's 2D moments in (y, z) come from the 2D routine;
 * the x panels end at the spheres' x-extents, the x-extents of the pairwise
 * intersection circles and the x of triple intersection points (where the
 * arrangement of the slice changes), leaving out the points buried inside
 * another contactor (no feature of the union's boundary there).
 * Each slice is split into its pieces, each integrated about its own centre
 * (a lone disk exactly). Each panel's error is estimated by comparing rules
 * of N and 2N points, and the panel of largest estimate is bisected until
 * the estimates sum below the tolerance, which also catches what the
 * breakpoints miss (near-tangencies, coincident features).
 * Pieces of the cluster that do not overlap are integrated apart and
 * combined exactly, each about a reference point near its own centroid, so
 * that neither the shift to the centroid nor far-apart pieces cancel digits
 * when the contactors lie far from their frame's origin or from each other. */
#include "moreau/shapes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GL_LO 12
#define GL_HI (2 * GL_LO)
/* Relative tolerances (of the scales below) on the sum of the panels' error
 * estimates: the 2D routine is also the inner integral of the 3D one, whose
 * outer error estimate needs the inner values smooth well below its own
 * tolerance. */
#define TOL_2D 1e-13
#define TOL_3D 1e-11
/* Bisections allowed per integral beyond the initial panels: a bound on the
 * work, should the estimates stall at the rounding of the integrand. */
#define MAX_SPLITS 1000

typedef struct {
  double t[GL_HI], w[GL_HI];
  int n;
} gl_rule;

/* Gauss-Legendre rule of n points on [0, pi] (Newton on P_n). */
static void gl_rule_init(gl_rule *g, int n)
{
  g->n = n;
  for (int i = 0; i < (n + 1) / 2; i++) {
    double z = cos(M_PI * (i + 0.75) / (n + 0.5)), dp = 1.0;
    for (int it = 0; it < 100; it++) {
      double p0 = 1.0, p1 = 0.0;
      for (int k = 1; k <= n; k++) {
        double p2 = p1;
        p1 = p0;
        p0 = ((2.0 * k - 1.0) * z * p1 - (k - 1.0) * p2) / k;
      }
      dp = n * (z * p0 - p1) / (z * z - 1.0);
      double dz = p0 / dp;
      z -= dz;
      if (fabs(dz) < 1e-16) break;
    }
    double w = 2.0 / ((1.0 - z * z) * dp * dp);
    g->t[i] = 0.5 * M_PI * (1.0 - z);
    g->t[n - 1 - i] = 0.5 * M_PI * (1.0 + z);
    g->w[i] = g->w[n - 1 - i] = 0.5 * M_PI * w;
  }
}

enum { NV_MAX = 10 };

/* A panel [a, b]: its integral q by the finer rule and err, the largest
 * difference of the two rules over the components, in units of their
 * scales (an estimate of the coarser rule's error, so a generous one of the
 * finer's). */
typedef struct {
  double a, b, err, q[NV_MAX];
} panel;

/* An integrand of x with nv components, the scales its errors are measured
 * against, and room for the panels of one integral. */
typedef struct {
  void (*eval)(void *ctx, double x, double *out);
  void *ctx;
  int nv;
  const double *scale;
  const gl_rule *lo, *hi;
  panel *heap;
} integrand;

static void panel_rule(const integrand *f, const gl_rule *g, double a, double b, double *q)
{
  double v[NV_MAX];
  for (int k = 0; k < f->nv; k++)
    q[k] = 0.0;
  for (int i = 0; i < g->n; i++) {
    double c = cos(g->t[i]), s = sin(g->t[i]);
    double x = a + 0.5 * (b - a) * (1.0 - c), jac = 0.5 * (b - a) * s * g->w[i];
    f->eval(f->ctx, x, v);
    for (int k = 0; k < f->nv; k++)
      q[k] += jac * v[k];
  }
}

static void panel_eval(const integrand *f, double a, double b, panel *p)
{
  double q1[NV_MAX];
  p->a = a;
  p->b = b;
  p->err = 0.0;
  panel_rule(f, f->lo, a, b, q1);
  panel_rule(f, f->hi, a, b, p->q);
  for (int k = 0; k < f->nv; k++)
    p->err = fmax(p->err, fabs(p->q[k] - q1[k]) / f->scale[k]);
}

/* The panels form a max-heap by err. */
static void heap_swap(panel *h, int i, int j)
{
  panel t = h[i];
  h[i] = h[j];
  h[j] = t;
}

static void heap_up(panel *h, int i)
{
  for (; i > 0 && h[(i - 1) / 2].err < h[i].err; i = (i - 1) / 2)
    heap_swap(h, i, (i - 1) / 2);
}

static void heap_down(panel *h, int n, int i)
{
  for (;;) {
    int l = 2 * i + 1, m = i;
    if (l < n && h[l].err > h[m].err) m = l;
    if (l + 1 < n && h[l + 1].err > h[m].err) m = l + 1;
    if (m == i) return;
    heap_swap(h, i, m);
    i = m;
  }
}

static int cmp_double(const void *pa, const void *pb)
{
  double a = *(const double *)pa, b = *(const double *)pb;
  return (a > b) - (a < b);
}

/* Integrates over the panels between the breakpoints bp[0..nb), bisecting
 * the panel of largest estimate until the estimates sum to at most tol (in
 * units of the scales). A global budget, not a share of tol per unit
 * length: a jump of size J the breakpoints miss (a chord rounded within
 * ulps of its disk's end, a near-tangency) costs J times its panel's width
 * and no share proportional to that width is ever met: bisection would run
 * to a depth bound around every such point, as often as the inner integral
 * is called. f->heap holds nb - 1 + MAX_SPLITS panels. */
static void integrate_panels(const integrand *f, double *bp, int nb, double tol, double *acc)
{
  panel *h = f->heap;
  int np = 0;
  double err = 0.0;
  qsort(bp, (size_t)nb, sizeof(double), cmp_double);
  for (int i = 0; i + 1 < nb; i++)
    if (bp[i + 1] > bp[i]) {
      panel_eval(f, bp[i], bp[i + 1], h + np);
      err += h[np].err;
      heap_up(h, np++);
    }
  for (int split = 0; split < MAX_SPLITS && np > 0 && err > tol; split++) {
    double a = h[0].a, b = h[0].b, m = 0.5 * (a + b);
    err -= h[0].err;
    if (a < m && m < b) {
      panel_eval(f, a, m, h);
      err += h[0].err;
      heap_down(h, np, 0);
      panel_eval(f, m, b, h + np);
      err += h[np].err;
      heap_up(h, np++);
    } else { /* no double between its ends: it stays as it is */
      h[0].err = 0.0;
      heap_down(h, np, 0);
    }
    if (err <= tol) { /* the running sum, recounted before stopping on it */
      err = 0.0;
      for (int i = 0; i < np; i++)
        err += h[i].err;
    }
  }
  for (int k = 0; k < f->nv; k++) {
    acc[k] = 0.0;
    for (int i = 0; i < np; i++)
      acc[k] += h[i].q[k];
  }
}

/* The two intersection points of circles (a, ra) and (b, rb) in the plane,
 * if they cross: returns 0 when they are apart, tangent or nested. */
static int circle_intersections(const double a[2], double ra, const double b[2], double rb, double p[2][2])
{
  double dx = b[0] - a[0], dy = b[1] - a[1], d = hypot(dx, dy);
  if (!(d < ra + rb) || !(d > fabs(ra - rb))) return 0;
  double s = (d * d + ra * ra - rb * rb) / (2.0 * d), h = sqrt(fmax(0.0, (ra - s) * (ra + s)));
  double ux = dx / d, uy = dy / d;
  p[0][0] = a[0] + s * ux - h * uy;
  p[0][1] = a[1] + s * uy + h * ux;
  p[1][0] = a[0] + s * ux + h * uy;
  p[1][1] = a[1] + s * uy - h * ux;
  return 1;
}

/* Whether point p lies inside a contactor other than i, j and k (centres of
 * stride dim): there the union's boundary has no feature, so the point makes
 * no breakpoint. The margin keeps points on another surface, which cost only
 * a panel. */
static int buried(int dim, const double *p, int n, const double *c, const double *r, int i, int j, int k)
{
  for (int l = 0; l < n; l++) {
    if (l == i || l == j || l == k) continue;
    double d2 = 0.0;
    for (int m = 0; m < dim; m++)
      d2 += (p[m] - c[dim * l + m]) * (p[m] - c[dim * l + m]);
    if (d2 < r[l] * r[l] * (1.0 - 1e-10)) return 1;
  }
  return 0;
}

/* Root of i's piece in the union-find forest parent[]. */
static int piece_root(int *parent, int i)
{
  while (parent[i] != i)
    i = parent[i] = parent[parent[i]];
  return i;
}

/* ---- 2D ---- */

typedef struct {
  int n;
  const double *c; /* centres, stride 2 */
  const double *r;
  double *lo, *hi; /* scratch of n */
} union2d;

/* Moments y^0, y^1, y^2 of the union of the chords at x. */
static void chord_moments(const union2d *u, double x, double m[3])
{
  int k = 0;
  for (int i = 0; i < u->n; i++) {
    double dx = x - u->c[2 * i], r = u->r[i];
    if (fabs(dx) >= r) continue;
    double h = sqrt((r - dx) * (r + dx)), lo = u->c[2 * i + 1] - h, hi = u->c[2 * i + 1] + h;
    int j = k++;
    for (; j > 0 && u->lo[j - 1] > lo; j--) {
      u->lo[j] = u->lo[j - 1];
      u->hi[j] = u->hi[j - 1];
    }
    u->lo[j] = lo;
    u->hi[j] = hi;
  }
  m[0] = m[1] = m[2] = 0.0;
  for (int i = 0; i < k;) {
    double lo = u->lo[i], hi = u->hi[i];
    for (i++; i < k && u->lo[i] <= hi; i++)
      hi = fmax(hi, u->hi[i]);
    double len = hi - lo;
    m[0] += len;
    m[1] += 0.5 * len * (hi + lo);
    m[2] += len * (hi * hi + hi * lo + lo * lo) / 3.0;
  }
}

/* out: the x-weighted moments m, x m, y m, x^2 m, x y m, y^2 m. */
static void eval2d(void *ctx, double x, double *out)
{
  double m[3];
  chord_moments(ctx, x, m);
  out[0] = m[0];
  out[1] = x * m[0];
  out[2] = m[1];
  out[3] = x * x * m[0];
  out[4] = x * m[1];
  out[5] = m[2];
}

/* Moments about the origin of the union of n disks, out[6] =
 * (A, int x, int y, int x^2, int x y, int y^2). bp is scratch of
 * 2 n + n (n - 1), lo and hi of n, heap of 2 n + n (n - 1) + MAX_SPLITS. */
static void moments2d(int n, const double *c, const double *r, const gl_rule *g_lo, const gl_rule *g_hi, double tol,
                      double *bp, double *lo, double *hi, panel *heap, double *out)
{
  int nb = 0;
  double a = 0.0, ext = 0.0;
  for (int i = 0; i < n; i++) {
    bp[nb++] = c[2 * i] - r[i];
    bp[nb++] = c[2 * i] + r[i];
    a += M_PI * r[i] * r[i];
    ext = fmax(ext, hypot(c[2 * i], c[2 * i + 1]) + r[i]);
  }
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double p[2][2];
      if (circle_intersections(c + 2 * i, r[i], c + 2 * j, r[j], p))
        for (int k = 0; k < 2; k++)
          if (!buried(2, p[k], n, c, r, i, j, -1)) bp[nb++] = p[k][0];
    }
  const double scale[6] = {a, a * ext, a * ext, a * ext * ext, a * ext * ext, a * ext * ext};
  union2d u = {n, c, r, lo, hi};
  integrand f = {eval2d, &u, 6, scale, g_lo, g_hi, heap};
  integrate_panels(&f, bp, nb, tol, out);
}

/* ---- 3D ---- */

typedef struct {
  int n;
  const double *c; /* centres, stride 3 */
  const double *r;
  const gl_rule *lo_rule, *hi_rule;
  double *sc, *sr, *pc, *pr, *bp, *lo, *hi; /* slice scratch: its disks, one piece's */
  int *root;                                /* each slice disk's piece */
  panel *heap;                              /* the slice's panels */
} union3d;

/* Adds to m the moments (A, int y, int z, int y^2, int y z, int z^2) of the
 * piece of the slice whose disks are those of u->sc, u->sr with root i: a
 * lone disk exactly, several by the 2D routine about their centre p. */
static void add_slice_piece(union3d *u, int k, int i, double m[6])
{
  int np = 0;
  double p[2] = {0.0, 0.0}, w = 0.0, q[6] = {0.0};
  for (int j = 0; j < k; j++)
    if (u->root[j] >= 0 && piece_root(u->root, j) == i) {
      double wj = u->sr[j] * u->sr[j];
      u->pr[np] = u->sr[j];
      u->pc[2 * np] = u->sc[2 * j];
      u->pc[2 * np++ + 1] = u->sc[2 * j + 1];
      w += wj;
      p[0] += wj * u->sc[2 * j];
      p[1] += wj * u->sc[2 * j + 1];
    }
  if (np == 1) {
    p[0] = u->pc[0];
    p[1] = u->pc[1];
    q[0] = M_PI * u->pr[0] * u->pr[0];
    q[3] = q[5] = 0.25 * q[0] * u->pr[0] * u->pr[0];
  } else {
    p[0] /= w;
    p[1] /= w;
    for (int j = 0; j < np; j++) {
      u->pc[2 * j] -= p[0];
      u->pc[2 * j + 1] -= p[1];
    }
    moments2d(np, u->pc, u->pr, u->lo_rule, u->hi_rule, TOL_2D, u->bp, u->lo, u->hi, u->heap, q);
  }
  m[0] += q[0];
  m[1] += q[1] + q[0] * p[0];
  m[2] += q[2] + q[0] * p[1];
  m[3] += q[3] + (2.0 * q[1] + q[0] * p[0]) * p[0];
  m[4] += q[4] + q[1] * p[1] + (q[2] + q[0] * p[1]) * p[0];
  m[5] += q[5] + (2.0 * q[2] + q[0] * p[1]) * p[1];
}

/* out: A, x A, int y, int z, x^2 A, x int y, x int z, int y^2, int y z,
 * int z^2 over the slice at x. The slice is split into pieces like the
 * cluster (disks inside another disk of the slice left out), each taken
 * about its own centre: near the x-ends of a piece its disks are tiny, and
 * in the cluster's coordinates the rounding of their chords, relative to
 * their radii, lies above the 2D tolerance (the 2D bisection would run
 * down to panels a few ulps wide). A lone disk is exact. */
static void eval3d(void *ctx, double x, double *out)
{
  union3d *u = ctx;
  int k = 0;
  double m[6] = {0.0};
  for (int i = 0; i < u->n; i++) {
    double dx = x - u->c[3 * i], r = u->r[i];
    if (fabs(dx) >= r) continue;
    u->sc[2 * k] = u->c[3 * i + 1];
    u->sc[2 * k + 1] = u->c[3 * i + 2];
    u->sr[k++] = sqrt((r - dx) * (r + dx));
  }
  /* root -1: inside another disk (of equal disks the first stays). */
  for (int i = 0; i < k; i++) {
    u->root[i] = i;
    for (int j = 0; j < k && u->root[i] >= 0; j++) {
      double d = hypot(u->sc[2 * j] - u->sc[2 * i], u->sc[2 * j + 1] - u->sc[2 * i + 1]) + u->sr[i];
      if (j != i && (d < u->sr[j] || (d <= u->sr[j] && j < i))) u->root[i] = -1;
    }
  }
  for (int i = 0; i < k; i++)
    for (int j = i + 1; j < k && u->root[i] >= 0; j++)
      if (u->root[j] >= 0 &&
          hypot(u->sc[2 * j] - u->sc[2 * i], u->sc[2 * j + 1] - u->sc[2 * i + 1]) < u->sr[i] + u->sr[j])
        u->root[piece_root(u->root, i)] = piece_root(u->root, j);
  for (int i = 0; i < k; i++)
    if (u->root[i] == i) add_slice_piece(u, k, i, m);
  out[0] = m[0];
  out[1] = x * m[0];
  out[2] = m[1];
  out[3] = m[2];
  out[4] = x * x * m[0];
  out[5] = x * m[1];
  out[6] = x * m[2];
  out[7] = m[3];
  out[8] = m[4];
  out[9] = m[5];
}

static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* The (up to two) points where three spheres meet. */
static int triple_points(const double *p1, double r1, const double *p2, double r2, const double *p3, double r3,
                         double pts[2][3])
{
  double ex[3], ey[3], ez[3], d13[3], d, i, j;
  for (int k = 0; k < 3; k++) {
    ex[k] = p2[k] - p1[k];
    d13[k] = p3[k] - p1[k];
  }
  d = sqrt(dot3(ex, ex));
  if (!(d > 0.0)) return 0;
  for (int k = 0; k < 3; k++)
    ex[k] /= d;
  i = dot3(ex, d13);
  for (int k = 0; k < 3; k++)
    ey[k] = d13[k] - i * ex[k];
  j = sqrt(dot3(ey, ey));
  if (!(j > 1e-12 * d)) return 0;
  for (int k = 0; k < 3; k++)
    ey[k] /= j;
  ez[0] = ex[1] * ey[2] - ex[2] * ey[1];
  ez[1] = ex[2] * ey[0] - ex[0] * ey[2];
  ez[2] = ex[0] * ey[1] - ex[1] * ey[0];
  double x = (r1 * r1 - r2 * r2 + d * d) / (2.0 * d);
  double y = (r1 * r1 - r3 * r3 + i * i + j * j) / (2.0 * j) - i * x / j;
  double z2 = r1 * r1 - x * x - y * y;
  if (!(z2 >= 0.0)) return 0;
  double z = sqrt(z2);
  for (int k = 0; k < 3; k++) {
    pts[0][k] = p1[k] + x * ex[k] + y * ey[k] + z * ez[k];
    pts[1][k] = p1[k] + x * ex[k] + y * ey[k] - z * ez[k];
  }
  return 2;
}

static void moments3d(int n, const double *c, const double *r, const gl_rule *g_lo, const gl_rule *g_hi, double *bp,
                      panel *heap, union3d *u, double *out)
{
  int nb = 0;
  double v = 0.0, ext = 0.0;
  for (int i = 0; i < n; i++) {
    bp[nb++] = c[3 * i] - r[i];
    bp[nb++] = c[3 * i] + r[i];
    v += 4.0 / 3.0 * M_PI * r[i] * r[i] * r[i];
    ext = fmax(ext, sqrt(dot3(c + 3 * i, c + 3 * i)) + r[i]);
  }
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double e[3], d;
      for (int k = 0; k < 3; k++)
        e[k] = c[3 * j + k] - c[3 * i + k];
      d = sqrt(dot3(e, e));
      if (!(d < r[i] + r[j]) || !(d > fabs(r[i] - r[j]))) continue;
      /* The intersection circle: centre m at s along e from sphere i,
       * radius h, in the plane normal to e; its extreme points in x are
       * m +- h w / |w|, w the part of the x axis normal to e. */
      double s = (d * d + r[i] * r[i] - r[j] * r[j]) / (2.0 * d), h = sqrt(fmax(0.0, (r[i] - s) * (r[i] + s)));
      double m[3], w[3], ux = e[0] / d, wn = sqrt(fmax(0.0, 1.0 - ux * ux));
      for (int k = 0; k < 3; k++) {
        m[k] = c[3 * i + k] + s * e[k] / d;
        w[k] = ((k == 0) - ux * e[k] / d) / (wn > 0.0 ? wn : 1.0);
      }
      for (int sign = -1; sign <= 1; sign += 2) {
        double q[3] = {m[0] + sign * h * w[0], m[1] + sign * h * w[1], m[2] + sign * h * w[2]};
        if (!(wn > 0.0) || !buried(3, q, n, c, r, i, j, -1)) bp[nb++] = q[0];
      }
      for (int k = j + 1; k < n; k++) {
        double q[2][3];
        int np = triple_points(c + 3 * i, r[i], c + 3 * j, r[j], c + 3 * k, r[k], q);
        for (int t = 0; t < np; t++)
          if (!buried(3, q[t], n, c, r, i, j, k)) bp[nb++] = q[t][0];
      }
    }
  const double l = ext, l2 = ext * ext;
  const double scale[10] = {v, v * l, v * l, v * l, v * l2, v * l2, v * l2, v * l2, v * l2, v * l2};
  integrand f = {eval3d, u, 10, scale, g_lo, g_hi, heap};
  integrate_panels(&f, bp, nb, TOL_3D, out);
}

/* ---- assembly ---- */

/* Scratch for the quadrature of up to n contactors. */
typedef struct {
  gl_rule lo_rule, hi_rule;
  double *c, *r, *bp, *lo, *hi, *sr, *sc, *pr, *pc, *sbp;
  int *root;
  panel *heap, *sheap; /* the panels of the piece's integral, of a slice's */
} workspace;

/* Measure v, centroid g and central covariance cov (int (x - g)(x - g)^T)
 * of the union of the n contactors listed in idx, which overlap into one
 * piece. Its moments are taken about a reference point near its centroid so
 * that the shift to the centroid cancels no digits. */
static void piece_moments(int dim, int n, const int *idx, const double *offsets, const double *radii, workspace *w,
                          double *v, double g[3], double cov[3][3])
{
  double ref[3] = {0.0, 0.0, 0.0}, wsum = 0.0, mom[10] = {0.0};
  /* Reference point: the centres weighted by r^dim. */
  for (int i = 0; i < n; i++) {
    double ri = radii[idx[i]], wi = dim == 2 ? ri * ri : ri * ri * ri;
    wsum += wi;
    for (int k = 0; k < dim; k++)
      ref[k] += wi * offsets[3 * idx[i] + k];
  }
  for (int k = 0; k < dim; k++)
    ref[k] /= wsum;
  for (int i = 0; i < n; i++) {
    w->r[i] = radii[idx[i]];
    for (int k = 0; k < dim; k++)
      w->c[dim * i + k] = offsets[3 * idx[i] + k] - ref[k];
  }
  if (n == 1) {
    /* A single disk or sphere, exact (its centre is the reference). */
    double r2 = w->r[0] * w->r[0];
    mom[0] = dim == 2 ? M_PI * r2 : 4.0 / 3.0 * M_PI * r2 * w->r[0];
    double second = dim == 2 ? mom[0] * r2 / 4.0 : mom[0] * r2 / 5.0;
    if (dim == 2)
      mom[3] = mom[5] = second;
    else
      mom[4] = mom[7] = mom[9] = second;
  } else if (dim == 2) {
    moments2d(n, w->c, w->r, &w->lo_rule, &w->hi_rule, TOL_2D, w->bp, w->lo, w->hi, w->heap, mom);
  } else {
    union3d u = {n,     w->c,  w->r,   &w->lo_rule, &w->hi_rule, w->sc,   w->sr,
                 w->pc, w->pr, w->sbp, w->lo,       w->hi,       w->root, w->sheap};
    moments3d(n, w->c, w->r, &w->lo_rule, &w->hi_rule, w->bp, w->heap, &u, mom);
  }
  /* The moments' layout: 2D (1, x, y, xx, xy, yy), 3D (1, x, y, z, xx, xy,
   * xz, yy, yz, zz). */
  const int nm = dim == 2 ? 3 : 6, first2 = dim + 1;
  const int ii[6] = {0, 0, 0, 1, 1, 2}, jj2[3] = {0, 1, 1}, ii2[3] = {0, 0, 1}, jj[6] = {0, 1, 2, 1, 2, 2};
  *v = mom[0];
  memset(cov, 0, 9 * sizeof(double));
  for (int k = 0; k < 3; k++)
    g[k] = ref[k] + (k < dim ? mom[1 + k] / mom[0] : 0.0);
  for (int k = 0; k < nm; k++) {
    int a = dim == 2 ? ii2[k] : ii[k], b = dim == 2 ? jj2[k] : jj[k];
    cov[a][b] = cov[b][a] = mom[first2 + k] - mom[1 + a] * mom[1 + b] / mom[0];
  }
}

moreau_err moreau_shape_union_mass(int dim, int n, const double *offsets, const double *radii, moreau_shape_mass *mass)
{
  MOREAU_CHECK(dim == 2 || dim == 3, MOREAU_ERR_INPUT, "shape dimension must be 2 or 3, got %d", dim);
  MOREAU_CHECK(n >= 1, MOREAU_ERR_INPUT, "a shape needs at least one contactor, got %d", n);
  for (int i = 0; i < n; i++) {
    MOREAU_CHECK(radii[i] > 0.0 && isfinite(radii[i]), MOREAU_ERR_INPUT,
                 "contactor %d of a shape: radius must be positive and finite, got %g", i, radii[i]);
    for (int k = 0; k < dim; k++)
      MOREAU_CHECK(isfinite(offsets[3 * i + k]), MOREAU_ERR_INPUT, "contactor %d of a shape: offset is not finite", i);
  }
  /* Breakpoints: two per contactor, two per pair and in 3D two per triple;
   * the slices of 3D need those of 2D beside, and their panels. Then per
   * piece: measure, centroid and covariance. */
  size_t nn = (size_t)n, nbp2 = 2 * nn + nn * (nn - 1), nbp = nbp2 + (dim == 3 ? nn * (nn - 1) * (nn - 2) / 3 : 0);
  double *scratch = NULL;
  int *parent = NULL;
  panel *heap = NULL;
  moreau_err err = moreau_malloc(sizeof(int) * 3 * nn, &parent);
  if (!err) err = moreau_malloc(sizeof(double) * (nbp + 12 * nn + nbp2 + 13 * nn), &scratch);
  if (!err) err = moreau_malloc(sizeof(panel) * (nbp + nbp2 + 2 * MAX_SPLITS), &heap);
  if (err) {
    moreau_free(&parent);
    moreau_free(&scratch);
    MOREAU_CALL(err);
  }
  workspace w;
  gl_rule_init(&w.lo_rule, GL_LO);
  gl_rule_init(&w.hi_rule, GL_HI);
  w.bp = scratch;
  w.c = w.bp + nbp;
  w.r = w.c + 3 * n;
  w.lo = w.r + n;
  w.hi = w.lo + n;
  w.sr = w.hi + n;
  w.sc = w.sr + n;
  w.pr = w.sc + 2 * n;
  w.pc = w.pr + n;
  w.sbp = w.pc + 2 * n;
  w.root = parent + 2 * n;
  w.heap = heap;
  w.sheap = heap + nbp + MAX_SPLITS;
  double *piece = w.sbp + nbp2;

  /* Pieces that do not overlap are integrated apart, each about its own
   * centroid, and combined exactly: far-apart pieces would otherwise put the
   * quadrature far from the reference point, where the rounding of x spoils
   * the chords near their ends. */
  int *idx = parent + n, np = 0;
  for (int i = 0; i < n; i++)
    parent[i] = i;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double d2 = 0.0;
      for (int k = 0; k < dim; k++)
        d2 += (offsets[3 * j + k] - offsets[3 * i + k]) * (offsets[3 * j + k] - offsets[3 * i + k]);
      if (d2 < (radii[i] + radii[j]) * (radii[i] + radii[j])) parent[piece_root(parent, i)] = piece_root(parent, j);
    }
  double v = 0.0, g[3] = {0.0, 0.0, 0.0};
  for (int i = 0; i < n; i++) {
    if (piece_root(parent, i) != i) continue;
    int m = 0;
    for (int j = 0; j < n; j++)
      if (piece_root(parent, j) == i) idx[m++] = j;
    double *p = piece + 13 * np++;
    piece_moments(dim, m, idx, offsets, radii, &w, p, p + 1, (double(*)[3])(p + 4));
    v += p[0];
  }
  for (int k = 0; k < 3; k++)
    if (np == 1)
      g[k] = piece[1 + k];
    else
      for (int q = 0; q < np; q++)
        g[k] += piece[13 * q] * piece[13 * q + 1 + k] / v;
  /* Covariance about the centroid: each piece's, moved (parallel axes). */
  double cov[3][3] = {{0.0}};
  for (int q = 0; q < np; q++) {
    const double *p = piece + 13 * q;
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++)
        cov[a][b] += p[4 + 3 * a + b] + p[0] * (p[1 + a] - g[a]) * (p[1 + b] - g[b]);
  }
  moreau_free(&parent);
  moreau_free(&scratch);
  moreau_free(&heap);
  MOREAU_CHECK(v > 0.0, MOREAU_ERR_INTERNAL, "union of %d contactors has no measure", n);
  /* Inertia about the centroid: I = tr(C) 1 - C (for the lamina C_zz = 0). */
  double tr = cov[0][0] + cov[1][1] + cov[2][2];
  mass->measure = v;
  for (int a = 0; a < 3; a++) {
    mass->centroid[a] = g[a];
    for (int b = 0; b < 3; b++)
      mass->inertia[3 * a + b] = (a == b ? tr : 0.0) - cov[a][b];
  }
  return MOREAU_SUCCESS;
}
