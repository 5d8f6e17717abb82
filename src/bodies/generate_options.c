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
     "box to fill: xmin,ymin[,zmin],xmax,ymax[,zmax] (2 dim numbers; the 3D default is 0,0,0,1,1,2)"},
    {"-gen_radius", "<real>", "0",
     "mean radius; 0: automatic (lattice: the largest that fits -gen_n; random: 35% area / 25% volume fraction)"},
    {"-gen_polydispersity", "<real>", "0.3", "p in [0, 1): radii uniform in [r (1 - p), r (1 + p)]"},
    {"-gen_jitter", "<real>", "0.5",
     "lattice: random displacement as a fraction of the free room in a cell, in [0, 1]"},
    {"-gen_material", "<int>", "0", "material id of the generated bodies"},
    {NULL, NULL, NULL, NULL}};

moreau_err moreau_generate_auto_radius(int dim, const moreau_gen_params *p, double *radius)
{
  double r, shortest;
  MOREAU_CALL(moreau_gen_check_shape(dim, p));
  if (p->type == MOREAU_GEN_LATTICE) {
    *radius = moreau_gen_lattice_auto_radius(dim, p);
    return MOREAU_SUCCESS;
  }
  r = pow((dim == 2 ? RANDOM_FILL_2D : RANDOM_FILL_3D) * moreau_gen_box_measure(dim, p) /
              ((double)p->n * moreau_gen_mean_body_measure(dim, 1.0, p->polydispersity)),
          1.0 / dim);
  shortest = p->hi[0] - p->lo[0];
  for (int k = 1; k < dim; k++)
    shortest = fmin(shortest, p->hi[k] - p->lo[k]);
  /* Few bodies in a flat box: keep them well inside its thinnest side. */
  *radius = fmin(r, 0.25 * shortest / (1.0 + p->polydispersity));
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

moreau_err moreau_generate_params_from_options(int dim, moreau_gen_params *p)
{
  static const char *const types[] = {"lattice", "random", NULL};
  int type;
  int64_t seed, material;
  memset(p, 0, sizeof(*p));
  MOREAU_CHECK(dim == 2 || dim == 3, MOREAU_ERR_INPUT, "dimension must be 2 or 3, got %d", dim);
  MOREAU_CALL(moreau_option_enum("-gen_type", types, &type));
  p->type = type == 0 ? MOREAU_GEN_LATTICE : MOREAU_GEN_RANDOM;
  MOREAU_CALL(moreau_option_int("-gen_n", &p->n));
  MOREAU_CALL(read_box(dim, p));
  MOREAU_CALL(moreau_option_real("-gen_radius", &p->radius));
  MOREAU_CALL(moreau_option_real("-gen_polydispersity", &p->polydispersity));
  MOREAU_CALL(moreau_option_real("-gen_jitter", &p->jitter));
  MOREAU_CALL(moreau_option_int("-gen_material", &material));
  MOREAU_CALL(moreau_option_int("-seed", &seed));
  MOREAU_CHECK(p->radius >= 0.0, MOREAU_ERR_INPUT, "-gen_radius must be >= 0 (0: automatic), got %g", p->radius);
  MOREAU_CHECK(material >= 0 && material <= INT32_MAX, MOREAU_ERR_INPUT,
               "-gen_material must be a material id >= 0, got %lld", (long long)material);
  p->material = (int32_t)material;
  p->seed = (uint64_t)seed;
  MOREAU_CALL(moreau_gen_check_shape(dim, p));
  if (p->radius == 0.0) MOREAU_CALL(moreau_generate_auto_radius(dim, p, &p->radius));
  return MOREAU_SUCCESS;
}
