#include <math.h>

#include "part_private.h"

moreau_err part_grid_build(moreau_part *part, const moreau_bodies *b)
{
  part_grid *g = &part->grid;
  int dim = b->dim;
  /* One MIN reduction for the whole box: maxima travel negated. */
  double local[7], global[7], extent[3] = {0, 0, 0}, box_lo[3], box_hi[3], h;
  for (int k = 0; k < 7; k++)
    local[k] = HUGE_VAL;
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    for (int k = 0; k < dim; k++) {
      double x = b->x[3 * i + k];
      if (x < local[k]) local[k] = x;
      if (-x < local[3 + k]) local[3 + k] = -x;
    }
    if (-b->radius[i] < local[6]) local[6] = -b->radius[i];
  }
  MOREAU_MPI_CALL(MPI_Allreduce(local, global, 7, MPI_DOUBLE, MPI_MIN, part->comm));
  if (global[6] == HUGE_VAL) /* no bodies anywhere: one cell at the origin */
    for (int k = 0; k < 7; k++)
      global[k] = 0.0;

  g->dim = dim;
  if (part->domain && moreau_domain_any_periodic(part->domain)) moreau_domain_get_box(part->domain, box_lo, box_hi);
  for (int k = 0; k < 3; k++) {
    g->lo[k] = 0.0;
    if (k >= dim) continue;
    g->lo[k] = global[k] - part->margin;
    extent[k] = -global[3 + k] - global[k] + 2.0 * part->margin;
    /* A periodic axis is covered exactly once, from the box's lower face
     * (bodies are wrapped into [lo, hi)). */
    if (part->domain && moreau_domain_is_periodic(part->domain, k)) {
      g->lo[k] = box_lo[k];
      extent[k] = box_hi[k] - box_lo[k];
    }
    MOREAU_CHECK(isfinite(extent[k]), MOREAU_ERR_RUNTIME,
                 "partition: body positions are not finite (the simulation has blown up)");
  }
  h = part->cell_size_option > 0.0 ? part->cell_size_option : -2.0 * global[6];
  for (int k = 0; k < dim; k++)
    if (!(h > 0.0) && extent[k] > 0.0) h = extent[k];
  if (!(h > 0.0)) h = 1.0;

  /* Grow the cells until the grid fits the cap; h only increases, so this
   * ends. */
  for (;;) {
    double cells = 1.0;
    for (int k = 0; k < dim; k++)
      cells *= fmax(1.0, ceil(extent[k] / h));
    if (cells <= (double)PART_MAX_CELLS) break;
    h *= fmax(1.001, pow(cells / PART_MAX_CELLS, 1.0 / dim));
  }
  g->h = h;
  g->ncells = 1;
  for (int k = 0; k < 3; k++) {
    g->n[k] = k < dim ? (int)fmax(1.0, ceil(extent[k] / h)) : 1;
    g->ncells *= g->n[k];
  }
  return MOREAU_SUCCESS;
}

/* Clamping sends points outside the grid (and NaN) to the edge cells, so
 * that no body is ever without an owner. */
static int axis_cell(const part_grid *g, int k, double x)
{
  double t = (x - g->lo[k]) / g->h;
  if (!(t >= 0.0)) return 0;
  if (t >= (double)g->n[k]) return g->n[k] - 1;
  return (int)t;
}

int32_t part_grid_cell(const part_grid *g, const double *x)
{
  int32_t c = 0;
  for (int k = g->dim - 1; k >= 0; k--)
    c = c * g->n[k] + axis_cell(g, k, x[k]);
  return c;
}

void part_grid_range(const part_grid *g, const double *x, double r, int lo[3], int hi[3])
{
  for (int k = 0; k < 3; k++) {
    lo[k] = hi[k] = 0;
    if (k >= g->dim) continue;
    lo[k] = axis_cell(g, k, x[k] - r);
    hi[k] = axis_cell(g, k, x[k] + r);
  }
}
