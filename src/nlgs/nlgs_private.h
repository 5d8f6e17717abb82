#ifndef MOREAU_NLGS_PRIVATE_H
#define MOREAU_NLGS_PRIVATE_H

#include "law/law_kernel.h"
#include "moreau/nlgs.h"
#include "moreau/rng.h"

/* What differs between 2D and 3D in a solve, chosen once at create time so
 * that the solve itself has no dimension tests: how records are built from
 * the contacts (with the law's setup and the warm-start impulses), and how
 * the impulses go back to contact forces. */
typedef struct {
  /* Fills the records of the contacts that carry force and applies their
   * warm-start impulses to the bodies; returns how many. */
  moreau_lid (*build)(moreau_nlgs *s, const moreau_nlgs_problem *prob);
  /* Writes the forces of rows from .. end - 1 to their contacts, and their
   * normals when asked (the list lent them). */
  void (*store)(const moreau_nlgs *s, moreau_lid from, moreau_lid end, double dt, moreau_contacts *c, int normals);
} nlgs_dim_ops;

struct moreau_nlgs {
  MPI_Comm comm;
  int rank, size, dim;
  double tol;
  moreau_nlgs_norm norm;
  int min_it, max_it, check_every, warm;
  uint64_t seed;
  moreau_rng rng;
  int64_t updates;

  const moreau_law *law;
  const nlgs_dim_ops *ops;
  moreau_law_sweep_fn sweep;
  size_t row_size; /* bytes of the law's record in this dimension */

  moreau_lid row_cap, body_cap;
  void *rows;
  void *row_saved;         /* one record: the law residual's undo (nlgs_residual.c) */
  moreau_lid *row_contact; /* contact index of each row */
  /* Row i's extra entry (moreau_row2d_extra, moreau_row3d_extra), written
   * only for rows with a cluster or a force-driven wall (in 3D also for
   * rows with tangential targets): the pages of a run of plain disks or
   * spheres are never touched, and cost no memory. */
  moreau_row2d_extra *row_extra2d;
  moreau_row3d_extra *row_extra;
  moreau_lid *order; /* the rows, edge group first (nlgs.c) */
  moreau_nlgs_order order_kind;
  moreau_lid block;         /* rows per block of the blocks and layers orders */
  double down[3];           /* layers: gravity's direction (0: none) */
  moreau_lid *contact_perm; /* blocks, layers: the contacts in curve or height order, rows are built in it */
  moreau_lid *visit;        /* blocks, layers: this sweep's visiting order (row_cap entries) */
  moreau_lid *block_perm;   /* blocks, layers: this sweep's order of the blocks */
  double *mult;             /* per local body: number of ranks whose contacts touch it */
  double copy_split;        /* -nlgs_copy_split */
  double *inv_inertia6;     /* 3D, per local cluster: world inverse inertia tensor times nlgs_copy_scale (rows3d.c;
                               unset for spheres) */
  char *touched;
  int wall_cap;
  double *wall_share; /* per wall: ranks whose contacts touch it */
  char *wall_touched; /* per wall: whether this rank's contacts touch it */
  double *wall_glue;  /* per force wall, stride 3: N sqrt(wall_share / M), for its rows and its grains' */
  /* The velocities the solve moves (nlgs_velocities.c): an entry of
   * vel_stride doubles per local body, then per wall, each in one cache
   * line (law_kernel.h's MOREAU_*2D/3D): velocity, spin, inverse mass and
   * inertia, in 2D a force-driven wall's share vector. A record's sides
   * point to entries, so a random sweep fetches one line per side. A wall's
   * spin stays 0 (its inverse inertia is 0). */
  double *vel;
  moreau_lid vel_cap, vel_walls; /* entries allocated; the first wall's entry */
  int vel_stride, spin_at;
  int gathered, bodies_lent; /* the table holds the bodies' velocities; their arrays are freed */

  /* During a solve the records hold the contacts' normals and forces
   * (nlgs_contacts.c): whether the list lent its arrays, its contacts then,
   * the normals kept apart, and how far the build has returned the pages
   * of the list's arrays (bytes). */
  size_t lend_min; /* moreau_nlgs_set_lend_min */
  int lent;        /* whether the last solve borrowed (and returned pages) */
  int lending;
  moreau_lid lent_n, n_kept;
  size_t released_normal, released_force;
  /* The gids: whether those checked so far (below gid_checked) are their
   * sides', whether the list lent them, and how far their pages went back. */
  moreau_lid gid_checked;
  int gids_derivable, gids_lent;
  size_t released_gid_a, released_gid_b;
  size_t released_u_minus; /* the records' buffer, where u_minus lies in it */
};

/* Velocity and spin of entry i of the solve's table (spin: wz in 2D). */
static inline double *nlgs_velocity(const moreau_nlgs *s, moreau_lid i) { return &s->vel[(size_t)s->vel_stride * i]; }
static inline double *nlgs_spin(const moreau_nlgs *s, moreau_lid i) { return nlgs_velocity(s, i) + s->spin_at; }

/* Record i of the rows (the law's record size is the stride). */
static inline void *nlgs_row(const moreau_nlgs *s, moreau_lid i) { return (char *)s->rows + (size_t)i * s->row_size; }

/* Whether bodies ia and ib (ib < 0: a wall) are grains of the same rough
 * wall: one rigid group, no force between them. */
static inline int nlgs_same_wall(const moreau_bodies *b, moreau_lid ia, moreau_lid ib)
{
  return ib >= 0 && b->glued[ia] && b->glued[ia] == b->glued[ib];
}

/* The table entry a row side on local body i reads and moves: its own, or,
 * for a grain of a rough wall, the wall's (the grain is fixed to it and
 * does not turn). */
static inline moreau_lid nlgs_side_entry(const moreau_nlgs *s, const moreau_bodies *b, moreau_lid i)
{
  return b->glued[i] ? s->vel_walls + b->glued[i] - 1 : i;
}

/* Wall iw's share vector g when it is force-driven, else NULL. */
static inline const double *nlgs_wall_glue(const moreau_nlgs *s, const moreau_walls *w, int iw)
{
  return w->mode[iw] == MOREAU_WALL_FORCE ? &s->wall_glue[3 * iw] : NULL;
}

/* What the rank's copy of local body i scales its inverse mass and inertia
 * by (moreau_part_copy_scale of its multiplicity): formed, not stored, as
 * it is read once a body and step. */
static inline double nlgs_copy_scale(const moreau_nlgs *s, moreau_lid i)
{
  return moreau_part_copy_scale(s->mult[i], s->copy_split);
}

/* nlgs_velocities.c */
/* Sizes the table for prob's local bodies and walls and copies their
 * velocities in. lend: the bodies lend their velocity and spin arrays to
 * the solve (freed: the table holds all the solve moves; in 2D only when
 * the other components are +0), until the scatter. */
MOREAU_MUST_CHECK moreau_err nlgs_velocities_gather(moreau_nlgs *s, const moreau_nlgs_problem *prob, int lend);
/* Sets the entries' inverse masses and inertias (the rank's copies':
 * nlgs_copy_scale) and, in 2D, the walls' share vectors; after share_counts. */
void nlgs_velocities_masses(moreau_nlgs *s, const moreau_nlgs_problem *prob);
/* Copies the table's velocities back to the bodies (their arrays again, if
 * lent) and walls, after a gather (else nothing); when the solve borrows
 * (s->lent), it returns the bodies' part of the table to the system as it
 * goes, and nlgs_velocities_free must follow. */
MOREAU_MUST_CHECK moreau_err nlgs_velocities_scatter(moreau_nlgs *s, const moreau_nlgs_problem *prob);
/* Frees the table (the next gather allocates it again), unless it holds
 * lent velocities a scatter could not give back. */
void nlgs_velocities_free(moreau_nlgs *s);
/* The table as the partition's interface average sees it. */
moreau_part_velocities nlgs_velocities_view(const moreau_nlgs *s);
/* The partition averages force-driven walls' velocities in prob->walls:
 * around an average that does (moreau_part_wall_reduces), the table's wall
 * entries go out to the walls before it begins and come back after it
 * ends. */
void nlgs_velocities_walls_out(const moreau_nlgs *s, const moreau_nlgs_problem *prob);
void nlgs_velocities_walls_in(const moreau_nlgs *s, const moreau_nlgs_problem *prob);

/* nlgs_contacts.c: the contact list lends its normals and forces, and its
 * gids where they are their sides', to a solve, from the build of its
 * records to their store. lend (before the build; lend 0: not this time)
 * starts it. The build passes on the normals the records cannot give back
 * (keep_normal: those of contacts without a record, of 2D ones with a z
 * other than +0), and calls built now and then with the contacts it has
 * read (those below k_done) and the records it has written (nrows): their
 * u_minus goes too, where it lies in the records. take (after the build)
 * frees the arrays; give_back, on every path after take, rebuilds them from
 * the nrows records, or, after a failure (nrows < 0) or if it cannot
 * allocate them, leaves a list of no contacts. The records' buffer holds
 * the kept normals behind room for c->n records: keep_room(n) more bytes. */
void nlgs_contacts_lend(moreau_nlgs *s, const moreau_contacts *c, int lend);
void nlgs_contacts_keep_normal(moreau_nlgs *s, moreau_lid k, const double *n, int rowless);
void nlgs_contacts_built(moreau_nlgs *s, const moreau_nlgs_problem *prob, moreau_lid k_done, moreau_lid nrows);
void nlgs_contacts_take(moreau_nlgs *s, moreau_contacts *c, const moreau_bodies *b);
MOREAU_MUST_CHECK moreau_err nlgs_contacts_give_back(moreau_nlgs *s, moreau_contacts *c, const moreau_bodies *b,
                                                     moreau_lid nrows, double dt);
size_t nlgs_contacts_keep_room(moreau_lid ncontacts);
/* Returns the whole granules (a power of 2 bytes) of [base + from,
 * base + to) to the system: their bytes read 0 after. Returns the offset
 * below which all is returned, to start the next call from. */
size_t nlgs_release_pages(const void *base, size_t from, size_t to, size_t granule);
/* The granule of the pages of an array of `bytes` from moreau_malloc_lines:
 * from 4 MiB on it lies on 2 MiB pages, which go back whole. */
size_t nlgs_lines_granule(size_t bytes);

/* nlgs_residual.c: this rank's sums of the law residual over the nrows
 * records, sum |P_local - P| in dp[0] and sum |P_local| in dp[1]; the state
 * (velocities, records, contact state) is left as it was. */
MOREAU_MUST_CHECK moreau_err nlgs_law_residual_sums(moreau_nlgs *s, moreau_contacts *c, moreau_lid nrows, double dp[2]);

/* nlgs_order.c */
/* With the blocks order, s->contact_perm: the contacts sorted along a Morton
 * curve through body a's position, so that consecutive rows (built in that
 * order) touch a compact patch of space and of memory. With the layers
 * order: sorted by body a's height along s->down, the highest first. */
MOREAU_MUST_CHECK moreau_err nlgs_contact_order(moreau_nlgs *s, const moreau_nlgs_problem *prob);
/* The order to sweep the n rows listed in base (one group) in, set in a
 * (order, n and the runs). Random: base itself, shuffled (a fresh uniform
 * permutation). Blocks: consecutive runs of s->block entries of base, the
 * runs in a fresh random order (in s->block_perm from entry perm_at) and
 * each run shuffled, written to out. Layers: the same runs in their own
 * order (the top first), each shuffled. Returns the number of runs (0 for
 * random). */
moreau_lid nlgs_visit_order(moreau_nlgs *s, moreau_lid *base, moreau_lid n, moreau_lid *out, moreau_lid perm_at,
                            moreau_law_sweep_args *a);
/* The contact behind the kk-th row built. */
static inline moreau_lid nlgs_build_contact(const moreau_nlgs *s, moreau_lid kk)
{
  return s->order_kind != MOREAU_NLGS_ORDER_RANDOM ? s->contact_perm[kk] : kk;
}

/* How many contacts ahead the row builds prefetch what a row reads of its
 * bodies. */
enum { NLGS_BUILD_AHEAD = 8 };

/* Contacts between two calls of nlgs_contacts_built in a build, and bodies
 * between two returns of pages in the velocity table's gather and scatter. */
enum { NLGS_BUILT_EVERY = 4096 };

/* Prefetches what the row build reads of body i (i < 0: a wall, nothing):
 * its table entry and its shape, radius, material and glue flag. Contacts
 * come in key order, their bodies from anywhere in memory: without this,
 * each side of a row waits on up to five misses one after the other.
 * Always inlined: GCC finds a void function of prefetches alone pure, and
 * drops its calls (seen with GCC 12 at -O1 and above). */
static inline __attribute__((always_inline)) void nlgs_prefetch_body(const moreau_nlgs *s, const moreau_bodies *b,
                                                                     moreau_lid i)
{
  if (i < 0) return;
  __builtin_prefetch(nlgs_velocity(s, i), 1, 3);
  __builtin_prefetch(&b->shape[i], 0, 3);
  __builtin_prefetch(&b->radius[i], 0, 3);
  __builtin_prefetch(&b->material[i], 0, 3);
  __builtin_prefetch(&b->glued[i], 0, 3);
}

/* Prefetches what the row build of the kk-th row built reads of its bodies
 * (nothing past the last contact). */
static inline __attribute__((always_inline)) void nlgs_prefetch_build(const moreau_nlgs *s, const moreau_bodies *b,
                                                                      const moreau_contacts *c, moreau_lid kk)
{
  if (kk >= c->n) return;
  const moreau_lid k = nlgs_build_contact(s, kk);
  nlgs_prefetch_body(s, b, c->a[k]);
  nlgs_prefetch_body(s, b, c->b[k]);
}

/* Prefetches what the row build of the kk-th row built reads of its contact
 * (nothing past the last contact, nor in the random order). The blocks and
 * layers orders build the rows along the curve, and so read the contact
 * list, which is in key order, from anywhere: each of the dozen arrays a row
 * reads was a miss of its own (at 1.5e6 contacts the 2D build took 0.36 s
 * a solve, as long as seven sweeps). Done twice as far ahead as the bodies,
 * whose indices it brings in. */
static inline __attribute__((always_inline)) void nlgs_prefetch_contact(const moreau_nlgs *s,
                                                                        const moreau_nlgs_problem *prob, moreau_lid kk)
{
  const moreau_contacts *c = prob->contacts;
  if (s->order_kind == MOREAU_NLGS_ORDER_RANDOM || kk >= c->n) return;
  const moreau_lid k = s->contact_perm[kk];
  __builtin_prefetch(&c->a[k], 0, 3);
  __builtin_prefetch(&c->b[k], 0, 3);
  __builtin_prefetch(&c->point[k], 0, 3);
  __builtin_prefetch(&c->normal[3 * k], 0, 3);
  if (c->ca) {
    __builtin_prefetch(&c->ca[3 * k], 0, 3);
    __builtin_prefetch(&c->cb[3 * k], 0, 3);
  }
  __builtin_prefetch(&c->gap[k], 0, 3);
  if (c->vshift) __builtin_prefetch(&c->vshift[3 * k], 0, 3);
  __builtin_prefetch(&c->force[3 * k], 0, 3);
  __builtin_prefetch(&prob->u_minus[3 * k], 0, 3);
  if (c->state_width) __builtin_prefetch(&c->state[(size_t)c->state_width * k], 0, 3);
}

/* u = (du . e[0], du . e[1], du . e[2]): the frame components (n, t, s) of
 * a contact's relative velocity du at the start of the step, which the
 * problem holds in world components. */
static inline void nlgs_frame_components(const double *du, const double *const e[3], double *u)
{
  for (int i = 0; i < 3; i++)
    u[i] = du[0] * e[i][0] + du[1] * e[i][1] + du[2] * e[i][2];
}

/* rows2d.c, rows3d.c */
extern const nlgs_dim_ops nlgs_ops2d, nlgs_ops3d;

#endif
