/* The NLGS on the cohesive law (src/law/cohesive.c) where the bonds carry no
 * load. Kept apart from test_cohesive.c, so that the closed forms there stay
 * a separate verdict. Runs on any number of ranks: the convergence flag is
 * global. */
#include <check.h>
#include <math.h>
#include <mpi.h>
#include <stdlib.h>

#include "laws_scene.h"

static const double R = 0.5;

/* A bonded chain of three disks flying freely (no gravity, no external
 * force, velocity (0.3, 0.2)) carries no load, and a solve should find that
 * in a few sweeps, as signorini_coulomb does in one. The bonded solve works
 * on the shifted impulse p_n + f_c dt, so a bond at zero load keeps
 * impulses of the round-off of f_c dt; measured against |p_n| alone these
 * never fall below 1e-10 and every step ran to the sweep cap, which is why
 * the convergence sums count each bond's scale f_c (cohesive.c,
 * add_bond_scale). The cap is 200 here, so that a regression fails quickly. */
START_TEST(test_free_bonds_converge)
{
  const double zero[3] = {0, 0, 0};
  moreau_pair_law pair = {.mu = 0.5, .f_c = 10.0};
  moreau_sim *sim = NULL;
  int worst = 0;
  PAR_TRY(MPI_COMM_WORLD, laws_sim_create(2, "cohesive", &pair, 1e-3, zero, &sim));
  moreau_nlgs_set_iterations(moreau_sim_nlgs(sim), 1, 200);
  for (int k = 0; k < 3; k++) {
    laws_body b = {.x = {2 * R * k, 0, 0}, .v = {0.3, 0.2, 0}, .radius = R};
    PAR_TRY(MPI_COMM_WORLD, laws_add_body(sim, k, &b));
  }
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_setup(sim, 1e-9));
  for (int step = 0; step < 20; step++) {
    PAR_TRY(moreau_sim_comm(sim), moreau_sim_step(sim));
    const moreau_step_stats *st = moreau_sim_stats(sim);
    worst = st->solve.iterations > worst ? st->solve.iterations : worst;
    ck_assert_msg(st->solve.converged, "step %d: %d sweeps without converging (residual %g)", step,
                  st->solve.iterations, st->solve.residual);
  }
  if (par_rank(MPI_COMM_WORLD) == 0) printf("free bonded chain: at most %d sweeps\n", worst);
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}
END_TEST

int main(int argc, char **argv)
{
  int status;
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("cohesive law convergence");
  TCase *tc = tcase_create("zero load");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_free_bonds_converge);
  suite_add_tcase(s, tc);
  status = par_run_suite(MPI_COMM_WORLD, s, NULL);
  MPI_Finalize();
  return status;
}
