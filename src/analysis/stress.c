#include <math.h>
#include <string.h>

#include "analysis_private.h"
#include "moreau/sum.h"

/* Sums of the owned contacts and bodies of this rank, then one reduction:
 * sigma V (9), the bodies' volume, their diameters, their count, and the
 * mass and volume of those of finite mass. Order-independent sums, so the
 * barostat sees the same state whatever the partition and the order the
 * bodies are stored in. */
moreau_err moreau_macro_state_compute(MPI_Comm comm, const moreau_domain *d, const moreau_bodies *b,
                                      const moreau_contacts *c, moreau_macro_state *s)
{
  moreau_sum acc[14] = {{0, 0}};
  double sum[14], lo[3], hi[3];
  const int dim = b->dim;
  for (moreau_lid k = 0; k < c->n; k++) {
    if (c->b[k] < 0) continue;
    double ca[3], cb[3], f[3];
    moreau_contacts_arms(c, b, k, ca, cb);
    moreau_contacts_world_force(c, dim, k, f);
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        moreau_sum_add(&acc[3 * i + j], f[i] * (ca[j] - cb[j]));
  }
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    double u[3], mean[3], r = b->radius[i], vol = moreau_bodies_measure(b, i);
    moreau_domain_stream_velocity(d, &b->x[3 * i], mean);
    if (b->inv_mass[i] > 0.0) {
      double m = 1.0 / b->inv_mass[i];
      moreau_sum_add(&acc[12], m);
      moreau_sum_add(&acc[13], vol);
      for (int k = 0; k < 3; k++)
        u[k] = b->v[3 * i + k] - mean[k];
      for (int p = 0; p < 3; p++)
        for (int q = 0; q < 3; q++)
          moreau_sum_add(&acc[3 * p + q], m * u[p] * u[q]);
    }
    moreau_sum_add(&acc[9], vol);
    moreau_sum_add(&acc[10], 2.0 * r);
    moreau_sum_add(&acc[11], 1.0);
  }
  MOREAU_CALL(moreau_sum_allreduce(comm, acc, 14));
  for (int k = 0; k < 14; k++)
    sum[k] = moreau_sum_value(&acc[k]);
  memset(s, 0, sizeof(*s));
  s->mean_diameter = sum[11] > 0 ? sum[10] / sum[11] : 0.0;
  s->grain_density = sum[13] > 0 ? sum[12] / sum[13] : 0.0;
  s->grain_mass = sum[12];
  if (!moreau_domain_has_box(d)) return MOREAU_SUCCESS;
  moreau_domain_get_box(d, lo, hi);
  s->volume = 1.0;
  for (int k = 0; k < dim; k++)
    s->volume *= hi[k] - lo[k];
  for (int k = 0; k < 9; k++)
    s->sigma[k] = sum[k] / s->volume;
  s->solid_fraction = sum[9] / s->volume;
  return MOREAU_SUCCESS;
}

moreau_err moreau_stress_region(MPI_Comm comm, const moreau_domain *d, const moreau_bodies *b, const moreau_contacts *c,
                                const moreau_region *r, double sigma[9])
{
  moreau_sum sum[9] = {{0.0, 0.0}};
  const int dim = b->dim;
  double volume = 1.0, point[3], term[9];
  for (moreau_lid k = 0; k < c->n; k++) {
    analysis_contact_term(b, c, k, point, term);
    if (!moreau_region_contains(d, r, point)) continue;
    for (int j = 0; j < 9; j++)
      moreau_sum_add(&sum[j], term[j]);
  }
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    if (!moreau_region_contains(d, r, &b->x[3 * i])) continue;
    analysis_kinetic_term(d, b, i, term);
    for (int j = 0; j < 9; j++)
      moreau_sum_add(&sum[j], term[j]);
  }
  MOREAU_CALL(moreau_sum_allreduce(comm, sum, 9));
  for (int k = 0; k < dim; k++)
    volume *= r->hi[k] - r->lo[k];
  MOREAU_CHECK(volume > 0.0, MOREAU_ERR_INPUT, "the analysis region has no volume (hi must exceed lo on every axis)");
  for (int k = 0; k < 9; k++)
    sigma[k] = (dim == 2 && (k % 3 == 2 || k >= 6)) ? 0.0 : moreau_sum_value(&sum[k]) / volume;
  return MOREAU_SUCCESS;
}

void moreau_stress_invariants(int dim, const double s[9], double *p, double *q, double *angle)
{
  /* The xy block: centre, radius and direction of its Mohr circle. */
  double centre = 0.5 * (s[0] + s[4]), half = 0.5 * (s[0] - s[4]), shear = 0.5 * (s[1] + s[3]);
  double radius = hypot(half, shear);
  *angle = 0.5 * atan2(shear, half) * 180.0 / M_PI;
  if (*angle <= -90.0) *angle += 180.0;
  if (dim == 2) {
    *p = centre;
    *q = radius;
    return;
  }
  double dev[9], j2 = 0.0;
  *p = (s[0] + s[4] + s[8]) / 3.0;
  for (int k = 0; k < 9; k++)
    dev[k] = 0.5 * (s[k] + s[3 * (k % 3) + k / 3]) - (k % 4 == 0 ? *p : 0.0);
  for (int k = 0; k < 9; k++)
    j2 += 0.5 * dev[k] * dev[k];
  *q = sqrt(3.0 * j2);
}
