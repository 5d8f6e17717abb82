#include "moreau/materials.h"

#include <math.h>
#include <stdio.h>

#include "materials_private.h"

moreau_err moreau_pair_law_check(const moreau_pair_law *law, const char *where)
{
  MOREAU_CHECK(law->mu >= 0 && isfinite(law->mu), MOREAU_ERR_INPUT, "%s: friction coefficient must be >= 0, got %g",
               where, law->mu);
  MOREAU_CHECK(law->e_n >= 0 && law->e_n <= 1, MOREAU_ERR_INPUT, "%s: normal restitution must be in [0, 1], got %g",
               where, law->e_n);
  MOREAU_CHECK(law->e_t >= -1 && law->e_t <= 1, MOREAU_ERR_INPUT,
               "%s: tangential restitution must be in [-1, 1], got %g", where, law->e_t);
  MOREAU_CHECK(law->f_c >= 0 && isfinite(law->f_c), MOREAU_ERR_INPUT, "%s: cohesive force must be >= 0, got %g", where,
               law->f_c);
  MOREAU_CHECK(law->d_c >= 0 && isfinite(law->d_c), MOREAU_ERR_INPUT, "%s: cohesion range must be >= 0, got %g", where,
               law->d_c);
  MOREAU_CHECK(law->mu_s == 0 || (law->mu_s >= law->mu && isfinite(law->mu_s)), MOREAU_ERR_INPUT,
               "%s: static friction coefficient must be >= the dynamic one (%g), got %g", where, law->mu, law->mu_s);
  MOREAU_CHECK(law->mu_r >= 0 && isfinite(law->mu_r), MOREAU_ERR_INPUT,
               "%s: rolling friction coefficient must be >= 0, got %g", where, law->mu_r);
  MOREAU_CHECK(law->mu_o >= 0 && isfinite(law->mu_o), MOREAU_ERR_INPUT,
               "%s: torsion friction coefficient must be >= 0, got %g", where, law->mu_o);
  MOREAU_CHECK(law->k_n >= 0 && isfinite(law->k_n), MOREAU_ERR_INPUT, "%s: normal stiffness must be >= 0, got %g",
               where, law->k_n);
  MOREAU_CHECK(law->g_n >= 0 && isfinite(law->g_n), MOREAU_ERR_INPUT, "%s: normal damping must be >= 0, got %g", where,
               law->g_n);
  MOREAU_CHECK(law->g_t >= 0 && isfinite(law->g_t), MOREAU_ERR_INPUT, "%s: friction damping must be >= 0, got %g",
               where, law->g_t);
  return MOREAU_SUCCESS;
}

moreau_err moreau_materials_create(int n, const moreau_pair_law *def, double density, moreau_materials **mp)
{
  moreau_materials *m;
  MOREAU_CHECK(n >= 1 && n <= 1024, MOREAU_ERR_INPUT, "number of materials must be in [1, 1024], got %d", n);
  MOREAU_CHECK(density > 0 && isfinite(density), MOREAU_ERR_INPUT, "density must be positive");
  MOREAU_CALL(moreau_pair_law_check(def, "default material pair"));
  MOREAU_CALL(moreau_calloc(1, sizeof(*m), &m));
  m->n = n;
  MOREAU_CALL(moreau_malloc((size_t)n * sizeof(double), &m->density));
  MOREAU_CALL(moreau_malloc((size_t)n * (size_t)n * sizeof(moreau_pair_law), &m->pair));
  for (int i = 0; i < n; i++)
    m->density[i] = density;
  for (int i = 0; i < n * n; i++)
    m->pair[i] = *def;
  *mp = m;
  return MOREAU_SUCCESS;
}

moreau_err moreau_materials_destroy(moreau_materials **mp)
{
  moreau_materials *m = *mp;
  if (!m) return MOREAU_SUCCESS;
  moreau_free(&m->density);
  moreau_free(&m->pair);
  moreau_free(mp);
  return MOREAU_SUCCESS;
}

moreau_err moreau_materials_set_pair(moreau_materials *m, int i, int j, const moreau_pair_law *law)
{
  MOREAU_CHECK(i >= 0 && i < m->n && j >= 0 && j < m->n, MOREAU_ERR_INPUT,
               "material pair %d:%d out of range (there are %d materials)", i, j, m->n);
  char where[64];
  snprintf(where, sizeof(where), "material pair %d:%d", i, j);
  MOREAU_CALL(moreau_pair_law_check(law, where));
  m->pair[i * m->n + j] = *law;
  m->pair[j * m->n + i] = *law;
  return MOREAU_SUCCESS;
}
