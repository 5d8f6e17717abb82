#ifndef MOREAU_BENCH_SICONOS_H
#define MOREAU_BENCH_SICONOS_H

#include "bench_nlgs.h"

/* The frozen problem as a Siconos FrictionContactProblem of dimension 2:
 * M = W = H^T M^-1 H (the Delassus matrix, in Siconos's sparse block storage,
 * 2x2 blocks), q = the free relative velocities shifted by the Signorini
 * targets moreau uses (so both solve the same problem), mu per contact. */
typedef struct bench_siconos bench_siconos;

/* Not collective; one rank only. Assembles W and q. Siconos's sparse NSGS
 * always visits the contacts in their index order, so with shuffle != 0 the
 * contacts are numbered in a random permutation (drawn once from seed)
 * instead of detection order. *assembly_seconds: time to build W and q. */
moreau_err bench_siconos_create(bench_problem *prob, int shuffle, uint64_t seed, bench_siconos **s,
                                double *assembly_seconds);
moreau_err bench_siconos_destroy(bench_siconos **s);
/* Number of 2x2 blocks of W. */
int64_t bench_siconos_blocks(const bench_siconos *s);

/* bench_solve_fn: an fc2d NSGS solve (SICONOS_FRICTION_2D_NSGS through
 * fc2d_driver, light error evaluation, zero tolerance) of exactly `sweeps`
 * sweeps; ctx is the bench_siconos. */
moreau_err bench_siconos_solve(void *ctx, int sweeps, int warm, bench_probe *out);

#endif
