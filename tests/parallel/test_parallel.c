/* Partition-invariance tests (design.md convention 8): the same scene on P
 * ranks and on one rank gives the same contact set, the same converged forces
 * on a static pile and the same macroscopic state of a deposition, also while
 * the pile drifts across the subdomains; and a run is reproducible bit for
 * bit on a given rank count. One program; the first argument names the test
 * case (all cases without one). */
#include <mpi.h>

#include "invariance.h"
#include "parallel.h"

int main(int argc, char **argv)
{
  int status;
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("parallel");
  suite_add_tcase(s, inv_contacts_case());
  suite_add_tcase(s, inv_alert_case());
  suite_add_tcase(s, inv_forces_case());
  suite_add_tcase(s, inv_deposition_case());
  suite_add_tcase(s, inv_drift_case());
  suite_add_tcase(s, inv_determinism_case());
  status = par_run_suite(MPI_COMM_WORLD, s, argc > 1 ? argv[1] : NULL);
  MPI_Finalize();
  return status;
}
