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

moreau_err part_gid_index(moreau_part *part, const moreau_bodies *b, const moreau_lid **order)
{
  if (part->gid_index_valid && part->gid_index_n == b->n_owned) {
    /* Debug builds check the order: a caller that changed the owned set
     * behind the partition's back would otherwise look bodies up at the
     * wrong lids. */
    for (moreau_lid k = 1; k < part->gid_index_n; k++)
      MOREAU_ASSERT(b->gid[part->gid_order[k - 1]] < b->gid[part->gid_order[k]]);
    *order = part->gid_order;
    return MOREAU_SUCCESS;
  }
  moreau_free(&part->gid_order);
  MOREAU_CALL(moreau_bodies_gid_order(b, &part->gid_order));
  part->gid_index_n = b->n_owned;
  part->gid_index_valid = 1;
  *order = part->gid_order;
  return MOREAU_SUCCESS;
}

moreau_lid part_gid_lookup(const moreau_bodies *b, const moreau_lid *order, moreau_gid gid)
{
  moreau_lid lo = 0, hi = b->n_owned;
  while (lo < hi) {
    moreau_lid mid = lo + (hi - lo) / 2;
    if (b->gid[order[mid]] < gid)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < b->n_owned && b->gid[order[lo]] == gid ? order[lo] : -1;
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
  MOREAU_CALL(part_gid_index(part, b, lids));
  return MOREAU_SUCCESS;
}

const moreau_lid *moreau_part_kept_gid_order(const moreau_part *part, const moreau_bodies *b)
{
  return part->gid_index_valid && part->gid_index_n == b->n_owned ? part->gid_order : NULL;
}
