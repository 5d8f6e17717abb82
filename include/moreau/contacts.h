#ifndef MOREAU_CONTACTS_H
#define MOREAU_CONTACTS_H

#include "moreau/bodies.h"
#include "moreau/error.h"
#include "moreau/fields.h"
#include "moreau/types.h"

/* The public API: exported from libmoreau, which hides everything else. */
#pragma GCC visibility push(default)

/* Potential contacts of this rank, in flat arrays. A contact between bodies
 * of global ids ga < gb is owned by the rank that owns ga (a body-wall contact
 * by the body's owner), so every contact has exactly one owner whatever the
 * partition. Body a is always a local body (owned); b is a local body (owned
 * or ghost) or, when b < 0, the wall -(b + 1).
 *
 * The frame is (n, t, s): n points from a to b; only n is stored, t and s
 * are functions of it (moreau_contact_frame). Forces are the average forces
 * over the step exerted by a on b, in frame components (f_n >= 0 is
 * repulsive). Vectors have a
 * stride of 3. Besides the force, each contact carries state_width doubles of
 * law state (what its contact law needs to warm-start, e.g. a rolling moment
 * or a cohesion flag; 0 for Signorini-Coulomb), which travels with the force.
 *
 * The arrays are listed once, with where each goes, in the contact schema
 * (src/detect/contact_fields.c; moreau_contacts_fields): the key, the force
 * and the state form the warm-start history that migrates with its body. */
typedef struct {
  moreau_lid n, capacity;
  moreau_gid *gid_a, *gid_b; /* key, with point: the warm-start identity */
  int32_t *point;            /* the contactor pair: contactor of a << 16 | contactor of b (0 for a plain body) */
  moreau_lid *a, *b;
  double *normal;
  /* From the centre of mass of a (of the image of b) to the contact point:
   * NULL until a contact has a shaped body (a cluster) on a side, then kept
   * for the list's life (moreau_contacts_enable_arms). A disk or sphere is
   * its own contactor, so its arm is along the normal, its radius plus half
   * the gap: a list of them saves 48 bytes a contact and forms the arms
   * (moreau_contacts_arms). */
  double *ca, *cb;
  double *gap; /* signed distance at detection; < 0 is an overlap */
  /* The velocity of the image of b that a touches, on top of b's own: nonzero
   * only across a Lees-Edwards face or one that moves (a pressure-controlled
   * cell). NULL until a contact has such an image, then kept for the list's
   * life (moreau_contacts_enable_vshift): a list without one saves its 24
   * bytes a contact, read as zeros (moreau_contacts_vshift). */
  double *vshift;
  double *force; /* (f_n, f_t, f_s) */
  int state_width;
  double *state;             /* state_width per contact */
  int history_only;          /* a history list: only the key, force and state arrays exist */
  int borrowed;              /* its arrays lie in a buffer it does not own (moreau_contacts_borrow) */
  moreau_field_table schema; /* the contact schema at this state width */
} moreau_contacts;

/* The rest of the frame of a contact of unit normal n: t and s = n x t.
 * Contacts store only n (48 bytes a contact less); every reader forms t and
 * s here, the same bits every time. 2D: t is n rotated by +90 degrees and
 * s = e_z. 3D: t = e x n / |e x n|, e the axis of n's smallest component. */
void moreau_contact_frame(int dim, const double *n, double *t, double *s);
/* The force of contact k in world components: f_n n + f_t t + f_s s. */
void moreau_contacts_world_force(const moreau_contacts *c, int dim, moreau_lid k, double *f);

/* The radii of the two contactors that contact k joins (the halves of its
 * point; rb is 0 for a wall), which the bodies hold. */
static inline void moreau_contacts_radii(const moreau_contacts *c, const moreau_bodies *b, moreau_lid k, double *ra,
                                         double *rb)
{
  *ra = moreau_bodies_contactor_radius(b, c->a[k], c->point[k] >> 16);
  *rb = c->b[k] >= 0 ? moreau_bodies_contactor_radius(b, c->b[k], c->point[k] & 0xffff) : 0.0;
}

/* The lever arms of contact k if its contactors are plain bodies (or a
 * wall) of radii ra and rb (moreau_contacts_radii): from the centre of a
 * (of the image of b that a touches) to the contact point in the middle of
 * the gap, along the normal; cb = 0 for a wall. */
static inline void moreau_contacts_plain_arms(const moreau_contacts *c, moreau_lid k, double ra, double rb,
                                              double ca[3], double cb[3])
{
  const double *n = &c->normal[3 * k], half_gap = 0.5 * c->gap[k];
  const int on_body = c->b[k] >= 0;
  for (int i = 0; i < 3; i++) {
    ca[i] = (ra + half_gap) * n[i];
    cb[i] = on_body ? -(rb + half_gap) * n[i] : 0.0;
  }
}

/* The lever arms of contact k: the list's, or the plain ones when it holds
 * none (all its bodies are plain). */
static inline void moreau_contacts_arms(const moreau_contacts *c, const moreau_bodies *b, moreau_lid k, double ca[3],
                                        double cb[3])
{
  if (c->ca) {
    for (int i = 0; i < 3; i++) {
      ca[i] = c->ca[3 * k + i];
      cb[i] = c->cb[3 * k + i];
    }
    return;
  }
  double ra, rb;
  moreau_contacts_radii(c, b, k, &ra, &rb);
  moreau_contacts_plain_arms(c, k, ra, rb, ca, cb);
}

/* The vshift of contact k: c->vshift's, or zeros when the list has none. */
static inline const double *moreau_contacts_vshift(const moreau_contacts *c, moreau_lid k)
{
  static const double zero[3] = {0.0, 0.0, 0.0};
  return c->vshift ? &c->vshift[3 * k] : zero;
}

/* state_width >= 0: doubles of law state per contact (moreau_law_state_width). */
MOREAU_MUST_CHECK moreau_err moreau_contacts_create(int state_width, moreau_contacts **c);
/* A history list: only the arrays of the history (gid_a, gid_b, point,
 * force, state) exist, the others stay NULL, so the previous step's contacts
 * cost 44 bytes each (plus the state) instead of over 200. It takes records
 * (push_record), warm starts others and migrates; it is never pushed to. */
MOREAU_MUST_CHECK moreau_err moreau_contacts_create_history(int state_width, moreau_contacts **c);
MOREAU_MUST_CHECK moreau_err moreau_contacts_destroy(moreau_contacts **c);
MOREAU_MUST_CHECK moreau_err moreau_contacts_reserve(moreau_contacts *c, moreau_lid capacity);
/* Gives c (not a history list) its vshift array, zero for the contacts it
 * holds; nothing when it has one. Detection calls it at the first contact
 * whose image of b moves. */
MOREAU_MUST_CHECK moreau_err moreau_contacts_enable_vshift(moreau_contacts *c);
/* Gives c (not a history list) its lever-arm arrays, holding for the
 * contacts it has the arms moreau_contacts_arms forms (their bodies in b);
 * nothing when it has them. Detection calls it at the first contact with a
 * shaped body. */
MOREAU_MUST_CHECK moreau_err moreau_contacts_enable_arms(moreau_contacts *c, const moreau_bodies *b);
void moreau_contacts_clear(moreau_contacts *c);
/* The contact schema of c (its variable width is c's state width). */
const moreau_field_table *moreau_contacts_fields(const moreau_contacts *c);
/* Appends a contact with zero force and state; returns its index in *idx. */
MOREAU_MUST_CHECK moreau_err moreau_contacts_push(moreau_contacts *c, moreau_gid gid_a, moreau_gid gid_b, int32_t point,
                                                  moreau_lid a, moreau_lid b, moreau_lid *idx);

/* Warm start: copies the forces and law state of prev into c for every
 * contact of c whose key (gid_a, gid_b, point) is in prev; the others start
 * at zero. Both lists have the same state width; both lists
 * must be sorted by key (detection produces them so). Returns the number of
 * matched contacts in *matched if it is not NULL. */
MOREAU_MUST_CHECK moreau_err moreau_contacts_warm_start(moreau_contacts *c, const moreau_contacts *prev,
                                                        moreau_lid *matched);
/* Sorts the contacts by key. */
MOREAU_MUST_CHECK moreau_err moreau_contacts_sort(moreau_contacts *c);
/* Not collective. The indices of the contacts with keep[i] != 0 (all when
 * keep is NULL) in key order, leaving c as it is: *order is malloc'ed (the
 * caller frees it with moreau_free), *n its length. */
MOREAU_MUST_CHECK moreau_err moreau_contacts_key_order(const moreau_contacts *c, const char *keep, moreau_lid **order,
                                                       moreau_lid *n);
/* Keeps the contacts with keep[i] != 0, in their order. */
void moreau_contacts_compact(moreau_contacts *c, const char *keep);
/* History records: the fields with MOREAU_FIELD_MIGRATE (key, force, law
 * state). push_record appends one with the other fields zeroed (local
 * indices -1; detection rebuilds the geometry). */
size_t moreau_contacts_record_doubles(const moreau_contacts *c);
void moreau_contacts_pack(const moreau_contacts *c, moreau_lid i, double *rec);
MOREAU_MUST_CHECK moreau_err moreau_contacts_push_record(moreau_contacts *c, const double *rec);
/* A history list is needed from the start of a step to the warm start; in
 * between it may lie in memory another object lends it, such as the
 * solver's records, which are dead between two solves. borrow moves c's
 * items (c a history list not borrowing yet) into buf, bytes long and
 * 8-byte aligned, and frees c's own arrays; it does nothing when the items
 * do not fit or buf is NULL. A reserve beyond the buffer moves them back
 * into arrays of c's own. release empties c and gives the buffer back (c's
 * own arrays, when the items did not fit, stay for its next use). */
MOREAU_MUST_CHECK moreau_err moreau_contacts_borrow(moreau_contacts *c, void *buf, size_t bytes);
void moreau_contacts_release(moreau_contacts *c);
/* history (a history list of c's state width) becomes a copy of c's
 * history: its key, force and state, in c's order. */
MOREAU_MUST_CHECK moreau_err moreau_contacts_copy_history(moreau_contacts *history, const moreau_contacts *c);

#pragma GCC visibility pop

#endif
