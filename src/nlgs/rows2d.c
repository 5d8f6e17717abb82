#include <math.h>

#include "nlgs_private.h"

/* The arms and W of a row with a cluster's side or a force-driven wall's
 * (its sides' entries set): W = (1/m_a + 1/m_b) I + the arms' terms, plus
 * (e_i . g)(e_j . g) for a side on a force-driven wall. */
static moreau_row2d_extra extra2d(const moreau_row2d *r, const moreau_contacts *c, const moreau_bodies *b, moreau_lid k,
                                  const double *n)
{
  const double tx = -n[1], ty = n[0];
  double ca[3], cb[3];
  moreau_row2d_extra x;
  moreau_contacts_arms(c, b, k, ca, cb);
  x.ra_n = -ca[1] * n[0] + ca[0] * n[1];
  x.ra_t = -ca[1] * tx + ca[0] * ty;
  x.rb_n = c->b[k] >= 0 ? -cb[1] * n[0] + cb[0] * n[1] : 0.0;
  x.rb_t = c->b[k] >= 0 ? -cb[1] * tx + cb[0] * ty : 0.0;
  const double ima = r->va[MOREAU_IM2D], iia = r->va[MOREAU_II2D], imb = r->vb[MOREAU_IM2D], iib = r->vb[MOREAU_II2D];
  x.Wnn = ima + imb + iia * x.ra_n * x.ra_n + iib * x.rb_n * x.rb_n;
  x.Wtt = ima + imb + iia * x.ra_t * x.ra_t + iib * x.rb_t * x.rb_t;
  x.Wnt = iia * x.ra_n * x.ra_t + iib * x.rb_n * x.rb_t;
  for (int side = 0; side < 2; side++) {
    const double *g = (side ? r->vb : r->va) + MOREAU_G2D;
    if (g[0] == 0.0 && g[1] == 0.0) continue;
    double gn = g[0] * n[0] + g[1] * n[1], gt = g[0] * tx + g[1] * ty;
    x.Wnn += gn * gn;
    x.Wtt += gt * gt;
    x.Wnt += gn * gt;
  }
  return x;
}

/* Builds the 2D sweep records and applies their impulses; contacts between two bodies of infinite mass
 * carry no force and get no record. */
static moreau_lid build2d(moreau_nlgs *s, const moreau_nlgs_problem *prob)
{
  moreau_bodies *b = prob->bodies;
  moreau_walls *w = prob->walls;
  const moreau_contacts *c = prob->contacts;
  moreau_lid nrows = 0;
  for (moreau_lid kk = 0; kk < c->n; kk++) {
    if (kk % NLGS_BUILT_EVERY == 0) nlgs_contacts_built(s, prob, kk, nrows);
    nlgs_prefetch_contact(s, prob, kk + 2 * NLGS_BUILD_AHEAD);
    nlgs_prefetch_build(s, b, c, kk + NLGS_BUILD_AHEAD);
    moreau_lid k = nlgs_build_contact(s, kk);
    moreau_row2d *r = nlgs_row(s, nrows);
    moreau_lid ia = c->a[k], ib = c->b[k];
    const double *n = &c->normal[3 * k];
    const double tx = -n[1], ty = n[0];
    /* The frame of moreau_contact_frame in 2D: t, and s = e_z. */
    const double t[3] = {tx, ty, 0.0}, ez[3] = {0.0, 0.0, 1.0};
    /* Read before the record is written: u_minus may lie in the records'
     * buffer, under this record (moreau_nlgs_u_minus_space). */
    double u_minus[3];
    nlgs_frame_components(&prob->u_minus[3 * k], (const double *const[3]){n, t, ez}, u_minus);
    int mat_b;
    /* The reduced radius of the two contactors that touch (a wall: a's). */
    double ra, rb;
    moreau_contacts_radii(c, b, k, &ra, &rb);
    double r_eff = ra;
    r->nx = n[0];
    r->ny = n[1];
    if (nlgs_same_wall(b, ia, ib)) {
      nlgs_contacts_keep_normal(s, k, n, 1);
      continue;
    }
    r->va = nlgs_velocity(s, nlgs_side_entry(s, b, ia));
    int shaped = b->shape[ia] > 0;
    if (ib >= 0) {
      r->vb = nlgs_velocity(s, nlgs_side_entry(s, b, ib));
      shaped |= b->shape[ib] > 0;
      mat_b = b->material[ib];
      r_eff = ra * rb / (ra + rb);
    } else {
      int iw = -(ib + 1);
      r->vb = nlgs_velocity(s, s->vel_walls + iw);
      mat_b = w->material[iw];
    }
    /* A disk's arm runs along n (moreau_contacts_arms). */
    const double half_gap = 0.5 * c->gap[k];
    r->sa = ra + half_gap;
    r->sb = ib >= 0 ? -(rb + half_gap) : 0.0;
    r->x = NULL;
    const double *ga = r->va + MOREAU_G2D, *gb = r->vb + MOREAU_G2D;
    if (shaped || ga[0] != 0.0 || ga[1] != 0.0 || gb[0] != 0.0 || gb[1] != 0.0) {
      s->row_extra2d[nrows] = extra2d(r, c, b, k, n);
      r->x = &s->row_extra2d[nrows];
    }
    moreau_row2d_local f;
    moreau_row2d_form(r, &f);
    if (!(f.Wnn * f.Wtt - f.Wnt * f.Wnt > 0.0)) { /* the local solve needs W^-1 */
      nlgs_contacts_keep_normal(s, k, n, 1);
      continue;
    }

    const moreau_pair_law *pair = moreau_materials_pair(prob->materials, b->material[ia], mat_b);
    moreau_law_contact lc = {c->gap[k], u_minus, prob->dt, r_eff,
                             c->state_width ? &c->state[(size_t)c->state_width * k] : NULL};
    s->law->setup2d(r, pair, &lc);
    /* The sweep reads b's own velocity; its image moves faster by vshift
     * (Lees-Edwards), which lowers what b's own velocity must reach. */
    const double *vs = moreau_contacts_vshift(c, k);
    r->un_target -= vs[0] * n[0] + vs[1] * n[1];
    r->ut_target -= vs[0] * tx + vs[1] * ty;
    r->pn = c->force[3 * k] * prob->dt;
    r->pt = c->force[3 * k + 1] * prob->dt;
    /* The warm start's impulse goes to the bodies while they are in cache. */
    moreau_row2d_apply(r, &f, r->pn, r->pt);
    /* The store writes a z of +0. */
    if (n[2] != 0.0 || signbit(n[2])) nlgs_contacts_keep_normal(s, k, n, 0);
    s->row_contact[nrows] = k;
    nrows++;
  }
  return nrows;
}

static void store2d(const moreau_nlgs *s, moreau_lid from, moreau_lid end, double dt, moreau_contacts *c, int normals)
{
  for (moreau_lid i = from; i < end; i++) {
    const moreau_row2d *r = nlgs_row(s, i);
    moreau_lid k = s->row_contact[i];
    c->force[3 * k] = r->pn / dt;
    c->force[3 * k + 1] = r->pt / dt;
    c->force[3 * k + 2] = 0.0;
    if (!normals) continue;
    c->normal[3 * k] = r->nx;
    c->normal[3 * k + 1] = r->ny;
    c->normal[3 * k + 2] = 0.0;
  }
}

const nlgs_dim_ops nlgs_ops2d = {build2d, store2d};
