#ifndef MOREAU_CONTACTS_PRIVATE_H
#define MOREAU_CONTACTS_PRIVATE_H

#include "moreau/contacts.h"

/* contact_fields.c: points c->schema at the contact schema with c's state
 * width, or at its history part only. */
void contacts_init_schema(moreau_contacts *c, int history_only);
/* contacts_borrow.c: moves a borrowing list's items into arrays of its own
 * of the given capacity (a reserve beyond the borrowed buffer). */
MOREAU_MUST_CHECK moreau_err contacts_unborrow(moreau_contacts *c, moreau_lid capacity);

#endif
