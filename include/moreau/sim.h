#ifndef MOREAU_SIM_H
#define MOREAU_SIM_H

#include <mpi.h>
#include <stdint.h>

#include "moreau/bodies.h"
#include "moreau/contacts.h"
#include "moreau/detect.h"
#include "moreau/error.h"
#include "moreau/materials.h"
#include "moreau/nlgs.h"
#include "moreau/options.h"
#include "moreau/part.h"
#include "moreau/walls.h"

/* A contact-dynamics simulation: bodies, walls and materials, and the
 * Moreau-Jean midpoint time stepping (seed 000 eqs 42-46) with contact
 * detection at the midpoint and the NLGS solve of the contact problem.
 * The struct is public so that tests and tools can set up scenes directly;
 * every pointer in it is owned by the sim. */
typedef struct {
  MPI_Comm comm; /* not owned */
  int rank, size, dim;
  moreau_bodies *bodies;
  moreau_walls *walls;
  moreau_materials *materials;
  moreau_contacts *contacts; /* this step's */
  moreau_contacts *history;  /* the previous step's, for warm start */
  moreau_detector *detector;
  moreau_nlgs *nlgs;
  moreau_part *part; /* NULL on one rank */

  double dt, time;
  int64_t step;
  double gravity[3];
  double alert;    /* alert distance of detection; <= 0 before setup means auto */
  double rmax;     /* global largest body radius, set by setup */
  double *u_minus; /* per contact: relative velocity (n, t, s) at the start of the step */
  moreau_lid u_minus_cap;
  /* Where the bodies came from, for messages about them (a body's global id
   * is its data row in an input file, counted from 0); "" for generated. */
  char input_name[4096];

  /* Statistics of the last step */
  moreau_nlgs_result solve;
  int64_t n_contacts_global;
  double max_overlap; /* largest overlap among contacts (global), >= 0 */
  double detect_seconds, solve_seconds;
  moreau_lid warm_matched;
} moreau_sim;

/* Not collective. Creates an empty 2D or 3D scene with default parameters
 * (dt 1e-3, no gravity, one material with mu 0.5, e_n = e_t = 0). */
moreau_err moreau_sim_create(MPI_Comm comm, int dim, moreau_sim **sim);
moreau_err moreau_sim_destroy(moreau_sim **sim);
/* Reads -dt, -gravity and the solver and partition options. */
moreau_err moreau_sim_set_from_options(moreau_sim *sim);

/* Collective. Call once after bodies and walls are in place: distributes the
 * bodies over the ranks (parallel runs) and checks the initial overlaps
 * (a pair overlapping by more than overlap_tol times the smaller radius is an
 * input error naming both global ids). */
moreau_err moreau_sim_setup(moreau_sim *sim, double overlap_tol);

/* Collective. Advances one time step dt. Afterwards walls->reaction holds the
 * force the bodies exerted on each wall during the step (summed over ranks). */
moreau_err moreau_sim_step(moreau_sim *sim);

extern const moreau_option_spec moreau_sim_options[];

#endif
