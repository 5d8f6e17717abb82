/* bench_nlgs_siconos: the NLGS benchmark of bench_nlgs side by side with
 * Siconos's fc2d NSGS (2D, issue 3, item 8) or fc3d NSGS (3D, issue 14,
 * item 5) on the same frozen pile. One rank; see README.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_siconos.h"

static moreau_err run_siconos(const bench_params *p, bench_problem *prob, bench_siconos_order order, double budget,
                              bench_result *r)
{
  static const char *names[2][2] = {{"Siconos fc2d NSGS, detection order", "Siconos fc2d NSGS, random numbering"},
                                    {"Siconos fc3d NSGS, detection order", "Siconos fc3d NSGS, random numbering"}};
  bench_siconos *s = NULL;
  memset(r, 0, sizeof(*r));
  snprintf(r->name, sizeof(r->name), "%s", names[p->dim - 2][order]);
  MOREAU_CALL(bench_siconos_create(prob, order, p->seed, &s, &r->setup_seconds));
  if (moreau_sim_rank(prob->sim) == 0 && order == BENCH_SICONOS_DETECTION_ORDER)
    printf("Delassus matrix W: %lld %dx%d blocks (%.1f per row); local solver: %s\n",
           (long long)bench_siconos_blocks(s), p->dim, p->dim,
           (double)bench_siconos_blocks(s) / (double)prob->n_contacts, bench_siconos_local_solver(s));
  MOREAU_CALL(bench_measure(bench_siconos_solve, s, p, 1, budget, r));
  MOREAU_CALL(bench_siconos_destroy(&s));
  return MOREAU_SUCCESS;
}

static moreau_err run(MPI_Comm comm, int argc, char **argv)
{
  bench_params p;
  bench_problem prob;
  bench_result r[5];
  int n = 0;
  double budget;
  int size;
  MOREAU_MPI_CALL(MPI_Comm_size(comm, &size));
  MOREAU_CHECK(size == 1, MOREAU_ERR_INPUT, "bench_nlgs_siconos runs on one rank (Siconos's NSGS is serial)");
  MOREAU_CALL(bench_params_parse(argc, argv, &p));
  MOREAU_CALL(bench_problem_create(comm, &p, &prob));
  bench_print_problem(comm, &p, &prob);
  MOREAU_CALL(bench_run_moreau(&p, &prob, MOREAU_NLGS_ORDER_RANDOM, 0, &r[n++]));
  if (p.block > 0) MOREAU_CALL(bench_run_moreau(&p, &prob, MOREAU_NLGS_ORDER_BLOCKS, p.block, &r[n++]));
  if (p.block > 0) MOREAU_CALL(bench_run_moreau(&p, &prob, MOREAU_NLGS_ORDER_LAYERS, p.block, &r[n++]));
  /* Once Siconos has run as long as moreau's random order took to reach the
   * target, the comparison is settled; -budget 0 lets it run on to the
   * target. The random numbering changes Siconos's speed per sweep but
   * hardly its progress per sweep (any fixed order converges alike on these
   * piles), so it is timed for throughput only. */
  budget = r[0].reached ? p.budget * r[0].trajectory_cpu_seconds : 0.0;
  MOREAU_CALL(run_siconos(&p, &prob, BENCH_SICONOS_DETECTION_ORDER, budget, &r[n++]));
  MOREAU_CALL(run_siconos(&p, &prob, BENCH_SICONOS_RANDOM_NUMBERING, -1.0, &r[n++]));
  bench_print_results(comm, &p, r, n);
  MOREAU_CALL(bench_problem_destroy(&prob));
  return MOREAU_SUCCESS;
}

int main(int argc, char **argv)
{
  moreau_err err;
  MPI_Init(&argc, &argv);
  moreau_malloc_defaults();
  err = run(MPI_COMM_WORLD, argc, argv);
  if (err) moreau_error_print(0);
  moreau_malloc_keep_freed();
  MPI_Finalize();
  return err;
}
