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
  int rowless; /* its contact got no record (and carries no force) */
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
  s->released_normal = s->released_force = s->released_gid_a = s->released_gid_b = s->released_u_minus = 0;
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

void nlgs_contacts_keep_normal(moreau_nlgs *s, moreau_lid k, const double *n, int rowless)
{
  kept_normal *kept = &kept_normals(s)[s->n_kept++];
  kept->k = k;
  kept->rowless = rowless;
  memcpy(kept->n, n, sizeof(kept->n));
}

/* The u_minus of the contacts below k_done, read, where it lies in the
 * records' buffer (moreau_nlgs_u_minus_space) and no record written yet
 * (below nrows) lies over it. */
static void release_read_u_minus(moreau_nlgs *s, const moreau_nlgs_problem *prob, moreau_lid k_done, moreau_lid nrows)
{
  const char *rows = s->rows, *u = (const char *)prob->u_minus;
  const size_t bytes = (size_t)s->row_cap * s->row_size;
  if (!u || u < rows || u >= rows + bytes) return;
  const size_t at = (size_t)(u - rows), written = (size_t)nrows * s->row_size;
  size_t from = s->released_u_minus > at ? s->released_u_minus : at;
  if (from < written) from = written;
  s->released_u_minus =
      nlgs_release_pages(rows, from, at + 3 * sizeof(double) * (size_t)k_done, nlgs_lines_granule(bytes));
}

void nlgs_contacts_built(moreau_nlgs *s, const moreau_nlgs_problem *prob, moreau_lid k_done, moreau_lid nrows)
{
  const moreau_contacts *c = prob->contacts;
  const size_t page = (size_t)sysconf(_SC_PAGESIZE), to = (size_t)k_done * 3 * sizeof(double);
  /* The other orders build in a curve's or the heights' order. */
  if (!s->lending || s->order_kind != MOREAU_NLGS_ORDER_RANDOM) return;
  s->released_normal = nlgs_release_pages(c->normal, s->released_normal, to, page);
  s->released_force = nlgs_release_pages(c->force, s->released_force, to, page);
  /* The gids only as far as they are their sides'. */
  check_gids(s, c, prob->bodies, k_done);
  const size_t gids_to = (size_t)s->gid_checked * sizeof(moreau_gid);
  s->released_gid_a = nlgs_release_pages(c->gid_a, s->released_gid_a, gids_to, page);
  s->released_gid_b = nlgs_release_pages(c->gid_b, s->released_gid_b, gids_to, page);
  release_read_u_minus(s, prob, k_done, nrows);
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

size_t nlgs_lines_granule(size_t bytes)
{
  const size_t huge = (size_t)2 << 20;
  return bytes >= 2 * huge ? huge : (size_t)sysconf(_SC_PAGESIZE);
}

/* The lent arrays again. Fails with the list emptied (its next reserve
 * gives every array its capacity again). */
static moreau_err reallocate(moreau_nlgs *s, moreau_contacts *c)
{
  const size_t cap = (size_t)c->capacity;
  moreau_err err = moreau_malloc(cap * 3 * sizeof(double), &c->force);
  if (!err) err = moreau_malloc(cap * 3 * sizeof(double), &c->normal);
  if (!err && s->gids_lent) err = moreau_malloc(cap * sizeof(moreau_gid), &c->gid_a);
  if (!err && s->gids_lent) err = moreau_malloc(cap * sizeof(moreau_gid), &c->gid_b);
  if (err) {
    moreau_free(&c->force);
    moreau_free(&c->normal);
    if (s->gids_lent) {
      moreau_free(&c->gid_a);
      moreau_free(&c->gid_b);
    }
    c->n = c->capacity = 0;
  }
  return err;
}

moreau_err nlgs_contacts_give_back(moreau_nlgs *s, moreau_contacts *c, const moreau_bodies *b, moreau_lid nrows,
                                   double dt)
{
  enum { CHUNK = 4096 }; /* rows stored between two returns of their pages */
  const size_t granule = nlgs_lines_granule((size_t)s->row_cap * s->row_size);
  const int lent = s->lending;
  size_t released = 0;
  s->lending = 0;
  if (lent) {
    MOREAU_ASSERT(c->n == s->lent_n);
    if (nrows < 0) { /* after a failure: a list of no contacts */
      c->n = c->capacity = 0;
      return MOREAU_SUCCESS;
    }
    MOREAU_CALL(reallocate(s, c));
  } else if (nrows < 0) {
    return MOREAU_SUCCESS;
  }
  const kept_normal *kept = kept_normals(s);
  for (moreau_lid i = 0; i < nrows; i += CHUNK) {
    const moreau_lid end = nrows - i < CHUNK ? nrows : i + CHUNK;
    s->ops->store(s, i, end, dt, c, lent);
    if (lent) released = nlgs_release_pages(s->rows, released, (size_t)end * s->row_size, granule);
  }
  /* A contact without a record carries no force. */
  for (moreau_lid j = 0; j < s->n_kept; j++) {
    if (lent) memcpy(&c->normal[3 * kept[j].k], kept[j].n, sizeof(kept[j].n));
    if (kept[j].rowless) memset(&c->force[3 * kept[j].k], 0, 3 * sizeof(double));
  }
  if (!lent) return MOREAU_SUCCESS;
  (void)nlgs_release_pages(s->rows, released, (size_t)s->lent_n * s->row_size + nlgs_contacts_keep_room(s->n_kept),
                           granule);
  /* All of them, or those the build's pages returned; once the records'
   * pages are gone. */
  derive_gids(c, b, s->gids_lent ? c->n : s->gid_checked);
  return MOREAU_SUCCESS;
}
