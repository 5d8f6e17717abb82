#ifndef MOREAU_SUM_H
#define MOREAU_SUM_H

#include <mpi.h>

#include "moreau/error.h"

/* The public API: exported from libmoreau, which hides everything else. */
#pragma GCC visibility push(default)

/* A sum of doubles whose value does not depend on the order of its terms,
 * hence not on the partition: the analysis sums per-rank terms and reduces
 * them, and every rank count must give the one-rank value. The sum is kept
 * as an unevaluated pair hi + lo (double-double: Knuth's TwoSum keeps the
 * rounding error of every addition), about 106 bits, so two orders of the
 * same terms differ by about 2^-106 of the largest partial sum and round to
 * the same double unless the exact sum lies within that of a rounding
 * boundary. */
typedef struct {
  double hi, lo;
} moreau_sum;

static inline void moreau_sum_add(moreau_sum *s, double x)
{
  double t = s->hi + x;
  double e = (s->hi - (t - (t - s->hi))) + (x - (t - s->hi));
  s->hi = t;
  s->lo += e;
}

/* The sum rounded to a double. */
static inline double moreau_sum_value(const moreau_sum *s) { return s->hi + s->lo; }

/* Collective: replaces s[0..n) on every rank by the sums over the ranks. */
MOREAU_MUST_CHECK moreau_err moreau_sum_allreduce(MPI_Comm comm, moreau_sum *s, int n);

#pragma GCC visibility pop

#endif
