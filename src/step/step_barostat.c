#include <math.h>

#include "sim_private.h"

/* The faces of a pressure-controlled box move by at most this fraction of
 * the mean diameter per step: a loose packing pulled in by the pressure
 * would otherwise reach speeds at which a step closes whole gaps, and the
 * speed a step can resolve does not depend on the cell's mass. */
#define BAROSTAT_MAX_STROKE 0.1

static int any_pressure_axis(const moreau_sim *sim)
{
  return sim->pressure_axis[0] || sim->pressure_axis[1] || sim->pressure_axis[2];
}

moreau_err sim_barostat_setup(moreau_sim *sim)
{
  static const char axes[] = "xyz";
  if (!moreau_domain_any_periodic(sim->domain)) return MOREAU_SUCCESS;
  MOREAU_CALL(moreau_macro_state_compute(sim->comm, sim->domain, sim->bodies, sim->contacts, &sim->macro));
  if (!any_pressure_axis(sim)) return MOREAU_SUCCESS;
  for (int k = 0; k < sim->dim; k++)
    MOREAU_CHECK(!sim->pressure_axis[k] || moreau_domain_is_periodic(sim->domain, k), MOREAU_ERR_INPUT,
                 "pressure control along %c needs a periodic axis", axes[k]);
  MOREAU_CHECK(sim->pressure > 0 && isfinite(sim->pressure), MOREAU_ERR_INPUT,
               "option -pressure: must be positive, got %g", sim->pressure);
  MOREAU_CHECK(sim->macro.grain_mass > 0, MOREAU_ERR_INPUT, "pressure control needs bodies of finite mass");
  MOREAU_CHECK(sim->barostat_mass > 0 && isfinite(sim->barostat_mass), MOREAU_ERR_INPUT,
               "option -barostat_mass: must be positive, got %g", sim->barostat_mass);
  return MOREAU_SUCCESS;
}

moreau_err sim_barostat(moreau_sim *sim)
{
  double lo[3], hi[3];
  moreau_bodies *b = sim->bodies;
  if (!moreau_domain_any_periodic(sim->domain)) return MOREAU_SUCCESS;
  MOREAU_CALL(moreau_macro_state_compute(sim->comm, sim->domain, b, sim->contacts, &sim->macro));
  if (!any_pressure_axis(sim)) return MOREAU_SUCCESS;
  moreau_domain_get_box(sim->domain, lo, hi);
  for (int k = 0; k < sim->dim; k++) {
    if (!sim->pressure_axis[k]) continue;
    const double len = hi[k] - lo[k], centre = 0.5 * (lo[k] + hi[k]);
    double area = 1.0;
    for (int j = 0; j < sim->dim; j++)
      if (j != k) area *= hi[j] - lo[j];
    /* M d2L/dt2 = A (sigma_kk - p): the faces are pushed like a force-driven
     * wall of mass M = barostat_mass times the grains' mass. */
    const double old = moreau_domain_length_rate(sim->domain, k),
                 cap = BAROSTAT_MAX_STROKE * sim->macro.mean_diameter / sim->dt;
    double rate =
        old + sim->dt * area * (sim->macro.sigma[4 * k] - sim->pressure) / (sim->barostat_mass * sim->macro.grain_mass);
    rate = fmax(-cap, fmin(cap, rate));
    /* The affine field (rate / L) (x - centre) changes with the rate: every
     * body gets the difference, so the box deforms homogeneously. */
    const double kick = (rate - old) / len;
    for (moreau_lid i = 0; i < b->n_owned; i++)
      if (b->inv_mass[i] > 0.0) b->v[3 * i + k] += kick * (b->x[3 * i + k] - centre);
    MOREAU_CALL(moreau_domain_set_length_rate(sim->domain, k, rate));
  }
  /* A box squeezed below twice the interaction range along an axis would
   * see a pair through two images. */
  MOREAU_CALL(moreau_domain_check_cutoff(sim->domain, 2.0 * sim->rmax + sim->alert));
  return MOREAU_SUCCESS;
}
