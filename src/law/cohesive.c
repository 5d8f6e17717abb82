#include "coulomb.h"

/* Cohesion as a shifted Signorini graph, with friction threshold
 * mu (f_n + f_c) (seed 000 eq 47, seed 003 eq 2, seed 001 section 1.8):
 *
 * - a bonded contact (touching: gap <= a millionth of r*) bears tension down
 *   to -f_c: the Signorini-Coulomb solve on the shifted normal impulse
 *   p_n + f_c dt. It opens when pulled harder; a bond opened by round-off
 *   within the millionth is pulled shut by the usual closing target, so a
 *   loaded bond does not creep open;
 * - with a range d_c > 0 (the finite-range law of seed 001, Fig 1.9b), a
 *   contact opened by less than d_c is a stretched bond: while it opens it
 *   is pulled with -f_c (the work to separate is f_c d_c, the binding
 *   energy), while it closes it is free until it touches, at rest any
 *   tension in [-f_c, 0] holds it; a stretched bond has no friction (its
 *   surfaces do not touch) and no restitution;
 * - beyond the range (any opening with d_c = 0, the threshold law) the
 *   contact is the plain Signorini-Coulomb contact.
 *
 * The law needs no state: the mode follows from the gap at detection. A
 * stretched bond must be detected: the simulation raises the alert distance
 * to the largest range (src/step/sim.c). */

#define BOND_TOL 1e-6 /* gap below which a contact is bonded, over r* */

typedef struct {
  moreau_row2d r;
  double shift;  /* f_c dt, the largest tensile impulse (0: no cohesion) */
  int stretched; /* the finite-range branch (normal only) */
} cohesive_row2d;

typedef struct {
  moreau_row3d r;
  double shift;
  int stretched;
} cohesive_row3d;

/* The mode of a contact: 0 plain or bonded (by shift), 1 stretched; sets
 * the shift. */
static int mode(const moreau_pair_law *pair, const moreau_law_contact *c, double *shift)
{
  *shift = 0.0;
  if (!(pair->f_c > 0.0)) return 0;
  if (c->gap <= BOND_TOL * c->r_eff) {
    *shift = pair->f_c * c->dt;
    return 0;
  }
  if (c->gap < pair->d_c) {
    *shift = pair->f_c * c->dt;
    return 1;
  }
  return 0;
}

static void setup2d(moreau_row2d *base, const moreau_pair_law *pair, const moreau_law_contact *c)
{
  cohesive_row2d *r = (cohesive_row2d *)base;
  r->stretched = mode(pair, c, &r->shift);
  base->un_target = moreau_normal_target(c->gap, c->u_minus[0], r->stretched ? 0.0 : pair->e_n, c->dt);
  base->ut_target = r->stretched ? 0.0 : -pair->e_t * c->u_minus[1];
  base->mu = pair->mu;
}

static void setup3d(moreau_row3d *base, const moreau_pair_law *pair, const moreau_law_contact *c, double target_t[2])
{
  cohesive_row3d *r = (cohesive_row3d *)base;
  r->stretched = mode(pair, c, &r->shift);
  base->target_n = moreau_normal_target(c->gap, c->u_minus[0], r->stretched ? 0.0 : pair->e_n, c->dt);
  target_t[0] = r->stretched ? 0.0 : -pair->e_t * c->u_minus[1];
  target_t[1] = r->stretched ? 0.0 : -pair->e_t * c->u_minus[2];
  base->mu = pair->mu;
}

/* The stretched bond's normal impulse, the tangential one being zero:
 * p_star reaches the closing target tau (the Signorini branch, p_n >= 0),
 * q = p_star - tau / W_nn stops the opening (u_n = 0, tension up to shift);
 * in between the bond is free (p_n = 0, tau < u_n < 0). */
static inline double stretched_impulse(double p_star, double tau, double Wnn, double shift)
{
  if (p_star >= 0.0) return p_star;
  double q = p_star - tau / Wnn;
  return q > 0.0 ? 0.0 : (q < -shift ? -shift : q);
}

/* A bond's impulses are found as p_n + f_c dt and the shift taken off, so an
 * unloaded bond keeps impulses at the rounding level of f_c dt: its force
 * scale is f_c, which the convergence sums count (else the relative change
 * of such bonds never falls below the tolerance). */
static inline void add_bond_scale(moreau_sweep_sums *s, double shift)
{
  s->p += shift;
  s->p2 += shift * shift;
}

static inline void solve2d(cohesive_row2d *c, int max_ratio, moreau_sweep_sums *s)
{
  moreau_row2d *r = &c->r;
  double rn, rt, pn, pt;
  moreau_row2d_local f;
  moreau_row2d_form(r, &f);
  moreau_row2d_rhs(r, &f, &rn, &rt);
  if (c->stretched) {
    pn = stretched_impulse(rn / f.Wnn, r->un_target, f.Wnn, c->shift);
    pt = 0.0;
  } else {
    /* W (p + shift e_n) = rhs + W shift e_n: the plain solve on the shifted impulse. */
    moreau_coulomb2d(&f, rn + f.Wnn * c->shift, rt + f.Wnt * c->shift, r->mu, r->mu, &pn, &pt);
    pn -= c->shift;
  }
  moreau_row2d_update(r, &f, pn, pt, max_ratio, s);
  add_bond_scale(s, c->shift);
}

static inline void solve3d(cohesive_row3d *c, int max_ratio, moreau_sweep_sums *s)
{
  moreau_row3d *r = &c->r;
  double rhs[3], p[3];
  moreau_row3d_formed f;
  moreau_row3d_form(r, &f);
  moreau_row3d_rhs(r, &f, rhs);
  if (c->stretched) {
    p[0] = stretched_impulse(rhs[0] / f.W[0], r->target_n, f.W[0], c->shift);
    p[1] = p[2] = 0.0;
  } else {
    for (int k = 0; k < 3; k++)
      rhs[k] += f.W[k] * c->shift; /* column n of W: nn, nt, ns */
    moreau_coulomb3d(&f, rhs, r->mu, r->mu, p);
    p[0] -= c->shift;
  }
  moreau_row3d_update(r, &f, p, max_ratio, s);
  add_bond_scale(s, c->shift);
}

MOREAU_LAW_SWEEP(sweep2d, cohesive_row2d, solve2d, moreau_prefetch_sides2d, moreau_prefetch_nothing)
MOREAU_LAW_SWEEP(sweep3d, cohesive_row3d, solve3d, moreau_prefetch_sides3d, moreau_prefetch_extra3d)

const struct moreau_law_kernel moreau_law_cohesive = {.name = "cohesive",
                                                      .state_width = 0,
                                                      .row_size2d = sizeof(cohesive_row2d),
                                                      .row_size3d = sizeof(cohesive_row3d),
                                                      .setup2d = setup2d,
                                                      .setup3d = setup3d,
                                                      .sweep2d = sweep2d,
                                                      .sweep3d = sweep3d};
