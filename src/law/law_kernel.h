#ifndef MOREAU_LAW_KERNEL_H
#define MOREAU_LAW_KERNEL_H

/* The interface between the NLGS sweep (src/nlgs) and the contact laws
 * (src/law): the local problem of one contact as the sweep stores it (one
 * record per contact, per dimension), and the kernel each law provides:
 * how it fills its part of a record when rows are built, and the sweep loop
 * with its closed-form local solve inlined (a function pointer per sweep, not
 * per contact, so the loop stays as fast as a hand-written one). */

#include <string.h>

#include "moreau/law.h"
#include "moreau/materials.h"
#include "moreau/types.h"

/* Each side of a record points to its entry in the solve's velocity table
 * (src/nlgs), one cache line of what the sweep reads and moves of that side:
 * the velocity, the spin, the inverse mass and the scalar inverse inertia
 * (of the rank's copy of the body), and in 2D the share vector g of a
 * force-driven wall (0 for every other side). Such a wall moves along its
 * normal N only: v += (P . g) g, g = N sqrt(k / M) (k ranks hold copies of
 * the wall); the side of a rough wall's grain is its wall's entry. In 3D
 * the entry is full and g stays in the record. */
enum {
  MOREAU_SPIN2D = 2, /* 2D entry: vx vy wz im ii gx gy (8 doubles) */
  MOREAU_IM2D = 3,
  MOREAU_II2D = 4,
  MOREAU_G2D = 5,
  MOREAU_SPIN3D = 3, /* 3D entry: vx vy vz wx wy wz im ii */
  MOREAU_IM3D = 6,
  MOREAU_II3D = 7
};

/* The lever arms of a 2D row's sides, (e_z x c) . n and . t with c from a
 * side's centre of mass to the contact point, and its W (W^-1 is formed in
 * the solve: its division costs less than its bytes): what the sweep forms
 * of a row (moreau_row2d_form), and the extra entry of a row that has a
 * cluster's side, whose arm is off n, or a force-driven wall's, whose g
 * adds to W. */
typedef struct {
  double ra_n, ra_t, rb_n, rb_t;
  double Wnn, Wnt, Wtt;
  int plain; /* formed for arms along n (then ra_n = rb_n = W_nt = 0): the solve skips their terms */
} moreau_row2d_local;
typedef moreau_row2d_local moreau_row2d_extra;

/* One contact as the 2D sweep sees it: everything the local solve reads
 * besides its bodies' entries, in 96 bytes, so that a randomly ordered
 * sweep touches few cache lines (two). */
typedef struct {
  double *va, *vb; /* each side's entry: velocity, spin, masses, g */
  double nx, ny;
  /* The lever arms along n, ca = sa n and cb = sb n (sb = 0 for a wall), as
   * a disk's are: then ra_n = rb_n = 0, ra_t = sa, rb_t = sb, and W is
   * diagonal, which the sweep forms from the sides' masses (32 bytes a
   * record less than the arms and W). */
  double sa, sb;
  const moreau_row2d_extra *x; /* NULL, or the arms and W of the row */
  double un_target, ut_target; /* u+ that makes the mean velocity vanish */
  double mu;
  double pn, pt; /* impulses f dt */
} moreau_row2d;

_Static_assert(sizeof(moreau_row2d) == 96, "a 2D record is 96 bytes");

/* What a 3D row needs besides its record when a side is not a plain
 * sphere or wall, or when its tangential targets are not zero: a cluster's
 * world inverse inertia tensor (xx, xy, xz, yy, yz, zz), a force-driven
 * wall's g (see above), NULL where the side has none, the lever arms of
 * both sides from their centres of mass to the contact point, which a
 * cluster's are not along the normal, the row's W (symmetric: nn, nt, ns,
 * tt, ts, ss; positive definite), which couples n and t then, and the
 * targets of u_t and u_s (tangential restitution, an image of b that moves:
 * Lees-Edwards). Apart from the record, which points to it only when it has
 * one: most rows have none, and 120 bytes a record more would cost spheres
 * memory and cache lines for nothing. */
typedef struct {
  const double *Ia, *Ib, *ga, *gb;
  double ca[3], cb[3];
  double W[6];
  double target_t[2];
} moreau_row3d_extra;

/* One contact as the 3D sweep sees it (spheres, clusters and walls), in two
 * cache lines: the relative velocity of the contact points in the frame
 * e = n, t, s is u_e = e . (v_b + w_b x c_b - v_a - w_a x c_a). s = n x t,
 * as detection makes it, is formed where it is needed (moreau_row3d_form):
 * in a random sweep six products cost less than 24 more bytes a record; t
 * formed from n (moreau_contact_frame) cost 30% in cache. */
typedef struct {
  double *va, *vb; /* each side's entry: velocity, spin, masses */
  double n[3], t[3];
  /* The lever arms from each side's centre of mass to the contact point,
   * ca = sa n and cb = sb n (sb = 0 for a wall), as a sphere's are (the
   * extra entry holds them for a row that has one: moreau_row3d_arms). The
   * sweep forms c x P and w x c from them, which cost fewer flops and 96
   * fewer bytes a record than the nine columns c x e of each side, and two
   * lengths 32 fewer bytes than two vectors. */
  double sa, sb;
  /* The extra entry, or NULL for spheres and plain walls, whose entries'
   * scalar inverse inertia is applied instead (a cluster's is 0: the 3x3
   * product cost plain spheres 14-16% per update) and whose W the sweep
   * forms from the sides' masses and sa, sb (moreau_row3d_form): a random
   * sweep waits on the bytes it moves, not on those flops. */
  const moreau_row3d_extra *x;
  double target_n; /* of u_n; those of u_t and u_s are 0 or the extra entry's */
  double mu;
  double p[3];
} moreau_row3d;

_Static_assert(sizeof(moreau_row3d) == 128, "a 3D record is two cache lines");

/* What the sweep forms of a 3D row: the rest of its frame and its W, and
 * whether W is diagonal with W_tt = W_ss (a row without an extra entry). */
typedef struct {
  double t[3], s[3], W[6];
  int diagonal;
} moreau_row3d_formed;

/* Signorini on Moreau's mean velocity (seed 000 eq 7): a closed contact (or
 * one that closes within the step) must leave with u+ = -e_n u-; an open one
 * may approach until its gap closes at the end of the step (g_pos of seed
 * 001, with the midpoint positions r(t+dt) = r_m + dt/2 U+). */
static inline double moreau_normal_target(double gap, double un_minus, double e_n, double dt)
{
  double closing = gap > 0.0 ? -2.0 * gap / dt : 0.0;
  return un_minus < closing ? -e_n * un_minus : closing;
}

/* v += s g over dim components: a rough wall's share of an impulse. */
static inline void moreau_glue_add(double *v, const double *g, double s, int dim)
{
  for (int k = 0; k < dim; k++)
    v[k] += s * g[k];
}

/* v += sign (P . g) g for a 2D entry v with a share vector g (a force-driven
 * wall's). */
static inline void moreau_glue2d(double *v, double sign, double px, double py)
{
  const double *g = v + MOREAU_G2D;
  if (g[0] != 0.0 || g[1] != 0.0) moreau_glue_add(v, g, sign * (px * g[0] + py * g[1]), 2);
}

/* The arms and W of a 2D row: its extra entry's, or those of arms along n,
 * W = diag(m, m + ii_a sa^2 + ii_b sb^2), m = im_a + im_b. */
static inline __attribute__((always_inline)) void moreau_row2d_form(const moreau_row2d *r, moreau_row2d_local *f)
{
  if (r->x) {
    *f = *r->x;
    f->plain = 0;
    return;
  }
  const double m = r->va[MOREAU_IM2D] + r->vb[MOREAU_IM2D];
  f->plain = 1;
  f->ra_n = f->rb_n = f->Wnt = 0.0;
  f->ra_t = r->sa;
  f->rb_t = r->sb;
  f->Wnn = m;
  f->Wtt = m + r->va[MOREAU_II2D] * r->sa * r->sa + r->vb[MOREAU_II2D] * r->sb * r->sb;
}

/* Adds the impulse change (dn, dt) to both sides' velocities of a 2D row
 * (f: moreau_row2d_form's). */
static inline __attribute__((always_inline)) void moreau_row2d_apply(moreau_row2d *r, const moreau_row2d_local *f,
                                                                     double dn, double dt)
{
  const double nx = r->nx, ny = r->ny, tx = -ny, ty = nx;
  double *va = r->va, *vb = r->vb;
  const double ima = va[MOREAU_IM2D], iia = va[MOREAU_II2D], imb = vb[MOREAU_IM2D], iib = vb[MOREAU_II2D];
  va[0] -= ima * (dn * nx + dt * tx);
  va[1] -= ima * (dn * ny + dt * ty);
  if (f->plain) {
    va[MOREAU_SPIN2D] -= iia * (f->ra_t * dt);
    vb[MOREAU_SPIN2D] += iib * (f->rb_t * dt);
  } else {
    va[MOREAU_SPIN2D] -= iia * (f->ra_n * dn + f->ra_t * dt);
    vb[MOREAU_SPIN2D] += iib * (f->rb_n * dn + f->rb_t * dt);
  }
  vb[0] += imb * dn * nx + imb * dt * tx;
  vb[1] += imb * dn * ny + imb * dt * ty;
  moreau_glue2d(va, -1.0, dn * nx + dt * tx, dn * ny + dt * ty);
  moreau_glue2d(vb, 1.0, dn * nx + dt * tx, dn * ny + dt * ty);
}

/* The cofactors c of a symmetric 3x3 matrix W stored as its upper triangle
 * (nn nt ns tt ts ss), in the same layout: W^-1 = c / det, det =
 * moreau_sym3_det(W, c) (along the first row). */
static inline void moreau_sym3_cofactors(const double *W, double *c)
{
  c[0] = W[3] * W[5] - W[4] * W[4];
  c[1] = W[2] * W[4] - W[1] * W[5];
  c[2] = W[1] * W[4] - W[2] * W[3];
  c[3] = W[0] * W[5] - W[2] * W[2];
  c[4] = W[1] * W[2] - W[0] * W[4];
  c[5] = W[0] * W[3] - W[1] * W[1];
}

static inline double moreau_sym3_det(const double *W, const double *c)
{
  return W[0] * c[0] + W[1] * c[1] + W[2] * c[2];
}

static inline double moreau_dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* out = a x b */
static inline void moreau_cross3(const double *a, const double *b, double *out)
{
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

/* w += sign I^-1 dw, with the tensor I when there is one, else iso times
 * the identity. */
static inline void moreau_spin_add(double *w, const double *I, double iso, double sign, const double *dw)
{
  if (I) {
    w[0] += sign * (I[0] * dw[0] + I[1] * dw[1] + I[2] * dw[2]);
    w[1] += sign * (I[1] * dw[0] + I[3] * dw[1] + I[4] * dw[2]);
    w[2] += sign * (I[2] * dw[0] + I[4] * dw[1] + I[5] * dw[2]);
  } else {
    const double s = sign * iso;
    w[0] += s * dw[0];
    w[1] += s * dw[1];
    w[2] += s * dw[2];
  }
}

/* The frame and W of a 3D row. Arms along n make W diagonal: with c = s n,
 * (c x t) . (c x t) = (c x s) . (c x s) = s^2 and the cross terms vanish,
 * so W = diag(m, m + ii_a sa^2 + ii_b sb^2, same), m = im_a + im_b. */
static inline __attribute__((always_inline)) void moreau_row3d_form(const moreau_row3d *r, moreau_row3d_formed *f)
{
  memcpy(f->t, r->t, sizeof(f->t));
  moreau_cross3(r->n, r->t, f->s);
  f->diagonal = !r->x;
  if (r->x) {
    memcpy(f->W, r->x->W, sizeof(f->W));
    return;
  }
  const double m = r->va[MOREAU_IM3D] + r->vb[MOREAU_IM3D];
  const double tt = m + r->va[MOREAU_II3D] * r->sa * r->sa + r->vb[MOREAU_II3D] * r->sb * r->sb;
  f->W[0] = m;
  f->W[1] = f->W[2] = f->W[4] = 0.0;
  f->W[3] = f->W[5] = tt;
}

/* The lever arms of a 3D row's sides. */
static inline void moreau_row3d_arms(const moreau_row3d *r, double *ca, double *cb)
{
  if (r->x) {
    memcpy(ca, r->x->ca, sizeof(r->x->ca));
    memcpy(cb, r->x->cb, sizeof(r->x->cb));
    return;
  }
  for (int k = 0; k < 3; k++) {
    ca[k] = r->sa * r->n[k];
    cb[k] = r->sb * r->n[k];
  }
}

/* Adds the impulse change d (frame components) to both sides' velocities of
 * a 3D row (f: moreau_row3d_form's). */
static inline __attribute__((always_inline)) void moreau_row3d_apply(moreau_row3d *r, const moreau_row3d_formed *f,
                                                                     const double *d)
{
  double pv[3], dw_a[3], dw_b[3];
  const double *t = f->t, *s = f->s;
  const moreau_row3d_extra *x = r->x;
  for (int k = 0; k < 3; k++)
    pv[k] = d[0] * r->n[k] + d[1] * t[k] + d[2] * s[k];
  /* sum_e d_e (c x e) = c x pv; with arms along n, one product serves both. */
  if (x) {
    moreau_cross3(x->ca, pv, dw_a);
    moreau_cross3(x->cb, pv, dw_b);
  } else {
    double n_pv[3];
    moreau_cross3(r->n, pv, n_pv);
    for (int k = 0; k < 3; k++) {
      dw_a[k] = r->sa * n_pv[k];
      dw_b[k] = r->sb * n_pv[k];
    }
  }
  const double ima = r->va[MOREAU_IM3D], imb = r->vb[MOREAU_IM3D];
  moreau_spin_add(r->va + MOREAU_SPIN3D, x ? x->Ia : NULL, r->va[MOREAU_II3D], -1.0, dw_a);
  moreau_spin_add(r->vb + MOREAU_SPIN3D, x ? x->Ib : NULL, r->vb[MOREAU_II3D], 1.0, dw_b);
  for (int k = 0; k < 3; k++) {
    r->va[k] -= ima * pv[k];
    r->vb[k] += imb * d[0] * r->n[k] + imb * (d[1] * t[k] + d[2] * s[k]);
  }
  if (!x) return;
  if (x->ga) moreau_glue_add(r->va, x->ga, -(pv[0] * x->ga[0] + pv[1] * x->ga[1] + pv[2] * x->ga[2]), 3);
  if (x->gb) moreau_glue_add(r->vb, x->gb, pv[0] * x->gb[0] + pv[1] * x->gb[1] + pv[2] * x->gb[2], 3);
}

/* Convergence sums of one sweep (seed 000 eq 41 and its variants). */
typedef struct {
  double dp, p, dp2, p2, max_ratio;
} moreau_sweep_sums;

/* Adds one contact update to the sweep's convergence sums: adp and ap are
 * the L1 norms of the impulse change and of the new impulse, dp2 and p2 their
 * squares. */
static inline void moreau_sweep_add(moreau_sweep_sums *s, double adp, double ap, double dp2, double p2, int max_ratio)
{
  s->dp += adp;
  s->p += ap;
  s->dp2 += dp2;
  s->p2 += p2;
  if (max_ratio) {
    double ratio = ap > 0.0 ? adp / ap : (adp > 0.0 ? 1.0 : 0.0);
    if (ratio > s->max_ratio) s->max_ratio = ratio;
  }
}

/* What one sweep works on: the rows (the law's record type) in the order
 * given. The blocks and layers orders visit runs: the group's rows listed in
 * base, cut into runs of `block` consecutive entries, visited in the order
 * block_perm (nblocks runs), each in its own shuffled order; block is 0 for
 * the random order. */
typedef struct {
  void *rows;
  const moreau_lid *order;
  moreau_lid n;
  int max_ratio; /* whether to track the largest ratio (-nlgs_norm max) */
  const moreau_lid *base, *block_perm;
  moreau_lid block, nblocks;
} moreau_law_sweep_args;

/* What a law's setup reads besides the pair parameters: the gap at
 * detection, the relative velocity (n, t, s) at the start of the step, dt,
 * the reduced radius r* of the pair (a body's own radius against a wall;
 * seed 001 eq 1.42), and the contact's state (NULL when the law has none,
 * else the law may keep the pointer in its row and update the state from the
 * sweep). */
typedef struct {
  double gap;
  const double *u_minus;
  double dt;
  double r_eff;
  double *state;
} moreau_law_contact;

/* The law's part of a row: targets and thresholds from the pair parameters
 * and the contact (in 3D the targets of u_t and u_s go to target_t, which
 * the builder moves to the row's extra entry when they are not zero). A
 * law reads the sweep's relative velocity u only through
 * target - u: the row builder then lowers the targets by the velocity b's
 * image has on top of b's own (periodic images of a sheared or deforming
 * cell), so that the sweep reads b's own velocity. A law whose row is larger
 * than the common record (row_size2d/3d) starts its own record type with
 * the common one and fills the rest here; the warm-start impulses of its own
 * unknowns (e.g. a contact torque) it applies here too, as the builder
 * applies the force's after setup. */
typedef void (*moreau_law_setup2d_fn)(moreau_row2d *r, const moreau_pair_law *pair, const moreau_law_contact *c);
typedef void (*moreau_law_setup3d_fn)(moreau_row3d *r, const moreau_pair_law *pair, const moreau_law_contact *c,
                                      double target_t[2]);
typedef void (*moreau_law_sweep_fn)(const moreau_law_sweep_args *a, moreau_sweep_sums *sums);

struct moreau_law_kernel {
  const char *name;
  int state_width;               /* doubles of warm-start state per contact besides the force */
  int explicit_forces;           /* forces are functions of the state: one pass, no iteration, no warm start */
  int isotropic_inertia_3d;      /* its 3D solve needs each body's inverse inertia to be a multiple of the identity */
  size_t row_size2d, row_size3d; /* bytes of the law's record: sizeof(moreau_row2d/3d) or of its own type */
  moreau_law_setup2d_fn setup2d;
  moreau_law_setup3d_fn setup3d;
  moreau_law_sweep_fn sweep2d, sweep3d;
};

/* How many rows ahead the sweep prefetches: a row's record, then (half as
 * far ahead, once the record has arrived) the velocities it points to. A
 * random order defeats the hardware's stream prefetcher, and one local
 * solve is too long a chain for the core to overlap the next row's misses
 * by itself: out of cache, the first load of a row and of its bodies were
 * over half of the sweep's time. */
#define MOREAU_SWEEP_AHEAD 8

/* Prefetches the record of `bytes` at row, for writing. */
static inline void moreau_prefetch_row(const void *row, size_t bytes)
{
  for (size_t off = 0; off < bytes; off += 64)
    __builtin_prefetch((const char *)row + off, 1, 3);
}

/* Prefetches the velocity table entries a row updates. Every record starts
 * with the two pointers va, vb (moreau_row2d and moreau_row3d alike, and the
 * laws' records start with one of those). */
static inline void moreau_prefetch_sides(const void *row)
{
  double *side[2];
  memcpy(side, row, sizeof(side));
  __builtin_prefetch(side[0], 1, 3);
  __builtin_prefetch(side[1], 1, 3);
}

/* Prefetches every cache line of an extra entry of `bytes` at x, if any
 * (the entries are not line-aligned: the last byte may lie a line further). */
static inline __attribute__((always_inline)) void moreau_prefetch_entry(const void *x, size_t bytes)
{
  if (!x) return;
  for (size_t off = 0; off < bytes; off += 64)
    __builtin_prefetch((const char *)x + off, 0, 3);
  __builtin_prefetch((const char *)x + bytes - 1, 0, 3);
}

/* The same for a 2D row, and its extra entry when it has one. */
static inline __attribute__((always_inline)) void moreau_prefetch_sides2d(const void *row)
{
  moreau_prefetch_sides(row);
  moreau_prefetch_entry(((const moreau_row2d *)row)->x, sizeof(moreau_row2d_extra));
}

/* The same for a 3D row, and the entry of its extra sides (a cluster's
 * tensor, a force-driven wall's g, the arms) when it has one: the record,
 * prefetched twice as far ahead, is in cache by now. */
static inline __attribute__((always_inline)) void moreau_prefetch_sides3d(const void *row)
{
  moreau_prefetch_sides(row);
  moreau_prefetch_entry(((const moreau_row3d *)row)->x, sizeof(moreau_row3d_extra));
}

/* What the extra entry points to (a cluster's tensor, a wall's g), half as
 * far ahead again, once the entry is in cache: without it each cluster row
 * waited on the entry, then on the tensor (3D rings of 3 at 1e5 bodies: 15%
 * slower than with the pointers in the record). */
static inline __attribute__((always_inline)) void moreau_prefetch_extra3d(const void *row)
{
  const moreau_row3d_extra *x = ((const moreau_row3d *)row)->x;
  if (!x) return;
  if (x->Ia) __builtin_prefetch(x->Ia, 0, 3);
  if (x->Ib) __builtin_prefetch(x->Ib, 0, 3);
  if (x->ga) __builtin_prefetch(x->ga, 0, 3);
  if (x->gb) __builtin_prefetch(x->gb, 0, 3);
}

/* 2D rows point to nothing more. */
static inline __attribute__((always_inline)) void moreau_prefetch_nothing(const void *row) { (void)row; }

/* A law's sweep loops; sides prefetches a row's table entries (and what
 * else its dimension's rows point to), deep what those point to, half as
 * far ahead: moreau_prefetch_sides2d and moreau_prefetch_nothing in 2D,
 * moreau_prefetch_sides3d and moreau_prefetch_extra3d in 3D. */
#define MOREAU_SWEEP_LOOP(row_type, solve, sides, deep, max_ratio)                                                     \
  for (moreau_lid k = 0; k < a->n; k++) {                                                                              \
    if (k + 2 * MOREAU_SWEEP_AHEAD < a->n)                                                                             \
      moreau_prefetch_row(&rows[a->order[k + 2 * MOREAU_SWEEP_AHEAD]], sizeof(row_type));                              \
    if (k + MOREAU_SWEEP_AHEAD < a->n) sides(&rows[a->order[k + MOREAU_SWEEP_AHEAD]]);                                 \
    if (k + MOREAU_SWEEP_AHEAD / 2 < a->n) deep(&rows[a->order[k + MOREAU_SWEEP_AHEAD / 2]]);                          \
    solve(&rows[a->order[k]], max_ratio, &s);                                                                          \
  }

/* Entries of run j of a sweep that visits runs. */
static inline moreau_lid moreau_sweep_run_length(const moreau_law_sweep_args *a, moreau_lid j)
{
  const moreau_lid first = a->block_perm[j] * a->block;
  return a->n - first < a->block ? a->n - first : a->block;
}

/* A sweep that visits runs of records stored one after the other: while it
 * sweeps a run, it prefetches the next run's records in the order they are
 * stored, one a row, and the velocities each points to once it has had
 * MOREAU_SWEEP_AHEAD rows to arrive. In memory that is a stream, which the
 * hardware prefetchers run ahead of, where the shuffled order within a run is
 * not. The look-ahead of the loop above is kept for the first run only: in
 * the others it would fetch what is already in cache (10^6 disks: 1.48e7
 * updates/s without it, 1.36-1.54e7 with it, 1.11-1.25e7 with it alone). */
#define MOREAU_SWEEP_RUNS_LOOP(row_type, solve, sides, deep, max_ratio)                                                \
  for (moreau_lid j = 0, k = 0; j < a->nblocks; j++) {                                                                 \
    const moreau_lid len = moreau_sweep_run_length(a, j);                                                              \
    const moreau_lid next_len = j + 1 < a->nblocks ? moreau_sweep_run_length(a, j + 1) : 0;                            \
    const moreau_lid *next = a->base + (j + 1 < a->nblocks ? a->block_perm[j + 1] * a->block : 0);                     \
    for (moreau_lid i = 0; i < len; i++, k++) {                                                                        \
      if (j == 0 && k + 2 * MOREAU_SWEEP_AHEAD < a->n)                                                                 \
        moreau_prefetch_row(&rows[a->order[k + 2 * MOREAU_SWEEP_AHEAD]], sizeof(row_type));                            \
      if (j == 0 && k + MOREAU_SWEEP_AHEAD < a->n) sides(&rows[a->order[k + MOREAU_SWEEP_AHEAD]]);                     \
      if (i < next_len) moreau_prefetch_row(&rows[next[i]], sizeof(row_type));                                         \
      if (i >= MOREAU_SWEEP_AHEAD && i - MOREAU_SWEEP_AHEAD < next_len) sides(&rows[next[i - MOREAU_SWEEP_AHEAD]]);    \
      if (k + MOREAU_SWEEP_AHEAD / 2 < a->n) deep(&rows[a->order[k + MOREAU_SWEEP_AHEAD / 2]]);                        \
      solve(&rows[a->order[k]], max_ratio, &s);                                                                        \
    }                                                                                                                  \
  }

#define MOREAU_LAW_SWEEP(name, row_type, solve, sides, deep)                                                           \
  static void name(const moreau_law_sweep_args *a, moreau_sweep_sums *sums)                                            \
  {                                                                                                                    \
    moreau_sweep_sums s = {0, 0, 0, 0, 0};                                                                             \
    row_type *rows = a->rows;                                                                                          \
    if (a->block && a->max_ratio)                                                                                      \
      MOREAU_SWEEP_RUNS_LOOP(row_type, solve, sides, deep, 1)                                                          \
    else if (a->block)                                                                                                 \
      MOREAU_SWEEP_RUNS_LOOP(row_type, solve, sides, deep, 0)                                                          \
    else if (a->max_ratio)                                                                                             \
      MOREAU_SWEEP_LOOP(row_type, solve, sides, deep, 1)                                                               \
    else                                                                                                               \
      MOREAU_SWEEP_LOOP(row_type, solve, sides, deep, 0)                                                               \
    *sums = s;                                                                                                         \
  }

/* The laws (one file each). */
extern const struct moreau_law_kernel moreau_law_signorini_coulomb, moreau_law_cohesive, moreau_law_static_dynamic,
    moreau_law_rolling, moreau_law_md_spring_dashpot;

#endif
