#ifndef MOREAU_RUN_ANALYSIS_H
#define MOREAU_RUN_ANALYSIS_H

#include "moreau/run_output.h"

/* The analysis of a run: samples of the scalar columns (summed until the
 * next row takes their mean) and of the profiles (until the next profile
 * file). */
typedef struct run_analysis run_analysis;

/* Not collective. */
MOREAU_MUST_CHECK moreau_err run_analysis_create(const moreau_sim *sim, const moreau_run_analysis_config *cfg,
                                                 const char *dir, run_analysis **a);
MOREAU_MUST_CHECK moreau_err run_analysis_destroy(run_analysis **a);
/* Not collective. Adds the scalar columns to ts; returns how many. */
MOREAU_MUST_CHECK moreau_err run_analysis_add_columns(const run_analysis *a, moreau_timeseries *ts, int *ncols);
/* Collective, after a step. */
MOREAU_MUST_CHECK moreau_err run_analysis_step(run_analysis *a, const moreau_sim *sim);
/* Not collective. The means since the last row into r; returns how many. */
int run_analysis_row(run_analysis *a, double *r);

#endif
