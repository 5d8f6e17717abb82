#ifndef MOREAU_ANALYSIS_H
#define MOREAU_ANALYSIS_H

#include <mpi.h>

#include "moreau/bodies.h"
#include "moreau/contacts.h"
#include "moreau/domain.h"
#include "moreau/error.h"

/* The public API: exported from libmoreau, which hides everything else. */
#pragma GCC visibility push(default)

/* The macroscopic state of the bodies, computed in parallel (each rank sums
 * what it owns, one reduction).
 *
 * Stress tensor (compression positive), over the domain's box volume V:
 *   sigma_ij = (1/V) [ sum over body-body contacts of f_i l_j
 *                      + sum over bodies of m u_i u_j ],
 * f the contact force b receives from a (the step's mean force), l the
 * branch vector from a's centre to the centre of the image of b it touches,
 * u a body's velocity less the mean flow the boundaries impose
 * (moreau_domain_stream_velocity). Row-major 3x3; in 2D the z row and column
 * are zero. Contacts with walls are left out: this is the stress of a
 * periodic cell; for walled boxes the wall reactions give the stress. */
typedef struct {
  double sigma[9];
  double volume;         /* of the box; 0 (and sigma zero) without a box */
  double solid_fraction; /* volume (2D: area) of the bodies over the box's */
  double mean_diameter;  /* number mean of 2 r */
  double grain_density;  /* mass over volume of the bodies of finite mass (0: none) */
  double grain_mass;     /* their total mass */
} moreau_macro_state;

/* Collective over comm. */
MOREAU_MUST_CHECK moreau_err moreau_macro_state_compute(MPI_Comm comm, const moreau_domain *d, const moreau_bodies *b,
                                                        const moreau_contacts *c, moreau_macro_state *s);

#pragma GCC visibility pop

#endif
