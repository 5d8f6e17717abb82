#ifndef MOREAU_CONTACTS_PRIVATE_H
#define MOREAU_CONTACTS_PRIVATE_H

#include "moreau/contacts.h"

/* contact_fields.c: points c->schema at the contact schema with c's state
 * width, or at its history part only. */
void contacts_init_schema(moreau_contacts *c, int history_only);

#endif
