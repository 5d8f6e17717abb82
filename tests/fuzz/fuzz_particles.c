/* libFuzzer target for the particle readers: the input bytes become a file
 * named input.csv or input.h5 (FUZZ_SUFFIX, set by tests.cmake), read as 2D
 * and as 3D bodies by moreau_read_particles; what it accepts then goes
 * through moreau_sim_setup (partition, overlap and wall checks), as in a
 * run. Success or a clean input error are the only fine answers. */
#include <mpi.h>

#include "fuzz_common.h"
#include "moreau/io.h"
#include "moreau/sim.h"

#ifndef FUZZ_SUFFIX
#error "FUZZ_SUFFIX (\".csv\" or \".h5\") must be defined"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  fuzz_init(argc, argv, 0);
  return 0;
}

/* Three materials, so that a material column or dataset has valid values
 * other than 0 to find. */
static moreau_err read_and_set_up(const char *path, int dim)
{
  const moreau_pair_law law = {.mu = 0.5, .e_n = 0.0, .e_t = 0.0};
  moreau_sim *sim = NULL;
  moreau_materials *m = NULL;
  moreau_err err;
  MOREAU_CALL(moreau_sim_create(MPI_COMM_WORLD, dim, &sim));
  err = moreau_materials_create(3, &law, 1000.0, &m);
  if (!err) err = moreau_sim_set_materials(sim, m);
  if (!err) err = moreau_read_particles(path, moreau_sim_bodies(sim), moreau_sim_materials(sim), NULL);
  if (!err) err = moreau_sim_setup(sim, 0.01);
  if (moreau_sim_destroy(&sim) && !err) err = MOREAU_ERR_INTERNAL;
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const char *path = fuzz_write_file("input" FUZZ_SUFFIX, data, size);
  fuzz_expect_clean(read_and_set_up(path, 2), "reading " FUZZ_SUFFIX " as 2D");
  fuzz_expect_clean(read_and_set_up(path, 3), "reading " FUZZ_SUFFIX " as 3D");
  return 0;
}
