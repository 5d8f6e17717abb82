#include "moreau/sum.h"

/* The reduction operator: adds pairs as double-doubles (the incoming pair's
 * two parts added one by one, then renormalised so that the next operation
 * starts from a clean pair). */
static void sum_pairs(void *in, void *inout, int *len, MPI_Datatype *type)
{
  (void)type;
  const moreau_sum *a = in;
  moreau_sum *b = inout;
  for (int i = 0; i < *len; i++) {
    moreau_sum s = b[i];
    moreau_sum_add(&s, a[i].hi);
    moreau_sum_add(&s, a[i].lo);
    double hi = s.hi + s.lo;
    b[i].lo = s.lo - (hi - s.hi);
    b[i].hi = hi;
  }
}

/* The datatype and operator live for one call: the analysis reduces a few
 * times per output step, and nothing global outlives MPI_Finalize. */
moreau_err moreau_sum_allreduce(MPI_Comm comm, moreau_sum *s, int n)
{
  MPI_Datatype pair;
  MPI_Op op;
  MOREAU_MPI_CALL(MPI_Type_contiguous(2, MPI_DOUBLE, &pair));
  MOREAU_MPI_CALL(MPI_Type_commit(&pair));
  MOREAU_MPI_CALL(MPI_Op_create(sum_pairs, 1, &op));
  int rc = MPI_Allreduce(MPI_IN_PLACE, s, n, pair, op, comm);
  MPI_Op_free(&op);
  MPI_Type_free(&pair);
  MOREAU_MPI_CALL(rc);
  return MOREAU_SUCCESS;
}
