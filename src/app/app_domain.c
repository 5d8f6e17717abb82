#include <math.h>
#include <string.h>

#include "app_private.h"

/* Reads an axis list such as "x" or "x,z": flags per axis, and the axes
 * in the order given (order[0 .. *n)). */
static moreau_err parse_axes(const char *option, const char *text, int dim, int axes[3], int order[3], int *n)
{
  axes[0] = axes[1] = axes[2] = 0;
  *n = 0;
  for (const char *p = text; *p; p += p[1] ? 2 : 1) {
    int k = *p == 'x' ? 0 : *p == 'y' ? 1 : *p == 'z' ? 2 : -1;
    MOREAU_CHECK(k >= 0 && k < dim && (p[1] == '\0' || (p[1] == ',' && p[2] != '\0')), MOREAU_ERR_INPUT,
                 "option %s: '%s' is not a list of axes of a %dD run (e.g. x,%s)", option, text, dim,
                 dim == 3 ? "z" : "y");
    MOREAU_CHECK(!axes[k], MOREAU_ERR_INPUT, "option %s: axis %c is listed twice", option, *p);
    axes[k] = 1;
    order[(*n)++] = k;
  }
  return MOREAU_SUCCESS;
}

/* The shear rate of -lees_edwards or -lees_edwards_velocity; *on says
 * whether either was given. */
static moreau_err read_shear(const moreau_domain *d, int gradient, int rough, int *on, double *rate)
{
  int by_rate, by_velocity;
  double lo[3], hi[3], value = 0.0;
  int by_number = 0;
  MOREAU_CALL(moreau_option_is_set("-lees_edwards", &by_rate));
  MOREAU_CALL(moreau_option_is_set("-lees_edwards_velocity", &by_velocity));
  if (!rough) MOREAU_CALL(moreau_option_is_set("-inertial_number", &by_number));
  MOREAU_CHECK(by_rate + by_velocity + by_number <= 1, MOREAU_ERR_INPUT,
               "options -lees_edwards, -lees_edwards_velocity and -inertial_number: give the shear as one of them");
  *on = by_rate || by_velocity || by_number;
  /* The rate of an inertial number depends on the bodies: set at setup. */
  if (!*on || by_number) return MOREAU_SUCCESS;
  MOREAU_CALL(moreau_option_real(by_rate ? "-lees_edwards" : "-lees_edwards_velocity", &value));
  MOREAU_CHECK(isfinite(value), MOREAU_ERR_INPUT, "option %s: must be finite",
               by_rate ? "-lees_edwards" : "-lees_edwards_velocity");
  moreau_domain_get_box(d, lo, hi);
  *rate = by_rate ? value : value / (hi[gradient] - lo[gradient]);
  return MOREAU_SUCCESS;
}

/* -pressure and its axes (default: the Lees-Edwards gradient, else every
 * periodic axis), -barostat_mass. */
static moreau_err read_pressure(moreau_sim *sim, int dim, int sheared, int gradient)
{
  moreau_domain *d = moreau_sim_domain(sim);
  char text[64];
  int set, axes[3] = {0, 0, 0}, order[3], n;
  double pressure, mass;
  MOREAU_CALL(moreau_option_is_set("-pressure", &set));
  if (!set) return MOREAU_SUCCESS;
  MOREAU_CALL(moreau_option_real("-pressure", &pressure));
  MOREAU_CHECK(pressure > 0 && isfinite(pressure), MOREAU_ERR_INPUT, "option -pressure: must be positive, got %g",
               pressure);
  /* No default in the table: given without -pressure, it is an option
   * nothing reads (an error). */
  MOREAU_CALL(moreau_option_is_set("-barostat_mass", &set));
  mass = 1.0;
  if (set) MOREAU_CALL(moreau_option_real("-barostat_mass", &mass));
  MOREAU_CHECK(mass > 0 && isfinite(mass), MOREAU_ERR_INPUT, "option -barostat_mass: must be positive, got %g", mass);
  MOREAU_CALL(moreau_option_string("-pressure_axes", text, sizeof(text)));
  MOREAU_CALL(parse_axes("-pressure_axes", text, dim, axes, order, &n));
  if (n == 0)
    for (int k = 0; k < dim; k++)
      axes[k] = sheared ? k == gradient : moreau_domain_is_periodic(d, k);
  for (int k = 0; k < dim; k++)
    MOREAU_CHECK(!axes[k] || moreau_domain_is_periodic(d, k), MOREAU_ERR_INPUT,
                 "option -pressure_axes: axis %c is not periodic (-periodic)", "xyz"[k]);
  moreau_sim_set_pressure(sim, pressure, axes, mass);
  return MOREAU_SUCCESS;
}

moreau_err app_domain_from_options(moreau_sim *sim, const double *box_default)
{
  moreau_domain *d = moreau_sim_domain(sim);
  const int dim = moreau_sim_dim(sim);
  char text[64];
  int periodic[3], le_axes[3], order[3], n, nbox = 6, on, flow, gradient, rough;
  double box[6], lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, rate = 0.0;
  MOREAU_CALL(moreau_option_string("-periodic", text, sizeof(text)));
  MOREAU_CALL(parse_axes("-periodic", text, dim, periodic, order, &n));
  MOREAU_CALL(moreau_option_string("-lees_edwards_axes", text, sizeof(text)));
  MOREAU_CALL(parse_axes("-lees_edwards_axes", text, dim, le_axes, order, &n));
  MOREAU_CHECK(n == 2, MOREAU_ERR_INPUT,
               "option -lees_edwards_axes: expected two axes, flow then gradient (e.g. x,y), got '%s'", text);
  flow = order[0];
  gradient = order[1];
  MOREAU_CALL(moreau_option_reals("-box", box, &nbox));
  MOREAU_CHECK(nbox == 0 || nbox == 2 * dim, MOREAU_ERR_INPUT, "option -box: expected %d values, got %d", 2 * dim,
               nbox);
  if (nbox == 0 && box_default) {
    memcpy(box, box_default, 2 * (size_t)dim * sizeof(double));
    nbox = 2 * dim;
  }
  MOREAU_CALL(moreau_option_bool("-rough_walls", &rough));
  MOREAU_CALL(moreau_option_is_set("-lees_edwards", &on));
  if (!on) MOREAU_CALL(moreau_option_is_set("-lees_edwards_velocity", &on));
  MOREAU_CHECK(!(rough && on), MOREAU_ERR_INPUT,
               "option -rough_walls: a rough-wall cell is sheared by its top wall, not by Lees-Edwards images "
               "(-lees_edwards, -lees_edwards_velocity)");
  /* In a rough cell the inertial number sets the top wall's velocity. */
  if (!on && !rough) MOREAU_CALL(moreau_option_is_set("-inertial_number", &on));
  if (!(periodic[0] || periodic[1] || periodic[2] || on)) return MOREAU_SUCCESS;
  MOREAU_CHECK(nbox, MOREAU_ERR_INPUT, "option %s: a periodic box needs -box (bodies read from a file have no box)",
               on ? "-lees_edwards" : "-periodic");
  for (int k = 0; k < dim; k++) {
    lo[k] = box[k];
    hi[k] = box[dim + k];
  }
  MOREAU_CALL(moreau_domain_set_box(d, lo, hi));
  for (int k = 0; k < dim; k++)
    if (periodic[k] || (on && (k == flow || k == gradient))) MOREAU_CALL(moreau_domain_set_periodic(d, k, 1));
  MOREAU_CALL(read_shear(d, gradient, rough, &on, &rate));
  if (on) MOREAU_CALL(moreau_domain_set_lees_edwards(d, flow, gradient, rate));
  /* A rough cell's pressure pushes its top wall (app_rough.c). */
  if (!rough) MOREAU_CALL(read_pressure(sim, dim, on, gradient));
  return MOREAU_SUCCESS;
}

moreau_err app_domain_inertial_number(moreau_sim *sim)
{
  moreau_domain *d = moreau_sim_domain(sim);
  moreau_macro_state ms;
  moreau_lees_edwards le;
  double number, pressure, mass, offset;
  int set, axes[3];
  MOREAU_CALL(moreau_option_is_set("-inertial_number", &set));
  if (!set || moreau_sim_rough_cell(sim, NULL)) return MOREAU_SUCCESS;
  MOREAU_CALL(moreau_option_real("-inertial_number", &number));
  MOREAU_CHECK(number > 0 && isfinite(number), MOREAU_ERR_INPUT, "option -inertial_number: must be positive, got %g",
               number);
  moreau_sim_get_pressure(sim, &pressure, axes, &mass);
  MOREAU_CHECK(pressure > 0, MOREAU_ERR_INPUT, "option -inertial_number: needs -pressure");
  MOREAU_CALL(
      moreau_macro_state_compute(moreau_sim_comm(sim), d, moreau_sim_bodies(sim), moreau_sim_contacts(sim), &ms));
  MOREAU_CHECK(ms.grain_density > 0 && ms.mean_diameter > 0, MOREAU_ERR_INPUT,
               "option -inertial_number: needs bodies of finite mass");
  moreau_domain_get_lees_edwards(d, &le);
  offset = le.offset;
  MOREAU_CALL(moreau_domain_set_lees_edwards(d, le.flow, le.gradient,
                                             number / (ms.mean_diameter * sqrt(ms.grain_density / pressure))));
  MOREAU_CALL(moreau_domain_set_lees_edwards_offset(d, offset));
  return MOREAU_SUCCESS;
}

moreau_err app_domain_start_profile(moreau_sim *sim, int new_run)
{
  moreau_lees_edwards le;
  moreau_bodies *b = moreau_sim_bodies(sim);
  double lo[3], hi[3], mid;
  int profile;
  moreau_domain_get_lees_edwards(moreau_sim_domain(sim), &le);
  /* Read by a restart too: its options are the first run's. */
  MOREAU_CALL(moreau_option_bool("-lees_edwards_profile", &profile));
  if (!new_run || !le.on || !profile) return MOREAU_SUCCESS;
  moreau_domain_get_box(moreau_sim_domain(sim), lo, hi);
  mid = 0.5 * (lo[le.gradient] + hi[le.gradient]);
  for (moreau_lid i = 0; i < b->n_owned; i++)
    if (b->inv_mass[i] > 0.0) b->v[3 * i + le.flow] += le.rate * (b->x[3 * i + le.gradient] - mid);
  return MOREAU_SUCCESS;
}
