/* Periodic and Lees-Edwards boundaries (the plane-shear issue): collisions
 * across periodic faces, the Lees-Edwards jumps and image velocities, and
 * partition invariance of sheared periodic packings, the rough-wall cell.
 * One program; the first
 * argument names the test case (all cases without one). */
#include <mpi.h>

#include "parallel.h"
#include "shear_scene.h"

int main(int argc, char **argv)
{
  int status;
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("shear");
  suite_add_tcase(s, shear_face_case());
  suite_add_tcase(s, shear_le_case());
  suite_add_tcase(s, shear_invariance_case());
  suite_add_tcase(s, shear_rough_case());
  status = par_run_suite(MPI_COMM_WORLD, s, argc > 1 ? argv[1] : NULL);
  MPI_Finalize();
  return status;
}
