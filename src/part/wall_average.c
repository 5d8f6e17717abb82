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
    MOREAU_CALL(moreau_realloc(3 * (size_t)w->n * sizeof(double), &part->wall_buf));
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

/* Nonblocking, so that the sweep of the rows that move no shared wall
 * overlaps it (the caller sweeps those between begin and end). */
moreau_err part_wall_average_begin(moreau_part *part, moreau_walls *w)
{
  MOREAU_CHECK(part->wall_request == MPI_REQUEST_NULL, MOREAU_ERR_INTERNAL, "wall average begun twice");
  /* One rank holds every copy: the copy is the average already. */
  if (!w || !part->any_force_wall || part->size == 1) return MOREAU_SUCCESS;
  MOREAU_CHECK(w->n == part->n_walls, MOREAU_ERR_INTERNAL, "wall plan for %d walls used with %d", part->n_walls, w->n);
  for (int i = 0; i < w->n; i++)
    for (int d = 0; d < 3; d++)
      part->wall_buf[3 * i + d] = part->wall_touch[i] * w->velocity[3 * i + d];
  MOREAU_MPI_CALL(
      MPI_Iallreduce(MPI_IN_PLACE, part->wall_buf, 3 * w->n, MPI_DOUBLE, MPI_SUM, part->comm, &part->wall_request));
  part->wall_walls = w;
  return MOREAU_SUCCESS;
}

moreau_err part_wall_average_end(moreau_part *part)
{
  moreau_walls *w = part->wall_walls;
  if (part->wall_request == MPI_REQUEST_NULL) return MOREAU_SUCCESS;
  MOREAU_MPI_CALL(MPI_Wait(&part->wall_request, MPI_STATUS_IGNORE));
  part->wall_walls = NULL;
  for (int i = 0; i < w->n; i++) {
    if (w->mode[i] != MOREAU_WALL_FORCE || part->wall_share[i] == 0) continue;
    for (int d = 0; d < 3; d++)
      w->velocity[3 * i + d] = part->wall_buf[3 * i + d] / part->wall_share[i];
  }
  return MOREAU_SUCCESS;
}
