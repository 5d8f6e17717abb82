#ifndef MOREAU_SIM_PRIVATE_H
#define MOREAU_SIM_PRIVATE_H

#include "moreau/analysis.h"
#include "moreau/detect.h"
#include "moreau/law.h"
#include "moreau/sim.h"

struct moreau_sim {
  MPI_Comm comm; /* a duplicate of the caller's, owned */
  int rank, size, dim;
  moreau_domain *domain;
  moreau_bodies *bodies;
  moreau_walls *walls;
  moreau_materials *materials;
  const moreau_law *law;
  moreau_shapes *shapes;     /* of the cluster bodies; NULL: all plain */
  moreau_contacts *contacts; /* this step's */
  moreau_contacts *history;  /* the previous step's, for warm start */
  moreau_detector *detector;
  moreau_nlgs *nlgs;
  moreau_part *part;

  double dt, time;
  int64_t step;
  double gravity[3];
  double alert;        /* alert distance of detection; <= 0 before setup means auto */
  double skin;         /* detection's skin (moreau/detect.h); < 0 before setup means half the largest radius */
  double rmax;         /* global largest body radius, set by setup */
  double overlap_stop; /* largest overlap a step may leave, over the smaller radius; <= 0: no check */
  /* Per contact: relative velocity (world) at the start of the step, in the
   * solver's records (moreau_nlgs_u_minus_space) or in u_minus_own. */
  double *u_minus, *u_minus_own;
  moreau_lid u_minus_cap; /* of u_minus_own */
  /* setup leaves the history it distributed in `history` for the first
   * step's warm start; later steps take the last step's contacts. */
  int history_in_place;
  /* Where the bodies came from, for messages about them (a body's global id
   * is its data row in an input file, counted from 0); "" for generated. */
  char input_name[4096];
  moreau_step_stats stats;

  /* The macroscopic state after the last step (periodic boxes only). */
  moreau_macro_state macro;
  /* Pressure control of a periodic box: the lengths along the axes in
   * pressure_axis follow sigma_kk - pressure (step_barostat.c). */
  double pressure, barostat_mass; /* target; the cell's mass over the grains' */
  int pressure_axis[3];
  /* A rough-wall shear cell (step_rough.c); rough_on says there is one. */
  moreau_rough_cell rough;
  int rough_on;
};

/* step_kinematics.c: the pieces of one Moreau-Jean step around the solve. */
/* Half a step of positions: r += h U for owned bodies and walls. */
void sim_drift(moreau_sim *sim, double h);
/* Relative velocities at each contact in its frame, at the start of the step. */
MOREAU_MUST_CHECK moreau_err sim_relative_velocities(moreau_sim *sim);
/* U_free = U- + dt M^-1 F_ext on every local copy, and the force walls' drive. */
void sim_free_velocities(moreau_sim *sim);
/* Wall reactions, largest overlap and global contact count of the step. */
MOREAU_MUST_CHECK moreau_err sim_contact_statistics(moreau_sim *sim);

/* step_barostat.c */
/* Collective: the macroscopic state of the periodic box (nothing without a
 * periodic axis), then the pressure control: along each controlled axis the
 * box length L moves like a wall of mass M pushed by the stress, M d2L/dt2 =
 * A (sigma_kk - p) (A the area of the face), and the bodies get the change of
 * the affine velocity field that goes with its new rate. */
MOREAU_MUST_CHECK moreau_err sim_barostat(moreau_sim *sim);
/* Collective, at setup: the macroscopic state, and checks of the pressure
 * control. */
MOREAU_MUST_CHECK moreau_err sim_barostat_setup(moreau_sim *sim);

/* step_rough.c: the top wall's flow velocity of a rough cell sheared at an
 * inertial number, from the current gap; nothing for any other run. */
void sim_rough_drive(moreau_sim *sim);
/* The rough cell's walls as the domain's stream: the linear profile of
 * their flow velocities across the gap between the grains' inner faces
 * (the mean flow the kinetic stress is measured about). */
void sim_rough_stream(moreau_sim *sim);

/* step_guard.c: collective; fails with MOREAU_ERR_RUNTIME on every rank
 * (the message on one) when a body's state is not finite or an overlap is
 * above the stop, and sets stats.unstable. */
MOREAU_MUST_CHECK moreau_err sim_check_state(moreau_sim *sim);

#endif
