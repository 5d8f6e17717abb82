#include <stddef.h>

#include "contacts_private.h"

/* What a contact carries from one step to the next (the warm-start history):
 * its key, its force and its law state. The rest is rebuilt by detection. */
#define HISTORY (MOREAU_FIELD_MIGRATE | MOREAU_FIELD_CHECKPOINT)
#define FIELD(name, type, ncomp, flags, member)                                                                        \
  {                                                                                                                    \
    name, MOREAU_FIELD_##type, ncomp, flags, offsetof(moreau_contacts, member), -1                                     \
  }

/* The contact schema: one entry per array of moreau_contacts (ncomp 0: the
 * law state's width). The name is the dataset under /contacts in files. The
 * history comes first: a history list's schema is its first N_HISTORY
 * entries. vshift comes last: a list without moving images leaves it out. */
static const moreau_field contact_fields[] = {
    FIELD("gid_a", I64, 1, HISTORY | MOREAU_FIELD_SNAPSHOT, gid_a),
    FIELD("gid_b", I64, 1, HISTORY | MOREAU_FIELD_SNAPSHOT, gid_b),
    FIELD("point", I32, 1, HISTORY, point),
    FIELD("force", F64, 3, HISTORY | MOREAU_FIELD_SNAPSHOT, force),
    FIELD("state", F64, 0, HISTORY, state),
    FIELD("a", I32, 1, 0, a),
    FIELD("b", I32, 1, 0, b),
    FIELD("normal", F64, 3, MOREAU_FIELD_SNAPSHOT, normal),
    FIELD("ca", F64, 3, MOREAU_FIELD_LAZY, ca),
    FIELD("cb", F64, 3, MOREAU_FIELD_LAZY, cb),
    FIELD("gap", F64, 1, 0, gap),
    FIELD("vshift", F64, 3, 0, vshift),
};
enum { N_HISTORY = 5, N_ALL = sizeof(contact_fields) / sizeof(contact_fields[0]) };

const moreau_field_table *moreau_contacts_fields(const moreau_contacts *c) { return &c->schema; }

void contacts_init_schema(moreau_contacts *c, int history_only)
{
  c->schema.field = contact_fields;
  c->schema.n = history_only ? N_HISTORY : N_ALL - 1;
  c->schema.var_width = c->state_width;
  c->history_only = history_only;
}

moreau_err moreau_contacts_enable_vshift(moreau_contacts *c)
{
  MOREAU_ASSERT(!c->history_only);
  if (c->schema.n == N_ALL) return MOREAU_SUCCESS;
  c->schema.n = N_ALL;
  if (c->capacity > 0) MOREAU_CALL(moreau_calloc((size_t)c->capacity, 3 * sizeof(double), &c->vshift));
  return MOREAU_SUCCESS;
}

moreau_err moreau_contacts_enable_arms(moreau_contacts *c, const moreau_bodies *b)
{
  MOREAU_ASSERT(!c->history_only);
  if (c->ca) return MOREAU_SUCCESS;
  /* ca and cb are the schema's only lazy fields. */
  MOREAU_CALL(moreau_fields_give_lazy(&c->schema, c, (size_t)c->capacity));
  for (moreau_lid k = 0; k < c->n; k++) {
    double ra, rb;
    moreau_contacts_radii(c, b, k, &ra, &rb);
    moreau_contacts_plain_arms(c, k, ra, rb, &c->ca[3 * k], &c->cb[3 * k]);
  }
  return MOREAU_SUCCESS;
}
