#include <stdint.h>
#include <string.h>

#include "contacts_private.h"

/* A history list in borrowed memory (moreau_contacts_borrow): each field's
 * array at a multiple of 8 bytes from the buffer's start, in schema order. */
static size_t array_bytes(const moreau_field_table *t, int f, size_t capacity)
{
  return (capacity * moreau_field_bytes(t, &t->field[f]) + 7) / 8 * 8;
}

static size_t borrowed_bytes(const moreau_field_table *t, size_t capacity)
{
  size_t bytes = 0;
  for (int f = 0; f < t->n; f++)
    bytes += array_bytes(t, f, capacity);
  return bytes;
}

moreau_err moreau_contacts_borrow(moreau_contacts *c, void *buf, size_t bytes)
{
  const moreau_field_table *t = &c->schema;
  size_t item = 0, capacity;
  /* Checked in every build: a second borrow would free the first buffer. */
  MOREAU_CHECK(c->history_only && !c->borrowed, MOREAU_ERR_INTERNAL,
               "borrow: only a history list that is not borrowing yet can borrow");
  for (int f = 0; f < t->n; f++)
    item += moreau_field_bytes(t, &t->field[f]);
  capacity = buf ? bytes / item : 0;
  /* The rounding of each array to 8 bytes costs at most a few items. */
  while (capacity > 0 && borrowed_bytes(t, capacity) > bytes)
    capacity--;
  if (capacity == 0 || capacity < (size_t)c->n || capacity > (size_t)INT32_MAX) return MOREAU_SUCCESS;
  char *at = buf;
  for (int f = 0; f < t->n; f++) {
    void **slot = moreau_field_slot(c, &t->field[f]);
    size_t fb = moreau_field_bytes(t, &t->field[f]);
    if (fb == 0) continue;
    if (c->n > 0) memcpy(at, *slot, (size_t)c->n * fb);
    moreau_free(slot);
    *slot = at;
    at += array_bytes(t, f, capacity);
  }
  c->borrowed = 1;
  c->capacity = (moreau_lid)capacity;
  return MOREAU_SUCCESS;
}

moreau_err contacts_unborrow(moreau_contacts *c, moreau_lid capacity)
{
  const moreau_field_table *t = &c->schema;
  void *lent[16];
  MOREAU_CHECK(c->borrowed && t->n <= 16, MOREAU_ERR_INTERNAL, "unborrow: a list that does not borrow");
  for (int f = 0; f < t->n; f++) {
    void **slot = moreau_field_slot(c, &t->field[f]);
    lent[f] = *slot;
    *slot = NULL;
  }
  c->borrowed = 0;
  c->capacity = 0;
  MOREAU_CALL(moreau_fields_resize(t, c, (size_t)capacity));
  c->capacity = capacity;
  for (int f = 0; f < t->n; f++) {
    size_t fb = moreau_field_bytes(t, &t->field[f]);
    if (fb && c->n > 0) memcpy(*moreau_field_slot(c, &t->field[f]), lent[f], (size_t)c->n * fb);
  }
  return MOREAU_SUCCESS;
}

void moreau_contacts_release(moreau_contacts *c)
{
  c->n = 0;
  if (!c->borrowed) return;
  for (int f = 0; f < c->schema.n; f++)
    *moreau_field_slot(c, &c->schema.field[f]) = NULL;
  c->borrowed = 0;
  c->capacity = 0;
}
