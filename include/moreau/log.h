#ifndef MOREAU_LOG_H
#define MOREAU_LOG_H

/* The public API: exported from libmoreau, which hides everything else. */
#pragma GCC visibility push(default)

/* PETSc log events of every module, so that -log_view shows where the time
 * goes. Registered once by moreau_log_register (after PetscInitialize); begin
 * and end are no-ops before that, so library code runs without PETSc too. */
typedef enum {
  MOREAU_EV_STEP,
  MOREAU_EV_DETECT,
  MOREAU_EV_NLGS_SWEEP,
  MOREAU_EV_NLGS_CONVERGENCE,
  MOREAU_EV_EXCHANGE,
  MOREAU_EV_MIGRATE,
  MOREAU_EV_PARTITION,
  MOREAU_EV_REPARTITION, /* a whole repartition: partition, relabelling and the migration it causes */
  MOREAU_EV_IO_READ,
  MOREAU_EV_IO_WRITE,
  MOREAU_EV_ANALYSIS,
  MOREAU_EV_WARM_START,    /* the last step's contacts kept as history, and this step's matched to them */
  MOREAU_EV_FREE_VELOCITY, /* relative velocities at the start of the step and free velocities */
  MOREAU_EV_NLGS_ROWS,     /* the solve's records built, warm-start impulses applied, forces stored back */
  MOREAU_EV_DETECT_BUILD,  /* within MOREAU_EV_DETECT: the candidate pairs built again (the broad phase) */
  MOREAU_EV_COUNT
} moreau_log_event;

void moreau_log_register(void);
void moreau_log_begin(moreau_log_event ev);
void moreau_log_end(moreau_log_event ev);

#pragma GCC visibility pop

#endif
