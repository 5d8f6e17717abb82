#include "part_private.h"

/* Walks the cells slab by slab along the longest axis and cuts the walk
 * into nparts runs of equal weight: a cell goes to the part in which the
 * midpoint of its weight falls, so parts are contiguous slabs (with a step
 * where a cut falls inside a slab). Exact integer arithmetic keeps the
 * result independent of rounding. */
moreau_err part_partition_block(const part_grid *g, const int32_t *weight, int nparts, int *cell_rank)
{
  int axis = 0, other[2], k = 0;
  int32_t stride[3] = {1, g->n[0], g->n[0] * g->n[1]};
  int64_t total = 0, before = 0;
  for (int d = 1; d < 3; d++)
    if (g->n[d] > g->n[axis]) axis = d;
  for (int d = 0; d < 3; d++)
    if (d != axis) other[k++] = d;
  for (int32_t c = 0; c < g->ncells; c++)
    total += weight[c];
  for (int a = 0; a < g->n[axis]; a++)
    for (int j = 0; j < g->n[other[1]]; j++)
      for (int i = 0; i < g->n[other[0]]; i++) {
        int32_t c = a * stride[axis] + j * stride[other[1]] + i * stride[other[0]];
        int64_t p = ((2 * before + weight[c]) * nparts) / (2 * total);
        cell_rank[c] = p < nparts ? (int)p : nparts - 1;
        before += weight[c];
      }
  return MOREAU_SUCCESS;
}
