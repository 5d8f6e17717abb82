/* The broad phase of detection, kept between steps: the pairs of bodies
 * whose bounding balls come within alert + skin (a Verlet list). The narrow
 * phase (detect.c) tests only these pairs every step; the list is built
 * again when the bodies at the local indices change (migration, ghosts,
 * renumbering) or when the bodies and the box's images have moved enough
 * since the build that a pair left out could now be within alert. */
#include <math.h>
#include <string.h>

#include "detect_private.h"
#include "moreau/log.h"

/* The linked cells of a build: a grid over the bounding box of the local
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

/* Sorts the n local bodies into cells no smaller than reach (CSR in
 * d->cell_start, d->order). */
static moreau_err bin_bodies(moreau_detector *d, const moreau_bodies *b, moreau_lid n, double reach, detect_grid *g)
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
   * candidate partner is always in one of the 3^dim neighbouring cells. */
  h = 2.0 * rmax + reach;
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

/* Appends ib, seen at xb (an image position, or its own), to the
 * candidates of a when their bounding balls are within reach of each other,
 * keeping a's list (from first) sorted by gid and each partner once (the
 * narrow phase picks the image). */
static moreau_err add_candidate(moreau_detector *d, const moreau_bodies *b, moreau_lid a, moreau_lid ib,
                                const double *xb, double reach, moreau_lid first, moreau_lid *n)
{
  const double *xa = &b->x[3 * a];
  double dx[3] = {xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]};
  double r = b->radius[a] + b->radius[ib] + reach;
  if (dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2] >= r * r) return MOREAU_SUCCESS;
  moreau_lid j = *n;
  for (; j > first && b->gid[d->cand_b[j - 1]] >= b->gid[ib]; j--)
    if (d->cand_b[j - 1] == ib) return MOREAU_SUCCESS; /* seen through another image */
  if (*n == d->cand_cap) {
    moreau_lid cap = d->cand_cap ? 2 * d->cand_cap : 1024;
    MOREAU_CALL(moreau_realloc((size_t)cap * sizeof(moreau_lid), &d->cand_b));
    d->cand_cap = cap;
  }
  memmove(&d->cand_b[j + 1], &d->cand_b[j], (size_t)(*n - j) * sizeof(moreau_lid));
  d->cand_b[j] = ib;
  (*n)++;
  return MOREAU_SUCCESS;
}

/* Bounded axes only: the partners of a are in the 3^dim cells around its
 * own, and separations are plain differences. */
static moreau_err search_bounded(moreau_detector *d, const moreau_bodies *b, const detect_grid *g, moreau_lid a,
                                 double reach, moreau_lid *n)
{
  const int *nc = g->nc;
  int ca[3] = {0, 0, 0}, cell = d->body_cell[a];
  moreau_lid first = *n;
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
          MOREAU_CALL(add_candidate(d, b, a, ib, &b->x[3 * ib], reach, first, n));
        }
      }
  return MOREAU_SUCCESS;
}

/* Periodic axes: for each image of the box that can reach a, the cells of
 * the local grid whose bodies' images there may touch a. A body with an
 * image within reach is a candidate; the narrow phase takes the pair
 * through its nearest image, the only one that can be within alert (every
 * period is at least twice the interaction range, which the setup checks),
 * so each pair gives one contact whatever the partition. */
static moreau_err search_images(moreau_detector *d, const moreau_bodies *b, const detect_grid *g, moreau_lid a,
                                double reach, moreau_lid *n)
{
  const double *xa = &b->x[3 * a];
  moreau_lid first = *n;
  for (int img = 0; img < d->n_img; img++) {
    const double *shift = d->shift[img];
    int clo[3] = {0, 0, 0}, chi[3] = {0, 0, 0}, miss = 0;
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
            MOREAU_CALL(add_candidate(d, b, a, ib, image, reach, first, n));
          }
        }
  }
  return MOREAU_SUCCESS;
}

/* The list of the local bodies as they are now. */
static moreau_err build(moreau_detector *d, const moreau_domain *domain, const moreau_bodies *b, double alert)
{
  moreau_lid n_local = moreau_bodies_n_local(b), n = 0;
  double reach = alert + d->skin;
  int periodic = moreau_domain_any_periodic(domain);
  detect_grid g;
  moreau_log_begin(MOREAU_EV_DETECT_BUILD);
  if (b->n_owned + 1 > d->start_cap) {
    MOREAU_CALL(moreau_realloc((size_t)(b->n_owned + 1) * sizeof(moreau_lid), &d->cand_start));
    d->start_cap = b->n_owned + 1;
  }
  if (n_local > d->saved_cap) {
    MOREAU_CALL(moreau_realloc((size_t)n_local * (size_t)b->dim * sizeof(float), &d->x0));
    MOREAU_CALL(moreau_realloc((size_t)n_local * sizeof(moreau_gid), &d->gid0));
    d->saved_cap = n_local;
  }
  if (n_local > 0) MOREAU_CALL(bin_bodies(d, b, n_local, reach, &g));
  /* Body by body in storage order, near in space and so in memory. */
  for (moreau_lid a = 0; a < b->n_owned; a++) {
    d->cand_start[a] = n;
    if (periodic)
      MOREAU_CALL(search_images(d, b, &g, a, reach, &n));
    else
      MOREAU_CALL(search_bounded(d, b, &g, a, reach, &n));
  }
  d->cand_start[b->n_owned] = n;
  /* The cells serve the build only: 8 bytes a body and 4 a cell that would
   * stay resident through every step until the next build. */
  moreau_free(&d->cell_start);
  moreau_free(&d->order);
  moreau_free(&d->body_cell);
  d->ncell_cap = d->nbody_cap = 0;
  if (n_local > 0) {
    for (moreau_lid i = 0; i < n_local; i++)
      for (int k = 0; k < b->dim; k++)
        d->x0[b->dim * i + k] = (float)b->x[3 * i + k];
    memcpy(d->gid0, b->gid, (size_t)n_local * sizeof(moreau_gid));
  }
  memcpy(d->shift0, d->shift, sizeof(d->shift0));
  d->n_owned = b->n_owned;
  d->n_local = n_local;
  d->alert = alert;
  d->built = 1;
  d->builds++;
  moreau_log_end(MOREAU_EV_DETECT_BUILD);
  return MOREAU_SUCCESS;
}

/* Whether the list still holds every pair within alert: the same bodies at
 * the same indices, and no pair left out (its bounding balls at least
 * alert + skin apart at the build, through every image) can have closed to
 * alert. Through image m the separation has shrunk by at most the
 * displacements of both bodies plus that of the image (Lees-Edwards offset,
 * a changing period). A body that crossed a periodic face sits on one of
 * its images: its displacement is taken through the nearest image, x - x0
 * - shift(m'), and since shifts add (shift(m) + shift(m') = shift(m + m')),
 * the body's images are those of x - shift(m') too, so the bound holds with
 * that displacement. The saved positions are floats: each component is
 * within 2^-24 of its own magnitude of the build's, so a body's
 * displacement is bounded by the one from its float position plus 2^-24
 * times that position's L1 norm. Twice the largest displacement plus the
 * largest of an image must stay below the skin, less a margin far above
 * rounding. */
static int still_valid(const moreau_detector *d, const moreau_domain *domain, const moreau_bodies *b, double alert)
{
  moreau_lid n_local = moreau_bodies_n_local(b);
  double moved = 0.0, shifted2 = 0.0;
  int periodic = moreau_domain_any_periodic(domain);
  if (!d->built || alert != d->alert || b->n_owned != d->n_owned || n_local != d->n_local) return 0;
  if (n_local > 0 && memcmp(b->gid, d->gid0, (size_t)n_local * sizeof(moreau_gid))) return 0;
  for (moreau_lid i = 0; i < n_local; i++) {
    const double *x = &b->x[3 * i];
    double x0[3] = {0.0, 0.0, 0.0}, dx[3], rounding = 0.0;
    for (int k = 0; k < b->dim; k++) {
      x0[k] = d->x0[b->dim * i + k];
      rounding += fabs(x0[k]);
    }
    for (int k = 0; k < 3; k++)
      dx[k] = x[k] - x0[k];
    if (periodic) moreau_domain_separation(domain, x0, x, dx, NULL, NULL);
    double m = sqrt(dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2]) + 0x1p-24 * rounding;
    if (!isfinite(m)) return 0; /* a broken state: build, as every step did before the list */
    moved = m > moved ? m : moved;
  }
  for (int img = 0; img < d->n_img; img++) {
    double dx = d->shift[img][0] - d->shift0[img][0], dy = d->shift[img][1] - d->shift0[img][1],
           dz = d->shift[img][2] - d->shift0[img][2];
    double s2 = dx * dx + dy * dy + dz * dz;
    shifted2 = s2 > shifted2 ? s2 : shifted2;
  }
  return 2.0 * moved + sqrt(shifted2) <= (1.0 - 1e-9) * d->skin;
}

/* This call's box and its images; *same: whether their range is the last
 * call's (a change forces a build). */
static moreau_err images_now(moreau_detector *d, const moreau_domain *domain, int *same)
{
  int lo[3], hi[3], m[3], n = 0, count = 1;
  double box_lo[3], box_hi[3];
  moreau_domain_image_range(domain, lo, hi);
  for (int k = 0; k < 3; k++)
    count *= hi[k] - lo[k] + 1;
  MOREAU_CHECK(count <= DETECT_MAX_IMAGES, MOREAU_ERR_INTERNAL, "detection: %d images of the box, at most %d", count,
               DETECT_MAX_IMAGES);
  moreau_domain_get_box(domain, box_lo, box_hi);
  moreau_domain_get_lees_edwards(domain, &d->le);
  for (int k = 0; k < 3; k++) {
    d->periodic[k] = k < moreau_domain_dim(domain) && moreau_domain_is_periodic(domain, k);
    d->len[k] = box_hi[k] - box_lo[k];
  }
  *same = !memcmp(lo, d->img_lo, sizeof(lo)) && !memcmp(hi, d->img_hi, sizeof(hi));
  memcpy(d->img_lo, lo, sizeof(lo));
  memcpy(d->img_hi, hi, sizeof(hi));
  for (m[2] = lo[2]; m[2] <= hi[2]; m[2]++)
    for (m[1] = lo[1]; m[1] <= hi[1]; m[1]++)
      for (m[0] = lo[0]; m[0] <= hi[0]; m[0]++, n++)
        moreau_domain_image(domain, m, d->shift[n], d->vshift[n]);
  d->n_img = n;
  return MOREAU_SUCCESS;
}

moreau_err detect_candidates(moreau_detector *d, const moreau_domain *domain, const moreau_bodies *b, double alert)
{
  int same_images = 0;
  MOREAU_CALL(images_now(d, domain, &same_images));
  if (!same_images || !still_valid(d, domain, b, alert)) MOREAU_CALL(build(d, domain, b, alert));
  return MOREAU_SUCCESS;
}
