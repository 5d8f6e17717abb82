#include <math.h>

#include "part_private.h"

/* Under TIME a body weighs this many units per unit of work at the mean
 * cost, so that relative costs are kept to about 1% when rounded. */
#define PART_TIME_UNITS 64.0

/* This rank's sweep seconds per unit of work over the mean of all ranks
 * (the same ratio for every body here); 1 until there is a measurement. */
static moreau_err relative_cost(moreau_part *part, double *q)
{
  double local[2] = {part->sweep_seconds, (double)part->work_sum}, global[2];
  MOREAU_MPI_CALL(MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_SUM, part->comm));
  *q = 1.0;
  if (global[0] > 0.0 && global[1] > 0.0 && local[0] > 0.0 && local[1] > 0.0)
    *q = (local[0] / local[1]) / (global[0] / global[1]);
  return MOREAU_SUCCESS;
}

static moreau_err count_weights(moreau_part *part, const moreau_bodies *b, const moreau_contacts *history, int64_t *w)
{
  const moreau_lid *order;
  for (moreau_lid i = 0; i < b->n_owned; i++)
    w[i] = 1;
  if (!history || history->n == 0) return MOREAU_SUCCESS;
  MOREAU_CALL(part_gid_index(part, b, &order));
  for (moreau_lid j = 0; j < history->n; j++) {
    moreau_lid i = part_gid_lookup(b, order, history->gid_a[j]);
    if (i >= 0) w[i]++;
  }
  return MOREAU_SUCCESS;
}

moreau_err part_body_weights(moreau_part *part, const moreau_bodies *b, const moreau_contacts *history, int64_t *w)
{
  double q = 1.0;
  /* Agreed before the reduction below, which a failed rank would miss. */
  MOREAU_CALL(moreau_error_agree(part->comm, count_weights(part, b, history, w)));
  if (part->weight != MOREAU_PART_WEIGHT_TIME) return MOREAU_SUCCESS;
  MOREAU_CALL(relative_cost(part, &q));
  /* A body never weighs nothing: METIS and the bisection both need it. */
  for (moreau_lid i = 0; i < b->n_owned; i++)
    w[i] = (int64_t)fmax(1.0, llround(PART_TIME_UNITS * q * (double)w[i]));
  return MOREAU_SUCCESS;
}
