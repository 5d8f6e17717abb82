/* Links against an installed moreau and builds a one-disk scene. */
#include <moreau/sim.h>
#include <stdio.h>

int main(int argc, char **argv)
{
  moreau_sim *sim = NULL;
  int ok;
  MPI_Init(&argc, &argv);
  ok = moreau_sim_create(MPI_COMM_WORLD, 2, &sim) == MOREAU_SUCCESS && moreau_sim_destroy(&sim) == MOREAU_SUCCESS;
  printf("consumer: %s\n", ok ? "ok" : "failed");
  MPI_Finalize();
  return ok ? 0 : 1;
}
