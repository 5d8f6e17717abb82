#include "moreau/log.h"
#include "part_private.h"

/* Per-cell work of this rank: its owned bodies, plus one per history entry
 * (a contact of the last step) of each body, counted in the body's cell.
 * History entries of bodies owned elsewhere are not counted. */
static moreau_err local_work(moreau_part *part, const moreau_bodies *b, const moreau_contacts *history, int32_t *work)
{
  const part_grid *g = &part->grid;
  const part_gid_lid *index;
  for (int32_t c = 0; c < g->ncells; c++)
    work[c] = 0;
  for (moreau_lid i = 0; i < b->n_owned; i++)
    work[part_grid_cell(g, &b->x[3 * i])]++;
  if (!history || history->n == 0) return MOREAU_SUCCESS;
  MOREAU_CALL(part_gid_index(part, b, &index));
  for (moreau_lid j = 0; j < history->n; j++) {
    moreau_lid i = part_gid_find(index, b->n_owned, history->gid_a[j]);
    if (i >= 0) work[part_grid_cell(g, &b->x[3 * i])]++;
  }
  return MOREAU_SUCCESS;
}

/* Vertex weights 1 + S * work. Empty cells must weigh something (METIS
 * balances vertex weights and misbehaves on zeros), but as little as
 * possible next to real work: with S = 8 an empty cell costs an eighth of a
 * body, so a rank handed a stretch of empty space (above a deposit, in the
 * margin) still gets its share of bodies. S shrinks for very large runs so
 * that the total stays below 2^28 and the METIS edge weights below 2^31. */
static void vertex_weights(int32_t ncells, int32_t *work)
{
  int64_t total = 0;
  double scale;
  for (int32_t c = 0; c < ncells; c++)
    total += work[c];
  scale = (double)(1 << 28) / (double)(total + 1);
  if (scale > 8.0) scale = 8.0;
  for (int32_t c = 0; c < ncells; c++)
    work[c] = 1 + (int32_t)(scale * work[c]);
}

/* Rank 0 partitions and broadcasts the map, rather than every rank calling
 * METIS with the same input: the map is then identical everywhere by
 * construction, and the other ranks do not repeat the work. */
static moreau_err partition_on_root(moreau_part *part, int32_t *weight)
{
  const part_grid *g = &part->grid;
  if (part->size == 1) {
    for (int32_t c = 0; c < g->ncells; c++)
      part->cell_rank[c] = 0;
    return MOREAU_SUCCESS;
  }
  vertex_weights(g->ncells, weight);
  if (part->type == MOREAU_PART_METIS)
    MOREAU_CALL(part_partition_metis(g, weight, part->size, part->cell_rank));
  else
    MOREAU_CALL(part_partition_block(g, weight, part->size, part->cell_rank));
  return MOREAU_SUCCESS;
}

moreau_err part_partition(moreau_part *part, const moreau_bodies *b, const moreau_contacts *history)
{
  int32_t *work = NULL, *weight = NULL;
  moreau_err err = MOREAU_SUCCESS;
  moreau_log_begin(MOREAU_EV_PARTITION);
  MOREAU_CALL(part_grid_build(part, b));
  if (part->type == MOREAU_PART_RCB) {
    moreau_free(&part->cell_rank);
    MOREAU_CALL(part_partition_rcb(part, b, history));
    moreau_log_end(MOREAU_EV_PARTITION);
    return MOREAU_SUCCESS;
  }
  MOREAU_CALL(moreau_realloc((size_t)part->grid.ncells * sizeof(int), &part->cell_rank));
  MOREAU_CALL(moreau_malloc((size_t)part->grid.ncells * sizeof(int32_t), &work));
  MOREAU_CALL(local_work(part, b, history, work));
  if (part->rank == 0) MOREAU_CALL(moreau_malloc((size_t)part->grid.ncells * sizeof(int32_t), &weight));
  MOREAU_MPI_CALL(MPI_Reduce(work, weight, part->grid.ncells, MPI_INT32_T, MPI_SUM, 0, part->comm));
  moreau_free(&work);
  if (part->rank == 0) err = partition_on_root(part, weight);
  moreau_free(&weight);
  MOREAU_CALL(moreau_error_agree(part->comm, err));
  MOREAU_MPI_CALL(MPI_Bcast(part->cell_rank, part->grid.ncells, MPI_INT, 0, part->comm));
  moreau_log_end(MOREAU_EV_PARTITION);
  return MOREAU_SUCCESS;
}
