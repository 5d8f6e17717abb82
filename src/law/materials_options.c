#include <math.h>
#include <stdio.h>
#include <string.h>

#include "materials_private.h"
#include "moreau/options.h"

/* The materials table from the options database: the defaults of every pair,
 * then the per-pair options, each changing only its own fields of the pairs
 * it names (-pair_law first, so that a pair's static coefficient is checked
 * against its own dynamic one). */

/* A per-pair option: groups of 2 + nfields numbers i,j,fields...; set
 * stores the fields into a pair law. */
typedef struct {
  const char *name, *fields;
  int nfields;
  void (*set)(moreau_pair_law *law, const double *v);
} pair_option;

static void set_basic(moreau_pair_law *law, const double *v)
{
  law->mu = v[0];
  law->e_n = v[1];
  law->e_t = v[2];
}

static void set_cohesion(moreau_pair_law *law, const double *v)
{
  law->f_c = v[0];
  law->d_c = v[1];
}

static void set_static(moreau_pair_law *law, const double *v) { law->mu_s = v[0]; }

static void set_rolling(moreau_pair_law *law, const double *v)
{
  law->mu_r = v[0];
  law->mu_o = v[1];
}

static void set_md(moreau_pair_law *law, const double *v)
{
  law->k_n = v[0];
  law->g_n = v[1];
  law->g_t = v[2];
}

static const pair_option basic = {"-pair_law", "mu,e_n,e_t", 3, set_basic};
static const pair_option cohesion = {"-pair_cohesion", "f_c,d_c", 2, set_cohesion};
static const pair_option stat = {"-pair_static", "mu_s", 1, set_static};
static const pair_option rolling = {"-pair_rolling", "mu_roll,mu_torsion", 2, set_rolling};
static const pair_option md = {"-pair_md", "k_n,g_n,g_t", 3, set_md};

static moreau_err pairs_from_option(moreau_materials *m, const pair_option *opt)
{
  double v[6 * 64];
  int width = 2 + opt->nfields, nv = width * 64;
  MOREAU_CALL(moreau_option_reals(opt->name, v, &nv));
  MOREAU_CHECK(nv % width == 0, MOREAU_ERR_INPUT, "option %s: expected groups of %d values i,j,%s, got %d values",
               opt->name, width, opt->fields, nv);
  for (int k = 0; k < nv; k += width) {
    /* Checked as reals: a huge id has no int to be converted to. */
    MOREAU_CHECK(v[k] == floor(v[k]) && v[k + 1] == floor(v[k + 1]), MOREAU_ERR_INPUT,
                 "option %s: material ids must be integers, got %g,%g", opt->name, v[k], v[k + 1]);
    MOREAU_CHECK(v[k] >= 0 && v[k] < m->n && v[k + 1] >= 0 && v[k + 1] < m->n, MOREAU_ERR_INPUT,
                 "option %s: materials %g,%g do not exist (there are %d: ids 0 to %d)", opt->name, v[k], v[k + 1], m->n,
                 m->n - 1);
    int i = (int)v[k], j = (int)v[k + 1];
    moreau_pair_law law = *moreau_materials_pair(m, i, j);
    char where[96];
    opt->set(&law, &v[k + 2]);
    snprintf(where, sizeof(where), "option %s: pair %d,%d", opt->name, i, j);
    MOREAU_CALL(moreau_pair_law_check(&law, where));
    MOREAU_CALL(moreau_materials_set_pair(m, i, j, &law));
  }
  return MOREAU_SUCCESS;
}

/* A real option that may be absent (its table default is empty): *value is
 * kept then. */
static moreau_err optional_real(const char *name, double *value)
{
  int set;
  MOREAU_CALL(moreau_option_is_set(name, &set));
  if (set) MOREAU_CALL(moreau_option_real(name, value));
  return MOREAU_SUCCESS;
}

/* Each law's own options, and the defaults they set. */
static const struct {
  const char *option, *law;
} law_options[] = {{"-cohesion", "cohesive"},   {"-cohesion_range", "cohesive"},    {"-pair_cohesion", "cohesive"},
                   {"-mu_s", "static_dynamic"}, {"-pair_static", "static_dynamic"}, {"-mu_roll", "rolling"},
                   {"-mu_torsion", "rolling"},  {"-pair_rolling", "rolling"}};

/* The option of another law than the run's would be ignored: an input error
 * that names the law it needs. */
static moreau_err check_law_options(const moreau_law *law)
{
  for (size_t i = 0; i < sizeof(law_options) / sizeof(law_options[0]); i++) {
    int set;
    if (!strcmp(law_options[i].law, moreau_law_name(law))) continue;
    MOREAU_CALL(moreau_option_is_set(law_options[i].option, &set));
    MOREAU_CHECK(!set, MOREAU_ERR_INPUT, "option %s: needs -law %s (this run's law is %s)", law_options[i].option,
                 law_options[i].law, moreau_law_name(law));
  }
  return MOREAU_SUCCESS;
}

/* The defaults of the law's own parameters, checked naming their options. */
static moreau_err law_defaults(const moreau_law *law, moreau_pair_law *def)
{
  const char *name = moreau_law_name(law);
  MOREAU_CALL(check_law_options(law));
  if (!strcmp(name, "cohesive")) {
    MOREAU_CALL(optional_real("-cohesion", &def->f_c));
    MOREAU_CALL(optional_real("-cohesion_range", &def->d_c));
    MOREAU_CHECK(def->f_c >= 0, MOREAU_ERR_INPUT, "option -cohesion: must be >= 0, got %g", def->f_c);
    MOREAU_CHECK(def->d_c >= 0, MOREAU_ERR_INPUT, "option -cohesion_range: must be >= 0, got %g", def->d_c);
  } else if (!strcmp(name, "static_dynamic")) {
    MOREAU_CALL(optional_real("-mu_s", &def->mu_s));
    MOREAU_CHECK(def->mu_s == 0 || def->mu_s >= def->mu, MOREAU_ERR_INPUT,
                 "option -mu_s: the static coefficient must be >= the dynamic one (-mu %g), got %g", def->mu,
                 def->mu_s);
  } else if (!strcmp(name, "rolling")) {
    MOREAU_CALL(optional_real("-mu_roll", &def->mu_r));
    MOREAU_CALL(optional_real("-mu_torsion", &def->mu_o));
    MOREAU_CHECK(def->mu_r >= 0, MOREAU_ERR_INPUT, "option -mu_roll: must be >= 0, got %g", def->mu_r);
    MOREAU_CHECK(def->mu_o >= 0, MOREAU_ERR_INPUT, "option -mu_torsion: must be >= 0, got %g", def->mu_o);
  } else if (!strcmp(name, "md_spring_dashpot")) {
    static const char *const required[] = {"-md_stiffness", "-md_damping", "-md_friction_damping"};
    for (int i = 0; i < 3; i++) {
      int set;
      MOREAU_CALL(moreau_option_is_set(required[i], &set));
      MOREAU_CHECK(set, MOREAU_ERR_INPUT, "option %s: required by -method md", required[i]);
    }
    MOREAU_CALL(moreau_option_real("-md_stiffness", &def->k_n));
    MOREAU_CALL(moreau_option_real("-md_damping", &def->g_n));
    MOREAU_CALL(moreau_option_real("-md_friction_damping", &def->g_t));
    MOREAU_CHECK(def->k_n > 0, MOREAU_ERR_INPUT, "option -md_stiffness: must be positive, got %g", def->k_n);
    MOREAU_CHECK(def->g_n >= 0, MOREAU_ERR_INPUT, "option -md_damping: must be >= 0, got %g", def->g_n);
    MOREAU_CHECK(def->g_t >= 0, MOREAU_ERR_INPUT, "option -md_friction_damping: must be >= 0, got %g", def->g_t);
  }
  return MOREAU_SUCCESS;
}

static moreau_err pairs_from_options(const moreau_law *law, moreau_materials *m)
{
  const char *name = moreau_law_name(law);
  MOREAU_CALL(pairs_from_option(m, &basic));
  if (!strcmp(name, "cohesive")) MOREAU_CALL(pairs_from_option(m, &cohesion));
  if (!strcmp(name, "static_dynamic")) MOREAU_CALL(pairs_from_option(m, &stat));
  if (!strcmp(name, "rolling")) MOREAU_CALL(pairs_from_option(m, &rolling));
  if (!strcmp(name, "md_spring_dashpot")) MOREAU_CALL(pairs_from_option(m, &md));
  return MOREAU_SUCCESS;
}

moreau_err moreau_materials_from_options(const moreau_law *law, moreau_materials **mp)
{
  int64_t n;
  double density;
  moreau_pair_law def;
  moreau_err err;
  memset(&def, 0, sizeof(def));
  MOREAU_CALL(moreau_option_int("-materials", &n));
  MOREAU_CALL(moreau_option_real("-density", &density));
  MOREAU_CALL(moreau_option_real("-mu", &def.mu));
  MOREAU_CALL(moreau_option_real("-e_n", &def.e_n));
  MOREAU_CALL(moreau_option_real("-e_t", &def.e_t));
  MOREAU_CALL(law_defaults(law, &def));
  MOREAU_CHECK(n >= 1 && n <= 1024, MOREAU_ERR_INPUT, "option -materials: must be in [1, 1024], got %ld", (long)n);
  MOREAU_CHECK(density > 0, MOREAU_ERR_INPUT, "option -density: must be positive, got %g", density);
  /* The same checks as moreau_pair_law_check, naming the option the user gave. */
  MOREAU_CHECK(def.mu >= 0, MOREAU_ERR_INPUT, "option -mu: must be >= 0, got %g", def.mu);
  MOREAU_CHECK(def.e_n >= 0 && def.e_n <= 1, MOREAU_ERR_INPUT, "option -e_n: must be in [0, 1], got %g", def.e_n);
  MOREAU_CHECK(def.e_t >= -1 && def.e_t <= 1, MOREAU_ERR_INPUT, "option -e_t: must be in [-1, 1], got %g", def.e_t);
  MOREAU_CALL(moreau_pair_law_check(&def, "the options of the law"));
  MOREAU_CALL(moreau_materials_create((int)n, &def, density, mp));
  /* On a bad per-pair option the caller gets no table (and nothing to free). */
  err = pairs_from_options(law, *mp);
  if (err) MOREAU_CALL(moreau_materials_destroy(mp));
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}
