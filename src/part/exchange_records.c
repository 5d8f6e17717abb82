#include <limits.h>

#include "part_private.h"

/* Per-rank counts (in records) to MPI counts and displacements (in doubles),
 * failing rather than overflowing MPI's int counts. */
static moreau_err displacements(int size, const int *count, int record, int *mpi_count, int *mpi_displ)
{
  int64_t at = 0;
  for (int r = 0; r < size; r++) {
    int64_t n = (int64_t)count[2 * r] * record;
    MOREAU_CHECK(at + n <= INT_MAX, MOREAU_ERR_RUNTIME, "part: more than %d doubles in one exchange", INT_MAX);
    mpi_count[r] = (int)n;
    mpi_displ[r] = (int)at;
    at += n;
  }
  return MOREAU_SUCCESS;
}

moreau_err part_exchange_records(const moreau_part *part, const int *count, int column, int record, moreau_lid n_items,
                                 const int *dest, int skip, const void *obj, part_pack_fn pack, double **recv,
                                 int64_t *n_recv)
{
  int size = part->size;
  int *sc, *sd, *rc, *rd;
  double *sbuf;
  MOREAU_CALL(moreau_malloc(4 * (size_t)size * sizeof(int), &sc));
  sd = sc + size;
  rc = sd + size;
  rd = rc + size;
  MOREAU_CALL(displacements(size, count + column, record, sc, sd));
  MOREAU_CALL(displacements(size, count + 2 * size + column, record, rc, rd));
  MOREAU_CALL(moreau_malloc(((size_t)sd[size - 1] + (size_t)sc[size - 1]) * sizeof(double), &sbuf));
  MOREAU_CALL(moreau_malloc(((size_t)rd[size - 1] + (size_t)rc[size - 1]) * sizeof(double), recv));
  for (moreau_lid i = 0; i < n_items; i++) {
    if (dest[i] == skip || dest[i] < 0) continue;
    pack(obj, i, &sbuf[sd[dest[i]]]);
    sd[dest[i]] += record;
  }
  for (int r = 0; r < size; r++)
    sd[r] -= sc[r];
  MOREAU_MPI_CALL(MPI_Alltoallv(sbuf, sc, sd, MPI_DOUBLE, *recv, rc, rd, MPI_DOUBLE, part->comm));
  *n_recv = ((int64_t)rd[size - 1] + rc[size - 1]) / record;
  moreau_free(&sbuf);
  moreau_free(&sc);
  return MOREAU_SUCCESS;
}
