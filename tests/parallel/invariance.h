#ifndef MOREAU_TEST_INVARIANCE_H
#define MOREAU_TEST_INVARIANCE_H

/* Scenes and measurements shared by the partition-invariance tests. Each test
 * runs a scene on all ranks of MPI_COMM_WORLD and compares it with the same
 * scene run on one rank (MPI_COMM_SELF of rank 0) in the same program. */

#include <check.h>
#include <stdint.h>

#include "moreau/sim.h"

/* A deposition in a box: a jittered polydisperse lattice from moreau_generate
 * (bitwise the same bodies on any number of ranks) falls under gravity onto a
 * floor between two side walls. With box_velocity != 0 the bodies start with
 * that horizontal velocity and the three walls move with it: in the box's
 * frame it is the same deposition, while the pile crosses the subdomains. */
typedef struct {
  int64_t n;
  double width, height; /* the box the lattice fills, from the origin */
  double mu;
  double dt;
  double nlgs_tol;
  uint64_t seed;       /* of the sweep order */
  double box_velocity; /* horizontal velocity of the walls and the bodies */
  double scatter;      /* each initial velocity component gets a term uniform in
                          [-scatter, scatter], drawn from the body's gid */
  double imbalance;    /* repartition threshold (P > 1) */
  double alert;        /* alert distance; 0: the default */
  double lid_mass;     /* > 0: a force-driven lid of this mass, pressed down by its weight, starts on top */
  moreau_part_type part_type;
} inv_box;

/* Collective over comm: creates the scene and sets it up. */
moreau_err inv_box_create(MPI_Comm comm, const inv_box *p, moreau_sim **sim);

/* A pyramid of n0 rows of equal frictionless disks with random densities
 * (from the gid), resting on a base row of fixed disks. The rows are spaced
 * so that a disk touches only the two disks it rests on: the structure is
 * statically determinate (two unknown forces, two equations per free disk),
 * so the contact forces are unique, unlike those of a frictional random pile,
 * whose hyperstatic network leaves them to the sweep order. Not collective:
 * adds every body to sim (call it on one rank). */
moreau_err inv_pyramid_add(moreau_sim *sim, int n0);

/* What a run is compared on. */
typedef struct {
  int64_t count, gid_sum; /* at the end */
  int64_t count_changes;  /* steps after which count or gid_sum differed from the start */
  double mean_x, mean_y;  /* of the body centres */
  double kinetic;         /* kinetic energy in the frame of the box */
  double wall_load;       /* downward force on the walls, mean over the last window steps */
  int64_t contacts;       /* at the last step */
  double max_overlap;     /* over the run */
  double min_radius;
  int converged;        /* every solve converged */
  int64_t repartitions; /* 0 on one rank */
} inv_state;

/* Collective: runs steps steps of sim and measures it; frame_vx is the
 * horizontal velocity of the frame the kinetic energy is taken in. */
moreau_err inv_run(moreau_sim *sim, int steps, int window, double frame_vx, inv_state *st);

/* Collective over MPI_COMM_WORLD: rank 0 makes a fresh directory under
 * $TMPDIR (or /tmp); every rank gets its name (at least 256 bytes). */
void inv_make_tmpdir(char *dir);
/* Collective over MPI_COMM_WORLD: rank 0 deletes dir and its contents. */
void inv_remove_tree(const char *dir);

TCase *inv_contacts_case(void);
TCase *inv_alert_case(void);
TCase *inv_forces_case(void);
TCase *inv_deposition_case(void);
TCase *inv_drift_case(void);
TCase *inv_determinism_case(void);

#endif
