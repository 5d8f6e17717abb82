#include <math.h>

#include "moreau/analysis.h"
#include "moreau/sum.h"

/* Exact area (volume) of a disk (ball) of radius r centred at the origin
 * inside an axis-aligned rectangle (box), by inclusion-exclusion over its
 * corners of the part of the disk (ball) beyond a corner: the quadrant
 * {x > a, y > b} (octant {x > a, y > b, z > c}). Beyond a corner with a
 * negative coordinate is the part beyond the other coordinates less the part
 * beyond the mirrored corner, so the closed forms are needed for corners with
 * nonnegative coordinates only. Coordinates are clamped to [-r, r], which
 * changes nothing and makes a box far larger than the body give its whole
 * area exactly. Every closed form below has terms of size r^2 (r^3), so the
 * results are exact to a few roundings of that size. */

static double clamp(double a, double r) { return a < -r ? -r : (a > r ? r : a); }

static double sq_root(double x) { return x > 0.0 ? sqrt(x) : 0.0; }

/* Area of the disk beyond y = b, b in [-r, r]: the circular segment. */
static double disk_segment(double b, double r) { return r * r * acos(b / r) - b * sq_root(r * r - b * b); }

/* Area of the disk in {x > a, y > b}, a, b >= 0: integrating the chord
 * sqrt(r^2 - x^2) - b over x from a to sqrt(r^2 - b^2),
 *   r^2/2 (pi/2 - asin(a/r) - asin(b/r)) - (a sqrt(r^2 - a^2) + b sqrt(r^2 - b^2))/2 + a b. */
static double disk_quadrant_pos(double a, double b, double r)
{
  if (a * a + b * b >= r * r) return 0.0;
  return 0.5 * r * r * (M_PI_2 - asin(a / r) - asin(b / r)) -
         0.5 * (a * sq_root(r * r - a * a) + b * sq_root(r * r - b * b)) + a * b;
}

static double disk_quadrant(double a, double b, double r)
{
  if (a < 0.0) return disk_segment(b, r) - disk_quadrant(-a, b, r);
  if (b < 0.0) return disk_segment(a, r) - disk_quadrant(a, -b, r);
  return disk_quadrant_pos(a, b, r);
}

double moreau_disk_box_area(const double c[2], double r, const double lo[2], const double hi[2])
{
  double x[2][2], area = 0.0;
  if (!(r > 0.0) || !(hi[0] > lo[0]) || !(hi[1] > lo[1])) return 0.0;
  if (c[0] - r >= hi[0] || c[0] + r <= lo[0] || c[1] - r >= hi[1] || c[1] + r <= lo[1]) return 0.0;
  if (c[0] - r >= lo[0] && c[0] + r <= hi[0] && c[1] - r >= lo[1] && c[1] + r <= hi[1]) return M_PI * r * r;
  for (int k = 0; k < 2; k++) {
    x[k][0] = clamp(lo[k] - c[k], r);
    x[k][1] = clamp(hi[k] - c[k], r);
  }
  /* The rectangle is the quadrant of its lower corner less those of the two
   * mixed corners plus that of its upper corner. */
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      area += ((i + j) % 2 ? -1.0 : 1.0) * disk_quadrant(x[0][i], x[1][j], r);
  return area;
}

/* Volume of the ball beyond z = c, c in [-r, r]: the spherical cap. */
static double ball_cap(double c, double r) { return M_PI / 3.0 * (r - c) * (r - c) * (2.0 * r + c); }

/* The a-terms of the antiderivative H below, with q = sqrt(r^2 - a^2 - z^2). */
static double octant_terms(double a, double z, double q, double r)
{
  return -0.5 * (r * r * z - z * z * z / 3.0) * atan2(a, q) + a * (a * a - 3.0 * r * r) / 6.0 * atan2(z, q) -
         a * z * q / 3.0 + r * r * r / 3.0 * atan2(a * z, r * q);
}

/* Volume of the ball in {x > a, y > b, z > c}, a, b, c >= 0. The slice at
 * height z is the quadrant {x > a, y > b} of the disk of radius
 * rho = sqrt(r^2 - z^2) (disk_quadrant_pos), nonempty up to
 * z_m = sqrt(r^2 - a^2 - b^2), so the volume is the integral of that area
 * over z from c to z_m, done in closed form (derived for moreau; checked
 * against high-precision quadrature of the slice area). The polynomial
 * terms integrate directly; sqrt(r^2 - a^2 - z^2) is a circle's area
 * integral; rho^2 asin(a / rho) goes by parts,
 *   int (r^2 - z^2) asin(a/rho) dz = (r^2 z - z^3/3) asin(a/rho)
 *     - a int z^2 (r^2 - z^2/3) / ((r^2 - z^2) sqrt(s^2 - z^2)) dz, s^2 = r^2 - a^2,
 * whose integrand splits into z^2/3 - 2r^2/3 + (2r^4/3)/(r^2 - z^2) over
 * sqrt(s^2 - z^2), the last term by the standard integral
 *   int dz / ((r^2 - z^2) sqrt(s^2 - z^2)) = atan(a z / (r sqrt(s^2 - z^2))) / (a r)
 * (Gradshteyn & Ryzhik 2.284). Collected, with q_a = sqrt(r^2 - a^2 - z^2):
 *   H(z) = pi/4 (r^2 z - z^3/3) + a b z + T(a, z, q_a) + T(b, z, q_b),
 *   T(a, z, q) = -(r^2 z - z^3/3)/2 atan2(a, q) + a (a^2 - 3 r^2)/6 atan2(z, q)
 *                - a z q / 3 + r^3/3 atan2(a z, r q),
 * and the volume is H(z_m) - H(c). The arcsines are written as atan2 of
 * their legs, which stays exact at z_m (there q_a = b and q_b = a exactly,
 * and a = b = 0 gives atan2(0, 0) = 0, the correct limit of each term). */
static double ball_octant_pos(double a, double b, double c, double r)
{
  if (a * a + b * b + c * c >= r * r) return 0.0;
  const double zm = sq_root(r * r - a * a - b * b);
  const double top =
      M_PI_4 * (r * r * zm - zm * zm * zm / 3.0) + a * b * zm + octant_terms(a, zm, b, r) + octant_terms(b, zm, a, r);
  const double bottom = M_PI_4 * (r * r * c - c * c * c / 3.0) + a * b * c +
                        octant_terms(a, c, sq_root(r * r - a * a - c * c), r) +
                        octant_terms(b, c, sq_root(r * r - b * b - c * c), r);
  return top - bottom;
}

/* Volume of the ball in {y > b, z > c} (any signs): the octant beyond x = 0
 * twice, by symmetry. */
static double ball_wedge(double b, double c, double r)
{
  if (b < 0.0) return ball_cap(c, r) - ball_wedge(-b, c, r);
  if (c < 0.0) return ball_cap(b, r) - ball_wedge(b, -c, r);
  return 2.0 * ball_octant_pos(0.0, b, c, r);
}

static double ball_octant(double a, double b, double c, double r)
{
  if (a < 0.0) return ball_wedge(b, c, r) - ball_octant(-a, b, c, r);
  if (b < 0.0) return ball_wedge(a, c, r) - ball_octant(a, -b, c, r);
  if (c < 0.0) return ball_wedge(a, b, r) - ball_octant(a, b, -c, r);
  return ball_octant_pos(a, b, c, r);
}

double moreau_sphere_box_volume(const double c[3], double r, const double lo[3], const double hi[3])
{
  double x[3][2], vol = 0.0;
  int inside = 1;
  if (!(r > 0.0)) return 0.0;
  for (int k = 0; k < 3; k++) {
    if (!(hi[k] > lo[k]) || c[k] - r >= hi[k] || c[k] + r <= lo[k]) return 0.0;
    inside &= c[k] - r >= lo[k] && c[k] + r <= hi[k];
    x[k][0] = clamp(lo[k] - c[k], r);
    x[k][1] = clamp(hi[k] - c[k], r);
  }
  if (inside) return 4.0 / 3.0 * M_PI * r * r * r;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      for (int k = 0; k < 2; k++)
        vol += ((i + j + k) % 2 ? -1.0 : 1.0) * ball_octant(x[0][i], x[1][j], x[2][k], r);
  return vol;
}

/* The region as the bodies see it: an axis along which the region spans
 * exactly one period is unbounded, and the bodies are not imaged along it
 * (the images' parts in one period add up to the whole body, so counting
 * the body once whole is the same sum, exactly). Under Lees-Edwards the
 * gradient images are displaced along flow, so the gradient axis is
 * collapsed only when the flow axis is too. */
typedef struct {
  int dim;
  int imaged[3]; /* periodic and not collapsed */
  double lo[3], hi[3], len[3];
  int le_flow, le_gradient; /* -1 without Lees-Edwards */
  double le_offset;
} region_view;

static void region_view_init(const moreau_domain *d, int dim, const double lo[3], const double hi[3], region_view *v)
{
  double box_lo[3], box_hi[3];
  int full[3];
  moreau_lees_edwards le;
  moreau_domain_get_box(d, box_lo, box_hi);
  moreau_domain_get_lees_edwards(d, &le);
  v->dim = dim;
  v->le_flow = le.on ? le.flow : -1;
  v->le_gradient = le.on ? le.gradient : -1;
  v->le_offset = le.on ? le.offset : 0.0;
  for (int k = 0; k < 3; k++) {
    v->len[k] = box_hi[k] - box_lo[k];
    full[k] = k < dim && moreau_domain_is_periodic(d, k) && hi[k] - lo[k] == v->len[k];
  }
  for (int k = 0; k < 3; k++) {
    int collapse = full[k] && (k != v->le_gradient || full[v->le_flow]);
    v->imaged[k] = k < dim && moreau_domain_is_periodic(d, k) && !collapse;
    v->lo[k] = collapse ? -INFINITY : lo[k];
    v->hi[k] = collapse ? INFINITY : hi[k];
  }
}

/* Image counts m along axis k of the images of a body at x of radius r that
 * can reach the region (a superset: images that miss it are skipped by their
 * bounds, so the rounding of these divisions loses nothing). The flow range
 * under Lees-Edwards covers the displacement of every gradient image in
 * [mg_lo, mg_hi]. */
static void image_counts(const region_view *v, int k, double x, double r, int mg_lo, int mg_hi, int *m_lo, int *m_hi)
{
  double shift_lo = 0.0, shift_hi = 0.0;
  *m_lo = *m_hi = 0;
  if (!v->imaged[k]) return;
  if (k == v->le_flow) {
    shift_lo = fmin(mg_lo * v->le_offset, mg_hi * v->le_offset);
    shift_hi = fmax(mg_lo * v->le_offset, mg_hi * v->le_offset);
  }
  *m_lo = (int)floor((v->lo[k] - r - x - shift_hi) / v->len[k]);
  *m_hi = (int)ceil((v->hi[k] + r - x - shift_lo) / v->len[k]);
}

/* Volume (2D: area) of body i and its images inside the region. A cluster's
 * is its contactors' parts inside times its overlap factor: exact when the
 * cluster is wholly inside or outside, and when it straddles a face the
 * overlaps of its contactors are counted as if spread evenly over them. */
static double body_region_volume(const moreau_domain *d, const region_view *v, const moreau_bodies *b, moreau_lid i)
{
  const double *x = &b->x[3 * i], r = b->radius[i];
  int m[3], m_lo[3], m_hi[3];
  double vol = 0.0;
  const int g = v->le_gradient >= 0 ? v->le_gradient : 0;
  image_counts(v, g, x[g], r, 0, 0, &m_lo[g], &m_hi[g]);
  for (int k = 0; k < 3; k++)
    if (k != g) image_counts(v, k, x[k], r, m_lo[g], m_hi[g], &m_lo[k], &m_hi[k]);
  for (m[2] = m_lo[2]; m[2] <= m_hi[2]; m[2]++)
    for (m[1] = m_lo[1]; m[1] <= m_hi[1]; m[1]++)
      for (m[0] = m_lo[0]; m[0] <= m_hi[0]; m[0]++) {
        double shift[3], vshift[3], c[3];
        int miss = 0;
        moreau_domain_image(d, m, shift, vshift);
        for (int k = 0; k < 3; k++) {
          c[k] = x[k] + shift[k];
          if (k < v->dim) miss |= c[k] - r >= v->hi[k] || c[k] + r <= v->lo[k];
        }
        if (miss) continue;
        for (int j = 0; j < moreau_bodies_n_contactors(b, i); j++) {
          double y[3], rc;
          moreau_bodies_contactor(b, i, j, c, y, &rc);
          vol +=
              v->dim == 2 ? moreau_disk_box_area(y, rc, v->lo, v->hi) : moreau_sphere_box_volume(y, rc, v->lo, v->hi);
        }
      }
  return vol * moreau_bodies_overlap_factor(b, i);
}

moreau_err moreau_solid_fraction_region(MPI_Comm comm, const moreau_domain *d, const moreau_bodies *b,
                                        const double lo[3], const double hi[3], double *fraction)
{
  const int dim = b->dim;
  double region = 1.0;
  moreau_sum solid = {0.0, 0.0};
  region_view v;
  MOREAU_CHECK(moreau_domain_dim(d) == dim, MOREAU_ERR_INPUT, "solid fraction: the domain is %dD, the bodies %dD",
               moreau_domain_dim(d), dim);
  for (int k = 0; k < dim; k++) {
    MOREAU_CHECK(isfinite(lo[k]) && isfinite(hi[k]) && hi[k] > lo[k], MOREAU_ERR_INPUT,
                 "solid fraction region: axis %d is [%g, %g], it needs finite bounds with lo < hi", k, lo[k], hi[k]);
    region *= hi[k] - lo[k];
  }
  region_view_init(d, dim, lo, hi, &v);
  for (moreau_lid i = 0; i < b->n_owned; i++)
    moreau_sum_add(&solid, body_region_volume(d, &v, b, i));
  MOREAU_CALL(moreau_sum_allreduce(comm, &solid, 1));
  *fraction = moreau_sum_value(&solid) / region;
  return MOREAU_SUCCESS;
}
