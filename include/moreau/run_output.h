#ifndef MOREAU_RUN_OUTPUT_H
#define MOREAU_RUN_OUTPUT_H

#include "moreau/error.h"
#include "moreau/io.h"
#include "moreau/sim.h"

/* The public API: exported from libmoreau, which hides everything else. */
#pragma GCC visibility push(default)

/* The per-run outputs besides snapshots: the rows of <dir>/timeseries.csv
 * (step, time, contacts, NLGS iterations, residual and time, largest overlap,
 * kinetic energy, each wall's reaction and position) and the status lines. */
typedef struct moreau_run_output moreau_run_output;

/* Collective. The columns follow the scene: three per wall and dimension. */
MOREAU_MUST_CHECK moreau_err moreau_run_output_create(const moreau_sim *sim, const char *dir, moreau_run_output **out);
/* Collective. The same, continuing the series of a run restarted at the
 * sim's current step (moreau_timeseries_continue). */
MOREAU_MUST_CHECK moreau_err moreau_run_output_continue(const moreau_sim *sim, const char *dir,
                                                        moreau_run_output **out);
MOREAU_MUST_CHECK moreau_err moreau_run_output_destroy(moreau_run_output **out);
/* Collective. Appends a row for the current state. */
MOREAU_MUST_CHECK moreau_err moreau_run_output_row(moreau_run_output *out, const moreau_sim *sim);
/* Not collective: rank 0 prints a status line (step, time, contacts,
 * iterations, residual, wall time, ETA from max_steps or t_end). */
void moreau_run_output_status(const moreau_run_output *out, const moreau_sim *sim, double wall, int64_t max_steps,
                              double t_end);
/* Collective: writes a snapshot of the sim's bodies, contacts and walls
 * (moreau_snapshot_write) under dir. */
MOREAU_MUST_CHECK moreau_err moreau_run_output_snapshot(const moreau_sim *sim, const char *dir);
/* Collective: kinetic energy of translation and rotation of all bodies. */
MOREAU_MUST_CHECK moreau_err moreau_kinetic_energy(const moreau_sim *sim, double *energy);

#pragma GCC visibility pop

#endif
