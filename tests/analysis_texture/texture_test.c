#include "texture_test.h"

#include "scene.h"

moreau_err tt_sim_create(MPI_Comm comm, int dim, double mu, moreau_sim **sim)
{
  const double g[3] = {0, 0, 0};
  MOREAU_CALL(moreau_sim_create(comm, dim, sim));
  moreau_sim_set_gravity(*sim, g);
  moreau_sim_set_alert(*sim, 0.1);
  MOREAU_CALL(scene_set_law(*sim, mu, 0.0, 0.0));
  return MOREAU_SUCCESS;
}

moreau_err tt_add_body(moreau_sim *sim, moreau_gid gid, double x, double y, double z, double radius, int fixed)
{
  const double pos[3] = {x, y, z};
  return scene_add_body(sim, gid, pos, NULL, radius, 1.0, fixed);
}

/* Bodies placed by hand touch exactly, up to the rounding of their
 * coordinates: a setup tolerance of 1e-9 of the radius lets that pass. */
moreau_err tt_step_and_force(moreau_sim *sim, tt_force_fn force, const void *ctx)
{
  moreau_contacts *c = moreau_sim_contacts(sim);
  MOREAU_CALL(moreau_sim_setup(sim, 1e-9));
  MOREAU_CALL(moreau_sim_step(sim));
  for (moreau_lid k = 0; k < c->n; k++)
    force(sim, c, k, ctx, &c->force[3 * k]);
  return MOREAU_SUCCESS;
}

moreau_err tt_texture(moreau_sim *sim, const double *lo, const double *hi, moreau_texture *t)
{
  moreau_region r;
  for (int k = 0; k < 3 && lo; k++) {
    r.lo[k] = lo[k];
    r.hi[k] = hi[k];
  }
  return moreau_texture_compute(moreau_sim_comm(sim), moreau_sim_part(sim), moreau_sim_bodies(sim),
                                moreau_sim_contacts(sim), moreau_sim_walls(sim), moreau_sim_materials(sim),
                                moreau_sim_domain(sim), lo ? &r : NULL, t);
}
