#ifndef MOREAU_BENCH_NLGS_H
#define MOREAU_BENCH_NLGS_H

/* NLGS throughput benchmark (issue 3, item 8; 3D: issue 14, item 5): one
 * frozen contact problem of a settled pile of disks or bed of spheres, solved
 * cold by moreau's NLGS and, in bench_nlgs_siconos, by Siconos's fc2d or fc3d
 * NSGS on the assembled Delassus matrix. Everything here uses only the public
 * library API. */

#include <mpi.h>
#include <stdint.h>

#include "moreau/sim.h"

typedef struct {
  int dim;          /* 2: disks, 3: spheres */
  int64_t n;        /* bodies in the pile */
  uint64_t seed;    /* generation and sweep order */
  double mu;        /* friction coefficient of every pair */
  int sweeps;       /* sweeps of the throughput runs */
  int block;        /* > 0: moreau also runs with -nlgs_order blocks of this many rows */
  int repeats;      /* timed runs of each measurement; the fastest counts */
  int max_sweeps;   /* give up the 95% search beyond this */
  double target;    /* share of the weight the walls must carry */
  double budget;    /* Siconos's iteration stops after budget times moreau's time to target; 0: never */
  char cache[4096]; /* directory of the settled packing; "" settles every run */
} bench_params;

/* Not collective. Defaults, then "-dim D -n N -seed S -mu M -sweeps K -block B -repeats R
 * -max_sweeps M -target F -budget B -cache DIR|none" from argv. MOREAU_ERR_INPUT with a
 * one-line message on anything else. */
moreau_err bench_params_parse(int argc, char **argv, bench_params *p);

/* The frozen contact problem: bodies at rest in the settled pile, the contacts
 * detected there, and the free velocities dt g that a cold solve starts from. */
typedef struct {
  moreau_sim *sim; /* owns bodies, walls, materials, contacts, solver, partition */
  double *v_free;  /* local bodies (owned and ghosts), stride 3 */
  double *w_free;
  double *u_minus;                               /* zero: the pile is at rest before the step */
  double weight;                                 /* global sum of m |g| */
  double down[3];                                /* unit vector along gravity */
  int64_t n_bodies, n_contacts, n_wall_contacts; /* global */
  int64_t settle_steps;                          /* 0 when read from the cache */
  double settle_seconds;
  uint64_t seed;           /* of the sweep order */
  char packing_path[4400]; /* cached packing (CSV), "" if none; room for the cache directory and the name */
} bench_problem;

/* Collective. Builds the pile (or reads it from p->cache), settles it under
 * gravity until it is static, caches it, and freezes the contact problem.
 * 2D: disks on a square lattice about sqrt(n) wide in a box of 4 walls; 3D:
 * spheres on a cubic lattice about cbrt(n) wide in a box of 6 walls, which
 * settle into a bed about as high as it is wide. */
moreau_err bench_problem_create(MPI_Comm comm, const bench_params *p, bench_problem *prob);
moreau_err bench_problem_destroy(bench_problem *prob);
/* Not collective. Puts the free velocities back into the bodies. */
void bench_problem_restore(bench_problem *prob);
/* Collective. Share of the weight that the given wall forces carry:
 * sum over this rank's wall contacts k of (f_n n + f_t t + f_s s) . down, summed over
 * ranks, over the weight. force is stride 3 like contacts->force. */
moreau_err bench_carried_share(const bench_problem *prob, const double *force, double *share);

/* One solve of `sweeps` sweeps by some solver, cold (from zero forces and a
 * fixed seed) or warm (continuing from the forces of the previous call): the
 * wall time (max over ranks), the processor time (summed over ranks: on a
 * shared machine the wall time also counts time given to other processes),
 * the share of the weight carried afterwards and the contact updates done
 * (summed over ranks). */
typedef struct {
  double seconds, cpu_seconds, share;
  int64_t updates;
} bench_probe;

typedef moreau_err (*bench_solve_fn)(void *ctx, int sweeps, int warm, bench_probe *out);

/* Processor time of this process so far, in seconds. */
double bench_cpu_time(void);

/* Collective. The fastest (by processor time) of `repeats` cold runs of
 * solve(ctx, sweeps). */
moreau_err bench_fastest(bench_solve_fn solve, void *ctx, int sweeps, int repeats, bench_probe *best);

#define BENCH_CURVE_MAX 32
typedef struct {
  char name[64];
  double setup_seconds; /* moreau: a 0-sweep solve; Siconos: assembling W */
  int setup_in_solve;   /* whether the solve times already include the setup */
  int sweeps;           /* throughput run */
  double sweep_seconds; /* wall and processor time of the throughput run */
  double sweep_cpu_seconds;
  double updates_per_second_per_core; /* by wall time, over the ranks */
  double updates_per_cpu_second;
  double share_after_sweeps;
  /* The cold-started iteration run until the walls carry the target share
   * (or until max_sweeps or the time budget): */
  int reached;
  int trajectory_sweeps;
  double trajectory_seconds, trajectory_cpu_seconds;
  double trajectory_share; /* at the end */
  /* Once reached: one uninterrupted cold solve of trajectory_sweeps sweeps,
   * timed, which is what a run to the target costs without the calls'
   * restarts (moreau rebuilds its sweep records at every call). */
  double race_seconds, race_cpu_seconds, race_share;
  int curve_n; /* shares after 1, 2, 4, ... sweeps */
  double curve_share[BENCH_CURVE_MAX];
} bench_result;

/* Collective. The throughput run (cold, p->sweeps sweeps, fastest of
 * p->repeats), then one cold-started iteration, timed, until the walls carry
 * p->target of the weight, p->max_sweeps sweeps are done, or (budget > 0)
 * it has taken budget seconds of processor time; budget < 0 skips it. If the
 * target was reached, one cold solve of that many sweeps, timed. r->name and
 * the setup fields are the caller's. */
moreau_err bench_measure(bench_solve_fn solve, void *ctx, const bench_params *p, int ranks, double budget,
                         bench_result *r);

/* moreau's NLGS (in the order last set on the sim's solver) as a
 * bench_solve_fn; ctx is the bench_problem. */
moreau_err bench_moreau_solve(void *ctx, int sweeps, int warm, bench_probe *out);

/* Collective. bench_measure for moreau in the given order (block: rows per
 * block of MOREAU_NLGS_ORDER_BLOCKS), with the setup (a 0-sweep solve:
 * building the sweep records) timed separately. */
moreau_err bench_run_moreau(const bench_params *p, bench_problem *prob, moreau_nlgs_order order, int block,
                            bench_result *r);

/* Not collective: rank 0 prints. */
void bench_print_problem(MPI_Comm comm, const bench_params *p, const bench_problem *prob);
/* Not collective: rank 0 prints. The ratios compare each result named
 * "moreau ..." with each other one. */
void bench_print_results(MPI_Comm comm, const bench_params *p, const bench_result *r, int n);

#endif
