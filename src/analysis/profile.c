#include <math.h>
#include <stdlib.h>

#include "analysis_private.h"
#include "moreau/sum.h"

const char *const moreau_profile_field_names[MOREAU_PROFILE_FIELDS + 1] = {"bodies", "solid_fraction",
                                                                           "vx",     "vy",
                                                                           "vz",     "wx",
                                                                           "wy",     "wz",
                                                                           "sxx",    "sxy",
                                                                           "sxz",    "syx",
                                                                           "syy",    "syz",
                                                                           "szx",    "szy",
                                                                           "szz",    NULL};

/* The sums kept per bin before the one reduction. */
enum {
  SUM_BODIES,
  SUM_MASS,
  SUM_MOMENTUM,
  SUM_SPIN = SUM_MOMENTUM + 3,
  SUM_SOLID = SUM_SPIN + 3,
  SUM_STRESS,
  NSUM = SUM_STRESS + 9
};

/* Volume (2D: area) of the part of a disk or sphere of radius r centred at
 * 0 that lies below the plane at height t. */
static double below(int dim, double r, double t)
{
  double u = fmax(-1.0, fmin(1.0, t / r));
  if (dim == 2) return r * r * (asin(u) + u * sqrt(1.0 - u * u) + 0.5 * M_PI);
  return M_PI * r * r * r * (u - u * u * u / 3.0 + 2.0 / 3.0);
}

/* Adds the slices of a disk or sphere at coordinate x (radius r), times
 * weight, to the bins it crosses. */
static void add_slices(int dim, double x, double r, double weight, double lo, double width, int bins, moreau_sum *sum)
{
  double first = floor((x - r - lo) / width), last = floor((x + r - lo) / width);
  for (int k = (int)fmax(first, 0.0); k <= (int)fmin(last, bins - 1.0); k++)
    moreau_sum_add(&sum[(size_t)k * NSUM + SUM_SOLID],
                   weight * (below(dim, r, lo + (k + 1) * width - x) - below(dim, r, lo + k * width - x)));
}

/* The slices of body i with its centre of mass at coordinate x_axis: its
 * contactors' (a cluster's overlaps spread evenly over them, as in
 * region_volume.c). */
static void add_body_slices(const moreau_bodies *b, moreau_lid i, int axis, double x_axis, double lo, double width,
                            int bins, moreau_sum *sum)
{
  double x[3] = {b->x[3 * i], b->x[3 * i + 1], b->x[3 * i + 2]}, weight = moreau_bodies_overlap_factor(b, i);
  x[axis] = x_axis;
  for (int j = 0; j < moreau_bodies_n_contactors(b, i); j++) {
    double y[3], rc;
    moreau_bodies_contactor(b, i, j, x, y, &rc);
    add_slices(b->dim, y[axis], rc, weight, lo, width, bins, sum);
  }
}

/* The bin of a point of the region (wrapped into the box), -1 outside. */
static int bin_of(const moreau_domain *d, const moreau_region *r, int axis, int bins, const double x[3])
{
  double y[3] = {x[0], x[1], x[2]};
  if (!moreau_region_contains(d, r, x)) return -1;
  moreau_domain_wrap(d, y, NULL);
  int k = (int)floor((y[axis] - r->lo[axis]) / ((r->hi[axis] - r->lo[axis]) / bins));
  return k < 0 ? 0 : k >= bins ? bins - 1 : k;
}

moreau_err moreau_profile_compute(MPI_Comm comm, const moreau_domain *d, const moreau_bodies *b,
                                  const moreau_contacts *c, const moreau_region *r, int axis, int bins, double *values)
{
  const int dim = b->dim;
  const double width = (r->hi[axis] - r->lo[axis]) / bins;
  double across = 1.0, lo[3], hi[3], point[3], term[9];
  moreau_sum *sum;
  MOREAU_CHECK(bins >= 1 && axis >= 0 && axis < dim && width > 0.0, MOREAU_ERR_INPUT,
               "profile: %d bins along axis %d of an empty region", bins, axis);
  MOREAU_CALL(moreau_calloc((size_t)bins * NSUM, sizeof(*sum), &sum));
  moreau_domain_get_box(d, lo, hi);
  for (int k = 0; k < dim; k++)
    if (k != axis) across *= r->hi[k] - r->lo[k];
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    const double *x = &b->x[3 * i];
    int k = bin_of(d, r, axis, bins, x), across_inside = 1;
    for (int j = 0; j < dim; j++)
      if (j != axis && !(x[j] >= r->lo[j] && x[j] <= r->hi[j])) across_inside = 0;
    /* The slices of the body, and of its images one period away along a
     * periodic profile axis (bodies are wrapped into the box). */
    if (across_inside) {
      add_body_slices(b, i, axis, x[axis], r->lo[axis], width, bins, sum);
      if (moreau_domain_is_periodic(d, axis))
        for (int m = -1; m <= 1; m += 2)
          add_body_slices(b, i, axis, x[axis] + m * (hi[axis] - lo[axis]), r->lo[axis], width, bins, sum);
    }
    if (k < 0) continue;
    moreau_sum *bin = &sum[(size_t)k * NSUM];
    double m = b->inv_mass[i] > 0.0 ? 1.0 / b->inv_mass[i] : 0.0;
    moreau_sum_add(&bin[SUM_BODIES], 1.0);
    moreau_sum_add(&bin[SUM_MASS], m);
    for (int j = 0; j < 3; j++) {
      moreau_sum_add(&bin[SUM_MOMENTUM + j], m * b->v[3 * i + j]);
      moreau_sum_add(&bin[SUM_SPIN + j], b->w[3 * i + j]);
    }
    analysis_kinetic_term(d, b, i, term);
    for (int j = 0; j < 9; j++)
      moreau_sum_add(&bin[SUM_STRESS + j], term[j]);
  }
  for (moreau_lid e = 0; e < c->n; e++) {
    analysis_contact_term(b, c, e, point, term);
    int k = bin_of(d, r, axis, bins, point);
    if (k < 0) continue;
    for (int j = 0; j < 9; j++)
      moreau_sum_add(&sum[(size_t)k * NSUM + SUM_STRESS + j], term[j]);
  }
  moreau_err err = moreau_sum_allreduce(comm, sum, bins * NSUM);
  for (int k = 0; !err && k < bins; k++) {
    double *v = &values[(size_t)k * MOREAU_PROFILE_FIELDS];
    const moreau_sum *bin = &sum[(size_t)k * NSUM];
    double count = moreau_sum_value(&bin[SUM_BODIES]), mass = moreau_sum_value(&bin[SUM_MASS]);
    v[0] = count;
    v[1] = moreau_sum_value(&bin[SUM_SOLID]) / (width * across);
    for (int j = 0; j < 3; j++) {
      v[2 + j] = mass > 0.0 ? moreau_sum_value(&bin[SUM_MOMENTUM + j]) / mass : 0.0;
      v[5 + j] = count > 0.0 ? moreau_sum_value(&bin[SUM_SPIN + j]) / count : 0.0;
    }
    for (int j = 0; j < 9; j++)
      v[8 + j] = (dim == 2 && (j % 3 == 2 || j >= 6)) ? 0.0 : moreau_sum_value(&bin[SUM_STRESS + j]) / (width * across);
  }
  moreau_free(&sum);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}
