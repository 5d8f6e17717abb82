#include "part_private.h"

/* A point on a cut belongs to the upper side; NaN, which compares false,
 * goes up too, so every point has an owner. */
static int rcb_owner(const moreau_part *part, const double *x)
{
  int r0 = 0, r1 = part->size;
  while (r1 - r0 > 1) {
    int m = part_rcb_middle(r0, r1);
    if (x[part->rcb_axis[m]] < part->rcb_cut[m])
      r1 = m;
    else
      r0 = m;
  }
  return r0;
}

int part_owner(const moreau_part *part, const double *x)
{
  if (part->type == MOREAU_PART_RCB) return rcb_owner(part, x);
  return part->cell_rank[part_grid_cell(&part->grid, x)];
}

void part_rcb_walk_start(const moreau_part *part, part_rcb_walk *w)
{
  w->depth = 1;
  w->r0[0] = 0;
  w->r1[0] = part->size;
}

/* Depth first, lower side first. The stack holds at most one pending upper
 * side per level of the tree, and the tree of 2^31 ranks has 31 levels. */
int part_rcb_walk_next(const moreau_part *part, part_rcb_walk *w, const double *lo, const double *hi)
{
  while (w->depth > 0) {
    int r0 = w->r0[w->depth - 1], r1 = w->r1[w->depth - 1];
    w->depth--;
    while (r1 - r0 > 1) {
      int m = part_rcb_middle(r0, r1), a = part->rcb_axis[m];
      int below = lo[a] < part->rcb_cut[m], above = !(hi[a] < part->rcb_cut[m]);
      if (below && above) {
        w->r0[w->depth] = m;
        w->r1[w->depth] = r1;
        w->depth++;
      }
      if (below)
        r1 = m;
      else
        r0 = m;
    }
    return r0;
  }
  return -1;
}
