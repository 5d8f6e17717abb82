#include <math.h>

#include "moreau/log.h"
#include "part_private.h"

/* Sends every owned body to the owner of its cell and every history entry
 * after its body (through the directory for entries whose body is not here
 * when orphans > 0 anywhere). */
static moreau_err redistribute(moreau_part *part, moreau_bodies *b, moreau_contacts *history,
                               const moreau_lid *hist_lid, int64_t global_orphans)
{
  int *body_dest, *hist_dest;
  moreau_lid n_hist = history ? history->n : 0;
  int64_t sent;
  moreau_log_begin(MOREAU_EV_MIGRATE);
  if (part->size == 1 && global_orphans == 0) {
    /* Every body and entry stays: no owner to look up, nothing to pack. */
    part->stats.migrated = 0;
    MOREAU_CALL(part_stay(part, history));
    moreau_log_end(MOREAU_EV_MIGRATE);
    return MOREAU_SUCCESS;
  }
  MOREAU_CALL(moreau_malloc((size_t)b->n_owned * sizeof(int), &body_dest));
  MOREAU_CALL(moreau_malloc((size_t)n_hist * sizeof(int), &hist_dest));
  for (moreau_lid i = 0; i < b->n_owned; i++)
    body_dest[i] = part_owner(part, &b->x[3 * i]);
  for (moreau_lid j = 0; j < n_hist; j++)
    hist_dest[j] = hist_lid[j] >= 0 ? body_dest[hist_lid[j]] : -1;
  if (global_orphans > 0) MOREAU_CALL(part_history_route(part, b, body_dest, history, &hist_dest));
  MOREAU_CALL(part_migrate(part, b, body_dest, history, hist_dest, &sent));
  MOREAU_MPI_CALL(MPI_Allreduce(&sent, &part->stats.migrated, 1, MPI_INT64_T, MPI_SUM, part->comm));
  moreau_free(&body_dest);
  moreau_free(&hist_dest);
  moreau_log_end(MOREAU_EV_MIGRATE);
  return MOREAU_SUCCESS;
}

moreau_err moreau_part_setup(moreau_part *part, moreau_bodies *b, moreau_contacts *history, double margin)
{
  moreau_lid *hist_lid;
  int64_t orphans, global_orphans;
  MOREAU_CHECK(margin >= 0.0 && isfinite(margin), MOREAU_ERR_INPUT, "partition margin must be >= 0, got %g", margin);
  part->margin = margin;
  part->ncomp = b->dim == 2 ? 3 : 6;
  if (part->map_given)
    part->grid.dim = b->dim;
  else
    MOREAU_CALL(part_partition(part, b, history));
  part->map_given = 0;
  MOREAU_CALL(part_history_lids(part, b, history, &hist_lid, &orphans));
  MOREAU_MPI_CALL(MPI_Allreduce(&orphans, &global_orphans, 1, MPI_INT64_T, MPI_SUM, part->comm));
  MOREAU_CALL(redistribute(part, b, history, hist_lid, global_orphans));
  moreau_free(&hist_lid);
  if (part->renumber_every > 0) MOREAU_CALL(moreau_error_agree(part->comm, part_renumber(part, b)));
  part->ready = 1;
  return MOREAU_SUCCESS;
}

moreau_err moreau_part_update(moreau_part *part, moreau_bodies *b, moreau_contacts *history, moreau_lid n_contacts)
{
  moreau_lid *hist_lid;
  /* Sums of work, orphans and sweep microseconds; maxima of work and
   * microseconds (TIME's imbalance, in the same two reductions; 10^4 ranks
   * sum 10^4 years of sweeps in microseconds within an int64). */
  int64_t local[3], sum[3], max[2];
  double mean;
  MOREAU_CHECK(part->ready, MOREAU_ERR_INTERNAL, "moreau_part_update called before moreau_part_setup");
  part->updates++;
  MOREAU_CALL(part_history_lids(part, b, history, &hist_lid, &local[1]));
  local[0] = (int64_t)b->n_owned + n_contacts;
  local[2] = llround(1e6 * part->sweep_seconds);
  part->work_sum += local[0];
  MOREAU_MPI_CALL(MPI_Allreduce(local, sum, 3, MPI_INT64_T, MPI_SUM, part->comm));
  MOREAU_MPI_CALL(MPI_Allreduce((int64_t[2]){local[0], local[2]}, max, 2, MPI_INT64_T, MPI_MAX, part->comm));
  mean = (double)sum[0] / part->size;
  part->stats.imbalance = mean > 0.0 ? (double)max[0] / mean : 1.0;
  if (part->weight == MOREAU_PART_WEIGHT_TIME && sum[2] > 0)
    part->stats.imbalance = (double)max[1] / ((double)sum[2] / part->size);
  if (part->size > 1 && part->stats.imbalance > part->threshold) {
    /* Relabelled here only: the first split does not depend on where the
     * bodies start (a reader's layout), a repartition moves few bodies. */
    double t0 = MPI_Wtime();
    int64_t bytes0 = part->stats.exchange_bytes;
    moreau_log_begin(MOREAU_EV_REPARTITION);
    MOREAU_CALL(part_partition(part, b, history));
    /* RCB's cuts move with the weight, and each rank keeps its region. */
    if (part->type != MOREAU_PART_RCB) MOREAU_CALL(part_relabel(part, b));
    MOREAU_CALL(redistribute(part, b, history, hist_lid, sum[1]));
    if (part->renumber_every > 0) MOREAU_CALL(moreau_error_agree(part->comm, part_renumber(part, b)));
    moreau_log_end(MOREAU_EV_REPARTITION);
    part->stats.repartitions++;
    part->stats.repartition_seconds += MPI_Wtime() - t0;
    part->stats.repartition_bytes += part->stats.exchange_bytes - bytes0;
  } else {
    MOREAU_CALL(redistribute(part, b, history, hist_lid, sum[1]));
    /* Bodies drift away from their neighbours in memory as they move, and
     * migrants arrive at the end. */
    if (part->renumber_every > 0 && part->updates % part->renumber_every == 0)
      MOREAU_CALL(moreau_error_agree(part->comm, part_renumber(part, b)));
  }
  moreau_free(&hist_lid);
  return MOREAU_SUCCESS;
}
