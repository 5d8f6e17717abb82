#ifndef MOREAU_NLGS_PRIVATE_H
#define MOREAU_NLGS_PRIVATE_H

#include "moreau/nlgs.h"
#include "moreau/rng.h"

/* One contact as the 2D sweep sees it: everything the local solve reads, in
 * one 192-byte record, so that a randomly ordered sweep touches few cache
 * lines. The b side has separate normal and tangential inverse masses because
 * a force-driven wall moves along its normal only. */
typedef struct {
  double *va, *wa, *vb, *wb; /* velocity and spin (z component) of each side */
  double nx, ny;
  double ra_n, ra_t, rb_n, rb_t; /* (e_z x c) . n and . t of each side */
  double ima, iia, imb_n, imb_t, iib;
  double Wnn, Wnt, Wtt, inv_det;
  double un_target, ut_target; /* u+ that makes the mean velocity vanish */
  double mu;
  double pn, pt; /* impulses f dt */
} moreau_row2d;

/* One contact as the 3D sweep sees it (spheres and walls). Angular
 * velocities enter the contact frame through the columns c x e of each side
 * (e = n, t, s): u_e = e . (v_b - v_a) + w_b . (c_b x e) - w_a . (c_a x e). */
typedef struct {
  double *va, *wa, *vb, *wb;
  double n[3], t[3], s[3];
  double ca_x[9], cb_x[9]; /* c x n, c x t, c x s of each side */
  double ima, iia, imb_n, imb_t, iib;
  double W[6];    /* symmetric: nn, nt, ns, tt, ts, ss */
  double Winv[6]; /* its inverse, same layout */
  double target[3];
  double mu;
  double p[3];
} moreau_row3d;

typedef struct {
  double dp, p, dp2, p2, max_ratio;
} moreau_sweep_sums;

struct moreau_nlgs {
  MPI_Comm comm;
  int rank, size;
  double tol;
  moreau_nlgs_norm norm;
  int min_it, max_it, check_every, warm;
  uint64_t seed;
  moreau_rng rng;
  int64_t updates;

  moreau_lid row_cap, body_cap;
  moreau_row2d *rows;
  moreau_row3d *rows3;
  moreau_lid *row_contact; /* contact index of each row */
  moreau_lid *order;
  double *mult; /* per local body: number of ranks whose contacts touch it */
  char *touched;
  int wall_cap;
  double *wall_share; /* per wall: ranks whose contacts touch it */
  double *wall_touch; /* per wall: 1 if this rank's contacts touch it */
  double *wall_buf;
  double zero_spin;     /* spin of a wall: never changes since its inverse inertia is 0 */
  double zero_spin3[3]; /* the same in 3D */
};

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

/* Signorini on Moreau's mean velocity (seed 000 eq 7): a closed contact (or
 * one that closes within the step) must leave with u+ = -e_n u-; an open one
 * may approach until its gap closes at the end of the step (g_pos of seed
 * 001, with the midpoint positions r(t+dt) = r_m + dt/2 U+). */
static inline double moreau_normal_target(double gap, double un_minus, double e_n, double dt)
{
  double closing = gap > 0.0 ? -2.0 * gap / dt : 0.0;
  return un_minus < closing ? -e_n * un_minus : closing;
}

/* Fills the sweep records of the 3D contacts; returns how many. */
moreau_lid moreau_nlgs_build_rows3d(moreau_nlgs *s, const moreau_nlgs_problem *prob);
/* Applies the records' impulses to the body velocities (warm start). */
void moreau_nlgs_apply_impulses3d(moreau_row3d *rows, moreau_lid n);
void moreau_nlgs_sweep3d(moreau_row3d *rows, const moreau_lid *order, moreau_lid n, int max_ratio,
                         moreau_sweep_sums *sums);
void moreau_nlgs_sweep2d(moreau_row2d *rows, const moreau_lid *order, moreau_lid n, int max_ratio,
                         moreau_sweep_sums *sums);

#endif
