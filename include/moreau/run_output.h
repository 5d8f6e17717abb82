#ifndef MOREAU_RUN_OUTPUT_H
#define MOREAU_RUN_OUTPUT_H

#include "moreau/error.h"
#include "moreau/io.h"
#include "moreau/sim.h"

/* The public API: exported from libmoreau, which hides everything else. */
#pragma GCC visibility push(default)

/* The per-run outputs besides snapshots: the rows of <dir>/timeseries.csv
 * (step, time, contacts, NLGS iterations, residual and time, largest overlap,
 * kinetic energy, each wall's reaction and position, a periodic cell's
 * state, and the analysis columns), the profiles and the status lines. */
typedef struct moreau_run_output moreau_run_output;

/* What the analysis measures and when (options -analysis_every,
 * -analysis_region, -profile_bins, -profile_axis, -profile_every). */
typedef struct {
  int64_t every;         /* steps between samples (divides the row interval) */
  int has_region;        /* else the region follows the box, walls or bodies */
  moreau_region region;  /* when has_region */
  int profile_bins;      /* 0: no profiles */
  int profile_axis;      /* 0, 1, 2 */
  int64_t profile_every; /* steps between profile files (a multiple of every) */
  int force_pdf_bins;    /* of the force PDF file of each snapshot (0: none) */
} moreau_run_analysis_config;

extern const moreau_option_spec moreau_analysis_options[];

/* Not collective. Reads the analysis options for a run writing a row every
 * output_every steps and a snapshot every snapshot_every (0: none). */
MOREAU_MUST_CHECK moreau_err moreau_run_analysis_from_options(const moreau_sim *sim, int64_t output_every,
                                                              int64_t snapshot_every, moreau_run_analysis_config *cfg);

/* Collective. The columns follow the scene: three per wall and dimension.
 * an (copied) says what the analysis measures. */
MOREAU_MUST_CHECK moreau_err moreau_run_output_create(const moreau_sim *sim, const char *dir,
                                                      const moreau_run_analysis_config *an, moreau_run_output **out);
/* Collective. The same, continuing the series of a run restarted at the
 * sim's current step (moreau_timeseries_continue); the analysis means of
 * its first row start from the restart. */
MOREAU_MUST_CHECK moreau_err moreau_run_output_continue(const moreau_sim *sim, const char *dir,
                                                        const moreau_run_analysis_config *an, moreau_run_output **out);
/* Collective, after every step: takes the analysis sample when one is due
 * and writes the profile file when one is due. */
MOREAU_MUST_CHECK moreau_err moreau_run_output_step(moreau_run_output *out, const moreau_sim *sim);
MOREAU_MUST_CHECK moreau_err moreau_run_output_destroy(moreau_run_output **out);
/* Collective. Appends a row for the current state (the analysis columns:
 * the mean of the samples since the last row). */
MOREAU_MUST_CHECK moreau_err moreau_run_output_row(moreau_run_output *out, const moreau_sim *sim);
/* Not collective: rank 0 prints a status line (step, time, contacts,
 * iterations, residual, wall time, ETA from max_steps or t_end at the rate
 * of the steps since first_step, the run's first, taken in wall seconds). */
void moreau_run_output_status(const moreau_run_output *out, const moreau_sim *sim, double wall, int64_t first_step,
                              int64_t max_steps, double t_end);
/* Collective: writes a snapshot of the sim's bodies, contacts and walls
 * (moreau_snapshot_write) under dir, and with an->force_pdf_bins the PDF of
 * normal forces to dir/forces/force_pdf_<step>.csv (f_lo,f_hi,pdf,count,
 * in units of the mean normal force). */
MOREAU_MUST_CHECK moreau_err moreau_run_output_snapshot(const moreau_sim *sim, const char *dir,
                                                        const moreau_run_analysis_config *an);
/* Collective: kinetic energy of translation and rotation of all bodies. */
MOREAU_MUST_CHECK moreau_err moreau_kinetic_energy(const moreau_sim *sim, double *energy);

#pragma GCC visibility pop

#endif
