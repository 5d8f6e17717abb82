#ifndef MOREAU_MATERIALS_PRIVATE_H
#define MOREAU_MATERIALS_PRIVATE_H

#include "moreau/materials.h"

/* Checks every parameter of a pair law; messages start with where (an
 * option name or "material pair i:j"). */
MOREAU_MUST_CHECK moreau_err moreau_pair_law_check(const moreau_pair_law *law, const char *where);

#endif
