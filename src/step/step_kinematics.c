#include <float.h>
#include <math.h>
#include <string.h>

#include "sim_private.h"

/* Rotates unit quaternion q by the rotation vector w h (world frame). */
static void rotate(double *q, const double *w, double h)
{
  double wn = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  if (wn == 0.0) return;
  double half = 0.5 * wn * h, s = sin(half) / wn, c = cos(half);
  double d[4] = {c, s * w[0], s * w[1], s * w[2]}, r[4];
  r[0] = d[0] * q[0] - d[1] * q[1] - d[2] * q[2] - d[3] * q[3];
  r[1] = d[0] * q[1] + d[1] * q[0] + d[2] * q[3] - d[3] * q[2];
  r[2] = d[0] * q[2] - d[1] * q[3] + d[2] * q[0] + d[3] * q[1];
  r[3] = d[0] * q[3] + d[1] * q[2] - d[2] * q[1] + d[3] * q[0];
  double len = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
  for (int k = 0; k < 4; k++)
    q[k] = r[k] / len;
}

static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* The torque-free flow keeps the energy E = L . I(q)^-1 L / 2 as well as L;
 * the midpoint rotation keeps it to second order only. Turning the body by
 * a rotation Q changes the energy to m . A m / 2 with m = Q^T L and A =
 * I(q)^-1: Newton on the sphere |m| = |L| finds the m nearest L on the
 * energy's ellipsoid, and the body turns by the rotation taking m to L
 * (an angle of the order of the step's energy error). L stays exact, E to
 * round-off, and the step stays second order (a projection method). */
static void keep_energy(moreau_bodies *b, moreau_lid i, const double L[3], double energy)
{
  double A[6], m[3], g[3];
  const double len = sqrt(dot3(L, L));
  if (!(len > 0.0) || !(energy > 0.0)) return;
  moreau_bodies_inv_inertia_world(b, i, A);
  memcpy(m, L, sizeof(m));
  for (int it = 0; it < 8; it++) {
    moreau_sym3_apply(A, m, g);
    const double f = 0.5 * dot3(m, g) - energy;
    if (fabs(f) <= 4.0 * DBL_EPSILON * energy) break;
    const double gm = dot3(g, m) / (len * len);
    double gt[3] = {g[0] - gm * m[0], g[1] - gm * m[1], g[2] - gm * m[2]};
    const double slope = dot3(g, gt);
    if (!(slope > 0.0)) break; /* L along a principal axis: a steady spin */
    const double step = -f / slope;
    for (int k = 0; k < 3; k++)
      m[k] += step * gt[k];
    const double scale = len / sqrt(dot3(m, m));
    for (int k = 0; k < 3; k++)
      m[k] *= scale;
  }
  double axis[3] = {m[1] * L[2] - m[2] * L[1], m[2] * L[0] - m[0] * L[2], m[0] * L[1] - m[1] * L[0]};
  const double sin_len2 = sqrt(dot3(axis, axis));
  if (!(sin_len2 > 0.0)) return;
  const double angle = atan2(sin_len2, dot3(m, L));
  for (int k = 0; k < 3; k++)
    axis[k] *= angle / sin_len2;
  rotate(&b->q[4 * i], axis, 1.0);
}

/* Turns a 3D cluster over h keeping its angular momentum L = I w: its
 * inertia tensor turns with it, so w = I(q)^-1 L changes as it turns (the
 * torque-free Euler equations, gyroscopic term included). Explicit midpoint
 * on the rotation group: turn by w over h/2, take w there, turn the start
 * by that w over h; second order in h, and L is kept exactly; then the
 * energy is put back (keep_energy). Disks, spheres and 2D clusters keep w. */
static void rotate_cluster(moreau_bodies *b, moreau_lid i, double h)
{
  double I[6], L[3], inv[6], q0[4], w_half[3];
  double *q = &b->q[4 * i], *w = &b->w[3 * i];
  moreau_bodies_inertia_world(b, i, I);
  moreau_sym3_apply(I, w, L);
  const double energy = 0.5 * dot3(w, L);
  memcpy(q0, q, sizeof(q0));
  rotate(q, w, 0.5 * h);
  moreau_bodies_inv_inertia_world(b, i, inv);
  moreau_sym3_apply(inv, L, w_half);
  memcpy(q, q0, sizeof(q0));
  rotate(q, w_half, h);
  keep_energy(b, i, L, energy);
  moreau_bodies_inv_inertia_world(b, i, inv);
  moreau_sym3_apply(inv, L, w);
}

void sim_drift(moreau_sim *sim, double h)
{
  moreau_bodies *b = sim->bodies;
  moreau_walls *w = sim->walls;
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    /* A rough wall's grain moves with its wall, as one rigid body. */
    if (b->glued[i]) memcpy(&b->v[3 * i], &w->velocity[3 * (b->glued[i] - 1)], 3 * sizeof(double));
    for (int k = 0; k < 3; k++)
      b->x[3 * i + k] += h * b->v[3 * i + k];
    if (b->dim == 3 && b->shape[i] > 0 && b->inv_mass[i] > 0.0)
      rotate_cluster(b, i, h);
    else
      rotate(&b->q[4 * i], &b->w[3 * i], h);
  }
  for (int i = 0; i < w->n; i++)
    for (int k = 0; k < 3; k++)
      w->point[3 * i + k] += h * w->velocity[3 * i + k];
  /* The images move with the time of the positions; a body that left
   * through a periodic face comes back through the other, with the
   * Lees-Edwards jumps of position and velocity. */
  moreau_domain_advance(sim->domain, h);
  if (moreau_domain_any_periodic(sim->domain))
    for (moreau_lid i = 0; i < b->n_owned; i++)
      (void)moreau_domain_wrap(sim->domain, &b->x[3 * i], &b->v[3 * i]);
}

/* How many contacts ahead the relative velocities prefetch their bodies'. */
enum { RELATIVE_AHEAD = 8 };

/* Prefetches the velocity, spin and glue flag of body i (i < 0: a wall,
 * nothing), and the shape and radius its contacts' lever arms are formed
 * from. The contacts come in key order and their bodies from anywhere
 * in memory. Always inlined: GCC finds a void function of prefetches alone
 * pure and drops its calls. */
static inline __attribute__((always_inline)) void prefetch_body_velocity(const moreau_bodies *b, moreau_lid i)
{
  if (i < 0) return;
  __builtin_prefetch(&b->v[3 * i], 0, 3);
  __builtin_prefetch(&b->w[3 * i], 0, 3);
  __builtin_prefetch(&b->glued[i], 0, 3);
  __builtin_prefetch(&b->shape[i], 0, 3);
  __builtin_prefetch(&b->radius[i], 0, 3);
}

/* Relative velocity of b with respect to a at each contact point, in world
 * components, from the velocities at the start of the step: the row build
 * takes its frame components, with the frame it forms anyway. It lies in the
 * solver's records when the sweep order allows (24 bytes a contact less at
 * the solve, where a step's memory peaks), else in an array of the step's. */
moreau_err sim_relative_velocities(moreau_sim *sim)
{
  const moreau_bodies *b = sim->bodies;
  const moreau_walls *w = sim->walls;
  const moreau_contacts *c = sim->contacts;
  MOREAU_CALL(moreau_nlgs_u_minus_space(sim->nlgs, c->n, &sim->u_minus));
  if (!sim->u_minus) {
    if (c->n > sim->u_minus_cap) {
      sim->u_minus_cap = c->n + c->n / 2 + 64;
      MOREAU_CALL(moreau_realloc(3 * (size_t)sim->u_minus_cap * sizeof(double), &sim->u_minus_own));
    }
    sim->u_minus = sim->u_minus_own;
  }
  for (moreau_lid k = 0; k < c->n; k++) {
    if (k + RELATIVE_AHEAD < c->n) {
      prefetch_body_velocity(b, c->a[k + RELATIVE_AHEAD]);
      prefetch_body_velocity(b, c->b[k + RELATIVE_AHEAD]);
    }
    moreau_lid ia = c->a[k], ib = c->b[k];
    const double *wa = &b->w[3 * ia];
    double ca[3], cb[3], ua[3], ub[3] = {0, 0, 0};
    moreau_contacts_arms(c, b, k, ca, cb);
    ua[0] = b->v[3 * ia] + wa[1] * ca[2] - wa[2] * ca[1];
    ua[1] = b->v[3 * ia + 1] + wa[2] * ca[0] - wa[0] * ca[2];
    ua[2] = b->v[3 * ia + 2] + wa[0] * ca[1] - wa[1] * ca[0];
    if (b->glued[ia]) memcpy(ua, &w->velocity[3 * (b->glued[ia] - 1)], sizeof(ua));
    if (ib >= 0 && b->glued[ib]) {
      memcpy(ub, &w->velocity[3 * (b->glued[ib] - 1)], sizeof(ub));
    } else if (ib >= 0) {
      const double *wb = &b->w[3 * ib];
      ub[0] = b->v[3 * ib] + wb[1] * cb[2] - wb[2] * cb[1];
      ub[1] = b->v[3 * ib + 1] + wb[2] * cb[0] - wb[0] * cb[2];
      ub[2] = b->v[3 * ib + 2] + wb[0] * cb[1] - wb[1] * cb[0];
    } else {
      memcpy(ub, &w->velocity[3 * (-(ib + 1))], sizeof(ub));
    }
    const double *vs = moreau_contacts_vshift(c, k);
    for (int d = 0; d < 3; d++)
      sim->u_minus[3 * k + d] = ub[d] + vs[d] - ua[d];
  }
  return MOREAU_SUCCESS;
}

/* U_free = U- + dt M^-1 F_ext: gravity and each body's external force and
 * torque on every local copy of a body (owned and ghost alike, so that the
 * copies agree), the drive on force walls. */
void sim_free_velocities(moreau_sim *sim)
{
  moreau_bodies *b = sim->bodies;
  moreau_walls *w = sim->walls;
  moreau_lid n = moreau_bodies_n_local(b);
  /* Without external forces and torques (no arrays) the sums are those of
   * zeros: the same bits (w + dt 0 is w, but -0 becomes +0). */
  static const double none[3] = {0.0, 0.0, 0.0};
  for (moreau_lid i = 0; i < n; i++) {
    if (b->inv_mass[i] == 0.0) continue;
    double inv[6], dw[3] = {0.0, 0.0, 0.0};
    const double *f = b->f_ext ? &b->f_ext[3 * i] : none;
    if (b->t_ext) {
      moreau_bodies_inv_inertia_world(b, i, inv);
      moreau_sym3_apply(inv, &b->t_ext[3 * i], dw);
    }
    for (int k = 0; k < 3; k++) {
      b->v[3 * i + k] += sim->dt * (sim->gravity[k] + b->inv_mass[i] * f[k]);
      b->w[3 * i + k] += sim->dt * dw[k];
    }
  }
  for (int i = 0; i < w->n; i++) {
    if (w->mode[i] != MOREAU_WALL_FORCE) continue;
    for (int k = 0; k < 3; k++)
      w->velocity[3 * i + k] += sim->dt * w->drive[i] / w->mass[i] * w->normal[3 * i + k];
  }
}

moreau_err sim_contact_statistics(moreau_sim *sim)
{
  const moreau_bodies *b = sim->bodies;
  const moreau_contacts *c = sim->contacts;
  moreau_walls *w = sim->walls;
  double overlap = 0.0, count = (double)c->n;
  for (int i = 0; i < 3 * w->n; i++)
    w->reaction[i] = 0.0;
  for (moreau_lid k = 0; k < c->n; k++) {
    overlap = fmax(overlap, -c->gap[k]);
    /* The force on b (a wall, or a rough wall's grain), minus that on a. */
    moreau_lid ia = c->a[k], ib = c->b[k];
    int wa = b->glued[ia] - 1, wb = ib < 0 ? -(ib + 1) : b->glued[ib] - 1;
    if (wa < 0 && wb < 0) continue;
    double f[3];
    moreau_contacts_world_force(c, b->dim, k, f);
    for (int d = 0; d < 3; d++) {
      if (wb >= 0) w->reaction[3 * wb + d] += f[d];
      if (wa >= 0) w->reaction[3 * wa + d] -= f[d];
    }
  }
  if (w->n) MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, w->reaction, 3 * w->n, MPI_DOUBLE, MPI_SUM, sim->comm));
  MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, &overlap, 1, MPI_DOUBLE, MPI_MAX, sim->comm));
  MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, &count, 1, MPI_DOUBLE, MPI_SUM, sim->comm));
  sim->stats.max_overlap = overlap;
  sim->stats.n_contacts_global = (int64_t)count;
  return MOREAU_SUCCESS;
}
