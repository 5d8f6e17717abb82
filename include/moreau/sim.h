#ifndef MOREAU_SIM_H
#define MOREAU_SIM_H

#include <mpi.h>
#include <stdint.h>

#include "moreau/analysis.h"
#include "moreau/bodies.h"
#include "moreau/contacts.h"
#include "moreau/domain.h"
#include "moreau/error.h"
#include "moreau/io.h"
#include "moreau/materials.h"
#include "moreau/nlgs.h"
#include "moreau/options.h"
#include "moreau/part.h"
#include "moreau/walls.h"

/* The public API: exported from libmoreau, which hides everything else. */
#pragma GCC visibility push(default)

/* A contact-dynamics simulation: the domain, bodies, walls and materials,
 * and the Moreau-Jean midpoint time stepping (seed 000 eqs 42-46) with
 * contact detection at the midpoint and the NLGS solve of the contact
 * problem. Opaque: the accessors below hand out the pieces (owned by the
 * sim; valid until it is destroyed, or for the materials until they are
 * replaced). */
typedef struct moreau_sim moreau_sim;

/* Statistics of the last step. */
typedef struct {
  moreau_nlgs_result solve;
  int64_t n_contacts_global;
  double max_overlap;       /* largest overlap among contacts (global), >= 0 */
  double max_overlap_ratio; /* the largest overlap over the smaller radius of its pair (global) */
  int unstable;             /* the last step failed the state checks (non-finite state, overlap above the stop) */
  double detect_seconds, solve_seconds;
  moreau_lid warm_matched; /* contacts of this rank warm-started from the last step */
} moreau_step_stats;

/* Not collective. Creates an empty 2D or 3D scene with default parameters
 * (dt 1e-3, no gravity, one material with mu 0.5, e_n = e_t = 0, the default
 * contact law, an unbounded domain). The sim works on its own duplicate of
 * comm (MPI_Comm_dup, freed by destroy), so its messages never meet the
 * caller's. Collective over comm because of the duplication. */
MOREAU_MUST_CHECK moreau_err moreau_sim_create(MPI_Comm comm, int dim, moreau_sim **sim);
MOREAU_MUST_CHECK moreau_err moreau_sim_destroy(moreau_sim **sim);
/* Not collective. Chooses the contact law (before setup and before any
 * history is put in). A cohesive law with a range raises the alert distance
 * to the largest range at setup. */
MOREAU_MUST_CHECK moreau_err moreau_sim_set_law(moreau_sim *sim, const moreau_law *law);
const moreau_law *moreau_sim_law(const moreau_sim *sim);
/* Not collective. Gives the sim the shapes table of its cluster bodies
 * (shape >= 1; moreau/shapes.h, unit shapes scaled by each body's radius),
 * before setup; the sim owns it from then on (it destroys the table, also
 * when this call fails) and *shapes is nulled. Every rank gives the same
 * table. In 3D the rolling law refuses cluster bodies at setup. */
MOREAU_MUST_CHECK moreau_err moreau_sim_set_shapes(moreau_sim *sim, moreau_shapes **shapes);
/* The shapes table, NULL when none was given. */
const moreau_shapes *moreau_sim_shapes(const moreau_sim *sim);
/* Collective: the shortest time scale of the MD comparison's contacts,
 * min(sqrt(m / k_n), m / g_n, m / g_t) with m the smallest mass of a body or
 * a force-driven wall and the largest stiffness and dampings of the
 * material pairs (the explicit scheme needs dt well below it). */
MOREAU_MUST_CHECK moreau_err moreau_sim_stiffness_time(const moreau_sim *sim, double *t);
/* Reads -dt, -gravity, -alert and the solver and partition options. */
MOREAU_MUST_CHECK moreau_err moreau_sim_set_from_options(moreau_sim *sim);

/* Collective. Call once after bodies and walls are in place: distributes the
 * bodies over the ranks (on one rank too: the partition always exists) and
 * checks the initial overlaps (a pair overlapping by more than overlap_tol
 * times the smaller radius is an input error naming both global ids). */
MOREAU_MUST_CHECK moreau_err moreau_sim_setup(moreau_sim *sim, double overlap_tol);

/* Collective. Advances one time step dt. Afterwards the walls' reaction holds
 * the force the bodies exerted on each wall during the step (summed over
 * ranks). Then the state is checked: a non-finite position or velocity, or
 * an overlap above the stop (-overlap_stop times the smaller radius of the
 * pair), fails the step on every rank with MOREAU_ERR_RUNTIME, one rank
 * holding the message that names the body (or bodies) and the step, and
 * sets the statistics' `unstable`; the state is left as it is, for
 * diagnosis. */
MOREAU_MUST_CHECK moreau_err moreau_sim_step(moreau_sim *sim);

/* Collective, after setup. Migrates bodies to their owners, rebuilds the
 * ghosts and detects the contacts at the current positions into the
 * contact list (zero forces, no warm start), without stepping: for tools and
 * benchmarks that solve a frozen contact problem. */
MOREAU_MUST_CHECK moreau_err moreau_sim_detect(moreau_sim *sim);

/* The pieces (not collective). */
MPI_Comm moreau_sim_comm(const moreau_sim *sim); /* the sim's duplicate */
int moreau_sim_rank(const moreau_sim *sim);
int moreau_sim_size(const moreau_sim *sim);
int moreau_sim_dim(const moreau_sim *sim);
moreau_bodies *moreau_sim_bodies(const moreau_sim *sim);
moreau_walls *moreau_sim_walls(const moreau_sim *sim);
moreau_materials *moreau_sim_materials(const moreau_sim *sim);
/* Replaces the materials table; the sim takes ownership of m. */
MOREAU_MUST_CHECK moreau_err moreau_sim_set_materials(moreau_sim *sim, moreau_materials *m);
/* This step's contacts (after a step: the step just done). */
moreau_contacts *moreau_sim_contacts(const moreau_sim *sim);
/* The warm-start history. Entries put here before setup (keys, forces and
 * law state, e.g. from a checkpoint) are distributed by setup with their
 * bodies and warm-start the first step. */
moreau_contacts *moreau_sim_history(const moreau_sim *sim);
moreau_nlgs *moreau_sim_nlgs(const moreau_sim *sim);
moreau_part *moreau_sim_part(const moreau_sim *sim);
moreau_domain *moreau_sim_domain(const moreau_sim *sim);

double moreau_sim_dt(const moreau_sim *sim);
void moreau_sim_set_dt(moreau_sim *sim, double dt);
double moreau_sim_time(const moreau_sim *sim);
int64_t moreau_sim_step_index(const moreau_sim *sim); /* steps done */
/* Sets the step count and time (a restart continues from a checkpoint's). */
void moreau_sim_set_clock(moreau_sim *sim, int64_t step, double time);
void moreau_sim_get_gravity(const moreau_sim *sim, double g[3]);
void moreau_sim_set_gravity(moreau_sim *sim, const double g[3]);
/* Alert distance of detection; <= 0 before setup means a tenth of the
 * largest radius. */
double moreau_sim_alert(const moreau_sim *sim);
void moreau_sim_set_alert(moreau_sim *sim, double alert);
/* The largest overlap a step may leave, as a fraction of the smaller radius
 * of the pair (default 0.25); <= 0 turns the check off. */
void moreau_sim_set_overlap_stop(moreau_sim *sim, double ratio);
/* Largest body radius over all ranks, set by setup. */
double moreau_sim_rmax(const moreau_sim *sim);
/* Where the bodies came from, for messages about them ("" for generated). */
void moreau_sim_set_input_name(moreau_sim *sim, const char *name);
const moreau_step_stats *moreau_sim_stats(const moreau_sim *sim);
/* Pressure control of a periodic box: after every step the length L along
 * each axis k with axes[k] != 0 (periodic) moves as a wall of mass M pushed
 * by the measured stress, M d2L/dt2 = A (sigma_kk - pressure), A the area of
 * the face normal to k (its length in 2D), M = mass times the total mass of
 * the bodies; the bodies' velocities follow the change of the affine field
 * (rate / L) (x_k - centre_k), so the cell deforms homogeneously. The rate
 * is capped at a tenth of the mean diameter per step. */
void moreau_sim_set_pressure(moreau_sim *sim, double pressure, const int axes[3], double mass);
void moreau_sim_get_pressure(const moreau_sim *sim, double *pressure, int axes[3], double *mass);
/* A rough-wall shear cell (GDR MiDi 2004, da Cruz et al. 2005): periodic
 * along the flow axis; walls `bottom` and `top`, normal to the gradient
 * axis, carry grains glued to them (bodies with glued = wall + 1, fixed),
 * each wall and its grains one rigid body. The bottom wall is fixed. The
 * top one moves along the flow at `velocity`, or, when shear_rate > 0, at
 * shear_rate times the current gap H, set at the start of every step (an
 * inertial number I gives the rate I / (d sqrt(rho / p))); along the
 * gradient it is what its mode makes it (force-driven under a pressure, or
 * held). H is the distance between the walls less one grain diameter: the
 * space between the inner faces of the two layers of grains. */
typedef struct {
  int bottom, top, flow, gradient;
  double diameter;   /* of the glued grains */
  double velocity;   /* the top wall's flow velocity when shear_rate is 0 */
  double shear_rate; /* > 0: the top wall's flow velocity is it times H */
  double pressure;   /* the pressure on the top wall (0: none; for the outputs) */
} moreau_rough_cell;
/* Makes the sim's walls a rough-wall cell (NULL: none). Not collective. */
MOREAU_MUST_CHECK moreau_err moreau_sim_set_rough_cell(moreau_sim *sim, const moreau_rough_cell *cell);
/* Returns whether the sim is a rough-wall cell, and its description. */
int moreau_sim_rough_cell(const moreau_sim *sim, moreau_rough_cell *cell);
/* The rough cell's gap H now, and its shear strain: the flow displacement
 * of the top wall relative to the bottom one over H. */
double moreau_sim_rough_gap(const moreau_sim *sim);
double moreau_sim_rough_strain(const moreau_sim *sim);
/* The macroscopic state of a periodic box after the last step (and at
 * setup); zeros without a periodic axis. */
const moreau_macro_state *moreau_sim_macro_state(const moreau_sim *sim);
/* The run state the io writers take (comm, dim, step, time, dt). */
void moreau_sim_run_state(const moreau_sim *sim, moreau_run_state *rs);

extern const moreau_option_spec moreau_sim_options[];

#pragma GCC visibility pop

#endif
