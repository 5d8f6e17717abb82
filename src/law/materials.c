#include "moreau/materials.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "moreau/options.h"

moreau_err moreau_materials_create(int n, const moreau_pair_law *def, double density, moreau_materials **mp)
{
  moreau_materials *m;
  MOREAU_CHECK(n >= 1 && n <= 1024, MOREAU_ERR_INPUT, "number of materials must be in [1, 1024], got %d", n);
  MOREAU_CHECK(density > 0 && isfinite(density), MOREAU_ERR_INPUT, "density must be positive");
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

static moreau_err check_law(const moreau_pair_law *law)
{
  MOREAU_CHECK(law->mu >= 0 && isfinite(law->mu), MOREAU_ERR_INPUT, "friction coefficient must be >= 0, got %g",
               law->mu);
  MOREAU_CHECK(law->e_n >= 0 && law->e_n <= 1, MOREAU_ERR_INPUT, "normal restitution must be in [0, 1], got %g",
               law->e_n);
  MOREAU_CHECK(law->e_t >= -1 && law->e_t <= 1, MOREAU_ERR_INPUT, "tangential restitution must be in [-1, 1], got %g",
               law->e_t);
  return MOREAU_SUCCESS;
}

moreau_err moreau_materials_set_pair(moreau_materials *m, int i, int j, const moreau_pair_law *law)
{
  MOREAU_CHECK(i >= 0 && i < m->n && j >= 0 && j < m->n, MOREAU_ERR_INPUT,
               "material pair %d:%d out of range (there are %d materials)", i, j, m->n);
  MOREAU_CALL(check_law(law));
  m->pair[i * m->n + j] = *law;
  m->pair[j * m->n + i] = *law;
  return MOREAU_SUCCESS;
}

/* -pair_law into m, which has n materials. */
static moreau_err pairs_from_options(moreau_materials *m, int64_t n)
{
  double laws[5 * 64];
  int nlaws = 5 * 64;
  MOREAU_CALL(moreau_option_reals("-pair_law", laws, &nlaws));
  MOREAU_CHECK(nlaws % 5 == 0, MOREAU_ERR_INPUT,
               "option -pair_law: expected groups of 5 values i,j,mu,e_n,e_t, got %d values", nlaws);
  for (int k = 0; k < nlaws; k += 5) {
    moreau_pair_law law = {laws[k + 2], laws[k + 3], laws[k + 4]};
    int i = (int)laws[k], j = (int)laws[k + 1];
    MOREAU_CHECK(i == laws[k] && j == laws[k + 1], MOREAU_ERR_INPUT,
                 "option -pair_law: material ids must be integers, got %g,%g", laws[k], laws[k + 1]);
    MOREAU_CHECK(i >= 0 && i < n && j >= 0 && j < n, MOREAU_ERR_INPUT,
                 "option -pair_law: materials %d,%d do not exist (there are %d: ids 0 to %d)", i, j, (int)n,
                 (int)n - 1);
    MOREAU_CHECK(law.mu >= 0 && law.e_n >= 0 && law.e_n <= 1 && law.e_t >= -1 && law.e_t <= 1, MOREAU_ERR_INPUT,
                 "option -pair_law: pair %d,%d needs mu >= 0, e_n in [0, 1], e_t in [-1, 1], got %g,%g,%g", i, j,
                 law.mu, law.e_n, law.e_t);
    MOREAU_CALL(moreau_materials_set_pair(m, i, j, &law));
  }
  return MOREAU_SUCCESS;
}

moreau_err moreau_materials_from_options(moreau_materials **mp)
{
  int64_t n;
  double density;
  moreau_pair_law def;
  moreau_err err;
  MOREAU_CALL(moreau_option_int("-materials", &n));
  MOREAU_CALL(moreau_option_real("-density", &density));
  MOREAU_CALL(moreau_option_real("-mu", &def.mu));
  MOREAU_CALL(moreau_option_real("-e_n", &def.e_n));
  MOREAU_CALL(moreau_option_real("-e_t", &def.e_t));
  /* The same checks as check_law, naming the option the user gave. */
  MOREAU_CHECK(def.mu >= 0, MOREAU_ERR_INPUT, "option -mu: must be >= 0, got %g", def.mu);
  MOREAU_CHECK(def.e_n >= 0 && def.e_n <= 1, MOREAU_ERR_INPUT, "option -e_n: must be in [0, 1], got %g", def.e_n);
  MOREAU_CHECK(def.e_t >= -1 && def.e_t <= 1, MOREAU_ERR_INPUT, "option -e_t: must be in [-1, 1], got %g", def.e_t);
  MOREAU_CHECK(n >= 1 && n <= 1024, MOREAU_ERR_INPUT, "option -materials: must be in [1, 1024], got %ld", (long)n);
  MOREAU_CHECK(density > 0, MOREAU_ERR_INPUT, "option -density: must be positive, got %g", density);
  MOREAU_CALL(moreau_materials_create((int)n, &def, density, mp));
  /* On a bad -pair_law the caller gets no table (and nothing to free). */
  err = pairs_from_options(*mp, n);
  if (err) MOREAU_CALL(moreau_materials_destroy(mp));
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}
