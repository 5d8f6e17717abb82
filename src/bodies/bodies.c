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
  moreau_bodies *b = *bodies;
  if (!b) return MOREAU_SUCCESS;
  moreau_free(&b->gid);
  moreau_free(&b->x);
  moreau_free(&b->v);
  moreau_free(&b->w);
  moreau_free(&b->q);
  moreau_free(&b->f_ext);
  moreau_free(&b->t_ext);
  moreau_free(&b->radius);
  moreau_free(&b->inv_mass);
  moreau_free(&b->inv_inertia);
  moreau_free(&b->material);
  moreau_free(&b->fixed);
  moreau_free(bodies);
  return MOREAU_SUCCESS;
}

moreau_err moreau_bodies_reserve(moreau_bodies *b, moreau_lid capacity)
{
  size_t n;
  if (capacity <= b->capacity) return MOREAU_SUCCESS;
  if (capacity < 2 * b->capacity) capacity = 2 * b->capacity;
  if (capacity < 16) capacity = 16;
  n = (size_t)capacity;
  MOREAU_CALL(moreau_realloc(n * sizeof(*b->gid), &b->gid));
  MOREAU_CALL(moreau_realloc(3 * n * sizeof(double), &b->x));
  MOREAU_CALL(moreau_realloc(3 * n * sizeof(double), &b->v));
  MOREAU_CALL(moreau_realloc(3 * n * sizeof(double), &b->w));
  MOREAU_CALL(moreau_realloc(4 * n * sizeof(double), &b->q));
  MOREAU_CALL(moreau_realloc(3 * n * sizeof(double), &b->f_ext));
  MOREAU_CALL(moreau_realloc(3 * n * sizeof(double), &b->t_ext));
  MOREAU_CALL(moreau_realloc(n * sizeof(double), &b->radius));
  MOREAU_CALL(moreau_realloc(n * sizeof(double), &b->inv_mass));
  MOREAU_CALL(moreau_realloc(n * sizeof(double), &b->inv_inertia));
  MOREAU_CALL(moreau_realloc(n * sizeof(int32_t), &b->material));
  MOREAU_CALL(moreau_realloc(n * sizeof(int32_t), &b->fixed));
  b->capacity = capacity;
  return MOREAU_SUCCESS;
}

void moreau_bodies_set(moreau_bodies *b, moreau_lid i, const moreau_body *body)
{
  b->gid[i] = body->gid;
  memcpy(&b->x[3 * i], body->x, 3 * sizeof(double));
  memcpy(&b->v[3 * i], body->v, 3 * sizeof(double));
  memcpy(&b->w[3 * i], body->w, 3 * sizeof(double));
  memcpy(&b->q[4 * i], body->q, 4 * sizeof(double));
  memcpy(&b->f_ext[3 * i], body->f_ext, 3 * sizeof(double));
  memcpy(&b->t_ext[3 * i], body->t_ext, 3 * sizeof(double));
  b->radius[i] = body->radius;
  b->inv_mass[i] = body->inv_mass;
  b->inv_inertia[i] = body->inv_inertia;
  b->material[i] = body->material;
  b->fixed[i] = body->fixed;
}

void moreau_bodies_get(const moreau_bodies *b, moreau_lid i, moreau_body *body)
{
  body->gid = b->gid[i];
  memcpy(body->x, &b->x[3 * i], 3 * sizeof(double));
  memcpy(body->v, &b->v[3 * i], 3 * sizeof(double));
  memcpy(body->w, &b->w[3 * i], 3 * sizeof(double));
  memcpy(body->q, &b->q[4 * i], 4 * sizeof(double));
  memcpy(body->f_ext, &b->f_ext[3 * i], 3 * sizeof(double));
  memcpy(body->t_ext, &b->t_ext[3 * i], 3 * sizeof(double));
  body->radius = b->radius[i];
  body->inv_mass = b->inv_mass[i];
  body->inv_inertia = b->inv_inertia[i];
  body->material = b->material[i];
  body->fixed = b->fixed[i];
}

moreau_err moreau_bodies_push_owned(moreau_bodies *b, const moreau_body *body)
{
  b->n_ghost = 0;
  MOREAU_CALL(moreau_bodies_reserve(b, b->n_owned + 1));
  moreau_bodies_set(b, b->n_owned, body);
  b->n_owned++;
  return MOREAU_SUCCESS;
}

moreau_err moreau_bodies_push_ghost(moreau_bodies *b, const moreau_body *body)
{
  moreau_lid n = moreau_bodies_n_local(b);
  MOREAU_CALL(moreau_bodies_reserve(b, n + 1));
  moreau_bodies_set(b, n, body);
  b->n_ghost++;
  return MOREAU_SUCCESS;
}

void moreau_bodies_clear_ghosts(moreau_bodies *b) { b->n_ghost = 0; }

moreau_err moreau_bodies_compact_owned(moreau_bodies *b, const char *keep)
{
  moreau_lid j = 0;
  moreau_body body;
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    if (!keep[i]) continue;
    if (i != j) {
      moreau_bodies_get(b, i, &body);
      moreau_bodies_set(b, j, &body);
    }
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

static int cmp_gid_lid(const void *pa, const void *pb)
{
  const gid_lid *a = pa, *b = pb;
  return (a->gid > b->gid) - (a->gid < b->gid);
}

moreau_err moreau_bodies_sort_owned(moreau_bodies *b)
{
  gid_lid *order;
  moreau_body *copy;
  moreau_lid n = b->n_owned;
  b->n_ghost = 0;
  if (n < 2) return MOREAU_SUCCESS;
  MOREAU_CALL(moreau_malloc((size_t)n * sizeof(*order), &order));
  MOREAU_CALL(moreau_malloc((size_t)n * sizeof(*copy), &copy));
  for (moreau_lid i = 0; i < n; i++) {
    order[i].gid = b->gid[i];
    order[i].lid = i;
    moreau_bodies_get(b, i, &copy[i]);
  }
  qsort(order, (size_t)n, sizeof(*order), cmp_gid_lid);
  for (moreau_lid i = 0; i < n; i++)
    moreau_bodies_set(b, i, &copy[order[i].lid]);
  moreau_free(&order);
  moreau_free(&copy);
  return MOREAU_SUCCESS;
}

void moreau_body_pack(const moreau_body *body, double *rec)
{
  int k = 0;
  memcpy(&rec[k++], &body->gid, sizeof(double));
  for (int d = 0; d < 3; d++)
    rec[k++] = body->x[d];
  for (int d = 0; d < 3; d++)
    rec[k++] = body->v[d];
  for (int d = 0; d < 3; d++)
    rec[k++] = body->w[d];
  for (int d = 0; d < 4; d++)
    rec[k++] = body->q[d];
  for (int d = 0; d < 3; d++)
    rec[k++] = body->f_ext[d];
  for (int d = 0; d < 3; d++)
    rec[k++] = body->t_ext[d];
  rec[k++] = body->radius;
  rec[k++] = body->inv_mass;
  rec[k++] = body->inv_inertia;
  rec[k++] = (double)body->material;
  rec[k++] = (double)body->fixed;
}

void moreau_body_unpack(const double *rec, moreau_body *body)
{
  int k = 0;
  memcpy(&body->gid, &rec[k++], sizeof(double));
  for (int d = 0; d < 3; d++)
    body->x[d] = rec[k++];
  for (int d = 0; d < 3; d++)
    body->v[d] = rec[k++];
  for (int d = 0; d < 3; d++)
    body->w[d] = rec[k++];
  for (int d = 0; d < 4; d++)
    body->q[d] = rec[k++];
  for (int d = 0; d < 3; d++)
    body->f_ext[d] = rec[k++];
  for (int d = 0; d < 3; d++)
    body->t_ext[d] = rec[k++];
  body->radius = rec[k++];
  body->inv_mass = rec[k++];
  body->inv_inertia = rec[k++];
  body->material = (int32_t)rec[k++];
  body->fixed = (int32_t)rec[k++];
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
