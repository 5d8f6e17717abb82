#include "moreau/contacts.h"

#include <stdlib.h>
#include <string.h>

moreau_err moreau_contacts_create(moreau_contacts **c)
{
  MOREAU_CALL(moreau_calloc(1, sizeof(**c), c));
  return MOREAU_SUCCESS;
}

moreau_err moreau_contacts_destroy(moreau_contacts **cp)
{
  moreau_contacts *c = *cp;
  if (!c) return MOREAU_SUCCESS;
  moreau_free(&c->gid_a);
  moreau_free(&c->gid_b);
  moreau_free(&c->point);
  moreau_free(&c->a);
  moreau_free(&c->b);
  moreau_free(&c->normal);
  moreau_free(&c->tangent);
  moreau_free(&c->binormal);
  moreau_free(&c->ca);
  moreau_free(&c->cb);
  moreau_free(&c->gap);
  moreau_free(&c->force);
  moreau_free(cp);
  return MOREAU_SUCCESS;
}

moreau_err moreau_contacts_reserve(moreau_contacts *c, moreau_lid capacity)
{
  size_t n;
  if (capacity <= c->capacity) return MOREAU_SUCCESS;
  if (capacity < 2 * c->capacity) capacity = 2 * c->capacity;
  if (capacity < 64) capacity = 64;
  n = (size_t)capacity;
  MOREAU_CALL(moreau_realloc(n * sizeof(moreau_gid), &c->gid_a));
  MOREAU_CALL(moreau_realloc(n * sizeof(moreau_gid), &c->gid_b));
  MOREAU_CALL(moreau_realloc(n * sizeof(int32_t), &c->point));
  MOREAU_CALL(moreau_realloc(n * sizeof(moreau_lid), &c->a));
  MOREAU_CALL(moreau_realloc(n * sizeof(moreau_lid), &c->b));
  MOREAU_CALL(moreau_realloc(3 * n * sizeof(double), &c->normal));
  MOREAU_CALL(moreau_realloc(3 * n * sizeof(double), &c->tangent));
  MOREAU_CALL(moreau_realloc(3 * n * sizeof(double), &c->binormal));
  MOREAU_CALL(moreau_realloc(3 * n * sizeof(double), &c->ca));
  MOREAU_CALL(moreau_realloc(3 * n * sizeof(double), &c->cb));
  MOREAU_CALL(moreau_realloc(n * sizeof(double), &c->gap));
  MOREAU_CALL(moreau_realloc(3 * n * sizeof(double), &c->force));
  c->capacity = capacity;
  return MOREAU_SUCCESS;
}

void moreau_contacts_clear(moreau_contacts *c) { c->n = 0; }

moreau_err moreau_contacts_push(moreau_contacts *c, moreau_gid gid_a, moreau_gid gid_b, int32_t point, moreau_lid a,
                                moreau_lid b, moreau_lid *idx)
{
  moreau_lid i = c->n;
  MOREAU_CALL(moreau_contacts_reserve(c, i + 1));
  c->gid_a[i] = gid_a;
  c->gid_b[i] = gid_b;
  c->point[i] = point;
  c->a[i] = a;
  c->b[i] = b;
  memset(&c->force[3 * i], 0, 3 * sizeof(double));
  c->n++;
  if (idx) *idx = i;
  return MOREAU_SUCCESS;
}

static int key_cmp(moreau_gid a1, moreau_gid b1, int32_t p1, moreau_gid a2, moreau_gid b2, int32_t p2)
{
  if (a1 != a2) return a1 < a2 ? -1 : 1;
  if (b1 != b2) return b1 < b2 ? -1 : 1;
  return (p1 > p2) - (p1 < p2);
}

moreau_err moreau_contacts_warm_start(moreau_contacts *c, const moreau_contacts *prev, moreau_lid *matched)
{
  moreau_lid j = 0, m = 0;
  for (moreau_lid i = 0; i < c->n; i++) {
    int cmp = 1;
    while (j < prev->n &&
           (cmp = key_cmp(prev->gid_a[j], prev->gid_b[j], prev->point[j], c->gid_a[i], c->gid_b[i], c->point[i])) < 0)
      j++;
    if (j < prev->n && cmp == 0) {
      memcpy(&c->force[3 * i], &prev->force[3 * j], 3 * sizeof(double));
      m++;
    } else {
      memset(&c->force[3 * i], 0, 3 * sizeof(double));
    }
  }
  if (matched) *matched = m;
  return MOREAU_SUCCESS;
}

typedef struct {
  moreau_gid ga, gb;
  int32_t p;
  moreau_lid i;
} contact_key;

static int cmp_key(const void *x, const void *y)
{
  const contact_key *k1 = x, *k2 = y;
  return key_cmp(k1->ga, k1->gb, k1->p, k2->ga, k2->gb, k2->p);
}

#define PERMUTE(arr, type, stride)                                                                                     \
  do {                                                                                                                 \
    for (moreau_lid i = 0; i < n; i++)                                                                                 \
      memcpy((char *)tmp + (size_t)i * (stride) * sizeof(type),                                                        \
             (char *)(arr) + (size_t)keys[i].i * (stride) * sizeof(type), (stride) * sizeof(type));                    \
    memcpy((arr), tmp, (size_t)n *(stride) * sizeof(type));                                                            \
  } while (0)

moreau_err moreau_contacts_sort(moreau_contacts *c)
{
  moreau_lid n = c->n;
  contact_key *keys;
  void *tmp;
  if (n < 2) return MOREAU_SUCCESS;
  MOREAU_CALL(moreau_malloc((size_t)n * sizeof(*keys), &keys));
  MOREAU_CALL(moreau_malloc((size_t)n * 3 * sizeof(double), &tmp));
  for (moreau_lid i = 0; i < n; i++) {
    keys[i].ga = c->gid_a[i];
    keys[i].gb = c->gid_b[i];
    keys[i].p = c->point[i];
    keys[i].i = i;
  }
  qsort(keys, (size_t)n, sizeof(*keys), cmp_key);
  PERMUTE(c->gid_a, moreau_gid, 1);
  PERMUTE(c->gid_b, moreau_gid, 1);
  PERMUTE(c->point, int32_t, 1);
  PERMUTE(c->a, moreau_lid, 1);
  PERMUTE(c->b, moreau_lid, 1);
  PERMUTE(c->normal, double, 3);
  PERMUTE(c->tangent, double, 3);
  PERMUTE(c->binormal, double, 3);
  PERMUTE(c->ca, double, 3);
  PERMUTE(c->cb, double, 3);
  PERMUTE(c->gap, double, 1);
  PERMUTE(c->force, double, 3);
  moreau_free(&keys);
  moreau_free(&tmp);
  return MOREAU_SUCCESS;
}

void moreau_contacts_swap(moreau_contacts *c1, moreau_contacts *c2)
{
  moreau_contacts t = *c1;
  *c1 = *c2;
  *c2 = t;
}
