#include <stdlib.h>

#include "part_private.h"

/* A new partition's part numbers are METIS's own, unrelated to the ranks
 * that hold the bodies now: taken as they come, a mild rebalance moved most
 * bodies (83-97% in a 4-rank test). Each part goes instead to the rank that
 * already holds most of its bodies, as far as ranks are free: the pairs
 * (rank, part) of the overlap, heaviest first, each taken when both are
 * still unassigned (greedy matching, within 2x of the best relabelling's
 * kept bodies, in practice the best for a drift). Parts left over take the
 * ranks left over in order. */

typedef struct {
  int64_t count; /* bodies of rank now in part */
  int rank, part;
} overlap;

static int cmp_int(const void *a, const void *b)
{
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Heaviest first; ties by rank, then part, so the root's choice is a
 * function of the overlaps only. */
static int cmp_overlap(const void *a, const void *b)
{
  const overlap *x = a, *y = b;
  if (x->count != y->count) return x->count < y->count ? 1 : -1;
  if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
  return (x->part > y->part) - (x->part < y->part);
}

/* This rank's row of the overlap: (part, bodies) for each part its owned
 * bodies fall in under the new map, as int64 pairs. */
static moreau_err local_row(const moreau_part *part, const moreau_bodies *b, int64_t **row, int *n)
{
  int *parts;
  /* The row first: the caller frees it whatever happens here. */
  MOREAU_CALL(moreau_malloc(2 * (size_t)(b->n_owned + 1) * sizeof(int64_t), row));
  MOREAU_CALL(moreau_malloc((size_t)(b->n_owned + 1) * sizeof(int), &parts));
  for (moreau_lid i = 0; i < b->n_owned; i++)
    parts[i] = part->cell_rank[part_grid_cell(&part->grid, &b->x[3 * i])];
  qsort(parts, (size_t)b->n_owned, sizeof(int), cmp_int);
  *n = 0;
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    if (i == 0 || parts[i] != parts[i - 1]) {
      (*row)[2 * *n] = parts[i];
      (*row)[2 * *n + 1] = 0;
      (*n)++;
    }
    (*row)[2 * *n - 1]++;
  }
  moreau_free(&parts);
  return MOREAU_SUCCESS;
}

/* Root: the label (new rank) of every part from all rows. */
static moreau_err match(int size, const int64_t *pairs, const int *counts, int *label)
{
  overlap *o;
  char *rank_used;
  int64_t total = 0;
  for (int r = 0; r < size; r++)
    total += counts[r];
  MOREAU_CALL(moreau_malloc((size_t)(total + 1) * sizeof(*o), &o));
  moreau_err err = moreau_calloc((size_t)size, 1, &rank_used);
  if (err) moreau_free(&o);
  MOREAU_CALL(err);
  for (int64_t k = 0, r = 0, left = counts[0]; k < total; k++) {
    while (left == 0)
      left = counts[++r];
    o[k] = (overlap){.count = pairs[2 * k + 1], .rank = (int)r, .part = (int)pairs[2 * k]};
    left--;
  }
  qsort(o, (size_t)total, sizeof(*o), cmp_overlap);
  for (int p = 0; p < size; p++)
    label[p] = -1;
  for (int64_t k = 0; k < total; k++)
    if (label[o[k].part] < 0 && !rank_used[o[k].rank]) {
      label[o[k].part] = o[k].rank;
      rank_used[o[k].rank] = 1;
    }
  for (int p = 0, r = 0; p < size; p++) {
    if (label[p] >= 0) continue;
    while (rank_used[r])
      r++;
    label[p] = r;
    rank_used[r] = 1;
  }
  moreau_free(&o);
  moreau_free(&rank_used);
  return MOREAU_SUCCESS;
}

/* Every allocation is agreed on before the collective that needs it: a
 * rank that failed alone would leave the others waiting. */
static moreau_err relabel(moreau_part *part, const moreau_bodies *b, int64_t **row, int64_t **pairs, int **counts,
                          int **counts2, int **displs, int **label)
{
  int64_t total = 0;
  int n = 0;
  const int root = part->rank == 0;
  moreau_err err = local_row(part, b, row, &n);
  if (!err) err = moreau_malloc((size_t)part->size * sizeof(int), label);
  if (!err && root) err = moreau_malloc((size_t)part->size * sizeof(int), counts);
  if (!err && root) err = moreau_malloc((size_t)part->size * sizeof(int), counts2);
  if (!err && root) err = moreau_malloc((size_t)part->size * sizeof(int), displs);
  MOREAU_CALL(moreau_error_agree(part->comm, err));
  MOREAU_MPI_CALL(MPI_Gather(&n, 1, MPI_INT, *counts, 1, MPI_INT, 0, part->comm));
  if (root) {
    for (int r = 0; r < part->size; r++) {
      (*displs)[r] = (int)(2 * total);
      (*counts2)[r] = 2 * (*counts)[r];
      total += (*counts)[r];
    }
    err = moreau_malloc(2 * (size_t)(total + 1) * sizeof(int64_t), pairs);
  }
  MOREAU_CALL(moreau_error_agree(part->comm, err));
  MOREAU_MPI_CALL(MPI_Gatherv(*row, 2 * n, MPI_INT64_T, *pairs, *counts2, *displs, MPI_INT64_T, 0, part->comm));
  if (root) err = match(part->size, *pairs, *counts, *label);
  MOREAU_CALL(moreau_error_agree(part->comm, err));
  MOREAU_MPI_CALL(MPI_Bcast(*label, part->size, MPI_INT, 0, part->comm));
  for (int32_t c = 0; c < part->grid.ncells; c++)
    part->cell_rank[c] = (*label)[part->cell_rank[c]];
  return MOREAU_SUCCESS;
}

moreau_err part_relabel(moreau_part *part, const moreau_bodies *b)
{
  int64_t *row = NULL, *pairs = NULL;
  int *counts = NULL, *counts2 = NULL, *displs = NULL, *label = NULL;
  moreau_err err;
  if (part->size == 1) return MOREAU_SUCCESS;
  err = relabel(part, b, &row, &pairs, &counts, &counts2, &displs, &label);
  moreau_free(&row);
  moreau_free(&pairs);
  moreau_free(&counts);
  moreau_free(&counts2);
  moreau_free(&displs);
  moreau_free(&label);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}
