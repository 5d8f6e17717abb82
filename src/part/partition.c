#include "moreau/log.h"
#include "part_private.h"

/* Collective. Per-cell work of this rank: the weights of its owned bodies
 * (part_body_weights), summed in their cells. */
static moreau_err local_work(moreau_part *part, const moreau_bodies *b, const moreau_contacts *history, int64_t *work)
{
  const part_grid *g = &part->grid;
  int64_t *w = NULL;
  MOREAU_CALL(moreau_error_agree(part->comm, moreau_malloc(((size_t)b->n_owned + 1) * sizeof(int64_t), &w)));
  moreau_err err = part_body_weights(part, b, history, w);
  for (int32_t c = 0; c < g->ncells; c++)
    work[c] = 0;
  for (moreau_lid i = 0; !err && i < b->n_owned; i++)
    work[part_grid_cell(g, &b->x[3 * i])] += w[i];
  moreau_free(&w);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}

/* Vertex weights 1 + S * work. Empty cells must weigh something (METIS
 * balances vertex weights and misbehaves on zeros), but as little as
 * possible next to real work: with S = 8 an empty cell costs an eighth of a
 * body, so a rank handed a stretch of empty space (above a deposit, in the
 * margin) still gets its share of bodies. S shrinks for very large runs so
 * that the total stays below 2^28 and the METIS edge weights below 2^31. */
static void vertex_weights(int32_t ncells, const int64_t *work, int32_t *weight)
{
  int64_t total = 0;
  double scale;
  for (int32_t c = 0; c < ncells; c++)
    total += work[c];
  scale = (double)(1 << 28) / (double)(total + 1);
  if (scale > 8.0) scale = 8.0;
  for (int32_t c = 0; c < ncells; c++)
    weight[c] = 1 + (int32_t)(scale * (double)work[c]);
}

/* Rank 0 partitions and broadcasts the map, rather than every rank calling
 * METIS with the same input: the map is then identical everywhere by
 * construction, and the other ranks do not repeat the work. */
static moreau_err partition_on_root(moreau_part *part, const int64_t *work)
{
  const part_grid *g = &part->grid;
  int32_t *weight;
  moreau_err err;
  if (part->size == 1) {
    for (int32_t c = 0; c < g->ncells; c++)
      part->cell_rank[c] = 0;
    return MOREAU_SUCCESS;
  }
  MOREAU_CALL(moreau_malloc((size_t)g->ncells * sizeof(int32_t), &weight));
  vertex_weights(g->ncells, work, weight);
  if (part->type == MOREAU_PART_METIS)
    err = part_partition_metis(g, weight, part->size, part->cell_rank);
  else
    err = part_partition_block(g, weight, part->size, part->cell_rank);
  moreau_free(&weight);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}

moreau_err part_partition(moreau_part *part, const moreau_bodies *b, const moreau_contacts *history)
{
  int64_t *work = NULL, *total = NULL;
  moreau_err err;
  moreau_log_begin(MOREAU_EV_PARTITION);
  MOREAU_CALL(part_grid_build(part, b));
  if (part->type == MOREAU_PART_RCB) {
    moreau_free(&part->cell_rank);
    MOREAU_CALL(part_partition_rcb(part, b, history));
    part_restart_measures(part);
    moreau_log_end(MOREAU_EV_PARTITION);
    return MOREAU_SUCCESS;
  }
  /* Every allocation is agreed on before the collectives that need it. */
  err = moreau_realloc((size_t)part->grid.ncells * sizeof(int), &part->cell_rank);
  if (!err) err = moreau_malloc((size_t)part->grid.ncells * sizeof(int64_t), &work);
  if (!err && part->rank == 0) err = moreau_malloc((size_t)part->grid.ncells * sizeof(int64_t), &total);
  err = moreau_error_agree(part->comm, err);
  if (!err) err = local_work(part, b, history, work);
  if (!err) MOREAU_MPI_CALL(MPI_Reduce(work, total, part->grid.ncells, MPI_INT64_T, MPI_SUM, 0, part->comm));
  moreau_free(&work);
  if (!err && part->rank == 0) err = partition_on_root(part, total);
  moreau_free(&total);
  MOREAU_CALL(moreau_error_agree(part->comm, err));
  MOREAU_MPI_CALL(MPI_Bcast(part->cell_rank, part->grid.ncells, MPI_INT, 0, part->comm));
  part_restart_measures(part);
  moreau_log_end(MOREAU_EV_PARTITION);
  return MOREAU_SUCCESS;
}
