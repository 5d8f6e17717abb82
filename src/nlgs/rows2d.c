#include "nlgs_private.h"

/* Builds the 2D sweep records and applies their impulses; contacts between two bodies of infinite mass
 * carry no force and get no record. */
static moreau_lid build2d(moreau_nlgs *s, const moreau_nlgs_problem *prob)
{
  moreau_bodies *b = prob->bodies;
  moreau_walls *w = prob->walls;
  const moreau_contacts *c = prob->contacts;
  moreau_lid nrows = 0;
  for (moreau_lid kk = 0; kk < c->n; kk++) {
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
    double ra, rb, ca[3], cb[3];
    moreau_contacts_radii(c, b, k, &ra, &rb);
    if (c->ca)
      moreau_contacts_arms(c, b, k, ca, cb);
    else
      moreau_contacts_plain_arms(c, k, ra, rb, ca, cb);
    double r_eff = ra;
    r->nx = n[0];
    r->ny = n[1];
    r->ra_n = -ca[1] * n[0] + ca[0] * n[1];
    r->ra_t = -ca[1] * tx + ca[0] * ty;
    if (nlgs_same_wall(b, ia, ib)) continue;
    r->va = nlgs_velocity(s, nlgs_side_entry(s, b, ia));
    if (ib >= 0) {
      r->vb = nlgs_velocity(s, nlgs_side_entry(s, b, ib));
      r->rb_n = -cb[1] * n[0] + cb[0] * n[1];
      r->rb_t = -cb[1] * tx + cb[0] * ty;
      mat_b = b->material[ib];
      r_eff = ra * rb / (ra + rb);
    } else {
      int iw = -(ib + 1);
      r->vb = nlgs_velocity(s, s->vel_walls + iw);
      r->rb_n = r->rb_t = 0.0;
      mat_b = w->material[iw];
    }
    const double ima = r->va[MOREAU_IM2D], iia = r->va[MOREAU_II2D], imb = r->vb[MOREAU_IM2D], iib = r->vb[MOREAU_II2D];
    r->Wnn = ima + imb + iia * r->ra_n * r->ra_n + iib * r->rb_n * r->rb_n;
    r->Wtt = ima + imb + iia * r->ra_t * r->ra_t + iib * r->rb_t * r->rb_t;
    r->Wnt = iia * r->ra_n * r->ra_t + iib * r->rb_n * r->rb_t;
    /* A force-driven wall (or a grain of it) moves along N: + (e_i . g)(e_j . g). */
    for (int side = 0; side < 2; side++) {
      const double *g = (side ? r->vb : r->va) + MOREAU_G2D;
      if (g[0] == 0.0 && g[1] == 0.0) continue;
      double gn = g[0] * n[0] + g[1] * n[1], gt = g[0] * tx + g[1] * ty;
      r->Wnn += gn * gn;
      r->Wtt += gt * gt;
      r->Wnt += gn * gt;
    }
    if (!(r->Wnn * r->Wtt - r->Wnt * r->Wnt > 0.0)) continue; /* the local solve needs W^-1 */

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
    moreau_row2d_apply(r, r->pn, r->pt);
    s->row_contact[nrows] = k;
    nrows++;
  }
  return nrows;
}

static void store2d(const moreau_nlgs *s, moreau_lid n, double dt, moreau_contacts *c)
{
  for (moreau_lid i = 0; i < n; i++) {
    const moreau_row2d *r = nlgs_row(s, i);
    moreau_lid k = s->row_contact[i];
    c->force[3 * k] = r->pn / dt;
    c->force[3 * k + 1] = r->pt / dt;
  }
}

const nlgs_dim_ops nlgs_ops2d = {build2d, store2d};
