/* The shapes table: contactors and mass properties of rigid clusters. */
#include "moreau/shapes.h"

#include <math.h>
#include <string.h>

moreau_err moreau_shapes_create(int dim, moreau_shapes **shapes)
{
  moreau_shapes *t;
  MOREAU_CHECK(dim == 2 || dim == 3, MOREAU_ERR_INPUT, "shapes: dimension must be 2 or 3, got %d", dim);
  MOREAU_CALL(moreau_calloc(1, sizeof(*t), &t));
  t->dim = dim;
  *shapes = t;
  return MOREAU_SUCCESS;
}

moreau_err moreau_shapes_destroy(moreau_shapes **shapes)
{
  moreau_shapes *t = *shapes;
  if (!t) return MOREAU_SUCCESS;
  moreau_free(&t->first);
  moreau_free(&t->count);
  moreau_free(&t->measure);
  moreau_free(&t->centroid);
  moreau_free(&t->inertia);
  moreau_free(&t->principal);
  moreau_free(&t->axes);
  moreau_free(&t->q);
  moreau_free(&t->bounding);
  moreau_free(&t->offset);
  moreau_free(&t->radius);
  moreau_free(shapes);
  return MOREAU_SUCCESS;
}

static moreau_err reserve(moreau_shapes *t, moreau_lid n_shapes, moreau_lid n_contactors)
{
  if (n_shapes > t->cap_shapes) {
    moreau_lid cap = n_shapes < 2 * t->cap_shapes ? 2 * t->cap_shapes : n_shapes;
    if (cap < 16) cap = 16;
    size_t n = (size_t)cap;
    MOREAU_CALL(moreau_realloc(n * sizeof(moreau_lid), &t->first));
    MOREAU_CALL(moreau_realloc(n * sizeof(moreau_lid), &t->count));
    MOREAU_CALL(moreau_realloc(n * sizeof(double), &t->measure));
    MOREAU_CALL(moreau_realloc(3 * n * sizeof(double), &t->centroid));
    MOREAU_CALL(moreau_realloc(9 * n * sizeof(double), &t->inertia));
    MOREAU_CALL(moreau_realloc(3 * n * sizeof(double), &t->principal));
    MOREAU_CALL(moreau_realloc(9 * n * sizeof(double), &t->axes));
    MOREAU_CALL(moreau_realloc(4 * n * sizeof(double), &t->q));
    MOREAU_CALL(moreau_realloc(n * sizeof(double), &t->bounding));
    t->cap_shapes = cap;
  }
  if (n_contactors > t->cap_contactors) {
    moreau_lid cap = n_contactors < 2 * t->cap_contactors ? 2 * t->cap_contactors : n_contactors;
    if (cap < 16) cap = 16;
    MOREAU_CALL(moreau_realloc(3 * (size_t)cap * sizeof(double), &t->offset));
    MOREAU_CALL(moreau_realloc((size_t)cap * sizeof(double), &t->radius));
    t->cap_contactors = cap;
  }
  return MOREAU_SUCCESS;
}

/* Eigen-decomposition of a symmetric 3x3 matrix a (destroyed) by cyclic
 * Jacobi rotations: a = V diag(lambda) V^T, V's columns the eigenvectors.
 * A pair whose off-diagonal entry and difference of diagonal entries are
 * both below tiny (the quadrature's noise) is left alone: its rotation angle
 * would be made of noise, and any axes of a degenerate pair are principal,
 * so a symmetric cluster keeps the given axes. Other pairs are rotated until
 * the off-diagonal entry is at rounding level (zero). */
static void jacobi3(double a[3][3], double tiny, double zero, double lambda[3], double v[3][3])
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      v[i][j] = i == j;
  for (int sweep = 0; sweep < 50; sweep++) {
    int rotated = 0;
    for (int p = 0; p < 2; p++)
      for (int q = p + 1; q < 3; q++) {
        if (fabs(a[p][q]) <= zero || (fabs(a[p][q]) <= tiny && fabs(a[q][q] - a[p][p]) <= tiny)) continue;
        rotated = 1;
        double theta = 0.5 * (a[q][q] - a[p][p]) / a[p][q];
        double t = (theta >= 0.0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
        double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
        for (int k = 0; k < 3; k++) {
          double akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (int k = 0; k < 3; k++) {
          double apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (int k = 0; k < 3; k++) {
          double vkp = v[k][p], vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq;
          v[k][q] = s * vkp + c * vkq;
        }
      }
    if (!rotated) break;
  }
  for (int i = 0; i < 3; i++)
    lambda[i] = a[i][i];
}

/* Principal moments ascending in p, axes as the columns of the rotation R
 * (row-major, det +1) and its quaternion q (w, x, y, z). */
static void principal_frame(const double inertia[9], double p[3], double R[9], double q[4])
{
  double a[3][3], v[3][3], tr = inertia[0] + inertia[4] + inertia[8], tiny = 1e-11 * tr;
  int order[3] = {0, 1, 2};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      a[i][j] = 0.5 * (inertia[3 * i + j] + inertia[3 * j + i]);
  jacobi3(a, tiny, 1e-16 * tr, p, v);
  /* Sort ascending, leaving moments equal to within tiny in their order, so
   * that a diagonal tensor keeps its axes. */
  for (int i = 1; i < 3; i++)
    for (int j = i; j > 0 && p[order[j]] < p[order[j - 1]] - tiny; j--) {
      int o = order[j];
      order[j] = order[j - 1];
      order[j - 1] = o;
    }
  double ps[3];
  for (int j = 0; j < 3; j++) {
    ps[j] = p[order[j]];
    for (int i = 0; i < 3; i++)
      R[3 * i + j] = v[i][order[j]];
  }
  memcpy(p, ps, sizeof(ps));
  double det =
      R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) + R[2] * (R[3] * R[7] - R[4] * R[6]);
  if (det < 0.0)
    for (int i = 0; i < 3; i++)
      R[3 * i + 2] = -R[3 * i + 2];
  /* Quaternion of R (Shepperd: from the largest of the four candidates). */
  double t = R[0] + R[4] + R[8];
  if (t >= R[0] && t >= R[4] && t >= R[8]) {
    double s = 2.0 * sqrt(1.0 + t);
    q[0] = 0.25 * s;
    q[1] = (R[7] - R[5]) / s;
    q[2] = (R[2] - R[6]) / s;
    q[3] = (R[3] - R[1]) / s;
  } else if (R[0] >= R[4] && R[0] >= R[8]) {
    double s = 2.0 * sqrt(1.0 + R[0] - R[4] - R[8]);
    q[0] = (R[7] - R[5]) / s;
    q[1] = 0.25 * s;
    q[2] = (R[1] + R[3]) / s;
    q[3] = (R[2] + R[6]) / s;
  } else if (R[4] >= R[8]) {
    double s = 2.0 * sqrt(1.0 + R[4] - R[0] - R[8]);
    q[0] = (R[2] - R[6]) / s;
    q[1] = (R[1] + R[3]) / s;
    q[2] = 0.25 * s;
    q[3] = (R[5] + R[7]) / s;
  } else {
    double s = 2.0 * sqrt(1.0 + R[8] - R[0] - R[4]);
    q[0] = (R[3] - R[1]) / s;
    q[1] = (R[2] + R[6]) / s;
    q[2] = (R[5] + R[7]) / s;
    q[3] = 0.25 * s;
  }
}

moreau_err moreau_shapes_add(moreau_shapes *t, int n, const double *offsets, const double *radii, moreau_lid *shape_id)
{
  moreau_shape_mass m;
  MOREAU_CHECK(n <= INT32_MAX - t->n_contactors && t->n_shapes < INT32_MAX, MOREAU_ERR_INPUT,
               "shapes table full: %d contactors in %d shapes", (int)t->n_contactors, (int)t->n_shapes);
  MOREAU_CALL(moreau_shape_union_mass(t->dim, n, offsets, radii, &m));
  MOREAU_CALL(reserve(t, t->n_shapes + 1, t->n_contactors + n));
  moreau_lid s = t->n_shapes, c0 = t->n_contactors;
  double *R = t->axes + 9 * s, *p = t->principal + 3 * s, *q = t->q + 4 * s, bound = 0.0;
  if (t->dim == 3) {
    principal_frame(m.inertia, p, R, q);
  } else {
    /* In the plane only the polar moment matters: the body frame is the
     * given one moved to the centroid. */
    for (int i = 0; i < 9; i++)
      R[i] = i % 4 == 0;
    q[0] = 1.0;
    q[1] = q[2] = q[3] = 0.0;
    p[0] = m.inertia[0];
    p[1] = m.inertia[4];
    p[2] = m.inertia[8];
  }
  for (int i = 0; i < n; i++) {
    double d[3] = {0.0, 0.0, 0.0}, *o = t->offset + 3 * (c0 + i);
    for (int k = 0; k < t->dim; k++)
      d[k] = offsets[3 * i + k] - m.centroid[k];
    /* offset = R^T (given - centroid) */
    for (int k = 0; k < 3; k++)
      o[k] = R[k] * d[0] + R[3 + k] * d[1] + R[6 + k] * d[2];
    t->radius[c0 + i] = radii[i];
    bound = fmax(bound, sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]) + radii[i]);
  }
  t->first[s] = c0;
  t->count[s] = n;
  t->measure[s] = m.measure;
  memcpy(t->centroid + 3 * s, m.centroid, sizeof(m.centroid));
  memcpy(t->inertia + 9 * s, m.inertia, sizeof(m.inertia));
  t->bounding[s] = bound;
  t->n_shapes++;
  t->n_contactors += n;
  *shape_id = s;
  return MOREAU_SUCCESS;
}

moreau_err moreau_shapes_add_unit(moreau_shapes *t, int n, const double *offsets, const double *radii,
                                  moreau_lid *shape_id, double *bounding)
{
  moreau_lid s;
  MOREAU_CALL(moreau_shapes_add(t, n, offsets, radii, &s));
  double B = t->bounding[s], B2 = B * B, Bd = t->dim == 2 ? B2 : B2 * B;
  for (moreau_lid c = t->first[s]; c < t->first[s] + t->count[s]; c++) {
    for (int k = 0; k < 3; k++)
      t->offset[3 * c + k] /= B;
    t->radius[c] /= B;
  }
  t->measure[s] /= Bd;
  for (int k = 0; k < 3; k++) {
    t->centroid[3 * s + k] /= B;
    t->principal[3 * s + k] /= Bd * B2;
  }
  for (int k = 0; k < 9; k++)
    t->inertia[9 * s + k] /= Bd * B2;
  t->bounding[s] = 1.0;
  *shape_id = s;
  *bounding = B;
  return MOREAU_SUCCESS;
}
