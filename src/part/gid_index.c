#include <stdlib.h>

#include "part_private.h"

static int cmp_gid_lid(const void *pa, const void *pb)
{
  const part_gid_lid *a = pa, *b = pb;
  return (a->gid > b->gid) - (a->gid < b->gid);
}

/* An empty index may be NULL, which qsort may not be given. */
void part_gid_sort(part_gid_lid *index, moreau_lid n)
{
  if (n > 1) qsort(index, (size_t)n, sizeof(*index), cmp_gid_lid);
}

moreau_err part_gid_index(const moreau_bodies *b, part_gid_lid **index)
{
  part_gid_lid *idx;
  int sorted = 1;
  MOREAU_CALL(moreau_malloc((size_t)b->n_owned * sizeof(*idx), &idx));
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    idx[i].gid = b->gid[i];
    idx[i].lid = i;
    if (i > 0 && b->gid[i] < b->gid[i - 1]) sorted = 0;
  }
  /* Owned bodies are kept sorted by gid after setup, so the sort is only
   * paid for unsorted input. */
  if (!sorted) part_gid_sort(idx, b->n_owned);
  *index = idx;
  return MOREAU_SUCCESS;
}

moreau_lid part_gid_find(const part_gid_lid *index, moreau_lid n, moreau_gid gid)
{
  moreau_lid lo = 0, hi = n;
  while (lo < hi) {
    moreau_lid mid = lo + (hi - lo) / 2;
    if (index[mid].gid < gid)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && index[lo].gid == gid ? index[lo].lid : -1;
}
