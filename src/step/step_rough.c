#include <math.h>

#include "sim_private.h"

moreau_err moreau_sim_set_rough_cell(moreau_sim *sim, const moreau_rough_cell *cell)
{
  sim->rough_on = cell != NULL;
  if (!cell) return MOREAU_SUCCESS;
  const moreau_walls *w = sim->walls;
  MOREAU_CHECK(
      cell->bottom >= 0 && cell->bottom < w->n && cell->top >= 0 && cell->top < w->n && cell->bottom != cell->top,
      MOREAU_ERR_INPUT, "rough cell: walls %d and %d are not two of the %d walls", cell->bottom, cell->top, w->n);
  MOREAU_CHECK(cell->flow != cell->gradient && cell->flow >= 0 && cell->flow < sim->dim && cell->gradient >= 0 &&
                   cell->gradient < sim->dim,
               MOREAU_ERR_INPUT, "rough cell: flow axis %d and gradient axis %d", cell->flow, cell->gradient);
  MOREAU_CHECK(cell->diameter > 0 && isfinite(cell->diameter), MOREAU_ERR_INPUT,
               "rough cell: grain diameter %g is not positive", cell->diameter);
  sim->rough = *cell;
  sim_rough_stream(sim);
  return MOREAU_SUCCESS;
}

int moreau_sim_rough_cell(const moreau_sim *sim, moreau_rough_cell *cell)
{
  if (sim->rough_on && cell) *cell = sim->rough;
  return sim->rough_on;
}

double moreau_sim_rough_gap(const moreau_sim *sim)
{
  const moreau_rough_cell *rc = &sim->rough;
  const double *p = sim->walls->point;
  return p[3 * rc->top + rc->gradient] - p[3 * rc->bottom + rc->gradient] - rc->diameter;
}

double moreau_sim_rough_strain(const moreau_sim *sim)
{
  const moreau_rough_cell *rc = &sim->rough;
  const double *p = sim->walls->point;
  return (p[3 * rc->top + rc->flow] - p[3 * rc->bottom + rc->flow]) / moreau_sim_rough_gap(sim);
}

void sim_rough_stream(moreau_sim *sim)
{
  const moreau_rough_cell *rc = &sim->rough;
  if (!sim->rough_on) return;
  const moreau_walls *w = sim->walls;
  const double half = 0.5 * rc->diameter;
  const double x[2] = {w->point[3 * rc->bottom + rc->gradient] + half, w->point[3 * rc->top + rc->gradient] - half};
  const double v[2] = {w->velocity[3 * rc->bottom + rc->flow], w->velocity[3 * rc->top + rc->flow]};
  moreau_domain_set_wall_shear(sim->domain, rc->flow, rc->gradient, x, v);
}

void sim_rough_drive(moreau_sim *sim)
{
  const moreau_rough_cell *rc = &sim->rough;
  if (!sim->rough_on) return;
  double v = rc->velocity;
  /* Walls are replicated: every rank sets the same velocity. */
  if (rc->shear_rate > 0) v = rc->shear_rate * moreau_sim_rough_gap(sim);
  sim->walls->velocity[3 * rc->top + rc->flow] = v;
  sim_rough_stream(sim);
}
