#include "part_private.h"

void part_plan_free(part_plan *p)
{
  moreau_free(&p->rank);
  moreau_free(&p->offset);
  moreau_free(&p->index);
  p->n_rank = 0;
}

moreau_err part_plan_from_pairs(part_plan *p, int size, moreau_lid n, const int *rank, const moreau_lid *index)
{
  int *count, *slot;
  part_plan_free(p);
  MOREAU_CALL(moreau_calloc((size_t)size + 1, sizeof(int), &count));
  for (moreau_lid i = 0; i < n; i++)
    count[rank[i]]++;
  for (int r = 0; r < size; r++)
    if (count[r]) p->n_rank++;
  MOREAU_CALL(moreau_malloc((size_t)p->n_rank * sizeof(int), &p->rank));
  MOREAU_CALL(moreau_malloc(((size_t)p->n_rank + 1) * sizeof(int), &p->offset));
  MOREAU_CALL(moreau_malloc((size_t)n * sizeof(moreau_lid), &p->index));
  /* slot[r]: where the next entry of rank r goes (a counting sort, stable). */
  MOREAU_CALL(moreau_malloc((size_t)size * sizeof(int), &slot));
  p->offset[0] = 0;
  for (int r = 0, k = 0; r < size; r++) {
    slot[r] = p->offset[k];
    if (!count[r]) continue;
    p->rank[k] = r;
    p->offset[k + 1] = p->offset[k] + count[r];
    k++;
  }
  for (moreau_lid i = 0; i < n; i++)
    p->index[slot[rank[i]]++] = index[i];
  moreau_free(&count);
  moreau_free(&slot);
  return MOREAU_SUCCESS;
}
