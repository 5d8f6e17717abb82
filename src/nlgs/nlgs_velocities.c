#include <math.h>
#include <string.h>
#include <unistd.h>

#include "moreau/part.h"
#include "nlgs_private.h"

/* The velocity components of a dimension: v[0..nv) and the spin's last ns. */
static void dim_components(const moreau_nlgs *s, int *nv, int *ns)
{
  *nv = s->dim;
  *ns = s->dim == 2 ? 1 : 3;
}

/* Whether x is +0, which a lent array comes back with (calloc). */
static int plus_zero(double x) { return x == 0.0 && !signbit(x); }

/* Whether the components a 2D solve does not move (v_z, w_x, w_y) are +0
 * for every local body. */
static int plane_components_zero(const moreau_bodies *b, moreau_lid nb)
{
  int plane = 1;
  for (moreau_lid i = 0; i < nb; i++)
    plane &= plus_zero(b->v[3 * i + 2]) & plus_zero(b->w[3 * i]) & plus_zero(b->w[3 * i + 1]);
  return plane;
}

moreau_err nlgs_velocities_gather(moreau_nlgs *s, const moreau_nlgs_problem *prob, int lend)
{
  moreau_bodies *b = prob->bodies;
  const moreau_walls *w = prob->walls;
  const moreau_lid nb = moreau_bodies_n_local(b), n = nb + w->n;
  const size_t page = (size_t)sysconf(_SC_PAGESIZE), entry = 8 * sizeof(double);
  size_t released_v = 0, released_w = 0;
  int nv, ns;
  dim_components(s, &nv, &ns);
  s->vel_stride = 8;
  s->spin_at = s->dim == 2 ? MOREAU_SPIN2D : MOREAU_SPIN3D;
  if (n > s->vel_cap || !s->vel) {
    /* Entries of 64 bytes on 64-byte lines: one line each. */
    const moreau_lid cap = n + n / 2 + 64;
    moreau_free(&s->vel);
    MOREAU_CALL(moreau_malloc_lines((size_t)cap * entry, &s->vel));
    s->vel_cap = cap;
  }
  s->vel_walls = nb;
  /* The table holds every component the solve moves; in 2D the others come
   * back as +0, which they must be. Lent, the bodies' arrays go back to the
   * system as the table fills. */
  s->bodies_lent = lend && nb > 0 && (s->dim == 3 || plane_components_zero(b, nb));
  for (moreau_lid i = 0; i < nb; i++) {
    memset(nlgs_velocity(s, i), 0, entry);
    memcpy(nlgs_velocity(s, i), &b->v[3 * i], (size_t)nv * sizeof(double));
    memcpy(nlgs_spin(s, i), &b->w[3 * i + 3 - ns], (size_t)ns * sizeof(double));
    if (s->bodies_lent && (i + 1) % NLGS_BUILT_EVERY == 0) {
      const size_t done = 3 * (size_t)(i + 1) * sizeof(double);
      released_v = nlgs_release_pages(b->v, released_v, done, page);
      released_w = nlgs_release_pages(b->w, released_w, done, page);
    }
  }
  for (int i = 0; i < w->n; i++) {
    memset(nlgs_velocity(s, nb + i), 0, entry);
    memcpy(nlgs_velocity(s, nb + i), &w->velocity[3 * i], (size_t)nv * sizeof(double));
  }
  s->gathered = 1;
  if (s->bodies_lent) {
    moreau_free(&b->v);
    moreau_free(&b->w);
  }
  return MOREAU_SUCCESS;
}

void nlgs_velocities_masses(moreau_nlgs *s, const moreau_nlgs_problem *prob)
{
  const moreau_bodies *b = prob->bodies;
  const moreau_walls *w = prob->walls;
  const int im = s->dim == 2 ? MOREAU_IM2D : MOREAU_IM3D, ii = s->dim == 2 ? MOREAU_II2D : MOREAU_II3D;
  for (moreau_lid i = 0; i < s->vel_walls; i++) {
    double *e = nlgs_velocity(s, i), scale = nlgs_copy_scale(s, i);
    e[im] = b->inv_mass[i] * scale;
    /* A 3D cluster turns through its tensor (rows3d.c). */
    e[ii] = s->dim == 3 && b->shape[i] > 0 ? 0.0 : b->inv_inertia[i] * scale;
  }
  for (int i = 0; s->dim == 2 && i < w->n; i++) {
    const double *g = nlgs_wall_glue(s, w, i);
    double *e = nlgs_velocity(s, s->vel_walls + i);
    e[MOREAU_G2D] = g ? g[0] : 0.0;
    e[MOREAU_G2D + 1] = g ? g[1] : 0.0;
  }
}

moreau_err nlgs_velocities_scatter(moreau_nlgs *s, const moreau_nlgs_problem *prob)
{
  moreau_bodies *b = prob->bodies;
  const moreau_lid nb = moreau_bodies_n_local(b);
  int nv, ns;
  const int lent = s->bodies_lent;
  if (!s->gathered) return MOREAU_SUCCESS;
  if (lent) {
    const size_t bytes = 3 * (size_t)b->capacity * sizeof(double);
    moreau_err err = moreau_malloc(bytes, &b->v);
    if (!err) err = moreau_malloc(bytes, &b->w);
    if (err) moreau_free(&b->v);
    MOREAU_CALL(err); /* the table keeps the velocities */
    s->bodies_lent = 0;
  }
  /* The table's pages go back to the system as the bodies' fill (the
   * walls' entries, last, stay for walls_out). */
  const size_t entry = (size_t)s->vel_stride * sizeof(double);
  const size_t granule = nlgs_lines_granule((size_t)s->vel_cap * entry);
  size_t released = 0;
  dim_components(s, &nv, &ns);
  for (moreau_lid i = 0; i < nb; i++) {
    if (lent && s->dim == 2) { /* new arrays: what gather found +0 */
      b->v[3 * i + 2] = 0.0;
      b->w[3 * i] = b->w[3 * i + 1] = 0.0;
    }
    memcpy(&b->v[3 * i], nlgs_velocity(s, i), (size_t)nv * sizeof(double));
    memcpy(&b->w[3 * i + 3 - ns], nlgs_spin(s, i), (size_t)ns * sizeof(double));
    if (s->lent && (i + 1) % NLGS_BUILT_EVERY == 0)
      released = nlgs_release_pages(s->vel, released, (size_t)(i + 1) * entry, granule);
  }
  nlgs_velocities_walls_out(s, prob);
  s->gathered = 0;
  return MOREAU_SUCCESS;
}

void nlgs_velocities_free(moreau_nlgs *s)
{
  if (s->bodies_lent) return; /* the velocities are only there */
  moreau_free(&s->vel);
  s->vel_cap = 0;
}

moreau_part_velocities nlgs_velocities_view(const moreau_nlgs *s)
{
  return (moreau_part_velocities){s->vel, s->vel + s->spin_at, s->vel_stride};
}

void nlgs_velocities_walls_out(const moreau_nlgs *s, const moreau_nlgs_problem *prob)
{
  moreau_walls *w = prob->walls;
  for (int i = 0; i < w->n; i++)
    memcpy(&w->velocity[3 * i], nlgs_velocity(s, s->vel_walls + i), (size_t)s->dim * sizeof(double));
}

void nlgs_velocities_walls_in(const moreau_nlgs *s, const moreau_nlgs_problem *prob)
{
  const moreau_walls *w = prob->walls;
  for (int i = 0; i < w->n; i++)
    memcpy(nlgs_velocity(s, s->vel_walls + i), &w->velocity[3 * i], (size_t)s->dim * sizeof(double));
}
