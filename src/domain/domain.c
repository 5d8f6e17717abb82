#include "moreau/domain.h"

#include <limits.h>
#include <math.h>

static const char *const axis_name[3] = {"x", "y", "z"};

struct moreau_domain {
  int dim;
  int has_box;
  double lo[3], hi[3];
  /* Period lengths and their halves, so that the hot path only compares. */
  double len[3], half[3];
  int periodic[3];
  /* Cached so that separation without periodic axes is a single test. */
  int any_periodic;
  moreau_lees_edwards le;
  /* Rate of change of the box length per axis (a pressure-controlled cell):
   * both faces move apart at half of it, so the box centre stays. */
  double len_rate[3];
  /* Walls shearing the bounded gradient axis (a rough-wall cell): their
   * flow velocities at their positions, for the stream velocity. */
  int walls_shear, wall_flow, wall_gradient;
  double wall_x[2], wall_v[2];
};

moreau_err moreau_domain_create(int dim, moreau_domain **d)
{
  moreau_domain *dom;
  MOREAU_CHECK(dim == 2 || dim == 3, MOREAU_ERR_INPUT, "domain dimension must be 2 or 3, got %d", dim);
  MOREAU_CALL(moreau_calloc(1, sizeof(*dom), &dom));
  dom->dim = dim;
  *d = dom;
  return MOREAU_SUCCESS;
}

moreau_err moreau_domain_destroy(moreau_domain **d)
{
  if (!*d) return MOREAU_SUCCESS;
  moreau_free(d);
  return MOREAU_SUCCESS;
}

int moreau_domain_dim(const moreau_domain *d) { return d->dim; }

/* Maps any finite value into [0, len): fmod keeps the sign of its argument and
 * a tiny negative remainder plus len can round up to len itself. */
static double reduce_offset(double offset, double len)
{
  double r = fmod(offset, len);
  if (r < 0) {
    r += len;
    if (r >= len) r = 0.0;
  }
  /* fmod(-len, len) is -0. */
  return r + 0.0;
}

moreau_err moreau_domain_set_box(moreau_domain *d, const double lo[3], const double hi[3])
{
  for (int k = 0; k < d->dim; k++) {
    MOREAU_CHECK(isfinite(lo[k]) && isfinite(hi[k]) && hi[k] > lo[k] && isfinite(hi[k] - lo[k]), MOREAU_ERR_INPUT,
                 "domain box along %s must be finite with hi > lo, got [%g, %g]", axis_name[k], lo[k], hi[k]);
  }
  for (int k = 0; k < 3; k++) {
    d->lo[k] = k < d->dim ? lo[k] : 0.0;
    d->hi[k] = k < d->dim ? hi[k] : 0.0;
    d->len[k] = d->hi[k] - d->lo[k];
    d->half[k] = 0.5 * d->len[k];
  }
  d->has_box = 1;
  /* A new box changes the period lengths the Lees-Edwards state depends on. */
  if (d->le.on) {
    d->le.velocity_jump = d->le.rate * d->len[d->le.gradient];
    d->le.offset = reduce_offset(d->le.offset, d->len[d->le.flow]);
  }
  return MOREAU_SUCCESS;
}

int moreau_domain_has_box(const moreau_domain *d) { return d->has_box; }

void moreau_domain_get_box(const moreau_domain *d, double lo[3], double hi[3])
{
  for (int k = 0; k < 3; k++) {
    lo[k] = d->lo[k];
    hi[k] = d->hi[k];
  }
}

moreau_err moreau_domain_set_periodic(moreau_domain *d, int axis, int periodic)
{
  MOREAU_CHECK(axis >= 0 && axis < d->dim, MOREAU_ERR_INPUT, "periodic axis %d out of range for a %dD domain", axis,
               d->dim);
  MOREAU_CHECK(!periodic || d->has_box, MOREAU_ERR_INPUT, "periodic axis %s needs a domain box", axis_name[axis]);
  MOREAU_CHECK(periodic || !d->le.on || (axis != d->le.flow && axis != d->le.gradient), MOREAU_ERR_INPUT,
               "axis %s carries Lees-Edwards images and must stay periodic", axis_name[axis]);
  d->periodic[axis] = periodic != 0;
  d->any_periodic = d->periodic[0] || d->periodic[1] || d->periodic[2];
  return MOREAU_SUCCESS;
}

int moreau_domain_is_periodic(const moreau_domain *d, int axis)
{
  return axis >= 0 && axis < d->dim && d->periodic[axis];
}

int moreau_domain_any_periodic(const moreau_domain *d) { return d->any_periodic; }

moreau_err moreau_domain_set_lees_edwards(moreau_domain *d, int flow, int gradient, double rate)
{
  MOREAU_CHECK(flow >= 0 && flow < d->dim && gradient >= 0 && gradient < d->dim, MOREAU_ERR_INPUT,
               "Lees-Edwards axes %d (flow) and %d (gradient) out of range for a %dD domain", flow, gradient, d->dim);
  MOREAU_CHECK(flow != gradient, MOREAU_ERR_INPUT, "Lees-Edwards flow and gradient axes must differ, both are %s",
               axis_name[flow]);
  MOREAU_CHECK(d->periodic[flow] && d->periodic[gradient], MOREAU_ERR_INPUT,
               "Lees-Edwards needs periodic flow (%s) and gradient (%s) axes", axis_name[flow], axis_name[gradient]);
  MOREAU_CHECK(isfinite(rate), MOREAU_ERR_INPUT, "Lees-Edwards shear rate must be finite, got %g", rate);
  d->le.on = 1;
  d->le.flow = flow;
  d->le.gradient = gradient;
  d->le.rate = rate;
  d->le.offset = 0.0;
  d->le.velocity_jump = rate * d->len[gradient];
  return MOREAU_SUCCESS;
}

void moreau_domain_get_lees_edwards(const moreau_domain *d, moreau_lees_edwards *le) { *le = d->le; }

moreau_err moreau_domain_set_lees_edwards_offset(moreau_domain *d, double offset)
{
  MOREAU_CHECK(d->le.on, MOREAU_ERR_INPUT, "a Lees-Edwards offset needs Lees-Edwards boundaries");
  MOREAU_CHECK(isfinite(offset), MOREAU_ERR_INPUT, "Lees-Edwards offset must be finite, got %g", offset);
  d->le.offset = reduce_offset(offset, d->len[d->le.flow]);
  return MOREAU_SUCCESS;
}

moreau_err moreau_domain_set_length_rate(moreau_domain *d, int axis, double rate)
{
  MOREAU_CHECK(axis >= 0 && axis < d->dim && d->periodic[axis], MOREAU_ERR_INPUT,
               "a box length rate needs a periodic axis, got axis %d", axis);
  MOREAU_CHECK(isfinite(rate), MOREAU_ERR_INPUT, "box length rate must be finite, got %g", rate);
  d->len_rate[axis] = rate;
  return MOREAU_SUCCESS;
}

double moreau_domain_length_rate(const moreau_domain *d, int axis)
{
  return axis >= 0 && axis < 3 ? d->len_rate[axis] : 0.0;
}

void moreau_domain_advance(moreau_domain *d, double dt)
{
  for (int k = 0; k < d->dim; k++) {
    if (d->len_rate[k] == 0.0) continue;
    double mid = 0.5 * (d->lo[k] + d->hi[k]), half = 0.5 * (d->len[k] + d->len_rate[k] * dt);
    d->lo[k] = mid - half;
    d->hi[k] = mid + half;
    d->len[k] = d->hi[k] - d->lo[k];
    d->half[k] = 0.5 * d->len[k];
    if (d->le.on && k == d->le.gradient) d->le.velocity_jump = d->le.rate * d->len[k];
  }
  if (!d->le.on) return;
  /* Reducing every step keeps the offset below L_flow, so each step rounds at
   * the scale of the box rather than of the total sheared distance. */
  d->le.offset = reduce_offset(d->le.offset + d->le.velocity_jump * dt, d->len[d->le.flow]);
}

void moreau_domain_set_wall_shear(moreau_domain *d, int flow, int gradient, const double x[2], const double v[2])
{
  d->walls_shear = 1;
  d->wall_flow = flow;
  d->wall_gradient = gradient;
  for (int k = 0; k < 2; k++) {
    d->wall_x[k] = x[k];
    d->wall_v[k] = v[k];
  }
}

void moreau_domain_stream_velocity(const moreau_domain *d, const double x[3], double v[3])
{
  v[0] = v[1] = v[2] = 0.0;
  if (d->walls_shear && d->wall_x[1] > d->wall_x[0]) {
    double s = (x[d->wall_gradient] - d->wall_x[0]) / (d->wall_x[1] - d->wall_x[0]);
    v[d->wall_flow] = d->wall_v[0] + s * (d->wall_v[1] - d->wall_v[0]);
  }
  for (int k = 0; k < d->dim; k++)
    if (d->len_rate[k] != 0.0) v[k] = d->len_rate[k] / d->len[k] * (x[k] - 0.5 * (d->lo[k] + d->hi[k]));
  if (d->le.on)
    v[d->le.flow] += d->le.rate * (x[d->le.gradient] - 0.5 * (d->lo[d->le.gradient] + d->hi[d->le.gradient]));
}

/* The multiple of len to subtract from dx for the minimum image, by
 * nearbyint (ties to even in the default rounding mode, so deterministic).
 * Most pairs asked about are already within half a period; the comparison
 * skips the division for them and agrees with nearbyint since dx / len then
 * rounds to at most 0.5 in magnitude, which ties to 0. */
static inline double image_count(double dx, double len, double half)
{
  return fabs(dx) > half ? nearbyint(dx / len) : 0.0;
}

void moreau_domain_separation(const moreau_domain *d, const double xa[3], const double xb[3], double dx[3],
                              double shift[3], double vshift[3])
{
  double s[3] = {0.0, 0.0, 0.0};
  dx[0] = xb[0] - xa[0];
  dx[1] = xb[1] - xa[1];
  dx[2] = xb[2] - xa[2];
  if (vshift) vshift[0] = vshift[1] = vshift[2] = 0.0;
  if (!d->any_periodic) {
    if (shift) shift[0] = shift[1] = shift[2] = 0.0;
    return;
  }
  if (d->le.on) {
    const int f = d->le.flow, g = d->le.gradient;
    /* The gradient image is chosen first: it decides how far the flow
     * coordinate is displaced before its own minimum image is taken. */
    double m = -image_count(dx[g], d->len[g], d->half[g]);
    if (m != 0.0) {
      s[g] = m * d->len[g];
      s[f] = m * d->le.offset;
      dx[g] += s[g];
      dx[f] += s[f];
      if (vshift) vshift[f] = m * d->le.velocity_jump;
    }
  }
  for (int k = 0; k < d->dim; k++) {
    if (d->periodic[k] && !(d->le.on && k == d->le.gradient)) {
      double n = image_count(dx[k], d->len[k], d->half[k]);
      if (n != 0.0) {
        dx[k] -= n * d->len[k];
        s[k] -= n * d->len[k];
      }
    }
  }
  if (shift) {
    shift[0] = s[0];
    shift[1] = s[1];
    shift[2] = s[2];
  }
}

void moreau_domain_image(const moreau_domain *d, const int m[3], double shift[3], double vshift[3])
{
  for (int k = 0; k < 3; k++) {
    shift[k] = k < d->dim ? m[k] * d->len[k] : 0.0;
    vshift[k] = k < d->dim ? m[k] * d->len_rate[k] : 0.0;
  }
  if (d->le.on) {
    shift[d->le.flow] += m[d->le.gradient] * d->le.offset;
    vshift[d->le.flow] = m[d->le.gradient] * d->le.velocity_jump;
  }
}

void moreau_domain_image_range(const moreau_domain *d, int lo[3], int hi[3])
{
  for (int k = 0; k < 3; k++) {
    int reach = k < d->dim && d->periodic[k] ? (d->le.on && k == d->le.flow ? 2 : 1) : 0;
    lo[k] = -reach;
    hi[k] = reach;
  }
}

/* Brings x into [lo, lo + len) and returns the number of periods added (x
 * becomes x + m len). floor gives m up to one period of round-off, which the
 * corrections fix; a value within round-off of both faces is put at lo, with
 * the m that makes lo its image, so the caller's Lees-Edwards shift stays
 * consistent. Non-finite values are left alone. */
static double wrap_axis(double *x, double lo, double hi, double len)
{
  double m, y;
  if (*x >= lo && *x < hi) return 0.0;
  if (!isfinite(*x)) return 0.0;
  /* hi - len need not be lo in floating point. */
  if (*x == hi) {
    *x = lo;
    return -1.0;
  }
  m = -floor((*x - lo) / len);
  y = *x + m * len;
  if (y >= hi) {
    m -= 1.0;
    y -= len;
    if (y < lo) y = lo;
  } else if (y < lo) {
    double up = y + len;
    if (up < hi) {
      m += 1.0;
      y = up;
    } else {
      y = lo;
    }
  }
  /* Only reached for positions so far out that floor was off by more than
   * one period; they have no precision left to keep. */
  if (!(y >= lo && y < hi)) y = lo;
  *x = y;
  return m;
}

int moreau_domain_wrap(const moreau_domain *d, double x[3], double v[3])
{
  double m = 0.0;
  if (!d->any_periodic) return 0;
  if (d->le.on) {
    const int f = d->le.flow, g = d->le.gradient;
    m = wrap_axis(&x[g], d->lo[g], d->hi[g], d->len[g]);
    if (m != 0.0) {
      x[f] += m * d->le.offset;
      if (v) v[f] += m * d->le.velocity_jump;
      if (v) v[g] += m * d->len_rate[g];
    }
  }
  for (int k = 0; k < d->dim; k++) {
    if (d->periodic[k] && !(d->le.on && k == d->le.gradient)) {
      double n = wrap_axis(&x[k], d->lo[k], d->hi[k], d->len[k]);
      /* The faces of a changing box move: an image moves with them. */
      if (v && n != 0.0) v[k] += n * d->len_rate[k];
    }
  }
  /* Only a body that has lost all precision is this far out; saturate
   * rather than overflow. */
  if (m > INT_MAX) return INT_MAX;
  if (m < -INT_MAX) return -INT_MAX;
  return (int)m;
}

moreau_err moreau_domain_check_cutoff(const moreau_domain *d, double cutoff)
{
  MOREAU_CHECK(cutoff >= 0 && isfinite(cutoff), MOREAU_ERR_INPUT, "interaction cutoff must be finite and >= 0, got %g",
               cutoff);
  for (int k = 0; k < d->dim; k++) {
    MOREAU_CHECK(!d->periodic[k] || d->len[k] >= 2 * cutoff, MOREAU_ERR_INPUT,
                 "periodic axis %s has length %g, shorter than twice the interaction cutoff %g", axis_name[k],
                 d->len[k], cutoff);
  }
  return MOREAU_SUCCESS;
}
