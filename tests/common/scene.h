#ifndef MOREAU_TEST_SCENE_H
#define MOREAU_TEST_SCENE_H

/* Small helpers shared by the physics tests to build scenes directly through
 * the library API (no options database involved). */

#include <math.h>
#include <string.h>

#include "moreau/sim.h"

/* Adds a disk (2D) or sphere (3D) of the given radius and density at x with
 * velocity v; returns the moreau error code. */
static inline moreau_err scene_add_body(moreau_sim *sim, moreau_gid gid, const double x[3], const double v[3],
                                        double radius, double density, int fixed)
{
  moreau_body body;
  memset(&body, 0, sizeof(body));
  body.gid = gid;
  memcpy(body.x, x, sizeof(body.x));
  if (v) memcpy(body.v, v, sizeof(body.v));
  body.radius = radius;
  body.fixed = fixed;
  moreau_body_set_mass(&body, moreau_sim_dim(sim), density);
  return moreau_bodies_push_owned(moreau_sim_bodies(sim), &body);
}

static inline moreau_err scene_add_fixed_wall(moreau_sim *sim, double px, double py, double nx, double ny)
{
  double p[3] = {px, py, 0.0}, n[3] = {nx, ny, 0.0};
  return moreau_walls_add(moreau_sim_walls(sim), p, n, MOREAU_WALL_FIXED, NULL, 0.0, 0.0, 0, NULL);
}

/* Sets the single material pair law of the scene. */
static inline moreau_err scene_set_law(moreau_sim *sim, double mu, double e_n, double e_t)
{
  moreau_pair_law law = {.mu = mu, .e_n = e_n, .e_t = e_t};
  return moreau_materials_set_pair(moreau_sim_materials(sim), 0, 0, &law);
}

#endif
