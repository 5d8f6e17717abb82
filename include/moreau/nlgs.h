#ifndef MOREAU_NLGS_H
#define MOREAU_NLGS_H

#include <mpi.h>
#include <stdint.h>

#include "moreau/bodies.h"
#include "moreau/contacts.h"
#include "moreau/error.h"
#include "moreau/law.h"
#include "moreau/materials.h"
#include "moreau/options.h"
#include "moreau/part.h"
#include "moreau/walls.h"

/* The public API: exported from libmoreau, which hides everything else. */
#pragma GCC visibility push(default)

/* Nonlinear Gauss-Seidel over the contacts (seed 000 section 5): each sweep
 * visits the contacts in a fresh random order, solves the local
 * Signorini-Coulomb problem of each in closed form and applies the impulse
 * change to both bodies' velocities at once, so no global matrix is built. */
typedef struct moreau_nlgs moreau_nlgs;

/* The order rows are swept in. Random: a fresh uniform permutation each
 * sweep (seed 001's recommendation). Blocks: rows stored along a
 * space-filling curve and cut into blocks of consecutive rows; each sweep
 * visits the blocks in a fresh random order, each block in a fresh random
 * internal order, so a block's records and bodies stay in cache. Layers:
 * rows stored by height along gravity and cut into blocks the same way;
 * each sweep visits the blocks from the top down, each in a fresh random
 * internal order. Not better everywhere: the 3D bed of benchmarks/README
 * reaches 95% of its weight in 1104 sweeps against 1456 in random order,
 * the 2D pile in 47616 against 37888. */
typedef enum { MOREAU_NLGS_ORDER_RANDOM, MOREAU_NLGS_ORDER_BLOCKS, MOREAU_NLGS_ORDER_LAYERS } moreau_nlgs_order;

typedef enum {
  MOREAU_NLGS_NORM_MEAN, /* sum |dP| / sum |P|: the force-weighted mean of eq 41's ratios */
  MOREAU_NLGS_NORM_QUAD, /* sqrt(sum |dP|^2 / sum |P|^2): quadratic mean */
  MOREAU_NLGS_NORM_MAX,  /* max over contacts of |dP| / |P|: eq 41 as written */
  MOREAU_NLGS_NORM_LAW   /* the law residual (below): the distance of the forces to the solution */
} moreau_nlgs_norm;

typedef struct {
  int iterations;  /* sweeps done */
  double residual; /* last convergence measure */
  int converged;
  double seconds;
  double sweep_seconds; /* of them, this rank's own sweeps (not the exchanges and checks) */
  /* The law residual of the returned forces: every contact's local solve
   * made once more from the same velocities (a Jacobi pass, undone
   * afterwards), sum |P_local - P| / sum |P_local|. Zero exactly when every
   * contact meets its law with the velocities the forces give, whatever the
   * sweep order or the partition; the increment norms are not (a slowly
   * contracting iteration makes small steps far from the solution). It is
   * evaluated after the interface average, when every copy of a body has the
   * velocity of the global forces; an interface contact's local solve uses
   * its copies' masses M / max(1, split k) (-nlgs_copy_split; k: the ranks
   * holding the body), so it counts up to split k times less there. 0 for
   * explicit laws (-method md). */
  double law_residual;
  /* The largest difference, over interface bodies and velocity components,
   * between one rank's copy and the average of all copies before the last
   * sweep's average (a velocity; 0 on one rank): how far the subdomains
   * disagreed when they last exchanged. */
  double interface_spread;
} moreau_nlgs_result;

/* What one solve works on. Body velocities on entry are the free velocities
 * U- + dt M^-1 F_ext; u_minus holds, per contact, the relative velocity of b
 * with respect to a at the start of the step, in world components (for
 * restitution). On return the body velocities are U+ and contacts->force the
 * converged average forces. */
typedef struct {
  moreau_bodies *bodies;
  moreau_walls *walls;
  const moreau_materials *materials;
  moreau_contacts *contacts;
  const double *u_minus;
  moreau_part *part; /* the partition (it exists on one rank too) */
  double dt;
} moreau_nlgs_problem;

/* Not collective. comm is stored (the convergence test is a reduction over
 * it). The sweep kernel of the law for dimension dim is chosen here. */
MOREAU_MUST_CHECK moreau_err moreau_nlgs_create(MPI_Comm comm, int dim, const moreau_law *law, moreau_nlgs **nlgs);
/* Replaces the law (its kernel and record size), between solves. */
void moreau_nlgs_set_law(moreau_nlgs *s, const moreau_law *law);
MOREAU_MUST_CHECK moreau_err moreau_nlgs_destroy(moreau_nlgs **nlgs);
/* Reads -nlgs_tol, -nlgs_norm, -nlgs_min_it, -nlgs_max_it, -nlgs_check_every,
 * -nlgs_order, -nlgs_block, -nlgs_copy_split, -seed. */
MOREAU_MUST_CHECK moreau_err moreau_nlgs_set_from_options(moreau_nlgs *nlgs);
void moreau_nlgs_set_tolerance(moreau_nlgs *nlgs, double tol, moreau_nlgs_norm norm);
void moreau_nlgs_set_iterations(moreau_nlgs *nlgs, int min_it, int max_it);
void moreau_nlgs_set_check_every(moreau_nlgs *nlgs, int k);
/* Reseeds the sweep-order generator of this rank from (seed, rank). */
void moreau_nlgs_set_seed(moreau_nlgs *nlgs, uint64_t seed);
/* The state of this rank's sweep-order generator (for checkpoints: a
 * restart on the same rank count continues the same random orders). */
void moreau_nlgs_get_rng(const moreau_nlgs *nlgs, uint64_t state[4]);
void moreau_nlgs_set_rng(moreau_nlgs *nlgs, const uint64_t state[4]);
/* The sweep order, and the rows per block of the blocks and layers orders (>= 1). */
void moreau_nlgs_set_order(moreau_nlgs *nlgs, moreau_nlgs_order order, int block);
/* Which way is down for the layers order: the gravity vector g (its length
 * does not matter; zero: no down, and the layers order fails to solve). */
void moreau_nlgs_set_down(moreau_nlgs *nlgs, const double g[3]);
/* Whether the sweep order needs a down (the layers order). */
int moreau_nlgs_needs_down(const moreau_nlgs *nlgs);
/* Whether to keep the incoming contact forces as the initial guess (warm
 * start, the default) or start from zero. */
void moreau_nlgs_set_warm_start(moreau_nlgs *nlgs, int warm);
/* Not collective. The size of a rank's records from which a solve borrows
 * the arrays its records and velocity table copy (the contacts' normals,
 * forces and gids, the bodies' velocities) and returns the pages of what is
 * dead between phases (default 64 MiB; 0: always). The returned pages are
 * faulted in again at the next solve (10-13 ms a step at 10^5 disks): worth
 * it where memory bounds the run, not on small ranks, whose memory the
 * libraries' 40 MB outweigh (benchmarks/README.md, issue 14). */
void moreau_nlgs_set_lend_min(moreau_nlgs *nlgs, size_t bytes);

/* Collective. Solves the contact problem of one time step. Not converging
 * within max_it sweeps is not an error: result->converged says so. On
 * several ranks the convergence test is lagged by one check (a
 * non-blocking reduction started at one check and completed at the next):
 * the solve stops check_every sweeps after the state that passed, and
 * result->residual is that state's measure. */
MOREAU_MUST_CHECK moreau_err moreau_nlgs_solve(moreau_nlgs *nlgs, const moreau_nlgs_problem *prob,
                                               moreau_nlgs_result *result);

/* Collective. The law residual (see moreau_nlgs_result) of the forces in
 * prob->contacts, without sweeping: the velocities on entry are the free
 * velocities as for moreau_nlgs_solve, on return those of the given forces;
 * the forces are unchanged. */
MOREAU_MUST_CHECK moreau_err moreau_nlgs_law_residual(moreau_nlgs *nlgs, const moreau_nlgs_problem *prob,
                                                      double *residual);

/* Not collective. The solver's record buffer and its size in bytes (NULL
 * and 0 before the first solve). Nothing in it lives from one solve to the
 * next: between them another object may keep data there (a step keeps the
 * warm-start history in it, moreau_contacts_borrow) until the next solve,
 * which may also reallocate it, or moreau_nlgs_set_law, which frees it. */
void moreau_nlgs_workspace(const moreau_nlgs *nlgs, void **buf, size_t *bytes);
/* Not collective. Returns the record buffer's pages to the system (its
 * bytes read 0 after) when the last solve borrowed (moreau_nlgs_set_lend_min):
 * whoever kept data there is done with it, and the next solve writes what
 * it needs. */
void moreau_nlgs_workspace_release(moreau_nlgs *nlgs);
/* Not collective. Where the caller may put the u_minus of the next solve's
 * n contacts (3 n doubles) so that it costs no memory of its own: the end of
 * the first n records, which grow to hold n, in the random sweep order,
 * whose row build reads each contact's u_minus before any record over it is
 * written (records are at least 3 doubles, and record i comes from contact k
 * >= i). NULL in the other orders, which build the rows in another order:
 * the caller keeps its own array. The space lasts until the next solve,
 * moreau_nlgs_set_order or moreau_nlgs_set_law. */
MOREAU_MUST_CHECK moreau_err moreau_nlgs_u_minus_space(moreau_nlgs *nlgs, moreau_lid n, double **u_minus);

/* Total contact updates (one local solve each) on this rank since creation. */
int64_t moreau_nlgs_updates(const moreau_nlgs *nlgs);

extern const moreau_option_spec moreau_nlgs_options[];

#pragma GCC visibility pop

#endif
