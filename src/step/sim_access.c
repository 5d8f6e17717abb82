#include <stdio.h>
#include <string.h>

#include "sim_private.h"

MPI_Comm moreau_sim_comm(const moreau_sim *sim) { return sim->comm; }
int moreau_sim_rank(const moreau_sim *sim) { return sim->rank; }
int moreau_sim_size(const moreau_sim *sim) { return sim->size; }
int moreau_sim_dim(const moreau_sim *sim) { return sim->dim; }
moreau_bodies *moreau_sim_bodies(const moreau_sim *sim) { return sim->bodies; }
moreau_walls *moreau_sim_walls(const moreau_sim *sim) { return sim->walls; }
moreau_materials *moreau_sim_materials(const moreau_sim *sim) { return sim->materials; }
moreau_contacts *moreau_sim_contacts(const moreau_sim *sim) { return sim->contacts; }
moreau_contacts *moreau_sim_history(const moreau_sim *sim) { return sim->history; }
moreau_nlgs *moreau_sim_nlgs(const moreau_sim *sim) { return sim->nlgs; }
moreau_part *moreau_sim_part(const moreau_sim *sim) { return sim->part; }
moreau_domain *moreau_sim_domain(const moreau_sim *sim) { return sim->domain; }

moreau_err moreau_sim_set_materials(moreau_sim *sim, moreau_materials *m)
{
  MOREAU_CHECK(m, MOREAU_ERR_INTERNAL, "moreau_sim_set_materials: no table");
  if (m == sim->materials) return MOREAU_SUCCESS;
  MOREAU_CALL(moreau_materials_destroy(&sim->materials));
  sim->materials = m;
  return MOREAU_SUCCESS;
}

double moreau_sim_dt(const moreau_sim *sim) { return sim->dt; }
void moreau_sim_set_dt(moreau_sim *sim, double dt) { sim->dt = dt; }
double moreau_sim_time(const moreau_sim *sim) { return sim->time; }
int64_t moreau_sim_step_index(const moreau_sim *sim) { return sim->step; }

void moreau_sim_set_clock(moreau_sim *sim, int64_t step, double time)
{
  sim->step = step;
  sim->time = time;
}
void moreau_sim_get_gravity(const moreau_sim *sim, double g[3]) { memcpy(g, sim->gravity, sizeof(sim->gravity)); }
void moreau_sim_set_gravity(moreau_sim *sim, const double g[3])
{
  memcpy(sim->gravity, g, sizeof(sim->gravity));
  moreau_nlgs_set_down(sim->nlgs, g);
}
double moreau_sim_alert(const moreau_sim *sim) { return sim->alert; }
void moreau_sim_set_alert(moreau_sim *sim, double alert) { sim->alert = alert; }
void moreau_sim_set_overlap_stop(moreau_sim *sim, double ratio) { sim->overlap_stop = ratio; }
double moreau_sim_rmax(const moreau_sim *sim) { return sim->rmax; }
const moreau_step_stats *moreau_sim_stats(const moreau_sim *sim) { return &sim->stats; }

void moreau_sim_set_input_name(moreau_sim *sim, const char *name)
{
  snprintf(sim->input_name, sizeof(sim->input_name), "%s", name ? name : "");
}

/* The box part of the run state: what the snapshots store of the domain. */
static void box_state(const moreau_domain *d, moreau_run_state *rs)
{
  moreau_lees_edwards le;
  rs->has_box = moreau_domain_has_box(d);
  moreau_domain_get_box(d, rs->box_lo, rs->box_hi);
  for (int k = 0; k < 3; k++)
    rs->periodic[k] = moreau_domain_is_periodic(d, k);
  moreau_domain_get_lees_edwards(d, &le);
  rs->le_flow = le.on ? le.flow : -1;
  rs->le_gradient = le.on ? le.gradient : -1;
  rs->le_offset = le.on ? le.offset : 0.0;
}

void moreau_sim_run_state(const moreau_sim *sim, moreau_run_state *rs)
{
  rs->comm = sim->comm;
  rs->dim = sim->dim;
  rs->step = sim->step;
  rs->time = sim->time;
  rs->dt = sim->dt;
  rs->write_piece_bytes = 0;
  rs->by_gid = moreau_part_kept_gid_order(sim->part, sim->bodies);
  box_state(sim->domain, rs);
}

void moreau_sim_set_pressure(moreau_sim *sim, double pressure, const int axes[3], double mass)
{
  sim->pressure = pressure;
  sim->barostat_mass = mass;
  for (int k = 0; k < 3; k++)
    sim->pressure_axis[k] = axes[k] != 0;
}

void moreau_sim_get_pressure(const moreau_sim *sim, double *pressure, int axes[3], double *mass)
{
  *pressure = sim->pressure;
  *mass = sim->barostat_mass;
  for (int k = 0; k < 3; k++)
    axes[k] = sim->pressure_axis[k];
}

const moreau_macro_state *moreau_sim_macro_state(const moreau_sim *sim) { return &sim->macro; }

const moreau_law *moreau_sim_law(const moreau_sim *sim) { return sim->law; }

const moreau_shapes *moreau_sim_shapes(const moreau_sim *sim) { return sim->shapes; }
