#include <math.h>
#include <string.h>

#include "app_private.h"
#include "moreau/sum.h"

/* The rough-wall shear cell of -rough_walls (moreau_rough_cell in
 * moreau/sim.h): its axes and walls from the box, the glued grains, the top
 * wall's drive. */

/* Sums over the free bodies of every rank: count, diameter, mass, measure
 * (order-independent: a restart holds the bodies on other ranks and must
 * find the same digits); and the largest gid. */
static moreau_err free_body_sums(const moreau_sim *sim, double sums[4], moreau_gid *gid_max)
{
  const moreau_bodies *b = moreau_sim_bodies(sim);
  int64_t gmax = -1;
  moreau_sum acc[4];
  memset(acc, 0, sizeof(acc));
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    if (b->gid[i] > gmax) gmax = b->gid[i];
    if (b->inv_mass[i] == 0.0) continue;
    moreau_sum_add(&acc[0], 1.0);
    moreau_sum_add(&acc[1], 2.0 * b->radius[i]);
    moreau_sum_add(&acc[2], 1.0 / b->inv_mass[i]);
    moreau_sum_add(&acc[3], moreau_bodies_measure(b, i));
  }
  MOREAU_CALL(moreau_sum_allreduce(moreau_sim_comm(sim), acc, 4));
  for (int k = 0; k < 4; k++)
    sums[k] = moreau_sum_value(&acc[k]);
  MOREAU_MPI_CALL(MPI_Allreduce(&gmax, gid_max, 1, MPI_INT64_T, MPI_MAX, moreau_sim_comm(sim)));
  MOREAU_CHECK(sums[0] > 0, MOREAU_ERR_INPUT, "option -rough_walls: there are no free bodies to shear");
  return MOREAU_SUCCESS;
}

/* The cell's axes and walls: one non-periodic axis (the gradient) whose
 * two faces carry the only walls, the flow along the first periodic axis. */
static moreau_err find_cell(const moreau_sim *sim, moreau_rough_cell *rc)
{
  const moreau_domain *d = moreau_sim_domain(sim);
  const moreau_walls *w = moreau_sim_walls(sim);
  const int dim = moreau_sim_dim(sim);
  int n_open = 0;
  rc->flow = rc->gradient = -1;
  for (int k = 0; k < dim; k++) {
    if (moreau_domain_is_periodic(d, k)) {
      if (rc->flow < 0) rc->flow = k;
    } else {
      rc->gradient = k;
      n_open++;
    }
  }
  MOREAU_CHECK(n_open == 1, MOREAU_ERR_INPUT,
               "option -rough_walls: needs -periodic on every axis but the gradient one (e.g. -periodic %s), got %d "
               "non-periodic axes",
               dim == 2 ? "x" : "x,z", n_open);
  rc->bottom = rc->top = -1;
  for (int i = 0; i < w->n; i++) {
    const double *n = &w->normal[3 * i];
    if (n[rc->gradient] == 1.0) rc->bottom = i;
    if (n[rc->gradient] == -1.0) rc->top = i;
  }
  MOREAU_CHECK(w->n == 2 && rc->bottom >= 0 && rc->top >= 0, MOREAU_ERR_INPUT,
               "option -rough_walls: needs the box's two walls across axis %c and no other (it has %d walls)",
               "xyz"[rc->gradient], w -> n);
  return MOREAU_SUCCESS;
}

/* One layer of grains glued to wall iw, centres on its plane, touching
 * along each periodic axis (n = floor(L / d) per axis, spacing L / n). */
static moreau_err lay_grains(moreau_sim *sim, const moreau_rough_cell *rc, int iw, moreau_gid *next)
{
  const moreau_domain *d = moreau_sim_domain(sim);
  const moreau_walls *w = moreau_sim_walls(sim);
  const int dim = moreau_sim_dim(sim);
  double lo[3], hi[3];
  int count[3] = {1, 1, 1};
  moreau_domain_get_box(d, lo, hi);
  for (int k = 0; k < dim; k++) {
    if (k == rc->gradient) continue;
    double n = floor((hi[k] - lo[k]) / rc->diameter);
    MOREAU_CHECK(n >= 1, MOREAU_ERR_INPUT, "option -rough_diameter: %g is longer than the box along axis %c (%g)",
                 rc->diameter, "xyz"[k], hi[k] - lo[k]);
    MOREAU_CHECK(n < 1e6, MOREAU_ERR_INPUT,
                 "option -rough_diameter: %g would lay more than a million grains along axis %c (box length %g)",
                 rc->diameter, "xyz"[k], hi[k] - lo[k]);
    count[k] = (int)n;
  }
  for (int i = 0; i < count[0]; i++)
    for (int j = 0; j < count[1]; j++)
      for (int l = 0; l < count[2]; l++) {
        moreau_body body;
        int idx[3] = {i, j, l};
        memset(&body, 0, sizeof(body));
        body.gid = (*next)++;
        body.q[0] = 1.0;
        body.radius = 0.5 * rc->diameter;
        body.fixed = 1;
        body.glued = iw + 1;
        for (int k = 0; k < dim; k++)
          body.x[k] = k == rc->gradient ? w->point[3 * iw + k] : lo[k] + (idx[k] + 0.5) * (hi[k] - lo[k]) / count[k];
        /* Rank 0 holds them all; setup distributes them. */
        if (moreau_sim_rank(sim) == 0) MOREAU_CALL(moreau_bodies_push_owned(moreau_sim_bodies(sim), &body));
      }
  return MOREAU_SUCCESS;
}

moreau_err app_rough_wall_modes(moreau_sim *sim)
{
  moreau_rough_cell rc;
  int rough, pressure;
  MOREAU_CALL(moreau_option_bool("-rough_walls", &rough));
  if (!rough) return MOREAU_SUCCESS;
  MOREAU_CALL(find_cell(sim, &rc));
  MOREAU_CALL(moreau_option_is_set("-pressure", &pressure));
  moreau_sim_walls(sim)->mode[rc.top] = pressure ? MOREAU_WALL_FORCE : MOREAU_WALL_VELOCITY;
  return MOREAU_SUCCESS;
}

moreau_err app_rough_from_options(moreau_sim *sim, int new_run)
{
  moreau_walls *w = moreau_sim_walls(sim);
  moreau_rough_cell rc;
  const int dim = moreau_sim_dim(sim);
  double sums[4], lo[3], hi[3], area = 1.0, mass = 1.0, density, mean_d;
  int rough, set;
  moreau_gid gid_max;
  MOREAU_CALL(moreau_option_bool("-rough_walls", &rough));
  if (!rough) return MOREAU_SUCCESS;
  memset(&rc, 0, sizeof(rc));
  MOREAU_CALL(find_cell(sim, &rc));
  MOREAU_CALL(free_body_sums(sim, sums, &gid_max));
  mean_d = sums[1] / sums[0];
  density = sums[2] / sums[3];
  rc.diameter = mean_d;
  MOREAU_CALL(moreau_option_is_set("-rough_diameter", &set));
  if (set) MOREAU_CALL(moreau_option_real("-rough_diameter", &rc.diameter));
  MOREAU_CHECK(rc.diameter > 0 && isfinite(rc.diameter), MOREAU_ERR_INPUT,
               "option -rough_diameter: must be positive, got %g", rc.diameter);
  moreau_domain_get_box(moreau_sim_domain(sim), lo, hi);
  for (int k = 0; k < dim; k++)
    if (k != rc.gradient) area *= hi[k] - lo[k];

  /* The shear: a velocity, a shear rate, or an inertial number under a
   * pressure. */
  int by_velocity, by_rate, by_number;
  MOREAU_CALL(moreau_option_is_set("-rough_velocity", &by_velocity));
  MOREAU_CALL(moreau_option_is_set("-rough_shear_rate", &by_rate));
  MOREAU_CALL(moreau_option_is_set("-inertial_number", &by_number));
  MOREAU_CHECK(by_velocity + by_rate + by_number == 1, MOREAU_ERR_INPUT,
               "option -rough_walls: give the shear as one of -rough_velocity, -rough_shear_rate and -inertial_number");
  MOREAU_CALL(moreau_option_is_set("-pressure", &set));
  if (set) MOREAU_CALL(moreau_option_real("-pressure", &rc.pressure));
  MOREAU_CHECK(!set || (rc.pressure > 0 && isfinite(rc.pressure)), MOREAU_ERR_INPUT,
               "option -pressure: must be positive, got %g", rc.pressure);
  if (by_velocity) {
    MOREAU_CALL(moreau_option_real("-rough_velocity", &rc.velocity));
    MOREAU_CHECK(isfinite(rc.velocity), MOREAU_ERR_INPUT, "option -rough_velocity: must be finite");
  } else if (by_rate) {
    MOREAU_CALL(moreau_option_real("-rough_shear_rate", &rc.shear_rate));
    MOREAU_CHECK(rc.shear_rate > 0 && isfinite(rc.shear_rate), MOREAU_ERR_INPUT,
                 "option -rough_shear_rate: must be positive, got %g", rc.shear_rate);
  } else {
    double number;
    MOREAU_CALL(moreau_option_real("-inertial_number", &number));
    MOREAU_CHECK(number > 0 && isfinite(number), MOREAU_ERR_INPUT, "option -inertial_number: must be positive, got %g",
                 number);
    MOREAU_CHECK(rc.pressure > 0, MOREAU_ERR_INPUT, "option -inertial_number: needs -pressure");
    rc.shear_rate = number / (mean_d * sqrt(density / rc.pressure));
  }
  MOREAU_CALL(moreau_option_is_set("-barostat_mass", &set));
  if (set) MOREAU_CALL(moreau_option_real("-barostat_mass", &mass));
  MOREAU_CHECK(mass > 0 && isfinite(mass), MOREAU_ERR_INPUT, "option -barostat_mass: must be positive, got %g", mass);
  MOREAU_CHECK(rc.pressure > 0 || !set, MOREAU_ERR_INPUT, "option -barostat_mass: needs -pressure");

  /* A restart has its walls and grains from the checkpoint. */
  if (new_run) {
    /* The walls step back by a grain radius, so that the grains' inner
     * faces are where the box's faces were and no body overlaps them. */
    w->point[3 * rc.bottom + rc.gradient] -= 0.5 * rc.diameter;
    w->point[3 * rc.top + rc.gradient] += 0.5 * rc.diameter;
    /* The box holds the grains too (snapshots draw it). */
    lo[rc.gradient] -= rc.diameter;
    hi[rc.gradient] += rc.diameter;
    MOREAU_CALL(moreau_domain_set_box(moreau_sim_domain(sim), lo, hi));
    if (rc.pressure > 0) {
      /* The top wall (mass: -barostat_mass times the free bodies') is
       * pushed by p over the cell's cross-section. */
      w->mass[rc.top] = mass * sums[2];
      w->force[rc.top] = w->drive[rc.top] = rc.pressure * area;
      w->pressure[rc.top] = 0.0;
    }
    moreau_gid next = gid_max + 1;
    MOREAU_CALL(lay_grains(sim, &rc, rc.bottom, &next));
    MOREAU_CALL(lay_grains(sim, &rc, rc.top, &next));
  }
  MOREAU_CALL(moreau_sim_set_rough_cell(sim, &rc));
  return MOREAU_SUCCESS;
}
