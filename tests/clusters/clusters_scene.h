#ifndef MOREAU_TEST_CLUSTERS_SCENE_H
#define MOREAU_TEST_CLUSTERS_SCENE_H

/* Scenes of the rigid-cluster tests (tests/clusters): a 2D sim with a shapes
 * table, cluster bodies placed by their contactors, and collective readers
 * of a body and of one contact by key that give every rank the same values. */

#include <math.h>
#include <string.h>

#include "moreau/sim.h"

#include "parallel.h"

/* A sim over comm (dim 2 or 3; clusters_sim_create: 2) with
 * Signorini-Coulomb (friction mu, no restitution), time step dt, gravity g,
 * the NLGS to 1e-12 (mean norm), and the table (taken over by the sim;
 * *shapes is nulled). */
static inline moreau_err clusters_sim_create_dim(MPI_Comm comm, int dim, double mu, double dt, const double g[3],
                                                 moreau_shapes **shapes, moreau_sim **simp)
{
  moreau_sim *sim = NULL;
  moreau_pair_law pair = {.mu = mu};
  MOREAU_CALL(moreau_sim_create(comm, dim, &sim));
  MOREAU_CALL(moreau_materials_set_pair(moreau_sim_materials(sim), 0, 0, &pair));
  MOREAU_CALL(moreau_sim_set_shapes(sim, shapes));
  moreau_sim_set_dt(sim, dt);
  moreau_sim_set_gravity(sim, g);
  moreau_nlgs_set_tolerance(moreau_sim_nlgs(sim), 1e-12, MOREAU_NLGS_NORM_MEAN);
  moreau_nlgs_set_iterations(moreau_sim_nlgs(sim), 1, 100000);
  *simp = sim;
  return MOREAU_SUCCESS;
}

static inline moreau_err clusters_sim_create(MPI_Comm comm, double mu, double dt, const double g[3],
                                             moreau_shapes **shapes, moreau_sim **simp)
{
  return clusters_sim_create_dim(comm, 2, mu, dt, g, shapes, simp);
}

/* The 2D orientation quaternion of an angle about z. */
static inline void clusters_angle_q(double angle, double q[4])
{
  q[0] = cos(0.5 * angle);
  q[1] = q[2] = 0.0;
  q[3] = sin(0.5 * angle);
}

/* Adds (on rank 0 of the sim; setup distributes it) a body of shape s >= 1
 * scaled to bounding radius r, density 1, centre of mass x, orientation q,
 * velocity v and spin vector w. */
static inline moreau_err clusters_add3d(moreau_sim *sim, moreau_gid gid, int32_t s, double r, const double x[3],
                                        const double q[4], const double v[3], const double w[3])
{
  moreau_body body;
  if (moreau_sim_rank(sim) != 0) return MOREAU_SUCCESS;
  memset(&body, 0, sizeof(body));
  body.gid = gid;
  body.shape = s;
  body.radius = r;
  memcpy(body.x, x, sizeof(body.x));
  memcpy(body.v, v, sizeof(body.v));
  memcpy(body.w, w, sizeof(body.w));
  memcpy(body.q, q, sizeof(body.q));
  moreau_body_set_shape_mass(&body, moreau_sim_dim(sim), moreau_sim_shapes(sim), 1.0);
  return moreau_bodies_push_owned(moreau_sim_bodies(sim), &body);
}

/* The same in 2D: turned by angle, spin w about z. */
static inline moreau_err clusters_add(moreau_sim *sim, moreau_gid gid, int32_t s, double r, const double x[3],
                                      double angle, const double v[3], double w)
{
  double q[4];
  const double spin[3] = {0.0, 0.0, w};
  clusters_angle_q(angle, q);
  return clusters_add3d(sim, gid, s, r, x, q, v, spin);
}

/* Collective: the body of global id gid on every rank (the test fails if not
 * exactly one rank owns it). */
static inline moreau_body clusters_body(const moreau_sim *sim, moreau_gid gid)
{
  moreau_body body;
  int holders = par_get_body(moreau_sim_bodies(sim), gid, &body);
  ck_assert_msg(holders == 1, "body %lld is owned by %d ranks", (long long)gid, holders);
  return body;
}

/* Collective: the force (n, t, s) of the contact (gid_a, gid_b, point) on
 * every rank, and how many ranks hold it (0: not detected). */
static inline int clusters_contact_force(const moreau_sim *sim, moreau_gid gid_a, moreau_gid gid_b, int32_t point,
                                         double f[3])
{
  const moreau_contacts *c = moreau_sim_contacts(sim);
  double rec[4] = {0, 0, 0, 0}, sum[4];
  for (moreau_lid k = 0; k < c->n; k++)
    if (c->gid_a[k] == gid_a && c->gid_b[k] == gid_b && c->point[k] == point) {
      rec[0] += 1.0;
      for (int i = 0; i < 3; i++)
        rec[1 + i] = c->force[3 * k + i];
    }
  MPI_Reduce(rec, sum, 4, MPI_DOUBLE, MPI_SUM, 0, moreau_sim_comm(sim));
  MPI_Bcast(sum, 4, MPI_DOUBLE, 0, moreau_sim_comm(sim));
  for (int i = 0; i < 3; i++)
    f[i] = sum[1 + i];
  return (int)sum[0];
}

/* Collective: contacts of the last step over all ranks. */
static inline int64_t clusters_contact_count(const moreau_sim *sim)
{
  return (int64_t)par_sum(moreau_sim_comm(sim), (double)moreau_sim_contacts(sim)->n);
}

#endif
