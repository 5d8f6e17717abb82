#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contacts_private.h"

static moreau_err create(int state_width, int history_only, moreau_contacts **c)
{
  MOREAU_CHECK(state_width >= 0, MOREAU_ERR_INTERNAL, "contact state width must be >= 0, got %d", state_width);
  MOREAU_CALL(moreau_calloc(1, sizeof(**c), c));
  (*c)->state_width = state_width;
  contacts_init_schema(*c, history_only);
  return MOREAU_SUCCESS;
}

moreau_err moreau_contacts_create(int state_width, moreau_contacts **c) { return create(state_width, 0, c); }

moreau_err moreau_contacts_create_history(int state_width, moreau_contacts **c) { return create(state_width, 1, c); }

moreau_err moreau_contacts_destroy(moreau_contacts **cp)
{
  if (!*cp) return MOREAU_SUCCESS;
  moreau_contacts_release(*cp);
  moreau_fields_free(&(*cp)->schema, *cp);
  moreau_free(cp);
  return MOREAU_SUCCESS;
}

moreau_err moreau_contacts_reserve(moreau_contacts *c, moreau_lid capacity)
{
  if (capacity <= c->capacity) return MOREAU_SUCCESS;
  if (capacity < 2 * c->capacity) capacity = 2 * c->capacity;
  if (capacity < 64) capacity = 64;
  if (c->borrowed) return contacts_unborrow(c, capacity);
  MOREAU_CALL(moreau_fields_resize(&c->schema, c, (size_t)capacity));
  c->capacity = capacity;
  return MOREAU_SUCCESS;
}

void moreau_contacts_clear(moreau_contacts *c) { c->n = 0; }

moreau_err moreau_contacts_push(moreau_contacts *c, moreau_gid gid_a, moreau_gid gid_b, int32_t point, moreau_lid a,
                                moreau_lid b, moreau_lid *idx)
{
  moreau_lid i = c->n;
  MOREAU_ASSERT(!c->history_only);
  MOREAU_CALL(moreau_contacts_reserve(c, i + 1));
  c->gid_a[i] = gid_a;
  c->gid_b[i] = gid_b;
  c->point[i] = point;
  c->a[i] = a;
  c->b[i] = b;
  memset(&c->force[3 * i], 0, 3 * sizeof(double));
  if (c->state_width) memset(&c->state[(size_t)c->state_width * i], 0, (size_t)c->state_width * sizeof(double));
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
  size_t sw = (size_t)c->state_width;
  MOREAU_CHECK(prev->state_width == c->state_width, MOREAU_ERR_INTERNAL,
               "warm start between contact lists of state widths %d and %d", prev->state_width, c->state_width);
  for (moreau_lid i = 0; i < c->n; i++) {
    int cmp = 1;
    while (j < prev->n &&
           (cmp = key_cmp(prev->gid_a[j], prev->gid_b[j], prev->point[j], c->gid_a[i], c->gid_b[i], c->point[i])) < 0)
      j++;
    if (j < prev->n && cmp == 0) {
      memcpy(&c->force[3 * i], &prev->force[3 * j], 3 * sizeof(double));
      if (sw) memcpy(&c->state[sw * i], &prev->state[sw * j], sw * sizeof(double));
      m++;
    } else {
      memset(&c->force[3 * i], 0, 3 * sizeof(double));
      if (sw) memset(&c->state[sw * i], 0, sw * sizeof(double));
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

moreau_err moreau_contacts_key_order(const moreau_contacts *c, const char *keep, moreau_lid **order, moreau_lid *n)
{
  contact_key *keys;
  moreau_lid m = 0;
  MOREAU_CALL(moreau_malloc((size_t)(c->n + 1) * sizeof(*keys), &keys));
  for (moreau_lid i = 0; i < c->n; i++)
    if (!keep || keep[i]) keys[m++] = (contact_key){c->gid_a[i], c->gid_b[i], c->point[i], i};
  qsort(keys, (size_t)m, sizeof(*keys), cmp_key);
  MOREAU_CALL(moreau_malloc((size_t)(m + 1) * sizeof(moreau_lid), order));
  for (moreau_lid j = 0; j < m; j++)
    (*order)[j] = keys[j].i;
  *n = m;
  moreau_free(&keys);
  return MOREAU_SUCCESS;
}

moreau_err moreau_contacts_sort(moreau_contacts *c)
{
  moreau_lid n;
  moreau_lid *perm;
  if (c->n < 2) return MOREAU_SUCCESS;
  MOREAU_CALL(moreau_contacts_key_order(c, NULL, &perm, &n));
  MOREAU_CALL(moreau_fields_permute(&c->schema, c, (size_t)n, perm));
  moreau_free(&perm);
  return MOREAU_SUCCESS;
}

moreau_err moreau_contacts_copy_history(moreau_contacts *history, const moreau_contacts *c)
{
  const moreau_field_table *t = &history->schema;
  MOREAU_CHECK(history->history_only && history->state_width == c->state_width, MOREAU_ERR_INTERNAL,
               "copy_history: the target must be a history list of state width %d", c->state_width);
  history->n = 0;
  MOREAU_CALL(moreau_contacts_reserve(history, c->n));
  /* The history's fields are the first ones of every contact list's schema. */
  for (int f = 0; f < t->n; f++) {
    size_t bytes = (size_t)c->n * moreau_field_bytes(t, &t->field[f]);
    if (bytes) memcpy(*moreau_field_slot(history, &t->field[f]), *moreau_field_slot(c, &t->field[f]), bytes);
  }
  history->n = c->n;
  return MOREAU_SUCCESS;
}

void moreau_contacts_compact(moreau_contacts *c, const char *keep)
{
  moreau_lid j = 0;
  for (moreau_lid i = 0; i < c->n; i++) {
    if (!keep[i]) continue;
    if (i != j) moreau_fields_copy(&c->schema, c, (size_t)i, (size_t)j);
    j++;
  }
  c->n = j;
}

size_t moreau_contacts_record_doubles(const moreau_contacts *c)
{
  return moreau_fields_record_doubles(&c->schema, MOREAU_FIELD_MIGRATE);
}

void moreau_contacts_pack(const moreau_contacts *c, moreau_lid i, double *rec)
{
  moreau_fields_pack(&c->schema, c, MOREAU_FIELD_MIGRATE, (size_t)i, rec);
}

moreau_err moreau_contacts_push_record(moreau_contacts *c, const double *rec)
{
  moreau_lid i = c->n;
  MOREAU_CALL(moreau_contacts_reserve(c, i + 1));
  moreau_fields_unpack(&c->schema, c, MOREAU_FIELD_MIGRATE, (size_t)i, rec);
  /* Local indices are rebuilt by the next detection; -1 says "not yet" (a
   * history list has none). */
  if (!c->history_only) c->a[i] = c->b[i] = -1;
  c->n++;
  return MOREAU_SUCCESS;
}

void moreau_contact_frame(int dim, const double *n, double *t, double *s)
{
  if (dim == 2) {
    t[0] = -n[1];
    t[1] = n[0];
    t[2] = 0.0;
    s[0] = s[1] = 0.0;
    s[2] = 1.0;
    return;
  }
  double e[3] = {0, 0, 0}, len;
  int k = fabs(n[0]) < fabs(n[1]) ? (fabs(n[0]) < fabs(n[2]) ? 0 : 2) : (fabs(n[1]) < fabs(n[2]) ? 1 : 2);
  e[k] = 1.0;
  t[0] = e[1] * n[2] - e[2] * n[1];
  t[1] = e[2] * n[0] - e[0] * n[2];
  t[2] = e[0] * n[1] - e[1] * n[0];
  len = sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
  for (int i = 0; i < 3; i++)
    t[i] /= len;
  s[0] = n[1] * t[2] - n[2] * t[1];
  s[1] = n[2] * t[0] - n[0] * t[2];
  s[2] = n[0] * t[1] - n[1] * t[0];
}

void moreau_contacts_world_force(const moreau_contacts *c, int dim, moreau_lid k, double *f)
{
  const double *n = &c->normal[3 * k], *fr = &c->force[3 * k];
  double t[3], s[3];
  moreau_contact_frame(dim, n, t, s);
  for (int d = 0; d < 3; d++)
    f[d] = fr[0] * n[d] + fr[1] * t[d] + fr[2] * s[d];
}
