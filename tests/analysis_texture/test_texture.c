/* The contact texture (src/analysis/texture.c, rattlers.c): rattler removal
 * and coordination on hand-built networks, fabric and force anisotropies of
 * hand-built force sets with known harmonic parameters, and partition
 * invariance on dense packings. One program; the first argument names the
 * test case (all cases without one). */
#include <mpi.h>

#include "parallel.h"
#include "texture_test.h"

int main(int argc, char **argv)
{
  int status;
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("texture");
  suite_add_tcase(s, tt_rattlers_case());
  suite_add_tcase(s, tt_fabric_case());
  suite_add_tcase(s, tt_invariance_case());
  suite_add_tcase(s, tt_lattice_case());
  status = par_run_suite(MPI_COMM_WORLD, s, argc > 1 ? argv[1] : NULL);
  MPI_Finalize();
  return status;
}
