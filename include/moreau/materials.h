#ifndef MOREAU_MATERIALS_H
#define MOREAU_MATERIALS_H

#include <stdint.h>

#include "moreau/error.h"

/* The public API: exported from libmoreau, which hides everything else. */
#pragma GCC visibility push(default)

/* Contact parameters per pair of materials (bodies and walls each carry a
 * material id). The table is symmetric; set a pair to override the default. */
typedef struct {
  double mu;  /* Coulomb friction coefficient */
  double e_n; /* normal restitution, Moreau's mean velocity (seed 000 eq 7) */
  double e_t; /* tangential restitution in [-1, 1] (seed 000 eq 10) */
} moreau_pair_law;

typedef struct {
  int n;                 /* number of materials */
  double *density;       /* per material */
  moreau_pair_law *pair; /* n x n, symmetric */
} moreau_materials;

MOREAU_MUST_CHECK moreau_err moreau_materials_create(int n, const moreau_pair_law *def, double density,
                                                     moreau_materials **m);
MOREAU_MUST_CHECK moreau_err moreau_materials_destroy(moreau_materials **m);
MOREAU_MUST_CHECK moreau_err moreau_materials_set_pair(moreau_materials *m, int i, int j, const moreau_pair_law *law);
static inline const moreau_pair_law *moreau_materials_pair(const moreau_materials *m, int i, int j)
{
  return &m->pair[i * m->n + j];
}
/* Reads -materials, -density, -mu, -e_n, -e_t and -pair_law (i:j:mu:e_n:e_t,
 * repeated with commas between fields) from the options database. */
MOREAU_MUST_CHECK moreau_err moreau_materials_from_options(moreau_materials **m);

#pragma GCC visibility pop

#endif
