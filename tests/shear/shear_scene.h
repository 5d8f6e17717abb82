#ifndef MOREAU_TEST_SHEAR_SCENE_H
#define MOREAU_TEST_SHEAR_SCENE_H

/* Scenes of the periodic and Lees-Edwards tests, built through the library
 * API: a sim with a box, periodic axes and (optionally) Lees-Edwards images. */

#include <check.h>
#include <stdint.h>

#include "moreau/sim.h"

/* Collective over comm: an empty sim of dimension dim with box [0, len]^dim
 * (every axis periodic when periodic != 0), no gravity, time step dt, the
 * single law (mu, e_n, e_t), and Lees-Edwards images (flow x, gradient y)
 * at shear rate rate when le != 0. */
moreau_err shear_sim_create(MPI_Comm comm, int dim, double len, int periodic, int le, double rate, double dt, double mu,
                            double e_n, moreau_sim **sim);

/* A dense jittered lattice of cells^dim bodies filling the box [0, len]^dim
 * of sim, radii 0.40 to 0.48 of the spacing (so that no two bodies overlap,
 * across the faces too), random velocities in [-scatter, scatter] plus the
 * Lees-Edwards profile rate (y - len/2) along x. Bodies come from the gid
 * alone (the same on any rank count); not collective: call it on one rank. */
moreau_err shear_lattice_add(moreau_sim *sim, int cells, double len, double scatter, double rate);

/* The test cases. */
TCase *shear_face_case(void);
TCase *shear_le_case(void);
TCase *shear_invariance_case(void);
TCase *shear_rough_case(void);

#endif
