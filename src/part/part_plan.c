#include <stdlib.h>

#include "part_private.h"

void part_plan_free(part_plan *p)
{
  moreau_free(&p->rank);
  moreau_free(&p->offset);
  moreau_free(&p->index);
  p->n_rank = 0;
}

typedef struct {
  int rank;
  moreau_lid at; /* input position: sorting on (rank, at) keeps a rank's input order */
} rank_at;

static int by_rank_then_input(const void *a, const void *b)
{
  const rank_at *x = a, *y = b;
  if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
  return (x->at > y->at) - (x->at < y->at);
}

/* Grouping sorts the pairs rather than counting per rank, so that no array
 * grows with the number of ranks (a counting sort would touch P slots per
 * plan). Most inputs are already grouped: one pass then. */
moreau_err part_plan_from_pairs(part_plan *p, int size, moreau_lid n, const int *rank, const moreau_lid *index)
{
  rank_at *order = NULL;
  int grouped = 1;
  part_plan_free(p);
  for (moreau_lid i = 0; i < n; i++) {
    MOREAU_CHECK(rank[i] >= 0 && rank[i] < size, MOREAU_ERR_INTERNAL, "part plan: rank %d of %d", rank[i], size);
    if (i > 0 && rank[i] < rank[i - 1]) grouped = 0;
    if (i == 0 || rank[i] != rank[i - 1]) p->n_rank++;
  }
  MOREAU_CALL(moreau_malloc((size_t)n * sizeof(moreau_lid), &p->index));
  if (!grouped) {
    MOREAU_CALL(moreau_malloc((size_t)n * sizeof(*order), &order));
    for (moreau_lid i = 0; i < n; i++)
      order[i] = (rank_at){rank[i], i};
    qsort(order, (size_t)n, sizeof(*order), by_rank_then_input);
    p->n_rank = 0;
    for (moreau_lid i = 0; i < n; i++)
      if (i == 0 || order[i].rank != order[i - 1].rank) p->n_rank++;
  }
  MOREAU_CALL(moreau_malloc((size_t)p->n_rank * sizeof(int), &p->rank));
  MOREAU_CALL(moreau_malloc(((size_t)p->n_rank + 1) * sizeof(int), &p->offset));
  p->offset[0] = 0;
  for (moreau_lid i = 0, k = -1; i < n; i++) {
    int r = order ? order[i].rank : rank[i];
    if (k < 0 || r != p->rank[k]) {
      p->rank[++k] = r;
      p->offset[k] = (int)i;
    }
    p->index[i] = index[order ? order[i].at : i];
  }
  if (p->n_rank) p->offset[p->n_rank] = (int)n;
  moreau_free(&order);
  return MOREAU_SUCCESS;
}

moreau_err part_plan_from_dest(part_plan *p, int size, moreau_lid n, const int *dest, int skip)
{
  int *rank;
  moreau_lid *index, m = 0;
  MOREAU_CALL(moreau_malloc((size_t)n * sizeof(int), &rank));
  MOREAU_CALL(moreau_malloc((size_t)n * sizeof(moreau_lid), &index));
  for (moreau_lid i = 0; i < n; i++)
    if (dest[i] >= 0 && dest[i] != skip) {
      rank[m] = dest[i];
      index[m++] = i;
    }
  MOREAU_CALL(part_plan_from_pairs(p, size, m, rank, index));
  moreau_free(&rank);
  moreau_free(&index);
  return MOREAU_SUCCESS;
}
