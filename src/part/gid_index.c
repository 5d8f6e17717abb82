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

void part_gid_index_invalidate(moreau_part *part) { part->gid_index_valid = 0; }

moreau_err part_gid_index(moreau_part *part, const moreau_bodies *b, const part_gid_lid **index)
{
  int sorted = 1;
  if (part->gid_index_valid && part->gid_index_n == b->n_owned) {
    /* Debug builds check every entry: a caller that changed the owned set
     * behind the partition's back would otherwise look bodies up at the
     * wrong lids. */
    for (moreau_lid k = 0; k < part->gid_index_n; k++)
      MOREAU_ASSERT(b->gid[part->gid_index[k].lid] == part->gid_index[k].gid);
    *index = part->gid_index;
    return MOREAU_SUCCESS;
  }
  MOREAU_CALL(moreau_realloc((size_t)b->n_owned * sizeof(*part->gid_index), &part->gid_index));
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    part->gid_index[i].gid = b->gid[i];
    part->gid_index[i].lid = i;
    if (i > 0 && b->gid[i] < b->gid[i - 1]) sorted = 0;
  }
  if (!sorted) part_gid_sort(part->gid_index, b->n_owned);
  MOREAU_CALL(moreau_realloc((size_t)b->n_owned * sizeof(moreau_lid), &part->gid_order));
  for (moreau_lid k = 0; k < b->n_owned; k++)
    part->gid_order[k] = part->gid_index[k].lid;
  part->gid_index_n = b->n_owned;
  part->gid_index_valid = 1;
  *index = part->gid_index;
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

moreau_err moreau_part_owned_by_gid(moreau_part *part, const moreau_bodies *b, const moreau_lid **lids)
{
  const part_gid_lid *index;
  MOREAU_CALL(part_gid_index(part, b, &index));
  *lids = part->gid_order;
  return MOREAU_SUCCESS;
}

const moreau_lid *moreau_part_kept_gid_order(const moreau_part *part, const moreau_bodies *b)
{
  return part->gid_index_valid && part->gid_index_n == b->n_owned ? part->gid_order : NULL;
}
