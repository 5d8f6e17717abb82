#ifndef MOREAU_BENCH_SICONOS_H
#define MOREAU_BENCH_SICONOS_H

#include "bench_nlgs.h"

/* The frozen problem as a Siconos FrictionContactProblem of the pile's
 * dimension d: M = W = H^T M^-1 H (the Delassus matrix, in Siconos's sparse
 * block storage, d x d blocks), q = the free relative velocities shifted by
 * the Signorini targets moreau uses (so both solve the same problem), mu per
 * contact. Disks and spheres only. */
typedef struct bench_siconos bench_siconos;

/* The order in which Siconos's NSGS visits the contacts: always their index
 * order. fc3d's option to draw a fresh order every sweep
 * (SICONOS_FRICTION_3D_NSGS_SHUFFLE_TRUE_EACH_LOOP) is not used: Siconos
 * 4.4 reshuffles the whole index array before every contact, not every
 * sweep, which makes a sweep quadratic in the contacts. */
typedef enum {
  BENCH_SICONOS_DETECTION_ORDER, /* numbered as moreau detected them */
  BENCH_SICONOS_RANDOM_NUMBERING /* numbered in one random permutation drawn from seed */
} bench_siconos_order;

/* Not collective; one rank only. Assembles W and q. *assembly_seconds: time
 * to build W and q. */
moreau_err bench_siconos_create(bench_problem *prob, bench_siconos_order order, uint64_t seed, bench_siconos **s,
                                double *assembly_seconds);
moreau_err bench_siconos_destroy(bench_siconos **s);
/* Number of d x d blocks of W. */
int64_t bench_siconos_blocks(const bench_siconos *s);
/* Name of the solver of one contact inside NSGS (fc3d: Siconos's default). */
const char *bench_siconos_local_solver(const bench_siconos *s);

/* bench_solve_fn: an NSGS solve (SICONOS_FRICTION_2D_NSGS through
 * fc2d_driver, or SICONOS_FRICTION_3D_NSGS with its default local solver
 * through fc3d_driver; light error evaluation, zero tolerance) of exactly
 * `sweeps` sweeps; ctx is the bench_siconos. */
moreau_err bench_siconos_solve(void *ctx, int sweeps, int warm, bench_probe *out);

#endif
