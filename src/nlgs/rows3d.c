#include <string.h>

#include "nlgs_private.h"

/* y = I^-1 x for a row side: its tensor, or iso times the identity. */
static void inv_inertia_apply(const double *I, double iso, const double *x, double *y)
{
  if (I) {
    moreau_sym3_apply(I, x, y);
    return;
  }
  for (int k = 0; k < 3; k++)
    y[k] = iso * x[k];
}

/* The W of a row with an extra entry x (its arms, tensors and g set), in
 * the frame e: W_ij = e_i . e_j (1/m_a + 1/m_b) + (c_a x e_i) . I_a^-1 (c_a x e_j)
 * + (c_b x e_i) . I_b^-1 (c_b x e_j), plus (e_i . g)(e_j . g) for a side on a
 * force-driven wall. */
static void extra_W(const moreau_row3d *r, const double *const e[3], moreau_row3d_extra *x)
{
  const double ima = r->va[MOREAU_IM3D], iia = r->va[MOREAU_II3D], imb = r->vb[MOREAU_IM3D], iib = r->vb[MOREAU_II3D];
  static const int ij[6][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 2}};
  double ca_x[9], cb_x[9], Ia_ca[9], Ib_cb[9];
  for (int i = 0; i < 3; i++) {
    moreau_cross3(x->ca, e[i], &ca_x[3 * i]);
    moreau_cross3(x->cb, e[i], &cb_x[3 * i]);
    inv_inertia_apply(x->Ia, iia, &ca_x[3 * i], &Ia_ca[3 * i]);
    inv_inertia_apply(x->Ib, iib, &cb_x[3 * i], &Ib_cb[3 * i]);
  }
  for (int m = 0; m < 6; m++) {
    int i = ij[m][0], j = ij[m][1];
    double trans = i == j ? ima + imb : 0.0;
    x->W[m] = trans + moreau_dot3(&ca_x[3 * i], &Ia_ca[3 * j]) + moreau_dot3(&cb_x[3 * i], &Ib_cb[3 * j]);
    if (x->ga) x->W[m] += moreau_dot3(e[i], x->ga) * moreau_dot3(e[j], x->ga);
    if (x->gb) x->W[m] += moreau_dot3(e[i], x->gb) * moreau_dot3(e[j], x->gb);
  }
}

/* Builds the 3D sweep records and applies their impulses; contacts between two bodies of infinite mass
 * carry no force and get no record. */
static moreau_lid build3d(moreau_nlgs *s, const moreau_nlgs_problem *prob)
{
  moreau_bodies *b = prob->bodies;
  moreau_walls *w = prob->walls;
  const moreau_contacts *c = prob->contacts;
  moreau_lid nrows = 0;
  for (moreau_lid i = 0; i < moreau_bodies_n_local(b); i++) {
    if (b->shape[i] == 0) continue; /* isotropic: the rows use the scalar */
    double *I = &s->inv_inertia6[6 * i];
    moreau_bodies_inv_inertia_world(b, i, I);
    const double scale = nlgs_copy_scale(s, i);
    for (int m = 0; m < 6; m++)
      I[m] *= scale;
  }
  for (moreau_lid kk = 0; kk < c->n; kk++) {
    if (kk % NLGS_BUILT_EVERY == 0) nlgs_contacts_built(s, prob, kk, nrows);
    nlgs_prefetch_contact(s, prob, kk + 2 * NLGS_BUILD_AHEAD);
    nlgs_prefetch_build(s, b, c, kk + NLGS_BUILD_AHEAD);
    moreau_lid k = nlgs_build_contact(s, kk);
    moreau_row3d *r = nlgs_row(s, nrows);
    moreau_lid ia = c->a[k], ib = c->b[k];
    moreau_row3d_formed f;
    const double *n = &c->normal[3 * k];
    moreau_contact_frame(3, n, f.t, f.s);
    const double *e[3] = {n, f.t, f.s};
    /* Read before the record is written: u_minus may lie in the records'
     * buffer, under this record (moreau_nlgs_u_minus_space). */
    double u_minus[3];
    nlgs_frame_components(&prob->u_minus[3 * k], e, u_minus);
    int mat_b;
    /* The reduced radius of the two contactors that touch (a wall: a's). */
    double ra, rb;
    moreau_contacts_radii(c, b, k, &ra, &rb);
    double r_eff = ra;
    memcpy(r->n, n, sizeof(r->n));
    memcpy(r->t, f.t, sizeof(r->t));
    r->va = nlgs_velocity(s, nlgs_side_entry(s, b, ia));
    if (nlgs_same_wall(b, ia, ib)) {
      nlgs_contacts_keep_normal(s, k, n, 1);
      continue;
    }
    /* The sides' tensors and g, kept in the row's extra entry (with the
     * arms and W) only when there are any. */
    moreau_row3d_extra x = {.Ia = b->shape[ia] > 0 ? &s->inv_inertia6[6 * ia] : NULL,
                            .ga = b->glued[ia] ? nlgs_wall_glue(s, w, b->glued[ia] - 1) : NULL};
    if (ib >= 0) {
      r->vb = nlgs_velocity(s, nlgs_side_entry(s, b, ib));
      x.gb = b->glued[ib] ? nlgs_wall_glue(s, w, b->glued[ib] - 1) : NULL;
      x.Ib = b->shape[ib] > 0 ? &s->inv_inertia6[6 * ib] : NULL;
      mat_b = b->material[ib];
      r_eff = ra * rb / (ra + rb);
    } else {
      int iw = -(ib + 1);
      r->vb = nlgs_velocity(s, s->vel_walls + iw);
      x.gb = nlgs_wall_glue(s, w, iw);
      mat_b = w->material[iw];
    }
    /* A sphere's arm runs along n (moreau_contacts_arms); a row with an
     * extra entry keeps both arms there, as the list has them. */
    const double half_gap = 0.5 * c->gap[k];
    r->sa = ra + half_gap;
    r->sb = ib >= 0 ? -(rb + half_gap) : 0.0;
    r->x = NULL;
    if (x.Ia || x.Ib || x.ga || x.gb) {
      moreau_contacts_arms(c, b, k, x.ca, x.cb);
      extra_W(r, e, &x);
      s->row_extra[nrows] = x;
      r->x = &s->row_extra[nrows];
    }
    moreau_row3d_form(r, &f);
    double cof[6];
    moreau_sym3_cofactors(f.W, cof);
    if (!(moreau_sym3_det(f.W, cof) > 0.0)) { /* the local solve needs W^-1 */
      nlgs_contacts_keep_normal(s, k, n, 1);
      continue;
    }

    const moreau_pair_law *pair = moreau_materials_pair(prob->materials, b->material[ia], mat_b);
    moreau_law_contact lc = {c->gap[k], u_minus, prob->dt, r_eff,
                             c->state_width ? &c->state[(size_t)c->state_width * k] : NULL};
    double target_t[2];
    s->law->setup3d(r, pair, &lc, target_t);
    /* The sweep reads b's own velocity; its image moves faster by vshift
     * (Lees-Edwards), which lowers what b's own velocity must reach. */
    const double *vs = moreau_contacts_vshift(c, k);
    r->target_n -= vs[0] * n[0] + vs[1] * n[1] + vs[2] * n[2];
    target_t[0] -= vs[0] * f.t[0] + vs[1] * f.t[1] + vs[2] * f.t[2];
    target_t[1] -= vs[0] * f.s[0] + vs[1] * f.s[1] + vs[2] * f.s[2];
    /* Tangential targets other than 0 go to the extra entry, which a row
     * of plain sides gets for them, with its arms and diagonal W. */
    if (!r->x && (target_t[0] != 0.0 || target_t[1] != 0.0)) {
      moreau_contacts_arms(c, b, k, x.ca, x.cb);
      memcpy(x.W, f.W, sizeof(x.W));
      s->row_extra[nrows] = x;
      r->x = &s->row_extra[nrows];
    }
    if (r->x) memcpy(s->row_extra[nrows].target_t, target_t, sizeof(target_t));
    for (int i = 0; i < 3; i++)
      r->p[i] = c->force[3 * k + i] * prob->dt;
    /* The warm start's impulse goes to the bodies while they are in cache. */
    moreau_row3d_apply(r, &f, r->p);
    s->row_contact[nrows] = k;
    nrows++;
  }
  return nrows;
}

static void store3d(const moreau_nlgs *s, moreau_lid from, moreau_lid end, double dt, moreau_contacts *c, int normals)
{
  for (moreau_lid i = from; i < end; i++) {
    const moreau_row3d *r = nlgs_row(s, i);
    const moreau_lid k = s->row_contact[i];
    for (int d = 0; d < 3; d++)
      c->force[3 * k + d] = r->p[d] / dt;
    if (normals) memcpy(&c->normal[3 * k], r->n, sizeof(r->n));
  }
}

const nlgs_dim_ops nlgs_ops3d = {build3d, store3d};
