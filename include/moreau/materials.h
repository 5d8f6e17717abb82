#ifndef MOREAU_MATERIALS_H
#define MOREAU_MATERIALS_H

#include <stdint.h>

#include "moreau/error.h"
#include "moreau/law.h"

/* The public API: exported from libmoreau, which hides everything else. */
#pragma GCC visibility push(default)

/* Contact parameters per pair of materials (bodies and walls each carry a
 * material id). The table is symmetric; set a pair to override the default. */
typedef struct {
  double mu;  /* Coulomb friction coefficient (the dynamic one of the static_dynamic law) */
  double e_n; /* normal restitution, Moreau's mean velocity (seed 000 eq 7) */
  double e_t; /* tangential restitution in [-1, 1] (seed 000 eq 10) */
  /* Parameters of the other laws (0: off). cohesive: the largest tensile
   * force f_c of a bond and its range d_c (0: the threshold law of seed 000
   * eq 47 / seed 003 eq 2; > 0: the finite-range law of seed 001 section
   * 1.8, binding energy f_c d_c). */
  double f_c, d_c;
  /* static_dynamic: the static coefficient mu_s >= mu (0: equal to mu). */
  double mu_s;
  /* rolling: the rolling and torsion coefficients; the torque thresholds are
   * mu_r r* f_n and mu_o r* f_n, r* the reduced radius (seed 001 eqs
   * 1.40-1.42; a body's own radius against a wall). */
  double mu_r, mu_o;
  /* md_spring_dashpot (the MD comparison, seed 004 eq 2 and eq 12): normal
   * stiffness k_n and damping g_n, f_n = max(0, -k_n d - g_n d'), d the
   * (negative) gap; friction f_t = -sgn(u_t) min(g_t |u_t|, mu f_n). */
  double k_n, g_n, g_t;
} moreau_pair_law;

typedef struct {
  int n;                 /* number of materials */
  double *density;       /* per material */
  moreau_pair_law *pair; /* n x n, symmetric */
} moreau_materials;

MOREAU_MUST_CHECK moreau_err moreau_materials_create(int n, const moreau_pair_law *def, double density,
                                                     moreau_materials **m);
MOREAU_MUST_CHECK moreau_err moreau_materials_destroy(moreau_materials **m);
MOREAU_MUST_CHECK moreau_err moreau_materials_set_pair(moreau_materials *m, int i, int j, const moreau_pair_law *law);
static inline const moreau_pair_law *moreau_materials_pair(const moreau_materials *m, int i, int j)
{
  return &m->pair[i * m->n + j];
}
/* Reads -materials, -density, -mu, -e_n, -e_t and -pair_law (i:j:mu:e_n:e_t,
 * repeated with commas between fields) from the options database, and the
 * parameters of law (-cohesion, -cohesion_range, -pair_cohesion for
 * cohesive; -mu_s, -pair_static for static_dynamic; -mu_roll, -mu_torsion,
 * -pair_rolling for rolling; -md_stiffness, -md_damping,
 * -md_friction_damping, -pair_md for md_spring_dashpot): a parameter of
 * another law than law is an input error (it would be ignored). */
MOREAU_MUST_CHECK moreau_err moreau_materials_from_options(const moreau_law *law, moreau_materials **m);

#pragma GCC visibility pop

#endif
