#ifndef MOREAU_TEXTURE_TEST_H
#define MOREAU_TEXTURE_TEST_H

/* Scenes of the texture tests: bodies placed by hand (or a lattice) in a
 * sim, one step to detect the contacts and build the interface plan, then
 * forces set by the test from each contact's key and geometry, the same on
 * any rank count. */

#include <check.h>

#include "moreau/analysis.h"
#include "moreau/sim.h"

/* The force (f_n, f_t, f_s) the test gives contact k of c. */
typedef void (*tt_force_fn)(const moreau_sim *sim, const moreau_contacts *c, moreau_lid k, const void *ctx,
                            double f[3]);

/* Collective over comm: an empty sim of dimension dim without gravity,
 * alert distance 0.1, friction mu. */
moreau_err tt_sim_create(MPI_Comm comm, int dim, double mu, moreau_sim **sim);
/* A body at rest (call on one rank, before setup). */
moreau_err tt_add_body(moreau_sim *sim, moreau_gid gid, double x, double y, double z, double radius, int fixed);
/* Collective: setup, one step, then the forces of every contact from force. */
moreau_err tt_step_and_force(moreau_sim *sim, tt_force_fn force, const void *ctx);
/* Collective: the texture of the sim's last step over the region [lo, hi]
 * (moreau_region; lo and hi NULL: everything). */
moreau_err tt_texture(moreau_sim *sim, const double *lo, const double *hi, moreau_texture *t);

/* The test cases. */
TCase *tt_rattlers_case(void);
TCase *tt_fabric_case(void);
TCase *tt_invariance_case(void);
TCase *tt_lattice_case(void);

#endif
