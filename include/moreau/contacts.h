#ifndef MOREAU_CONTACTS_H
#define MOREAU_CONTACTS_H

#include "moreau/error.h"
#include "moreau/types.h"

/* Potential contacts of this rank, in flat arrays. A contact between bodies
 * of global ids ga < gb is owned by the rank that owns ga (a body-wall contact
 * by the body's owner), so every contact has exactly one owner whatever the
 * partition. Body a is always a local body (owned); b is a local body (owned
 * or ghost) or, when b < 0, the wall -(b + 1).
 *
 * The frame is (n, t, s): n points from a to b; in 2D s is unused and t is n
 * rotated by +90 degrees. Forces are the average forces over the step exerted
 * by a on b, in frame components (f_n >= 0 is repulsive). Vectors have a
 * stride of 3. */
typedef struct {
  moreau_lid n, capacity;
  moreau_gid *gid_a, *gid_b; /* key, with point: the warm-start identity */
  int32_t *point;            /* index of the contact point within the pair */
  moreau_lid *a, *b;
  double *normal, *tangent, *binormal;
  double *ca, *cb; /* from the centre of a (of b) to the contact point */
  double *gap;     /* signed distance at detection; < 0 is an overlap */
  double *force;   /* (f_n, f_t, f_s) */
} moreau_contacts;

moreau_err moreau_contacts_create(moreau_contacts **c);
moreau_err moreau_contacts_destroy(moreau_contacts **c);
moreau_err moreau_contacts_reserve(moreau_contacts *c, moreau_lid capacity);
void moreau_contacts_clear(moreau_contacts *c);
/* Appends a contact with zero force; returns its index in *idx. */
moreau_err moreau_contacts_push(moreau_contacts *c, moreau_gid gid_a, moreau_gid gid_b, int32_t point, moreau_lid a,
                                moreau_lid b, moreau_lid *idx);

/* Warm start: copies the forces of prev into c for every contact of c whose
 * key (gid_a, gid_b, point) is in prev; the others start at zero. Both lists
 * must be sorted by key (detection produces them so). Returns the number of
 * matched contacts in *matched if it is not NULL. */
moreau_err moreau_contacts_warm_start(moreau_contacts *c, const moreau_contacts *prev, moreau_lid *matched);
/* Sorts the contacts by key. */
moreau_err moreau_contacts_sort(moreau_contacts *c);
/* Swaps the contents of two lists (to keep the previous step's forces). */
void moreau_contacts_swap(moreau_contacts *c1, moreau_contacts *c2);

#endif
