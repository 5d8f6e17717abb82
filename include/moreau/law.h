#ifndef MOREAU_LAW_H
#define MOREAU_LAW_H

#include "moreau/error.h"

/* The public API: exported from libmoreau, which hides everything else. */
#pragma GCC visibility push(default)

/* Contact laws. Each law is one closed-form local solve in its own file of
 * src/law, with the per-contact state it needs to warm-start (beyond the
 * contact force); the parameters of each pair of materials are in
 * moreau/materials.h. The NLGS sweep calls the law through a per-dimension
 * kernel chosen when the solver is created (src/law/law_kernel.h). */
typedef struct moreau_law_kernel moreau_law;

/* The law called name ("signorini_coulomb", "cohesive", "static_dynamic",
 * "rolling"), or NULL. */
const moreau_law *moreau_law_find(const char *name);
/* Signorini + exact Coulomb friction with Moreau's restitution (seed 000
 * eqs 32-35 in 2D, seed 001 eq 1.30 in 3D): the default law. */
const moreau_law *moreau_law_default(void);
const char *moreau_law_name(const moreau_law *law);
/* Doubles of warm-start state per contact besides the force. */
int moreau_law_state_width(const moreau_law *law);
/* Whether the law's forces are functions of the state (the MD comparison
 * law "md_spring_dashpot"): the solver then makes one explicit pass. */
int moreau_law_is_explicit(const moreau_law *law);
/* Whether the law's 3D local solve needs every body's inverse inertia to be
 * a multiple of the identity ("rolling": its torque block is solved as a
 * projection on a disk), which 3D clusters are not. */
int moreau_law_needs_isotropic_inertia(const moreau_law *law);
/* The law named by -law, or the MD force law with -method md. */
MOREAU_MUST_CHECK moreau_err moreau_law_from_options(const moreau_law **law);

#pragma GCC visibility pop

#endif
