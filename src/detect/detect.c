#include "moreau/detect.h"

#include <math.h>
#include <string.h>

#include "moreau/log.h"

struct moreau_detector {
  moreau_lid ncell_cap, nbody_cap;
  moreau_lid *cell_start; /* CSR over cells: bodies of cell k are order[cell_start[k] .. cell_start[k+1]) */
  moreau_lid *order;
  moreau_lid *body_cell;
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

/* The contact point sits in the middle of the gap (or of the overlap). */
static moreau_err push_contact(moreau_contacts *c, int dim, const moreau_bodies *b, moreau_lid a, moreau_lid ib,
                               moreau_gid gid_b, const double *n, double gap, const double *xb)
{
  moreau_lid k;
  const double *xa = &b->x[3 * a];
  double reach = b->radius[a] + 0.5 * gap;
  MOREAU_CALL(moreau_contacts_push(c, b->gid[a], gid_b, 0, a, ib, &k));
  for (int i = 0; i < 3; i++) {
    double p = xa[i] + reach * n[i];
    c->normal[3 * k + i] = n[i];
    c->ca[3 * k + i] = p - xa[i];
    c->cb[3 * k + i] = xb ? p - xb[i] : 0.0;
  }
  complete_frame(dim, n, &c->tangent[3 * k], &c->binormal[3 * k]);
  c->gap[k] = gap;
  return MOREAU_SUCCESS;
}

static moreau_err detect_walls(const moreau_bodies *b, const moreau_walls *w, double alert, moreau_contacts *c)
{
  for (moreau_lid a = 0; a < b->n_owned; a++) {
    const double *xa = &b->x[3 * a];
    for (int iw = 0; iw < w->n; iw++) {
      const double *p = &w->point[3 * iw], *nw = &w->normal[3 * iw];
      double dist = (xa[0] - p[0]) * nw[0] + (xa[1] - p[1]) * nw[1] + (xa[2] - p[2]) * nw[2];
      double gap = dist - b->radius[a], n[3] = {-nw[0], -nw[1], -nw[2]};
      if (gap >= alert) continue;
      MOREAU_CALL(push_contact(c, b->dim, b, a, -(iw + 1), MOREAU_WALL_GID(iw), n, gap, NULL));
    }
  }
  return MOREAU_SUCCESS;
}

moreau_err moreau_detect(moreau_detector *d, const moreau_domain *domain, const moreau_bodies *b, const moreau_walls *w,
                         double alert, moreau_contacts *c)
{
  moreau_lid n = moreau_bodies_n_local(b), ncell;
  /* Asked once: the common bounded case keeps the plain difference inline. */
  const int periodic = moreau_domain_any_periodic(domain);
  int dim = b->dim, nc[3] = {1, 1, 1};
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, rmax = 0.0, h;

  moreau_log_begin(MOREAU_EV_DETECT);
  moreau_contacts_clear(c);
  if (n > 0) {
    for (int k = 0; k < 3; k++)
      lo[k] = hi[k] = b->x[k];
    for (moreau_lid i = 0; i < n; i++) {
      for (int k = 0; k < dim; k++) {
        double xi = b->x[3 * i + k];
        lo[k] = xi < lo[k] ? xi : lo[k];
        hi[k] = xi > hi[k] ? xi : hi[k];
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
        double m = floor((hi[k] - lo[k]) / h) + 1.0;
        ncells *= m;
      }
      /* A sparse scene over a huge box would ask for too many cells: grow h. */
      while (ncells > 4.0 * (double)n + 64.0) {
        h *= 1.5;
        ncells = 1.0;
        for (int k = 0; k < dim; k++)
          ncells *= floor((hi[k] - lo[k]) / h) + 1.0;
      }
    }
    ncell = 1;
    for (int k = 0; k < dim; k++) {
      nc[k] = (int)floor((hi[k] - lo[k]) / h) + 1;
      ncell *= nc[k];
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
      for (int k = dim - 1; k >= 0; k--) {
        int ck = (int)((b->x[3 * i + k] - lo[k]) / h);
        ck = ck < 0 ? 0 : (ck >= nc[k] ? nc[k] - 1 : ck);
        cell = cell * nc[k] + ck;
      }
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

    for (moreau_lid a = 0; a < b->n_owned; a++) {
      int ca[3] = {0, 0, 0}, cell = d->body_cell[a];
      const double *xa = &b->x[3 * a];
      for (int k = 0; k < dim; k++) {
        ca[k] = cell % nc[k];
        cell /= nc[k];
      }
      int zlo = dim == 3 ? -1 : 0, zhi = dim == 3 ? 1 : 0;
      for (int dz = zlo; dz <= zhi; dz++)
        for (int dy = -1; dy <= 1; dy++)
          for (int dx = -1; dx <= 1; dx++) {
            int cx = ca[0] + dx, cy = ca[1] + dy, cz = ca[2] + dz;
            if (cx < 0 || cx >= nc[0] || cy < 0 || cy >= nc[1] || cz < 0 || cz >= nc[2]) continue;
            int nb = (cz * nc[1] + cy) * nc[0] + cx;
            for (moreau_lid j = d->cell_start[nb]; j < d->cell_start[nb + 1]; j++) {
              moreau_lid ib = d->order[j];
              if (b->gid[ib] <= b->gid[a]) continue;
              const double *xb = &b->x[3 * ib];
              double dx3[3] = {xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]}, image[3];
              if (periodic) {
                double shift[3];
                moreau_domain_separation(domain, xa, xb, dx3, shift, NULL);
                for (int k = 0; k < 3; k++)
                  image[k] = xb[k] + shift[k];
                xb = image;
              }
              double dist2 = dx3[0] * dx3[0] + dx3[1] * dx3[1] + dx3[2] * dx3[2];
              double reach = b->radius[a] + b->radius[ib] + alert;
              if (dist2 >= reach * reach) continue;
              /* Coincident centres have no normal: any axis will do, and the
               * overlap (both radii) shows in the checks of the state. */
              double dist = sqrt(dist2), nrm[3] = {1.0, 0.0, 0.0};
              if (dist > 0.0)
                for (int k = 0; k < 3; k++)
                  nrm[k] = dx3[k] / dist;
              MOREAU_CALL(push_contact(c, dim, b, a, ib, b->gid[ib], nrm, dist - b->radius[a] - b->radius[ib], xb));
            }
          }
    }
  }
  MOREAU_CALL(detect_walls(b, w, alert, c));
  MOREAU_CALL(moreau_contacts_sort(c));
  moreau_log_end(MOREAU_EV_DETECT);
  return MOREAU_SUCCESS;
}
