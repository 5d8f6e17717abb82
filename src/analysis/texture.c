#include <float.h>
#include <math.h>
#include <string.h>

#include "analysis_private.h"
#include "moreau/sum.h"

/* A sliding contact's tangential force is put on the Coulomb cone by the
 * local solve's projection, so |f_T| = mu f_n holds only to the rounding of
 * that projection and of the impulse-to-force conversion (a few ulps): an
 * exact comparison would miss sliding contacts at random. 1e-9 is far above
 * rounding and far below any distance from the cone that matters. */
#define SLIDING_TOL 1e-9

/* Coordination numbers and the rattler fraction: sums over the owned bodies
 * in the region of the global per-body counts (all: every force-bearing
 * contact; core: those between non-rattlers). */
static moreau_err coordination(MPI_Comm comm, const texture_input *in, const double *all, const double *core,
                               const char *rattler, moreau_texture *t)
{
  const moreau_bodies *b = in->b;
  moreau_sum s[7] = {{0}};
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    if (!texture_in_region(in, &b->x[3 * i])) continue;
    moreau_sum_add(&s[0], 1.0);
    moreau_sum_add(&s[1], all[2 * i]);
    moreau_sum_add(&s[2], all[2 * i + 1]);
    if (rattler[i]) {
      moreau_sum_add(&s[3], 1.0);
      continue;
    }
    moreau_sum_add(&s[4], 1.0);
    moreau_sum_add(&s[5], core[2 * i]);
    moreau_sum_add(&s[6], core[2 * i + 1]);
  }
  MOREAU_CALL(moreau_sum_allreduce(comm, s, 7));
  double n = moreau_sum_value(&s[0]), n_nr = moreau_sum_value(&s[4]);
  t->n_bodies = (int64_t)n;
  t->n_rattlers = (int64_t)moreau_sum_value(&s[3]);
  if (n > 0.0) {
    t->z_c = moreau_sum_value(&s[1]) / n;
    t->z = moreau_sum_value(&s[2]) / n;
    t->rattler_fraction = moreau_sum_value(&s[3]) / n;
  }
  if (n_nr > 0.0) {
    t->z_c_nr = moreau_sum_value(&s[5]) / n_nr;
    t->z_nr = moreau_sum_value(&s[6]) / n_nr;
  }
  return MOREAU_SUCCESS;
}

/* Placed as the stress places it: by its contact point, or by its body for
 * a wall contact. */
static int contact_in_region(const texture_input *in, moreau_lid k)
{
  double point[3], term[9];
  analysis_contact_term(in->b, in->c, k, point, term);
  return texture_in_region(in, point);
}

static double tangential_norm(int dim, const double *f) { return dim == 2 ? fabs(f[1]) : hypot(f[1], f[2]); }

/* Fraction of the force-bearing contacts (body-body and body-wall, rattlers'
 * included) in the region whose force is on the Coulomb cone (a cohesive
 * bond's: |f_t| = mu (f_n + f_c)). */
static moreau_err sliding(MPI_Comm comm, const texture_input *in, moreau_texture *t)
{
  const moreau_contacts *c = in->c;
  const moreau_bodies *b = in->b;
  moreau_sum s[2] = {{0}};
  for (moreau_lid j = 0; j < in->n_fb; j++) {
    moreau_lid k = in->fb[j], ib = c->b[k];
    if (!contact_in_region(in, k)) continue;
    int mat_b = ib >= 0 ? b->material[ib] : in->w->material[-(ib + 1)];
    const moreau_pair_law *pair = moreau_materials_pair(in->m, b->material[c->a[k]], mat_b);
    const double *f = &c->force[3 * k];
    moreau_sum_add(&s[0], 1.0);
    /* A cohesive bond's threshold is mu (f_n + f_c) (f_c is 0 without cohesion). */
    if (tangential_norm(b->dim, f) >= pair->mu * (f[0] + pair->f_c) * (1.0 - SLIDING_TOL)) moreau_sum_add(&s[1], 1.0);
  }
  MOREAU_CALL(moreau_sum_allreduce(comm, s, 2));
  t->n_contacts = (int64_t)moreau_sum_value(&s[0]);
  t->n_sliding = (int64_t)moreau_sum_value(&s[1]);
  if (t->n_contacts > 0) t->sliding_fraction = moreau_sum_value(&s[1]) / moreau_sum_value(&s[0]);
  return MOREAU_SUCCESS;
}

/* Eigenvalues (decreasing) and unit eigenvectors (columns of vec, 3x3
 * row-major) of the leading n x n block of the symmetric a, by cyclic Jacobi
 * rotations: deterministic, so equal tensors give equal directions. */
static void eigen_symmetric(int n, const double *a_in, double val[3], double vec[9])
{
  double a[9];
  memcpy(a, a_in, sizeof(a));
  for (int k = 0; k < 9; k++)
    vec[k] = k % 4 == 0 ? 1.0 : 0.0;
  for (int sweep = 0; sweep < 64; sweep++) {
    double off = 0.0, diag = 0.0;
    for (int p = 0; p < n; p++) {
      diag += a[4 * p] * a[4 * p];
      for (int q = p + 1; q < n; q++)
        off += a[3 * p + q] * a[3 * p + q];
    }
    if (off <= DBL_EPSILON * DBL_EPSILON * DBL_EPSILON * diag) break;
    for (int p = 0; p < n; p++)
      for (int q = p + 1; q < n; q++) {
        double apq = a[3 * p + q];
        if (apq == 0.0) continue;
        double theta = (a[4 * q] - a[4 * p]) / (2.0 * apq);
        double tr =
            fabs(theta) > 1e150 ? 0.5 / theta : copysign(1.0, theta) / (fabs(theta) + sqrt(theta * theta + 1.0));
        double cs = 1.0 / sqrt(tr * tr + 1.0), sn = tr * cs;
        for (int k = 0; k < 3; k++) {
          double akp = a[3 * k + p], akq = a[3 * k + q];
          a[3 * k + p] = cs * akp - sn * akq;
          a[3 * k + q] = sn * akp + cs * akq;
        }
        for (int k = 0; k < 3; k++) {
          double apk = a[3 * p + k], aqk = a[3 * q + k];
          a[3 * p + k] = cs * apk - sn * aqk;
          a[3 * q + k] = sn * apk + cs * aqk;
        }
        for (int k = 0; k < 3; k++) {
          double vkp = vec[3 * k + p], vkq = vec[3 * k + q];
          vec[3 * k + p] = cs * vkp - sn * vkq;
          vec[3 * k + q] = sn * vkp + cs * vkq;
        }
      }
  }
  for (int p = 0; p < 3; p++)
    val[p] = p < n ? a[4 * p] : 0.0;
  /* Selection sort of the n pairs, largest first. */
  for (int p = 0; p < n; p++) {
    int best = p;
    for (int q = p + 1; q < n; q++)
      if (val[q] > val[best]) best = q;
    if (best == p) continue;
    double tv = val[p];
    val[p] = val[best];
    val[best] = tv;
    for (int k = 0; k < 3; k++) {
      double tk = vec[3 * k + p];
      vec[3 * k + p] = vec[3 * k + best];
      vec[3 * k + best] = tk;
    }
  }
}

/* The largest-eigenvalue direction, with its component of largest
 * magnitude positive (the first such when several tie). */
static void principal(int n, const double *a, double val[3], double dir[3])
{
  double vec[9];
  int big = 0;
  eigen_symmetric(n, a, val, vec);
  for (int k = 0; k < 3; k++) {
    dir[k] = vec[3 * k];
    if (fabs(dir[k]) > fabs(dir[big])) big = k;
  }
  if (dir[big] < 0.0)
    for (int k = 0; k < 3; k++)
      dir[k] = -dir[k];
}

/* Fabric and force tensors over the force-bearing body-body contacts
 * between non-rattlers in the region, and their anisotropies (see
 * analysis.h for the definitions and their sources). */
static moreau_err fabric(MPI_Comm comm, const texture_input *in, const char *rattler, moreau_texture *t)
{
  const moreau_contacts *c = in->c;
  const int dim = in->b->dim;
  moreau_sum s[29] = {{0}};
  double sum[29], dev[9], val[3], tr_n = 0.0, tr_t = 0.0;
  for (moreau_lid j = 0; j < in->n_fb; j++) {
    moreau_lid k = in->fb[j], ib = c->b[k];
    if (ib < 0 || rattler[c->a[k]] || rattler[ib] || !contact_in_region(in, k)) continue;
    const double *n = &c->normal[3 * k], *f = &c->force[3 * k];
    double ft[3], tg[3], bn[3];
    moreau_contact_frame(dim, n, tg, bn);
    for (int d = 0; d < 3; d++)
      ft[d] = f[1] * tg[d] + (dim == 3 ? f[2] * bn[d] : 0.0);
    moreau_sum_add(&s[0], 1.0);
    moreau_sum_add(&s[1], f[0]);
    for (int p = 0; p < 3; p++)
      for (int q = 0; q < 3; q++) {
        moreau_sum_add(&s[2 + 3 * p + q], n[p] * n[q]);
        moreau_sum_add(&s[11 + 3 * p + q], f[0] * (n[p] * n[q])); /* symmetric to the bit */
        moreau_sum_add(&s[20 + 3 * p + q], 0.5 * (ft[p] * n[q] + ft[q] * n[p]));
      }
  }
  MOREAU_CALL(moreau_sum_allreduce(comm, s, 29));
  for (int k = 0; k < 29; k++)
    sum[k] = moreau_sum_value(&s[k]);
  t->n_fabric = (int64_t)sum[0];
  if (sum[0] <= 0.0) return MOREAU_SUCCESS;
  t->mean_fn = sum[1] / sum[0];
  for (int k = 0; k < 9; k++) {
    t->fabric[k] = sum[2 + k] / sum[0];
    t->chi_n[k] = sum[11 + k] / sum[1];
    t->chi_t[k] = sum[20 + k] / sum[1];
  }
  for (int d = 0; d < dim; d++) {
    tr_n += t->chi_n[4 * d];
    tr_t += t->chi_t[4 * d];
  }
  memcpy(dev, t->chi_t, sizeof(dev));
  for (int d = 0; d < dim; d++)
    dev[4 * d] -= tr_t / dim;
  /* 2 in 2D, 5/2 in 3D: the amplitude of the second harmonic over the
   * spread of the extreme eigenvalues it makes. */
  const double factor = dim == 2 ? 2.0 : 2.5;
  principal(dim, t->fabric, val, t->dir_c);
  t->a_c = factor * (val[0] - val[dim - 1]);
  principal(dim, t->chi_n, val, t->dir_n);
  t->a_n = factor * (val[0] - val[dim - 1]) / tr_n - t->a_c;
  principal(dim, dev, val, t->dir_t);
  t->a_t = factor * (val[0] - val[dim - 1]) / tr_n;
  return MOREAU_SUCCESS;
}

moreau_err moreau_texture_compute(MPI_Comm comm, moreau_part *part, const moreau_bodies *b, const moreau_contacts *c,
                                  const moreau_walls *w, const moreau_materials *m, const moreau_domain *d,
                                  const moreau_region *r, moreau_texture *t)
{
  texture_input in = {d, b, c, w, m, r, 0, NULL};
  moreau_lid n_local = moreau_bodies_n_local(b);
  double *all, *core;
  char *rattler;
  MOREAU_CHECK(!r || d, MOREAU_ERR_INPUT, "moreau_texture_compute: a region needs its domain");
  for (moreau_lid k = 0; k < c->n; k++)
    MOREAU_CHECK(c->b[k] >= 0 || (w && -(c->b[k] + 1) < w->n), MOREAU_ERR_INTERNAL,
                 "moreau_texture_compute: contact %ld touches wall %ld, which the walls given do not have", (long)k,
                 (long)-(c->b[k] + 1));
  memset(t, 0, sizeof(*t));
  MOREAU_CALL(texture_force_bearing(c, &in.fb, &in.n_fb));
  MOREAU_CALL(moreau_malloc(2 * (size_t)(n_local + 1) * sizeof(double), &all));
  MOREAU_CALL(moreau_malloc(2 * (size_t)(n_local + 1) * sizeof(double), &core));
  MOREAU_CALL(moreau_malloc((size_t)(n_local + 1), &rattler));
  MOREAU_CALL(texture_rattlers(comm, part, &in, all, core, rattler, &t->rattler_rounds));
  MOREAU_CALL(coordination(comm, &in, all, core, rattler, t));
  MOREAU_CALL(sliding(comm, &in, t));
  MOREAU_CALL(fabric(comm, &in, rattler, t));
  moreau_free(&all);
  moreau_free(&core);
  moreau_free(&rattler);
  moreau_free(&in.fb);
  return MOREAU_SUCCESS;
}
