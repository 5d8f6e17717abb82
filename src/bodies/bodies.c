#include "moreau/bodies.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

moreau_err moreau_bodies_create(MPI_Comm comm, int dim, moreau_bodies **bodies)
{
  moreau_bodies *b;
  MOREAU_CHECK(dim == 2 || dim == 3, MOREAU_ERR_INPUT, "dimension must be 2 or 3, got %d", dim);
  MOREAU_CALL(moreau_calloc(1, sizeof(*b), &b));
  b->comm = comm;
  b->dim = dim;
  *bodies = b;
  return MOREAU_SUCCESS;
}

moreau_err moreau_bodies_destroy(moreau_bodies **bodies)
{
  if (!*bodies) return MOREAU_SUCCESS;
  moreau_fields_free(&moreau_body_fields, *bodies);
  moreau_free(bodies);
  return MOREAU_SUCCESS;
}

moreau_err moreau_bodies_reserve(moreau_bodies *b, moreau_lid capacity)
{
  if (capacity <= b->capacity) return MOREAU_SUCCESS;
  if (capacity < 2 * b->capacity) capacity = 2 * b->capacity;
  if (capacity < 16) capacity = 16;
  MOREAU_CALL(moreau_fields_resize(&moreau_body_fields, b, (size_t)capacity));
  b->capacity = capacity;
  return MOREAU_SUCCESS;
}

moreau_err moreau_bodies_enable_external(moreau_bodies *b)
{
  MOREAU_CALL(moreau_fields_give_lazy(&moreau_body_fields, b, (size_t)b->capacity));
  return MOREAU_SUCCESS;
}

void moreau_bodies_trim_external(moreau_bodies *b)
{
  moreau_fields_drop_zero_lazy(&moreau_body_fields, b, (size_t)moreau_bodies_n_local(b));
}

moreau_err moreau_bodies_set(moreau_bodies *b, moreau_lid i, const moreau_body *body)
{
  if (moreau_fields_value_wants(&moreau_body_fields, b, body)) MOREAU_CALL(moreau_bodies_enable_external(b));
  moreau_fields_set_value(&moreau_body_fields, b, (size_t)i, body);
  return MOREAU_SUCCESS;
}

void moreau_bodies_get(const moreau_bodies *b, moreau_lid i, moreau_body *body)
{
  moreau_fields_get_value(&moreau_body_fields, b, (size_t)i, body);
}

moreau_err moreau_bodies_push_owned(moreau_bodies *b, const moreau_body *body)
{
  b->n_ghost = 0;
  MOREAU_CALL(moreau_bodies_reserve(b, b->n_owned + 1));
  MOREAU_CALL(moreau_bodies_set(b, b->n_owned, body));
  b->n_owned++;
  return MOREAU_SUCCESS;
}

moreau_err moreau_bodies_push_ghost(moreau_bodies *b, const moreau_body *body)
{
  moreau_lid n = moreau_bodies_n_local(b);
  MOREAU_CALL(moreau_bodies_reserve(b, n + 1));
  MOREAU_CALL(moreau_bodies_set(b, n, body));
  b->n_ghost++;
  return MOREAU_SUCCESS;
}

void moreau_bodies_clear_ghosts(moreau_bodies *b) { b->n_ghost = 0; }

size_t moreau_bodies_record_doubles(unsigned mask) { return moreau_fields_record_doubles(&moreau_body_fields, mask); }

void moreau_bodies_pack(const moreau_bodies *b, unsigned mask, moreau_lid i, double *rec)
{
  moreau_fields_pack(&moreau_body_fields, b, mask, (size_t)i, rec);
}

moreau_err moreau_bodies_push_record(moreau_bodies *b, int ghost, unsigned mask, const double *rec)
{
  moreau_lid n;
  if (!ghost) b->n_ghost = 0;
  n = moreau_bodies_n_local(b);
  MOREAU_CALL(moreau_bodies_reserve(b, n + 1));
  if (moreau_fields_record_wants(&moreau_body_fields, b, mask, rec)) MOREAU_CALL(moreau_bodies_enable_external(b));
  moreau_fields_unpack(&moreau_body_fields, b, mask, (size_t)n, rec);
  if (ghost)
    b->n_ghost++;
  else
    b->n_owned++;
  return MOREAU_SUCCESS;
}

moreau_err moreau_bodies_compact_owned(moreau_bodies *b, const char *keep)
{
  moreau_lid j = 0;
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    if (!keep[i]) continue;
    if (i != j) moreau_fields_copy(&moreau_body_fields, b, (size_t)i, (size_t)j);
    j++;
  }
  b->n_owned = j;
  b->n_ghost = 0;
  return MOREAU_SUCCESS;
}

typedef struct {
  moreau_gid gid;
  moreau_lid lid;
} gid_lid;

static int by_gid(const void *pa, const void *pb)
{
  const gid_lid *a = pa, *b = pb;
  return (a->gid > b->gid) - (a->gid < b->gid);
}

moreau_err moreau_bodies_gid_order(const moreau_bodies *b, moreau_lid **order)
{
  gid_lid *pairs;
  moreau_lid n = b->n_owned;
  MOREAU_CALL(moreau_malloc((size_t)n * sizeof(*pairs), &pairs));
  moreau_err err = moreau_malloc((size_t)n * sizeof(**order), order);
  if (err == MOREAU_SUCCESS) {
    for (moreau_lid i = 0; i < n; i++)
      pairs[i] = (gid_lid){b->gid[i], i};
    if (n > 1) qsort(pairs, (size_t)n, sizeof(*pairs), by_gid);
    for (moreau_lid i = 0; i < n; i++)
      (*order)[i] = pairs[i].lid;
  }
  moreau_free(&pairs);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}

moreau_err moreau_bodies_write_order(const moreau_bodies *b, const moreau_lid *kept, const moreau_lid **order,
                                     moreau_lid **sorted)
{
  *sorted = NULL;
  if (!kept) {
    MOREAU_CALL(moreau_bodies_gid_order(b, sorted));
    *order = *sorted;
    return MOREAU_SUCCESS;
  }
  for (moreau_lid k = 0; k < b->n_owned; k++)
    MOREAU_ASSERT(kept[k] >= 0 && kept[k] < b->n_owned && (k == 0 || b->gid[kept[k - 1]] < b->gid[kept[k]]));
  *order = kept;
  return MOREAU_SUCCESS;
}

moreau_err moreau_bodies_global_count(const moreau_bodies *b, int64_t *count, int64_t *gid_sum)
{
  int64_t local[2] = {b->n_owned, 0}, global[2];
  for (moreau_lid i = 0; i < b->n_owned; i++)
    local[1] += b->gid[i];
  MOREAU_MPI_CALL(MPI_Allreduce(local, global, 2, MPI_INT64_T, MPI_SUM, b->comm));
  if (count) *count = global[0];
  if (gid_sum) *gid_sum = global[1];
  return MOREAU_SUCCESS;
}

void moreau_body_set_mass(moreau_body *body, int dim, double density)
{
  double r = body->radius, m, inertia;
  if (dim == 2) {
    m = density * M_PI * r * r;
    inertia = 0.5 * m * r * r;
  } else {
    m = density * 4.0 / 3.0 * M_PI * r * r * r;
    inertia = 0.4 * m * r * r;
  }
  body->inv_mass = body->fixed ? 0.0 : 1.0 / m;
  body->inv_inertia = body->fixed ? 0.0 : 1.0 / inertia;
  body->q[0] = 1.0;
  body->q[1] = body->q[2] = body->q[3] = 0.0;
}

void moreau_body_set_shape_mass(moreau_body *body, int dim, const moreau_shapes *shapes, double density)
{
  if (body->shape <= 0) {
    double q[4];
    memcpy(q, body->q, sizeof(q));
    moreau_body_set_mass(body, dim, density);
    if (q[0] != 0.0 || q[1] != 0.0 || q[2] != 0.0 || q[3] != 0.0) memcpy(body->q, q, sizeof(q));
    return;
  }
  moreau_lid s = body->shape - 1;
  double r = body->radius, r2 = r * r, rd = dim == 2 ? r2 : r2 * r;
  double m = density * shapes->measure[s] * rd;
  double inertia = density * shapes->principal[3 * s + 2] * rd * r2; /* 2D: polar; 3D: the largest */
  body->inv_mass = body->fixed ? 0.0 : 1.0 / m;
  body->inv_inertia = body->fixed ? 0.0 : 1.0 / inertia;
}

static double ball_measure(int dim, double r) { return dim == 2 ? M_PI * r * r : 4.0 / 3.0 * M_PI * r * r * r; }

double moreau_bodies_measure(const moreau_bodies *b, moreau_lid i)
{
  double r = b->radius[i];
  if (b->shape[i] <= 0) return ball_measure(b->dim, r);
  return b->shapes->measure[b->shape[i] - 1] * (b->dim == 2 ? r * r : r * r * r);
}

double moreau_bodies_overlap_factor(const moreau_bodies *b, moreau_lid i)
{
  if (b->shape[i] <= 0) return 1.0;
  const moreau_shapes *t = b->shapes;
  moreau_lid s = b->shape[i] - 1;
  double sum = 0.0;
  for (moreau_lid c = t->first[s]; c < t->first[s] + t->count[s]; c++)
    sum += ball_measure(b->dim, t->radius[c]);
  return t->measure[s] / sum;
}

/* R diag(d) R^T for the rotation of unit quaternion q (w, x, y, z). */
static void rotate_diagonal(const double q[4], const double d[3], double out[6])
{
  const double w = q[0], x = q[1], y = q[2], z = q[3];
  const double R[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                          {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                          {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
  static const int ij[6][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 2}};
  for (int m = 0; m < 6; m++) {
    int i = ij[m][0], j = ij[m][1];
    out[m] = R[i][0] * d[0] * R[j][0] + R[i][1] * d[1] * R[j][1] + R[i][2] * d[2] * R[j][2];
  }
}

/* Principal moments of a 3D cluster body over its mass: I_k / m. */
static void cluster_moments_per_mass(const moreau_bodies *b, moreau_lid i, double k[3])
{
  const moreau_shapes *t = b->shapes;
  moreau_lid s = b->shape[i] - 1;
  double r2 = b->radius[i] * b->radius[i];
  for (int a = 0; a < 3; a++)
    k[a] = t->principal[3 * s + a] / t->measure[s] * r2;
}

void moreau_bodies_inv_inertia_world(const moreau_bodies *b, moreau_lid i, double inv[6])
{
  if (b->dim == 2 || b->shape[i] <= 0 || b->inv_mass[i] == 0.0) {
    double ii = b->inv_inertia[i];
    inv[0] = inv[3] = inv[5] = ii;
    inv[1] = inv[2] = inv[4] = 0.0;
    return;
  }
  double k[3], d[3];
  cluster_moments_per_mass(b, i, k);
  for (int a = 0; a < 3; a++)
    d[a] = b->inv_mass[i] / k[a];
  rotate_diagonal(&b->q[4 * i], d, inv);
}

void moreau_bodies_inertia_world(const moreau_bodies *b, moreau_lid i, double inertia[6])
{
  if (b->dim == 2 || b->shape[i] <= 0 || b->inv_mass[i] == 0.0) {
    double I = b->inv_inertia[i] > 0.0 ? 1.0 / b->inv_inertia[i] : 0.0;
    inertia[0] = inertia[3] = inertia[5] = I;
    inertia[1] = inertia[2] = inertia[4] = 0.0;
    return;
  }
  double k[3], d[3];
  cluster_moments_per_mass(b, i, k);
  for (int a = 0; a < 3; a++)
    d[a] = k[a] / b->inv_mass[i];
  rotate_diagonal(&b->q[4 * i], d, inertia);
}

double moreau_bodies_rotational_energy(const moreau_bodies *b, moreau_lid i)
{
  double I[6], Iw[3];
  const double *w = &b->w[3 * i];
  moreau_bodies_inertia_world(b, i, I);
  moreau_sym3_apply(I, w, Iw);
  return 0.5 * (w[0] * Iw[0] + w[1] * Iw[1] + w[2] * Iw[2]);
}
