#ifndef MOREAU_APP_H
#define MOREAU_APP_H

#include <mpi.h>

#include "moreau/error.h"
#include "moreau/options.h"
#include "moreau/sim.h"

/* The public API: exported from libmoreau, which hides everything else. */
#pragma GCC visibility push(default)

/* The moreau program: PETSc start-up, options, set-up of the scene, the time
 * loop with status lines, time series and snapshots. Returns the process exit
 * code: 0 success, 1 runtime failure, 2 bad input, 3 stopped by a signal after
 * writing a checkpoint (resume with -restart auto). */
int moreau_app_main(int argc, char **argv);

/* Registers every module's option table (idempotent). */
MOREAU_MUST_CHECK moreau_err moreau_app_register_options(void);

/* Reads -box and the -wall<i>_* family into sim->walls. box_default (2*dim
 * numbers, may be NULL) is used when no wall is given at all. */
MOREAU_MUST_CHECK moreau_err moreau_app_walls_from_options(moreau_sim *sim, const double *box_default);

extern const moreau_option_spec moreau_app_options[];
extern const moreau_option_spec moreau_wall_options[];
extern const moreau_option_spec moreau_domain_options[];
extern const moreau_option_spec moreau_material_options[];
extern const moreau_option_spec moreau_shape_options[];

#pragma GCC visibility pop

#endif
