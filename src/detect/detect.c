/* The narrow phase of detection: every step, the candidate pairs of
 * candidates.c and the walls are tested against the alert distance, owned
 * body by owned body in gid order, so that the contacts come out in key
 * order as they are found. */
#include <math.h>
#include <string.h>

#include "detect_private.h"
#include "moreau/log.h"

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
  moreau_free(&d->cand_start);
  moreau_free(&d->cand_b);
  moreau_free(&d->x0);
  moreau_free(&d->gid0);
  moreau_free(dp);
  return MOREAU_SUCCESS;
}

moreau_err moreau_detector_set_skin(moreau_detector *d, double skin)
{
  MOREAU_CHECK(skin >= 0 && isfinite(skin), MOREAU_ERR_INPUT, "detection skin must be finite and >= 0, got %g", skin);
  d->skin = skin;
  d->built = 0;
  return MOREAU_SUCCESS;
}

double moreau_detector_skin(const moreau_detector *d) { return d->skin; }

int64_t moreau_detector_builds(const moreau_detector *d) { return d->builds; }

/* One touching pair of contactors: centre ya of radius ra on body a (centre
 * of mass xa), and body b's centre of mass xb (NULL for a wall). */
typedef struct {
  const double *xa, *ya, *xb;
  double ra;
} contactor_pair;

/* The contact point sits in the middle of the gap (or of the overlap); the
 * lever arms go from each body's centre of mass to it (kept only from the
 * first shaped body on: moreau_contacts_arms). xb is the position of
 * the image of b that a touches, vshift that image's velocity on top of b's
 * own (NULL: none). point numbers the contactor pair within the body pair. */
static moreau_err push_contact(moreau_contacts *c, const moreau_bodies *b, moreau_lid a, moreau_lid ib,
                               moreau_gid gid_b, int32_t point, const contactor_pair *cp, const double *n, double gap,
                               const double *vshift)
{
  moreau_lid k;
  double reach = cp->ra + 0.5 * gap;
  if (b->shape[a] > 0 || (ib >= 0 && b->shape[ib] > 0)) MOREAU_CALL(moreau_contacts_enable_arms(c, b));
  MOREAU_CALL(moreau_contacts_push(c, b->gid[a], gid_b, point, a, ib, &k));
  if (vshift && (vshift[0] != 0.0 || vshift[1] != 0.0 || vshift[2] != 0.0))
    MOREAU_CALL(moreau_contacts_enable_vshift(c));
  for (int i = 0; i < 3; i++) {
    c->normal[3 * k + i] = n[i];
    if (c->vshift) c->vshift[3 * k + i] = vshift ? vshift[i] : 0.0;
  }
  c->gap[k] = gap;
  if (c->ca)
    for (int i = 0; i < 3; i++) {
      double p = cp->ya[i] + reach * n[i];
      c->ca[3 * k + i] = p - cp->xa[i];
      c->cb[3 * k + i] = cp->xb ? p - cp->xb[i] : 0.0;
    }
  return MOREAU_SUCCESS;
}

/* Contact point numbers: contactor ja of a in the high half, jb of b (0
 * for a wall or a plain body) in the low half; unique within a pair of bodies
 * and the same at every step, so the warm start finds the contact again.
 * Shapes have fewer than 2^15 contactors (moreau_sim_set_shapes checks). */
static int32_t point_key(int ja, int jb) { return (int32_t)ja << 16 | (int32_t)jb; }

/* Pushes the contacts of owned a with b seen at xb (an image position, or
 * b's own): one per pair of contactors whose gap is below alert. */
static moreau_err try_pair(moreau_contacts *c, const moreau_bodies *b, moreau_lid a, moreau_lid ib, const double *xb,
                           const double *vshift, double alert)
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
      contactor_pair cp = {xa, ya, xb, ra};
      MOREAU_CALL(push_contact(c, b, a, ib, b->gid[ib], point_key(i, j), &cp, nrm, dist - ra - rb, vshift));
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
      contactor_pair cp = {xa, ya, NULL, ra};
      MOREAU_CALL(push_contact(c, b, a, -(iw + 1), MOREAU_WALL_GID(iw), point_key(i, 0), &cp, n, gap, NULL));
    }
  }
  return MOREAU_SUCCESS;
}

/* How far ahead in gid order the narrow phase prefetches an owned body's
 * fields (DETECT_AHEAD) and the start of its candidate list (half as far,
 * once its cand_start is in cache). */
enum { DETECT_AHEAD = 8 };

/* Prefetches what the narrow phase reads of the k-th owned body in gid
 * order, and the candidates of the one half as far ahead. The bodies are
 * stored along a space-filling curve, so the gid order jumps in memory at
 * every body. Always inlined: GCC finds a void function of prefetches alone
 * pure and drops its calls. */
static inline __attribute__((always_inline)) void prefetch_owned(const moreau_detector *d, const moreau_bodies *b,
                                                                 const moreau_lid *by_gid, moreau_lid k)
{
  if (k + DETECT_AHEAD < b->n_owned) {
    const moreau_lid a = by_gid[k + DETECT_AHEAD];
    __builtin_prefetch(&b->x[3 * a], 0, 3);
    __builtin_prefetch(&b->radius[a], 0, 3);
    __builtin_prefetch(&b->shape[a], 0, 3);
    __builtin_prefetch(&b->gid[a], 0, 3);
    __builtin_prefetch(&b->glued[a], 0, 3);
    __builtin_prefetch(&d->cand_start[a], 0, 3);
  }
  if (d->cand_b && k + DETECT_AHEAD / 2 < b->n_owned) /* no list at all when no pair is a candidate */
    __builtin_prefetch(&d->cand_b[d->cand_start[by_gid[k + DETECT_AHEAD / 2]]], 0, 3);
}

moreau_err moreau_detect(moreau_detector *d, const moreau_domain *domain, const moreau_bodies *b, const moreau_walls *w,
                         double alert, const moreau_lid *by_gid, moreau_contacts *c)
{
  int periodic = moreau_domain_any_periodic(domain);
  moreau_log_begin(MOREAU_EV_DETECT);
  moreau_contacts_clear(c);
  MOREAU_CALL(detect_candidates(d, domain, b, alert));
  /* Owned bodies in gid order, each one's partners in gid order, then the
   * walls (whose gids come after every body's): key order. */
  for (moreau_lid k = 0; k < b->n_owned; k++) {
    moreau_lid a = by_gid[k];
    prefetch_owned(d, b, by_gid, k);
    for (moreau_lid j = d->cand_start[a]; j < d->cand_start[a + 1]; j++) {
      moreau_lid ib = d->cand_b[j];
      const double *xb = &b->x[3 * ib];
      if (periodic) {
        int img = detect_nearest_image(d, &b->x[3 * a], xb);
        if (img < 0) continue;
        const double *shift = d->shift[img];
        double image[3] = {xb[0] + shift[0], xb[1] + shift[1], xb[2] + shift[2]};
        MOREAU_CALL(try_pair(c, b, a, ib, image, d->vshift[img], alert));
      } else
        MOREAU_CALL(try_pair(c, b, a, ib, xb, NULL, alert));
    }
    MOREAU_CALL(walls_of(b, w, a, alert, c));
  }
  /* Debug builds check the order: the warm start's merge and every order
   * that must not depend on the partition rely on it. */
  for (moreau_lid i = 1; i < c->n; i++)
    MOREAU_ASSERT(
        c->gid_a[i - 1] < c->gid_a[i] ||
        (c->gid_a[i - 1] == c->gid_a[i] &&
         (c->gid_b[i - 1] < c->gid_b[i] || (c->gid_b[i - 1] == c->gid_b[i] && c->point[i - 1] < c->point[i]))));
  moreau_log_end(MOREAU_EV_DETECT);
  return MOREAU_SUCCESS;
}
