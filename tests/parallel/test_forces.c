/* (b) The converged forces on a static pile do not depend on the partition.
 *
 * The pile is a frictionless pyramid on a fixed base (inv_pyramid_add): a
 * statically determinate structure, so its contact forces are unique and a
 * per-contact comparison is meaningful. (With friction, mu = 0.4, the same
 * pyramid is hyperstatic, four unknowns per disk for three equations: two
 * one-rank runs with different sweep orders then end 23% of the mean normal
 * force apart on some contact at SOLVE_TOL, and so would a settled random
 * pile.) Rank 0 builds the pyramid on one rank, solves it there for the
 * reference and writes a snapshot; every rank reads the snapshot back, so the
 * bodies start spread over the ranks in file slabs, and setup distributes
 * them.
 *
 * Tolerance: both runs stop when a sweep changes the impulses by less than
 * SOLVE_TOL of their sum (mean norm). That bounds the last correction, not the
 * distance to the fixed point, which is larger by about the number of sweeps
 * the slowest mode of the pile takes to relax (thousands here: loads travel
 * down 31 rows), and larger on more ranks, where the glued solver contracts
 * more slowly. Measured against one rank, in units of the mean normal force,
 * the largest per-contact difference was 2.6e-5 on 4 ranks and 4.4e-5 on 8
 * at 1e-8, 3.5e-7 and 5.5e-7 at 1e-10, and 5e-9 on 4 at 1e-12: a few
 * thousand times the tolerance and falling with it, so the glued fixed point
 * is the serial one. SOLVE_TOL = 1e-10 with COMPARE_TOL =
 * 1e-5 of the mean normal force leaves a margin of about 20, while a glued
 * solver converging to a point other than the serial one (a wrong mass share
 * at an interface body, a contact lost or doubled) is off by percent. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "invariance.h"
#include "moreau/io.h"
#include "parallel.h"
#include "scene.h"

#define PYRAMID_ROWS 31 /* 496 disks, 31 of them fixed */
#define SOLVE_TOL 1e-10
#define COMPARE_TOL 1e-5

static moreau_err configure(moreau_sim *sim)
{
  MOREAU_CALL(scene_set_law(sim, 0.0, 0.0, 0.0));
  moreau_sim_set_dt(sim, 1e-3);
  moreau_sim_set_gravity(sim, (const double[3]){0.0, -9.81, 0.0});
  moreau_nlgs_set_tolerance(moreau_sim_nlgs(sim), SOLVE_TOL, MOREAU_NLGS_NORM_MEAN);
  moreau_nlgs_set_iterations(moreau_sim_nlgs(sim), 2, 1000000);
  return MOREAU_SUCCESS;
}

/* What a solve is judged on besides its forces. */
typedef struct {
  double speed; /* largest body speed (contact point speed bound) after the step */
  double sweeps;
  double converged;
} solve_info;

/* Collective over sim's comm: one step from rest with zero initial forces.
 * No checks inside, so that rank 0 may run it alone. */
static moreau_err solve(moreau_sim *sim, par_contact **all, int64_t *n, solve_info *info)
{
  const moreau_bodies *b = moreau_sim_bodies(sim);
  double vmax = 0.0;
  MOREAU_CALL(moreau_sim_setup(sim, 1e-9));
  MOREAU_CALL(moreau_sim_step(sim));
  for (moreau_lid i = 0; i < b->n_owned; i++)
    vmax = fmax(vmax, hypot(b->v[3 * i], b->v[3 * i + 1]) + fabs(b->w[3 * i + 2]) * b->radius[i]);
  info->speed = par_max(moreau_sim_comm(sim), vmax);
  info->sweeps = moreau_sim_stats(sim)->solve.iterations;
  info->converged = moreau_sim_stats(sim)->solve.converged;
  par_gather_contacts(moreau_sim_comm(sim), moreau_sim_bodies(sim), moreau_sim_contacts(sim), all, n);
  return MOREAU_SUCCESS;
}

/* Rank 0 alone: the pyramid on one rank, written to dir and solved. */
static moreau_err reference(const char *dir, par_contact **all, int64_t *n, solve_info *info)
{
  moreau_sim *sim;
  moreau_run_state rs;
  MOREAU_CALL(moreau_sim_create(MPI_COMM_SELF, 2, &sim));
  MOREAU_CALL(configure(sim));
  MOREAU_CALL(inv_pyramid_add(sim, PYRAMID_ROWS));
  moreau_sim_run_state(sim, &rs);
  MOREAU_CALL(moreau_snapshot_write(&rs, moreau_sim_bodies(sim), moreau_sim_contacts(sim), moreau_sim_walls(sim),
                                    moreau_sim_shapes(sim), dir));
  MOREAU_CALL(solve(sim, all, n, info));
  MOREAU_CALL(moreau_sim_destroy(&sim));
  return MOREAU_SUCCESS;
}

START_TEST(static_pile_forces_match_one_rank)
{
  char dir[256], path[512];
  par_contact *ref = NULL, *c;
  int64_t n_ref = 0, n;
  solve_info ref_info = {0, 0, 0}, info;
  double mean = 0.0, worst = 0.0;
  int rank = par_rank(MPI_COMM_WORLD), size = par_size(MPI_COMM_WORLD);
  moreau_err ref_err = MOREAU_SUCCESS;
  moreau_sim *sim;

  inv_make_tmpdir(dir);
  snprintf(path, sizeof(path), "%s/snapshots/snap_000000.h5", dir);
  if (rank == 0) ref_err = reference(dir, &ref, &n_ref, &ref_info);
  par_idle_barrier(MPI_COMM_WORLD);
  PAR_TRY(MPI_COMM_WORLD, ref_err);
  par_bcast_items(MPI_COMM_WORLD, 0, (void **)&ref, &n_ref, sizeof(par_contact));
  MPI_Bcast(&ref_info, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);

  PAR_TRY(MPI_COMM_WORLD, moreau_sim_create(MPI_COMM_WORLD, 2, &sim));
  PAR_TRY(MPI_COMM_WORLD, configure(sim));
  PAR_TRY(MPI_COMM_WORLD, moreau_read_particles(path, moreau_sim_bodies(sim), moreau_sim_materials(sim), NULL));
  PAR_TRY(MPI_COMM_WORLD, solve(sim, &c, &n, &info));
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
  inv_remove_tree(dir);

  ck_assert_msg(ref_info.converged && info.converged, "no convergence to %g (one rank: %g sweeps, %d ranks: %g)",
                SOLVE_TOL, ref_info.sweeps, size, info.sweeps);
  /* Every free disk rests on two others. */
  ck_assert_int_eq(n_ref, PYRAMID_ROWS * (PYRAMID_ROWS - 1));
  ck_assert_int_eq(n, n_ref);
  for (int64_t k = 0; k < n; k++) {
    ck_assert_msg(par_contact_by_key(&c[k], &ref[k]) == 0, "contact %lld: keys differ", (long long)k);
    ck_assert_msg(ref[k].force[0] > 0.0, "contact %lld-%lld carries no force: the pile is not static",
                  (long long)ref[k].gid_a, (long long)ref[k].gid_b);
    mean += ref[k].force[0] / (double)n;
  }
  for (int64_t k = 0; k < n; k++)
    for (int d = 0; d < 2; d++)
      worst = fmax(worst, fabs(c[k].force[d] - ref[k].force[d]));
  if (rank == 0)
    printf("static pyramid, %lld contacts: %.0f sweeps on %d ranks, %.0f on one; largest force difference %.3g of the "
           "mean normal force; largest speed after the step %.2g (one rank %.2g)\n",
           (long long)n, info.sweeps, size, ref_info.sweeps, worst / mean, info.speed, ref_info.speed);
  ck_assert_msg(worst <= COMPARE_TOL * mean, "a contact force differs by %.3g of the mean normal force", worst / mean);
  /* At rest: a step of free fall would give g dt = 1e-2. */
  ck_assert_msg(info.speed < 1e-6 && ref_info.speed < 1e-6, "the pile moves (%g, one rank %g)", info.speed,
                ref_info.speed);
  free(c);
  free(ref);
}
END_TEST

TCase *inv_forces_case(void)
{
  TCase *tc = tcase_create("forces");
  tcase_add_test(tc, static_pile_forces_match_one_rank);
  return tc;
}
