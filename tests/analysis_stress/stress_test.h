#ifndef MOREAU_STRESS_TEST_H
#define MOREAU_STRESS_TEST_H

/* The tests of the region stress, its invariants and the profiles
 * (src/analysis/stress.c, region.c, profile.c): hand-computed contacts and
 * bodies, lattices with known solid fractions, and partition invariance. */

#include <check.h>

#include "moreau/analysis.h"
#include "moreau/sim.h"

/* Largest |x_k - ref_k| over n entries, relative to the largest |ref_k|
 * (absolute when ref is zero). */
double st_rel_diff(const double *x, const double *ref, int n);

TCase *st_hand_case(void);
TCase *st_invariants_case(void);
TCase *st_profile_case(void);
TCase *st_partition_case(void);

#endif
