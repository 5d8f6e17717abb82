#include <string.h>

#include "moreau/log.h"
#include "part_private.h"

/* Gluing of force-driven walls across ranks: walls are replicated, and every
 * rank whose contacts touch a force-driven wall holds a copy of mass M / k
 * (k ranks touch it); after a sweep the copies' velocities are averaged,
 * which is the velocity under the sum of all impulses (the same argument as
 * for interface bodies, src/part/interface_average.c). */

void part_wall_free(moreau_part *part)
{
  moreau_free(&part->wall_touch);
  moreau_free(&part->wall_share);
  moreau_free(&part->wall_buf);
  part->n_walls = part->wall_cap = 0;
  part->any_force_wall = 0;
}

moreau_err moreau_part_wall_interface_build(moreau_part *part, const moreau_walls *w, const char *touched,
                                            double *share)
{
  if (w->n > part->wall_cap) {
    MOREAU_CALL(moreau_realloc((size_t)w->n * sizeof(double), &part->wall_touch));
    MOREAU_CALL(moreau_realloc((size_t)w->n * sizeof(double), &part->wall_share));
    MOREAU_CALL(moreau_realloc((3 * (size_t)w->n + MOREAU_PART_CARRY_MAX) * sizeof(double), &part->wall_buf));
    part->wall_cap = w->n;
  }
  part->n_walls = w->n;
  part->any_force_wall = 0;
  for (int i = 0; i < w->n; i++) {
    part->wall_touch[i] = touched[i] ? 1.0 : 0.0;
    part->any_force_wall |= w->mode[i] == MOREAU_WALL_FORCE;
  }
  /* No walls: the arrays may be NULL, which memcpy may not be given. */
  if (w->n == 0) return MOREAU_SUCCESS;
  memcpy(part->wall_share, part->wall_touch, (size_t)w->n * sizeof(double));
  MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, part->wall_share, w->n, MPI_DOUBLE, MPI_SUM, part->comm));
  memcpy(share, part->wall_share, (size_t)w->n * sizeof(double));
  return MOREAU_SUCCESS;
}

int moreau_part_wall_reduces(const moreau_part *part, const moreau_walls *w)
{
  return w && part->any_force_wall && part->size > 1;
}

moreau_err moreau_part_wall_carry(moreau_part *part, const double *values, int n, MPI_Op op, double *recv)
{
  MOREAU_CHECK(part->carry_n == 0, MOREAU_ERR_INTERNAL, "values carried twice on one wall reduction");
  MOREAU_CHECK(part->any_force_wall && part->size > 1, MOREAU_ERR_INTERNAL, "no wall reduction to carry values");
  MOREAU_CHECK(n > 0 && n <= MOREAU_PART_CARRY_MAX, MOREAU_ERR_INTERNAL, "%d values to carry (at most %d)", n,
               MOREAU_PART_CARRY_MAX);
  memcpy(part->carry, values, (size_t)n * sizeof(double));
  part->carry_n = n;
  part->carry_op = op;
  part->carry_recv = recv;
  return MOREAU_SUCCESS;
}

/* Nonblocking, so that the sweep of the rows that move no shared wall
 * overlaps it (the caller sweeps those between begin and end). Carried
 * values go first in the buffer; the reduction is then one element of a
 * type holding all of it, so that the op sees the whole layout even where
 * the library cuts a long message into pieces. */
moreau_err part_wall_average_begin(moreau_part *part, moreau_walls *w)
{
  const int n0 = part->carry_n;
  MOREAU_CHECK(part->wall_request == MPI_REQUEST_NULL, MOREAU_ERR_INTERNAL, "wall average begun twice");
  /* One rank holds every copy: the copy is the average already. */
  if (!moreau_part_wall_reduces(part, w)) return MOREAU_SUCCESS;
  MOREAU_CHECK(w->n == part->n_walls, MOREAU_ERR_INTERNAL, "wall plan for %d walls used with %d", part->n_walls, w->n);
  memcpy(part->wall_buf, part->carry, (size_t)n0 * sizeof(double));
  for (int i = 0; i < w->n; i++)
    for (int d = 0; d < 3; d++)
      part->wall_buf[n0 + 3 * i + d] = part->wall_touch[i] * w->velocity[3 * i + d];
  if (n0) {
    MOREAU_MPI_CALL(MPI_Type_contiguous(n0 + 3 * w->n, MPI_DOUBLE, &part->carry_type));
    MOREAU_MPI_CALL(MPI_Type_commit(&part->carry_type));
    MOREAU_MPI_CALL(MPI_Iallreduce(MPI_IN_PLACE, part->wall_buf, 1, part->carry_type, part->carry_op, part->comm,
                                   &part->wall_request));
  } else
    MOREAU_MPI_CALL(
        MPI_Iallreduce(MPI_IN_PLACE, part->wall_buf, 3 * w->n, MPI_DOUBLE, MPI_SUM, part->comm, &part->wall_request));
  part->wall_walls = w;
  return MOREAU_SUCCESS;
}

moreau_err part_wall_average_end(moreau_part *part)
{
  moreau_walls *w = part->wall_walls;
  const int n0 = part->carry_n;
  /* Nothing begun: wall_buf may be NULL (no walls). */
  if (part->wall_request == MPI_REQUEST_NULL) return MOREAU_SUCCESS;
  const double *sum = part->wall_buf + n0;
  MOREAU_MPI_CALL(MPI_Wait(&part->wall_request, MPI_STATUS_IGNORE));
  part->wall_walls = NULL;
  if (n0) {
    memcpy(part->carry_recv, part->wall_buf, (size_t)n0 * sizeof(double));
    MOREAU_MPI_CALL(MPI_Type_free(&part->carry_type));
    part->carry_n = 0;
  }
  for (int i = 0; i < w->n; i++) {
    if (w->mode[i] != MOREAU_WALL_FORCE || part->wall_share[i] == 0) continue;
    for (int d = 0; d < 3; d++)
      w->velocity[3 * i + d] = sum[3 * i + d] / part->wall_share[i];
  }
  return MOREAU_SUCCESS;
}
