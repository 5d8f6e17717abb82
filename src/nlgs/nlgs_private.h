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
  moreau_lid *row_contact; /* contact index of each row */
  moreau_lid *order;
  double *mult; /* per local body: number of ranks whose contacts touch it */
  char *touched;
  int wall_cap;
  double *wall_share; /* per wall: ranks whose contacts touch it */
  double *wall_touch; /* per wall: 1 if this rank's contacts touch it */
  double *wall_buf;
  double zero_spin; /* spin of a wall: never changes since its inverse inertia is 0 */
};

void moreau_nlgs_sweep2d(moreau_row2d *rows, const moreau_lid *order, moreau_lid n, int max_ratio,
                         moreau_sweep_sums *sums);

#endif
