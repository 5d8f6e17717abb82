#include "moreau/detect.h"

#include <math.h>
#include <string.h>

#include "moreau/log.h"

struct moreau_detector {
  moreau_lid ncell_cap, nbody_cap, contact_cap;
  moreau_lid *cell_start; /* CSR over cells: bodies of cell k are order[cell_start[k] .. cell_start[k+1]) */
  moreau_lid *order;
  moreau_lid *body_cell;
  moreau_lid *run_start; /* the contacts of owned body a are run_start[a] .. run_start[a+1] - 1 as found */
  moreau_lid *key_perm;  /* the contacts as found, in key order */
};

moreau_err moreau_detector_create(moreau_detector **d)
{
  MOREAU_CALL(moreau_calloc(1, sizeof(**d), d));
  return MOREAU_SUCCESS;
}

moreau_err moreau_detector_destroy(moreau_detector **dp)
{
  moreau_detector *d = *dp;
  if (!d) return MOREAU_SUCCESS;
  moreau_free(&d->cell_start);
  moreau_free(&d->order);
  moreau_free(&d->body_cell);
  moreau_free(&d->run_start);
  moreau_free(&d->key_perm);
  moreau_free(dp);
  return MOREAU_SUCCESS;
}

/* Any unit vector t orthogonal to n, and s = n x t. */
static void complete_frame(int dim, const double *n, double *t, double *s)
{
  if (dim == 2) {
    t[0] = -n[1];
    t[1] = n[0];
    t[2] = 0.0;
    s[0] = s[1] = 0.0;
    s[2] = 1.0;
    return;
  }
  double a[3] = {0, 0, 0}, len;
  int k = fabs(n[0]) < fabs(n[1]) ? (fabs(n[0]) < fabs(n[2]) ? 0 : 2) : (fabs(n[1]) < fabs(n[2]) ? 1 : 2);
  a[k] = 1.0;
  t[0] = a[1] * n[2] - a[2] * n[1];
  t[1] = a[2] * n[0] - a[0] * n[2];
  t[2] = a[0] * n[1] - a[1] * n[0];
  len = sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
  for (int i = 0; i < 3; i++)
    t[i] /= len;
  s[0] = n[1] * t[2] - n[2] * t[1];
  s[1] = n[2] * t[0] - n[0] * t[2];
  s[2] = n[0] * t[1] - n[1] * t[0];
}

/* One touching pair of contactors: centre ya of radius ra on body a (centre
 * of mass xa), yb of radius rb on b (or a wall when xb is NULL), normal n
 * from a to b. */
typedef struct {
  const double *xa, *ya, *xb;
  double ra, rb;
} contactor_pair;

/* The contact point sits in the middle of the gap (or of the overlap); the
 * lever arms go from each body's centre of mass to it. xb is the position of
 * the image of b that a touches, vshift that image's velocity on top of b's
 * own (NULL: none). point numbers the contactor pair within the body pair. */
static moreau_err push_contact(moreau_contacts *c, int dim, const moreau_bodies *b, moreau_lid a, moreau_lid ib,
                               moreau_gid gid_b, int32_t point, const contactor_pair *cp, const double *n, double gap,
                               const double *vshift)
{
  moreau_lid k;
  double reach = cp->ra + 0.5 * gap;
  MOREAU_CALL(moreau_contacts_push(c, b->gid[a], gid_b, point, a, ib, &k));
  for (int i = 0; i < 3; i++) {
    double p = cp->ya[i] + reach * n[i];
    c->normal[3 * k + i] = n[i];
    c->ca[3 * k + i] = p - cp->xa[i];
    c->cb[3 * k + i] = cp->xb ? p - cp->xb[i] : 0.0;
    c->vshift[3 * k + i] = vshift ? vshift[i] : 0.0;
  }
  complete_frame(dim, n, &c->tangent[3 * k], &c->binormal[3 * k]);
  c->gap[k] = gap;
  c->radii[2 * k] = cp->ra;
  c->radii[2 * k + 1] = cp->rb;
  return MOREAU_SUCCESS;
}

/* Contact point numbers: contactor ja of a in the high half, jb of b (0
 * for a wall or a plain body) in the low half; unique within a pair of bodies
 * and the same at every step, so the warm start finds the contact again.
 * Shapes have fewer than 2^15 contactors (moreau_sim_set_shapes checks). */
static int32_t point_key(int ja, int jb) { return (int32_t)ja << 16 | (int32_t)jb; }

/* Pushes the contacts of owned a with b seen at xb (an image position, or
 * b's own): one per pair of contactors whose gap is below alert. */
static moreau_err try_pair(moreau_contacts *c, int dim, const moreau_bodies *b, moreau_lid a, moreau_lid ib,
                           const double *xb, const double *vshift, double alert)
{
  const double *xa = &b->x[3 * a];
  double dx3[3] = {xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]};
  double dist2 = dx3[0] * dx3[0] + dx3[1] * dx3[1] + dx3[2] * dx3[2];
  double reach = b->radius[a] + b->radius[ib] + alert;
  if (dist2 >= reach * reach) return MOREAU_SUCCESS; /* the bounding balls are apart */
  int na = moreau_bodies_n_contactors(b, a), nb = moreau_bodies_n_contactors(b, ib);
  for (int i = 0; i < na; i++) {
    double ya[3], yb[3], ra, rb;
    moreau_bodies_contactor(b, a, i, xa, ya, &ra);
    for (int j = 0; j < nb; j++) {
      moreau_bodies_contactor(b, ib, j, xb, yb, &rb);
      double dy[3] = {yb[0] - ya[0], yb[1] - ya[1], yb[2] - ya[2]};
      double dy2 = dy[0] * dy[0] + dy[1] * dy[1] + dy[2] * dy[2], touch = ra + rb + alert;
      if (dy2 >= touch * touch) continue;
      /* Coincident centres have no normal: any axis will do, and the overlap
       * (both radii) shows in the checks of the state. */
      double dist = sqrt(dy2), nrm[3] = {1.0, 0.0, 0.0};
      if (dist > 0.0)
        for (int k = 0; k < 3; k++)
          nrm[k] = dy[k] / dist;
      contactor_pair cp = {xa, ya, xb, ra, rb};
      MOREAU_CALL(push_contact(c, dim, b, a, ib, b->gid[ib], point_key(i, j), &cp, nrm, dist - ra - rb, vshift));
    }
  }
  return MOREAU_SUCCESS;
}

/* Pushes the contacts of owned body a with the walls. */
static moreau_err walls_of(const moreau_bodies *b, const moreau_walls *w, moreau_lid a, double alert,
                           moreau_contacts *c)
{
  const double *xa = &b->x[3 * a];
  int na = moreau_bodies_n_contactors(b, a);
  for (int iw = 0; iw < w->n; iw++) {
    if (b->glued[a] == iw + 1) continue; /* a rough wall's grain lies on its wall */
    const double *p = &w->point[3 * iw], *nw = &w->normal[3 * iw];
    double dist = (xa[0] - p[0]) * nw[0] + (xa[1] - p[1]) * nw[1] + (xa[2] - p[2]) * nw[2];
    if (dist - b->radius[a] >= alert) continue; /* the bounding ball is clear of the wall */
    double n[3] = {-nw[0], -nw[1], -nw[2]};
    for (int i = 0; i < na; i++) {
      double ya[3], ra;
      moreau_bodies_contactor(b, a, i, xa, ya, &ra);
      double gap = (ya[0] - p[0]) * nw[0] + (ya[1] - p[1]) * nw[1] + (ya[2] - p[2]) * nw[2] - ra;
      if (gap >= alert) continue;
      contactor_pair cp = {xa, ya, NULL, ra, 0.0};
      MOREAU_CALL(push_contact(c, b->dim, b, a, -(iw + 1), MOREAU_WALL_GID(iw), point_key(i, 0), &cp, n, gap, NULL));
    }
  }
  return MOREAU_SUCCESS;
}

/* The linked cells of this call: a grid over the bounding box of the local
 * bodies. */
typedef struct {
  int dim, nc[3];
  double lo[3], hi[3], h;
} detect_grid;

static int grid_axis_cell(const detect_grid *g, int k, double x)
{
  int ck = (int)((x - g->lo[k]) / g->h);
  return ck < 0 ? 0 : (ck >= g->nc[k] ? g->nc[k] - 1 : ck);
}

/* Sorts the n local bodies into cells (CSR in d->cell_start, d->order). */
static moreau_err bin_bodies(moreau_detector *d, const moreau_bodies *b, moreau_lid n, double alert, detect_grid *g)
{
  int dim = b->dim;
  double rmax = 0.0, h;
  moreau_lid ncell;
  g->dim = dim;
  for (int k = 0; k < 3; k++) {
    g->lo[k] = g->hi[k] = b->x[k];
    g->nc[k] = 1;
  }
  for (moreau_lid i = 0; i < n; i++) {
    for (int k = 0; k < dim; k++) {
      double xi = b->x[3 * i + k];
      g->lo[k] = xi < g->lo[k] ? xi : g->lo[k];
      g->hi[k] = xi > g->hi[k] ? xi : g->hi[k];
    }
    rmax = b->radius[i] > rmax ? b->radius[i] : rmax;
  }
  /* Cells no smaller than the largest interaction distance, so that a
   * contact partner is always in one of the 3^dim neighbouring cells. */
  h = 2.0 * rmax + (alert > 0 ? alert : 0.0);
  if (!(h > 0)) h = 1.0;
  {
    double ncells = 1.0;
    for (int k = 0; k < dim; k++) {
      double m = floor((g->hi[k] - g->lo[k]) / h) + 1.0;
      ncells *= m;
    }
    /* A sparse scene over a huge box would ask for too many cells: grow h. */
    while (ncells > 4.0 * (double)n + 64.0) {
      h *= 1.5;
      ncells = 1.0;
      for (int k = 0; k < dim; k++)
        ncells *= floor((g->hi[k] - g->lo[k]) / h) + 1.0;
    }
  }
  g->h = h;
  ncell = 1;
  for (int k = 0; k < dim; k++) {
    g->nc[k] = (int)floor((g->hi[k] - g->lo[k]) / h) + 1;
    ncell *= g->nc[k];
  }
  if (ncell + 1 > d->ncell_cap) {
    MOREAU_CALL(moreau_realloc((size_t)(ncell + 1) * sizeof(moreau_lid), &d->cell_start));
    d->ncell_cap = ncell + 1;
  }
  if (n > d->nbody_cap) {
    MOREAU_CALL(moreau_realloc((size_t)n * sizeof(moreau_lid), &d->order));
    MOREAU_CALL(moreau_realloc((size_t)n * sizeof(moreau_lid), &d->body_cell));
    d->nbody_cap = n;
  }
  memset(d->cell_start, 0, (size_t)(ncell + 1) * sizeof(moreau_lid));
  for (moreau_lid i = 0; i < n; i++) {
    int cell = 0;
    for (int k = dim - 1; k >= 0; k--)
      cell = cell * g->nc[k] + grid_axis_cell(g, k, b->x[3 * i + k]);
    d->body_cell[i] = cell;
    d->cell_start[cell + 1]++;
  }
  for (moreau_lid k = 0; k < ncell; k++)
    d->cell_start[k + 1] += d->cell_start[k];
  for (moreau_lid i = 0; i < n; i++)
    d->order[d->cell_start[d->body_cell[i]]++] = i;
  for (moreau_lid k = ncell; k > 0; k--)
    d->cell_start[k] = d->cell_start[k - 1];
  d->cell_start[0] = 0;
  return MOREAU_SUCCESS;
}

/* Bounded axes only: the partners of a are in the 3^dim cells around its
 * own, and separations are plain differences. */
static moreau_err pairs_bounded(const moreau_detector *d, const moreau_bodies *b, const detect_grid *g, moreau_lid a,
                                double alert, moreau_contacts *c)
{
  const int *nc = g->nc;
  int ca[3] = {0, 0, 0}, cell = d->body_cell[a];
  for (int k = 0; k < g->dim; k++) {
    ca[k] = cell % nc[k];
    cell /= nc[k];
  }
  int zlo = g->dim == 3 ? -1 : 0, zhi = g->dim == 3 ? 1 : 0;
  for (int dz = zlo; dz <= zhi; dz++)
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) {
        int cx = ca[0] + dx, cy = ca[1] + dy, cz = ca[2] + dz;
        if (cx < 0 || cx >= nc[0] || cy < 0 || cy >= nc[1] || cz < 0 || cz >= nc[2]) continue;
        int nb = (cz * nc[1] + cy) * nc[0] + cx;
        for (moreau_lid j = d->cell_start[nb]; j < d->cell_start[nb + 1]; j++) {
          moreau_lid ib = d->order[j];
          if (b->gid[ib] <= b->gid[a]) continue;
          MOREAU_CALL(try_pair(c, g->dim, b, a, ib, &b->x[3 * ib], NULL, alert));
        }
      }
  return MOREAU_SUCCESS;
}

/* Periodic axes: for each image of the box that can reach a, the cells of
 * the local grid whose bodies' images there may touch a. A pair is taken
 * through the one image within the interaction range (unique because every
 * period is at least twice that range, which the setup checks), so each pair
 * gives one contact whatever the partition, with the geometry of that image
 * computed the same way on every rank. */
static moreau_err pairs_through_images(const moreau_detector *d, const moreau_domain *domain, const moreau_bodies *b,
                                       const detect_grid *g, moreau_lid a, double alert, moreau_contacts *c)
{
  int mlo[3], mhi[3], m[3];
  const double *xa = &b->x[3 * a];
  moreau_domain_image_range(domain, mlo, mhi);
  for (m[2] = mlo[2]; m[2] <= mhi[2]; m[2]++)
    for (m[1] = mlo[1]; m[1] <= mhi[1]; m[1]++)
      for (m[0] = mlo[0]; m[0] <= mhi[0]; m[0]++) {
        double shift[3], vshift[3];
        int clo[3] = {0, 0, 0}, chi[3] = {0, 0, 0}, miss = 0;
        moreau_domain_image(domain, m, shift, vshift);
        /* b's image at xb + shift within h of xa: xb within h of xa - shift. */
        for (int k = 0; k < g->dim && !miss; k++) {
          double q = xa[k] - shift[k];
          miss = q + g->h < g->lo[k] || q - g->h > g->hi[k];
          clo[k] = grid_axis_cell(g, k, q - g->h);
          chi[k] = grid_axis_cell(g, k, q + g->h);
        }
        if (miss) continue;
        for (int cz = clo[2]; cz <= chi[2]; cz++)
          for (int cy = clo[1]; cy <= chi[1]; cy++)
            for (int cx = clo[0]; cx <= chi[0]; cx++) {
              int nb = (cz * g->nc[1] + cy) * g->nc[0] + cx;
              for (moreau_lid j = d->cell_start[nb]; j < d->cell_start[nb + 1]; j++) {
                moreau_lid ib = d->order[j];
                if (b->gid[ib] <= b->gid[a]) continue;
                const double *xb = &b->x[3 * ib];
                double image[3] = {xb[0] + shift[0], xb[1] + shift[1], xb[2] + shift[2]};
                MOREAU_CALL(try_pair(c, g->dim, b, a, ib, image, vshift, alert));
              }
            }
      }
  return MOREAU_SUCCESS;
}

/* Whether contact i of c comes after contact j of the same body a in key
 * order (gid_b, then point). */
static int after(const moreau_contacts *c, moreau_lid i, moreau_lid j)
{
  if (c->gid_b[i] != c->gid_b[j]) return c->gid_b[i] > c->gid_b[j];
  return c->point[i] > c->point[j];
}

/* Puts c in key order without a sort of all its keys (which cost as much as
 * the search for pairs): the runs of the owned bodies taken in gid order,
 * each run (a body's few contacts) sorted by insertion. */
static moreau_err key_order(moreau_detector *d, const moreau_lid *by_gid, moreau_lid n_owned, moreau_contacts *c)
{
  moreau_lid m = 0;
  if (c->n > d->contact_cap) {
    MOREAU_CALL(moreau_realloc((size_t)c->n * sizeof(moreau_lid), &d->key_perm));
    d->contact_cap = c->n;
  }
  for (moreau_lid k = 0; k < n_owned; k++) {
    moreau_lid a = by_gid[k], first = m;
    for (moreau_lid i = d->run_start[a]; i < d->run_start[a + 1]; i++) {
      moreau_lid j = m++;
      for (; j > first && after(c, d->key_perm[j - 1], i); j--)
        d->key_perm[j] = d->key_perm[j - 1];
      d->key_perm[j] = i;
    }
  }
  MOREAU_ASSERT(m == c->n);
  MOREAU_CALL(moreau_fields_permute(&c->schema, c, (size_t)c->n, d->key_perm));
  /* Debug builds check the result: the warm start's merge and every order
   * that must not depend on the partition rely on it. */
  for (moreau_lid i = 1; i < c->n; i++)
    MOREAU_ASSERT(c->gid_a[i - 1] < c->gid_a[i] || (c->gid_a[i - 1] == c->gid_a[i] && after(c, i, i - 1)));
  return MOREAU_SUCCESS;
}

moreau_err moreau_detect(moreau_detector *d, const moreau_domain *domain, const moreau_bodies *b, const moreau_walls *w,
                         double alert, const moreau_lid *by_gid, moreau_contacts *c)
{
  moreau_lid n = moreau_bodies_n_local(b);
  int periodic = moreau_domain_any_periodic(domain);
  detect_grid g;
  moreau_log_begin(MOREAU_EV_DETECT);
  moreau_contacts_clear(c);
  if (n > 0) MOREAU_CALL(bin_bodies(d, b, n, alert, &g));
  MOREAU_CALL(moreau_realloc((size_t)(b->n_owned + 1) * sizeof(moreau_lid), &d->run_start));
  /* Body by body in storage order (near in space, so near in memory), each
   * owned body's contacts with bodies and walls found together. */
  for (moreau_lid a = 0; a < b->n_owned; a++) {
    d->run_start[a] = c->n;
    if (periodic)
      MOREAU_CALL(pairs_through_images(d, domain, b, &g, a, alert, c));
    else
      MOREAU_CALL(pairs_bounded(d, b, &g, a, alert, c));
    MOREAU_CALL(walls_of(b, w, a, alert, c));
  }
  d->run_start[b->n_owned] = c->n;
  MOREAU_CALL(key_order(d, by_gid, b->n_owned, c));
  moreau_log_end(MOREAU_EV_DETECT);
  return MOREAU_SUCCESS;
}
