#include <math.h>
#include <string.h>

#include "generate_private.h"

/* Solid fractions the random generator aims at when the radius is automatic
 * (see moreau_generate_auto_radius). */
#define RANDOM_FILL_2D 0.35
#define RANDOM_FILL_3D 0.25

const moreau_option_spec moreau_generate_options[] = {
    {"-gen_type", "<lattice|random>", "lattice",
     "built-in generator: jittered square/cubic lattice filled bottom-up, or random non-overlapping placement"},
    {"-gen_n", "<int>", "2000", "number of generated bodies"},
    {"-gen_box", "<reals>", "0,0,2,0.5",
     "box to fill: xmin,ymin[,zmin],xmax,ymax[,zmax] (2 dim numbers; the 3D default is 0,0,0,1,1,2); every body "
     "stays at least its radius from each face"},
    {"-gen_radius", "<real>", "0",
     "number-mean radius of every size distribution; 0: automatic, from -gen_fraction (or, without it, lattice: "
     "the largest that fits -gen_n; random: 35% area / 25% volume fraction)"},
    {"-gen_fraction", "<real>", "0",
     "solid fraction (area in 2D, volume in 3D) of -gen_box that -gen_n bodies fill; sets the radius (-gen_radius "
     "0); random reaches about 0.75 in 2D and 0.55 in 3D (slowly above 0.5), or says how far it got; 0: the "
     "default above"},
    {"-gen_size_dist", "<uniform|bidisperse|file>", "uniform",
     "size distribution: uniform (-gen_polydispersity), bidisperse (-gen_size_ratio, -gen_size_fraction) or a "
     "table (-gen_size_file)"},
    {"-gen_polydispersity", "<real>", "0.3", "uniform: p in [0, 1), radii uniform in [r (1 - p), r (1 + p)]"},
    {"-gen_size_ratio", "<real>", "", "bidisperse (required): r_large / r_small, in [1, 1000]"},
    {"-gen_size_fraction", "<real>", "", "bidisperse (required): number fraction of large bodies, in [0, 1]"},
    {"-gen_size_file", "<file>", "",
     "file: text file, one 'radius' or 'radius,weight' per line ('#' comments); a radius is drawn with "
     "probability proportional to its weight (default 1), the radii scaled to number-mean -gen_radius"},
    {"-gen_jitter", "<real>", "0.5",
     "lattice: random displacement as a fraction of the free room in a cell, in [0, 1]"},
    {"-gen_material", "<int>", "0", "material id of the generated bodies"},
    {NULL, NULL, NULL, NULL}};

/* The radius at which n bodies fill the fraction phi of the box. */
static double radius_for_fraction(int dim, const moreau_gen_params *p, double phi)
{
  moreau_gen_params unit = *p;
  unit.radius = 1.0;
  return pow(phi * moreau_gen_box_measure(dim, p) / ((double)p->n * moreau_gen_mean_body_measure(dim, &unit)),
             1.0 / dim);
}

moreau_err moreau_generate_auto_radius(int dim, const moreau_gen_params *p, double *radius)
{
  double shortest, s_min, s_max;
  MOREAU_CALL(moreau_gen_check_shape(dim, p));
  if (p->fraction > 0.0) {
    *radius = radius_for_fraction(dim, p, p->fraction);
    return MOREAU_SUCCESS;
  }
  if (p->type == MOREAU_GEN_LATTICE) {
    *radius = moreau_gen_lattice_auto_radius(dim, p);
    return MOREAU_SUCCESS;
  }
  shortest = p->hi[0] - p->lo[0];
  for (int k = 1; k < dim; k++)
    shortest = fmin(shortest, p->hi[k] - p->lo[k]);
  moreau_gen_size_range(p, &s_min, &s_max);
  /* Few bodies in a flat box: keep them well inside its thinnest side. */
  *radius = fmin(radius_for_fraction(dim, p, dim == 2 ? RANDOM_FILL_2D : RANDOM_FILL_3D), 0.25 * shortest / s_max);
  return MOREAU_SUCCESS;
}

static moreau_err read_box(int dim, moreau_gen_params *p)
{
  static const double box_3d[6] = {0, 0, 0, 1, 1, 2};
  double v[6];
  int count = 6, given = 0;
  MOREAU_CALL(moreau_option_is_set("-gen_box", &given));
  if (!given && dim == 3) {
    memcpy(v, box_3d, sizeof(v));
  } else {
    MOREAU_CALL(moreau_option_reals("-gen_box", v, &count));
    MOREAU_CHECK(count == 2 * dim, MOREAU_ERR_INPUT, "-gen_box needs %d numbers in %dD (%s), got %d", 2 * dim, dim,
                 dim == 2 ? "xmin,ymin,xmax,ymax" : "xmin,ymin,zmin,xmax,ymax,zmax", count);
  }
  for (int k = 0; k < dim; k++) {
    p->lo[k] = v[k];
    p->hi[k] = v[dim + k];
  }
  return MOREAU_SUCCESS;
}

/* An option of the bidisperse distribution, which has no default. */
static moreau_err bidisperse_option(const char *name, double *value)
{
  int given;
  MOREAU_CALL(moreau_option_is_set(name, &given));
  MOREAU_CHECK(given, MOREAU_ERR_INPUT, "-gen_size_dist bidisperse needs %s", name);
  MOREAU_CALL(moreau_option_real(name, value));
  return MOREAU_SUCCESS;
}

/* The distribution and its options; only those of the chosen distribution
 * are read, so that the others, when given, are reported as unused (which
 * catches a forgotten -gen_size_dist). The bidisperse options have no default,
 * so that a run given every default of -help is still valid. */
static moreau_err read_sizes(moreau_gen_params *p)
{
  static const char *const dists[] = {"uniform", "bidisperse", "file", NULL};
  char path[4096];
  int dist;
  MOREAU_CALL(moreau_option_enum("-gen_size_dist", dists, &dist));
  p->size_dist = (moreau_gen_size_dist)dist;
  switch (p->size_dist) {
  case MOREAU_GEN_SIZE_BIDISPERSE:
    MOREAU_CALL(bidisperse_option("-gen_size_ratio", &p->size_ratio));
    MOREAU_CALL(bidisperse_option("-gen_size_fraction", &p->size_fraction));
    break;
  case MOREAU_GEN_SIZE_FILE:
    MOREAU_CALL(moreau_option_string("-gen_size_file", path, sizeof(path)));
    MOREAU_CALL(moreau_generate_read_size_file(path, p));
    break;
  default:
    MOREAU_CALL(moreau_option_real("-gen_polydispersity", &p->polydispersity));
  }
  return MOREAU_SUCCESS;
}

static moreau_err read_params(int dim, moreau_gen_params *p)
{
  static const char *const types[] = {"lattice", "random", NULL};
  int type;
  int64_t seed, material;
  MOREAU_CHECK(dim == 2 || dim == 3, MOREAU_ERR_INPUT, "dimension must be 2 or 3, got %d", dim);
  MOREAU_CALL(moreau_option_enum("-gen_type", types, &type));
  p->type = type == 0 ? MOREAU_GEN_LATTICE : MOREAU_GEN_RANDOM;
  MOREAU_CALL(moreau_option_int("-gen_n", &p->n));
  MOREAU_CALL(read_box(dim, p));
  MOREAU_CALL(moreau_option_real("-gen_radius", &p->radius));
  MOREAU_CALL(moreau_option_real("-gen_fraction", &p->fraction));
  MOREAU_CALL(read_sizes(p));
  MOREAU_CALL(moreau_option_real("-gen_jitter", &p->jitter));
  MOREAU_CALL(moreau_option_int("-gen_material", &material));
  MOREAU_CALL(moreau_option_int("-seed", &seed));
  MOREAU_CHECK(p->radius >= 0.0, MOREAU_ERR_INPUT, "-gen_radius must be >= 0 (0: automatic), got %g", p->radius);
  MOREAU_CHECK(!(p->fraction > 0.0 && p->radius > 0.0), MOREAU_ERR_INPUT,
               "-gen_fraction %g and -gen_radius %g: give one of them (the other follows from -gen_n and -gen_box)",
               p->fraction, p->radius);
  MOREAU_CHECK(material >= 0 && material <= INT32_MAX, MOREAU_ERR_INPUT,
               "-gen_material must be a material id >= 0, got %lld", (long long)material);
  p->material = (int32_t)material;
  p->seed = (uint64_t)seed;
  MOREAU_CALL(moreau_gen_check_shape(dim, p));
  if (p->radius == 0.0) MOREAU_CALL(moreau_generate_auto_radius(dim, p, &p->radius));
  return MOREAU_SUCCESS;
}

moreau_err moreau_generate_params_from_options(int dim, moreau_gen_params *p)
{
  moreau_err err;
  memset(p, 0, sizeof(*p));
  err = read_params(dim, p);
  if (err) moreau_generate_params_free(p);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}
