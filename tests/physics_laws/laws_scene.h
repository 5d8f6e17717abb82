#ifndef MOREAU_TEST_LAWS_SCENE_H
#define MOREAU_TEST_LAWS_SCENE_H

/* Scenes of the contact-law tests (tests/physics_laws): a sim with one law
 * and one pair of parameters, bodies with an external force, a spin or no
 * rotation (a sliding block), walls in 2D or 3D, and readers of a body and
 * of one contact by key that give every rank the same values, so that every
 * check reaches the same verdict on every rank. */

#include <math.h>
#include <string.h>

#include "moreau/sim.h"

#include "parallel.h"

/* The sim of a law test over MPI_COMM_WORLD: the law named law with the
 * single pair's parameters, time step dt, gravity g, and an NLGS tolerance
 * of 1e-10 (mean norm) with enough sweeps to reach it. */
static inline moreau_err laws_sim_create(int dim, const char *law, const moreau_pair_law *pair, double dt,
                                         const double g[3], moreau_sim **simp)
{
  moreau_sim *sim = NULL;
  const moreau_law *kernel = moreau_law_find(law);
  MOREAU_CHECK(kernel != NULL, MOREAU_ERR_INPUT, "no contact law named %s", law);
  MOREAU_CALL(moreau_sim_create(MPI_COMM_WORLD, dim, &sim));
  MOREAU_CALL(moreau_sim_set_law(sim, kernel));
  MOREAU_CALL(moreau_materials_set_pair(moreau_sim_materials(sim), 0, 0, pair));
  moreau_sim_set_dt(sim, dt);
  moreau_sim_set_gravity(sim, g);
  moreau_nlgs_set_tolerance(moreau_sim_nlgs(sim), 1e-10, MOREAU_NLGS_NORM_MEAN);
  moreau_nlgs_set_iterations(moreau_sim_nlgs(sim), 1, 1000000);
  *simp = sim;
  return MOREAU_SUCCESS;
}

/* A body of the scene: a disk (2D) or sphere (3D) of density 1. */
typedef struct {
  double x[3], v[3], w[3], f_ext[3], t_ext[3];
  double radius;
  int block; /* 1: no rotation (inv_inertia 0), a sliding block */
  int fixed; /* 1: held at its initial velocity, infinite mass */
} laws_body;

/* Adds the body with global id gid (on rank 0: setup distributes it). Every
 * rank calls it, so that it can go to PAR_TRY. */
static inline moreau_err laws_add_body(moreau_sim *sim, moreau_gid gid, const laws_body *lb)
{
  moreau_body body;
  if (moreau_sim_rank(sim) != 0) return MOREAU_SUCCESS;
  memset(&body, 0, sizeof(body));
  body.gid = gid;
  memcpy(body.x, lb->x, sizeof(body.x));
  memcpy(body.v, lb->v, sizeof(body.v));
  memcpy(body.w, lb->w, sizeof(body.w));
  memcpy(body.f_ext, lb->f_ext, sizeof(body.f_ext));
  memcpy(body.t_ext, lb->t_ext, sizeof(body.t_ext));
  body.radius = lb->radius;
  body.fixed = lb->fixed;
  moreau_body_set_mass(&body, moreau_sim_dim(sim), 1.0);
  if (lb->block) body.inv_inertia = 0.0;
  return moreau_bodies_push_owned(moreau_sim_bodies(sim), &body);
}

static inline moreau_err laws_add_wall(moreau_sim *sim, const double point[3], const double normal[3])
{
  return moreau_walls_add(moreau_sim_walls(sim), point, normal, MOREAU_WALL_FIXED, NULL, 0.0, 0.0, 0, NULL);
}

/* The incline scenes: gravity, body radius and time step. */
#define LAWS_G 9.81
#define LAWS_R 0.5
#define LAWS_DT 1e-3

/* sin and cos of the slope. */
static inline void laws_sin_cos(double slope, double *s, double *c)
{
  *c = 1.0 / sqrt(1.0 + slope * slope);
  *s = slope * *c;
}

/* A body of radius r resting on a floor (the plane y = 0, normal +y; the
 * wall 0) under gravity g tilted by theta (tan theta = slope) towards +x:
 * an incline. Body 0 starts at x = 0 with velocity v0 along x and spin w0
 * (the spin vector, about z for rolling along x). */
static inline moreau_sim *laws_incline(int dim, const char *law, const moreau_pair_law *pair, double slope, double g,
                                       double r, int block, double v0, const double w0[3])
{
  moreau_sim *sim = NULL;
  double s, c;
  laws_sin_cos(slope, &s, &c);
  const double gravity[3] = {g * s, -g * c, 0}, origin[3] = {0, 0, 0}, up[3] = {0, 1, 0};
  laws_body b = {.x = {0, r, 0}, .v = {v0, 0, 0}, .radius = r, .block = block};
  if (w0) memcpy(b.w, w0, sizeof(b.w));
  PAR_TRY(MPI_COMM_WORLD, laws_sim_create(dim, law, pair, LAWS_DT, gravity, &sim));
  PAR_TRY(MPI_COMM_WORLD, laws_add_body(sim, 0, &b));
  PAR_TRY(MPI_COMM_WORLD, laws_add_wall(sim, origin, up));
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_setup(sim, 1e-9));
  return sim;
}

/* Collective: the body of global id gid, on every rank (the test fails if
 * not exactly one rank owns it). */
static inline moreau_body laws_body_get(const moreau_sim *sim, moreau_gid gid)
{
  moreau_body body;
  int holders = par_get_body(moreau_sim_bodies(sim), gid, &body);
  ck_assert_msg(holders == 1, "body %lld is owned by %d ranks", (long long)gid, holders);
  return body;
}

/* One contact of the last step, read by key: its force (n, t, s) and its
 * law state (up to 3 numbers; zeros beyond the law's width). */
typedef struct {
  int found; /* ranks that hold it: 1, or 0 when it was not detected */
  double gap, force[3], state[3];
} laws_contact;

/* Collective: the contact between bodies gid_a < gid_b (gid_b a wall's
 * MOREAU_WALL_GID for a wall contact), point 0, on every rank with the same
 * bits (one rank contributes, the others add zeros). */
static inline laws_contact laws_contact_get(const moreau_sim *sim, moreau_gid gid_a, moreau_gid gid_b)
{
  const moreau_contacts *c = moreau_sim_contacts(sim);
  double rec[8] = {0, 0, 0, 0, 0, 0, 0, 0}, sum[8];
  laws_contact out;
  for (moreau_lid k = 0; k < c->n; k++) {
    if (c->gid_a[k] != gid_a || c->gid_b[k] != gid_b || c->point[k] != 0) continue;
    rec[0] += 1.0;
    rec[1] = c->gap[k];
    for (int i = 0; i < 3; i++)
      rec[2 + i] = c->force[3 * k + i];
    for (int i = 0; i < 3 && i < c->state_width; i++)
      rec[5 + i] = c->state[(size_t)c->state_width * k + i];
  }
  MPI_Reduce(rec, sum, 8, MPI_DOUBLE, MPI_SUM, 0, moreau_sim_comm(sim));
  MPI_Bcast(sum, 8, MPI_DOUBLE, 0, moreau_sim_comm(sim));
  out.found = (int)sum[0];
  out.gap = sum[1];
  memcpy(out.force, &sum[2], sizeof(out.force));
  memcpy(out.state, &sum[5], sizeof(out.state));
  ck_assert_msg(out.found <= 1, "contact %lld-%lld is held by %d ranks", (long long)gid_a, (long long)gid_b, out.found);
  return out;
}

/* The expected motion of body 0 on an incline released from rest, per
 * unit mass: acceleration a along x, spin rate alpha about z (w_z = alpha
 * t), the force the body exerts on the floor (x, y), and the contact's
 * torque on the floor, T_z in 2D (3D: the size of its tangential part, the
 * normal part 0) when check_torque is set. */
typedef struct {
  double a, alpha, reaction[2], torque;
  int check_torque;
} laws_motion;

/* Runs steps steps of the incline (radius LAWS_R, gravity LAWS_G) from rest
 * and checks the motion at every step, to 1e-9 of the run's scales (g t for
 * velocities, m g for forces, m g r for torques): constant forces make
 * Moreau's midpoint velocities exact, and a single contact is solved exactly,
 * so this is round-off. */
static inline void laws_check_incline(int dim, int steps, const char *law, const moreau_pair_law *pair, double slope,
                                      int block, const laws_motion *expect, const char *what)
{
  moreau_sim *sim = laws_incline(dim, law, pair, slope, LAWS_G, LAWS_R, block, 0.0, NULL);
  const moreau_walls *walls = moreau_sim_walls(sim);
  const double scale = LAWS_G * steps * LAWS_DT; /* the velocity scale of the run */
  double worst_v = 0.0, worst_w = 0.0, worst_f = 0.0, worst_t = 0.0;
  for (int step = 1; step <= steps; step++) {
    PAR_TRY(moreau_sim_comm(sim), moreau_sim_step(sim));
    moreau_body b = laws_body_get(sim, 0);
    laws_contact c = laws_contact_get(sim, 0, MOREAU_WALL_GID(0));
    double m = 1.0 / b.inv_mass, t = step * LAWS_DT;
    ck_assert_msg(c.found == 1, "%dD %s: no contact with the floor", dim, what);
    worst_v = fmax(worst_v, fabs(b.v[0] - expect->a * t) / scale);
    worst_w = fmax(worst_w, fabs(b.w[2] - expect->alpha * t) * LAWS_R / scale);
    for (int k = 0; k < 2; k++)
      worst_f = fmax(worst_f, fabs(walls->reaction[k] - m * expect->reaction[k]) / (m * LAWS_G));
    if (expect->check_torque) {
      double T = dim == 2 ? c.state[0] : hypot(c.state[1], c.state[2]), T_n = dim == 2 ? 0.0 : c.state[0];
      worst_t = fmax(worst_t, (fabs(T - m * expect->torque) + fabs(T_n)) / (m * LAWS_G * LAWS_R));
    }
    ck_assert_msg(fabs(b.v[1]) < 1e-12 && fabs(b.x[1] - LAWS_R) < 1e-12, "%dD %s: the body left the floor", dim, what);
  }
  if (par_rank(MPI_COMM_WORLD) == 0)
    printf("%dD %s: errors of v %.2g, of w r %.2g (of g t), of the floor force %.2g (of m g), of the torque %.2g (of "
           "m g r)\n",
           dim, what, worst_v, worst_w, worst_f, worst_t);
  ck_assert_msg(worst_v < 1e-9, "%dD %s: v deviates from a t = %g t by %g of g t", dim, what, expect->a, worst_v);
  ck_assert_msg(worst_w < 1e-9, "%dD %s: w r deviates from alpha r t = %g t by %g of g t", dim, what,
                expect->alpha * LAWS_R, worst_w);
  ck_assert_msg(worst_f < 1e-9, "%dD %s: the floor force deviates by %g of m g", dim, what, worst_f);
  ck_assert_msg(worst_t < 1e-9, "%dD %s: the contact torque deviates by %g of m g r", dim, what, worst_t);
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}

#endif
