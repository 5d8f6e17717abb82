#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "nlgs_private.h"

/* From the build of the records to their store, the records hold each
 * row's normal and impulse, and the contact list's own arrays are dead
 * copies: the list lends them to the solve (freed), and gets them back
 * rebuilt from the records. Its gids, which nothing reads in a solve, go
 * too when each is its body's (or the wall's, MOREAU_WALL_GID), as
 * detection makes them, and come back from the bodies. The build, going through the contacts in their
 * order, returns the pages of the arrays it has read as it goes, and the
 * store returns the records' pages as it writes the arrays back: a step's
 * memory then never holds both copies at once (issue 14: 48 bytes a contact
 * less where a step's memory peaks). The normals the records cannot give
 * back exactly, of the contacts without a record and of 2D contacts whose
 * z is not +0, wait in the records' buffer behind the rows and u_minus
 * (reserve_rows leaves room for one per contact). */

typedef struct {
  moreau_lid k;
  double n[3];
} kept_normal;

/* Where the kept normals lie: after room for every contact's record. */
static kept_normal *kept_normals(const moreau_nlgs *s) { return (kept_normal *)nlgs_row(s, s->lent_n); }

size_t nlgs_contacts_keep_room(moreau_lid ncontacts) { return (size_t)ncontacts * sizeof(kept_normal); }

size_t nlgs_release_pages(const void *base, size_t from, size_t to, size_t granule)
{
  const uintptr_t lo = ((uintptr_t)base + from + granule - 1) & ~(uintptr_t)(granule - 1);
  const uintptr_t hi = ((uintptr_t)base + to) & ~(uintptr_t)(granule - 1);
  if (hi <= lo) return from;
  (void)madvise((void *)lo, hi - lo, MADV_DONTNEED); /* a hint: refused, the pages stay */
  return hi - (uintptr_t)base;
}

void nlgs_contacts_lend(moreau_nlgs *s, const moreau_contacts *c, int lend)
{
  s->lending = lend && c->n > 0;
  s->lent_n = c->n;
  s->n_kept = 0;
  s->released_normal = s->released_force = s->released_gid_a = s->released_gid_b = 0;
  s->gid_checked = 0;
  s->gids_derivable = 1;
  s->gids_lent = 0;
}

/* The gid of row side i (a wall: -(i + 1)) as detection writes it. */
static moreau_gid side_gid(const moreau_bodies *b, moreau_lid i)
{
  return i >= 0 ? b->gid[i] : MOREAU_WALL_GID(-(i + 1));
}

/* Checks that the gids of the contacts from s->gid_checked to k_done are
 * their sides'; gid_checked: where the first that is not stops it. */
static void check_gids(moreau_nlgs *s, const moreau_contacts *c, const moreau_bodies *b, moreau_lid k_done)
{
  for (moreau_lid k = s->gid_checked; s->gids_derivable && k < k_done; k++) {
    s->gids_derivable = c->gid_a[k] == side_gid(b, c->a[k]) && c->gid_b[k] == side_gid(b, c->b[k]);
    s->gid_checked = k + s->gids_derivable;
  }
}

/* Sets the gids of contacts 0 .. n - 1 from their sides. */
static void derive_gids(moreau_contacts *c, const moreau_bodies *b, moreau_lid n)
{
  for (moreau_lid k = 0; k < n; k++) {
    c->gid_a[k] = side_gid(b, c->a[k]);
    c->gid_b[k] = side_gid(b, c->b[k]);
  }
}

void nlgs_contacts_keep_normal(moreau_nlgs *s, moreau_lid k, const double *n)
{
  kept_normal *kept = &kept_normals(s)[s->n_kept++];
  kept->k = k;
  memcpy(kept->n, n, sizeof(kept->n));
}

void nlgs_contacts_built(moreau_nlgs *s, const moreau_contacts *c, const moreau_bodies *b, moreau_lid k_done)
{
  const size_t page = (size_t)sysconf(_SC_PAGESIZE), to = (size_t)k_done * 3 * sizeof(double);
  /* The other orders build in a curve's or the heights' order. */
  if (!s->lending || s->order_kind != MOREAU_NLGS_ORDER_RANDOM) return;
  s->released_normal = nlgs_release_pages(c->normal, s->released_normal, to, page);
  s->released_force = nlgs_release_pages(c->force, s->released_force, to, page);
  /* The gids only as far as they are their sides'. */
  check_gids(s, c, b, k_done);
  const size_t gids_to = (size_t)s->gid_checked * sizeof(moreau_gid);
  s->released_gid_a = nlgs_release_pages(c->gid_a, s->released_gid_a, gids_to, page);
  s->released_gid_b = nlgs_release_pages(c->gid_b, s->released_gid_b, gids_to, page);
}

void nlgs_contacts_take(moreau_nlgs *s, moreau_contacts *c, const moreau_bodies *b)
{
  if (!s->lending) return;
  moreau_free(&c->normal);
  moreau_free(&c->force);
  check_gids(s, c, b, c->n);
  s->gids_lent = s->gids_derivable;
  if (s->gids_lent) {
    moreau_free(&c->gid_a);
    moreau_free(&c->gid_b);
  }
}

size_t nlgs_records_granule(const moreau_nlgs *s)
{
  const size_t huge = (size_t)2 << 20;
  return (size_t)s->row_cap * s->row_size >= 2 * huge ? huge : (size_t)sysconf(_SC_PAGESIZE);
}

moreau_err nlgs_contacts_give_back(moreau_nlgs *s, moreau_contacts *c, const moreau_bodies *b, moreau_lid nrows,
                                   double dt)
{
  enum { CHUNK = 4096 }; /* rows stored between two returns of their pages */
  const size_t granule = nlgs_records_granule(s);
  size_t released = 0;
  if (!s->lending) return MOREAU_SUCCESS;
  s->lending = 0;
  MOREAU_ASSERT(c->n == s->lent_n);
  const size_t cap = (size_t)c->capacity;
  /* Zero: a contact without a record carries no force. */
  moreau_err err = nrows < 0 ? MOREAU_SUCCESS : moreau_calloc(cap, 3 * sizeof(double), &c->force);
  if (!err && nrows >= 0) err = moreau_malloc(cap * 3 * sizeof(double), &c->normal);
  if (!err && nrows >= 0 && s->gids_lent) err = moreau_malloc(cap * sizeof(moreau_gid), &c->gid_a);
  if (!err && nrows >= 0 && s->gids_lent) err = moreau_malloc(cap * sizeof(moreau_gid), &c->gid_b);
  if (nrows < 0 || err) {
    /* Then the list holds no contacts, and its next reserve gives every
     * array its capacity again. */
    moreau_free(&c->force);
    moreau_free(&c->normal);
    if (s->gids_lent) {
      moreau_free(&c->gid_a);
      moreau_free(&c->gid_b);
    }
    c->n = c->capacity = 0;
    MOREAU_CALL(err);
    return MOREAU_SUCCESS;
  }
  /* All of them, or those the build's pages returned. */
  derive_gids(c, b, s->gids_lent ? c->n : s->gid_checked);
  for (moreau_lid i = 0; i < nrows; i += CHUNK) {
    const moreau_lid end = nrows - i < CHUNK ? nrows : i + CHUNK;
    s->ops->store(s, i, end, dt, c);
    released = nlgs_release_pages(s->rows, released, (size_t)end * s->row_size, granule);
  }
  const kept_normal *kept = kept_normals(s);
  for (moreau_lid j = 0; j < s->n_kept; j++)
    memcpy(&c->normal[3 * kept[j].k], kept[j].n, sizeof(kept[j].n));
  (void)nlgs_release_pages(s->rows, released, (size_t)s->lent_n * s->row_size + nlgs_contacts_keep_room(s->n_kept),
                           granule);
  return MOREAU_SUCCESS;
}
