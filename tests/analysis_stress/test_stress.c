/* The region stress, its invariants and the profiles: one program; the
 * first argument names the test case (all cases without one). */
#include <math.h>
#include <mpi.h>

#include "parallel.h"
#include "stress_test.h"

double st_rel_diff(const double *x, const double *ref, int n)
{
  double scale = 0.0, worst = 0.0;
  for (int k = 0; k < n; k++)
    scale = fmax(scale, fabs(ref[k]));
  for (int k = 0; k < n; k++)
    worst = fmax(worst, fabs(x[k] - ref[k]));
  return scale > 0.0 ? worst / scale : worst;
}

int main(int argc, char **argv)
{
  int status;
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("stress");
  suite_add_tcase(s, st_hand_case());
  suite_add_tcase(s, st_invariants_case());
  suite_add_tcase(s, st_profile_case());
  suite_add_tcase(s, st_partition_case());
  status = par_run_suite(MPI_COMM_WORLD, s, argc > 1 ? argv[1] : NULL);
  MPI_Finalize();
  return status;
}
