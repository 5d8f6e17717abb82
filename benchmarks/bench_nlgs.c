/* bench_nlgs: moreau's NLGS on a frozen, cold-started pile of disks or bed
 * of spheres (issue 3, item 8), in random order and in blocks. Runs on any
 * number of ranks; see README.md. */
#include <stdio.h>
#include <stdlib.h>

#include "bench_nlgs.h"

static moreau_err run(MPI_Comm comm, int argc, char **argv)
{
  bench_params p;
  bench_problem prob;
  bench_result r[3];
  int n = 0;
  MOREAU_CALL(moreau_error_agree(comm, bench_params_parse(argc, argv, &p)));
  MOREAU_CALL(bench_problem_create(comm, &p, &prob));
  bench_print_problem(comm, &p, &prob);
  MOREAU_CALL(bench_run_moreau(&p, &prob, MOREAU_NLGS_ORDER_RANDOM, 0, &r[n++]));
  if (p.block > 0) MOREAU_CALL(bench_run_moreau(&p, &prob, MOREAU_NLGS_ORDER_BLOCKS, p.block, &r[n++]));
  if (p.block > 0) MOREAU_CALL(bench_run_moreau(&p, &prob, MOREAU_NLGS_ORDER_LAYERS, p.block, &r[n++]));
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
  if (err && moreau_error_is_local()) moreau_error_print(0);
  /* Only input errors are agreed on every rank; after any other, a rank may
   * be waiting in a collective call. */
  if (err && err != MOREAU_ERR_INPUT) MPI_Abort(MPI_COMM_WORLD, err);
  moreau_malloc_keep_freed();
  MPI_Finalize();
  return err;
}
