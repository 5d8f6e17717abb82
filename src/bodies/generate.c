#include <math.h>
#include <string.h>

#include "moreau/rng.h"

#include "generate_private.h"

static const char axis_name[3] = {'x', 'y', 'z'};

double moreau_gen_box_measure(int dim, const moreau_gen_params *p)
{
  double v = 1.0;
  for (int k = 0; k < dim; k++)
    v *= p->hi[k] - p->lo[k];
  return v;
}

moreau_err moreau_gen_check_shape(int dim, const moreau_gen_params *p)
{
  MOREAU_CHECK(dim == 2 || dim == 3, MOREAU_ERR_INPUT, "dimension must be 2 or 3, got %d", dim);
  MOREAU_CHECK(p->n > 0, MOREAU_ERR_INPUT, "-gen_n must be positive, got %lld", (long long)p->n);
  for (int k = 0; k < dim; k++) {
    MOREAU_CHECK(isfinite(p->lo[k]) && isfinite(p->hi[k]), MOREAU_ERR_INPUT, "-gen_box: %c bounds must be finite",
                 axis_name[k]);
    MOREAU_CHECK(p->hi[k] > p->lo[k], MOREAU_ERR_INPUT, "-gen_box: %c max (%g) must exceed %c min (%g)", axis_name[k],
                 p->hi[k], axis_name[k], p->lo[k]);
    MOREAU_CHECK(isfinite(p->hi[k] - p->lo[k]), MOREAU_ERR_INPUT,
                 "-gen_box: %c extent (%g to %g) is too large to be a number", axis_name[k], p->lo[k], p->hi[k]);
  }
  MOREAU_CALL(moreau_gen_check_sizes(p));
  MOREAU_CHECK(p->fraction >= 0.0 && p->fraction < 1.0, MOREAU_ERR_INPUT,
               "-gen_fraction must be in [0, 1) (0: the generator's default), got %g", p->fraction);
  MOREAU_CHECK(p->jitter >= 0.0 && p->jitter <= 1.0, MOREAU_ERR_INPUT, "-gen_jitter must be in [0, 1], got %g",
               p->jitter);
  return MOREAU_SUCCESS;
}

void moreau_gen_block(int64_t total, int r, int size, int64_t *begin, int64_t *end)
{
  int64_t q = total / size, rem = total % size;
  *begin = (int64_t)r * q + (r < rem ? r : rem);
  *end = *begin + q + (r < rem ? 1 : 0);
}

moreau_err moreau_gen_push(moreau_bodies *b, const moreau_gen_params *p, const moreau_materials *m, moreau_gid gid,
                           const double x[3], double radius)
{
  moreau_body body;
  memset(&body, 0, sizeof(body));
  body.gid = gid;
  memcpy(body.x, x, sizeof(body.x));
  body.radius = radius;
  body.material = p->material;
  if (p->body_shape > 0) {
    /* Its own stream, so that the positions do not depend on the shape. */
    moreau_rng rng;
    moreau_rng_seed(&rng, p->seed ^ 0x5bd1e995u, (uint64_t)gid);
    body.shape = p->body_shape;
    if (b->dim == 2) {
      double half = M_PI * moreau_rng_uniform(&rng);
      body.q[0] = cos(half);
      body.q[3] = sin(half);
    } else {
      /* A rotation uniform over SO(3) (Shoemake's subgroup algorithm). */
      double u1 = moreau_rng_uniform(&rng), a2 = 2.0 * M_PI * moreau_rng_uniform(&rng);
      double a3 = 2.0 * M_PI * moreau_rng_uniform(&rng);
      body.q[0] = sqrt(1.0 - u1) * sin(a2);
      body.q[1] = sqrt(1.0 - u1) * cos(a2);
      body.q[2] = sqrt(u1) * sin(a3);
      body.q[3] = sqrt(u1) * cos(a3);
    }
  }
  moreau_body_set_shape_mass(&body, b->dim, p->shapes, m->density[p->material]);
  MOREAU_CALL(moreau_bodies_push_owned(b, &body));
  return MOREAU_SUCCESS;
}

/* Everything that makes the request impossible whatever the placement, so
 * that every rank reports it at once. */
static moreau_err check_params(int dim, const moreau_gen_params *p, const moreau_materials *m)
{
  double r_max, fill;
  MOREAU_CALL(moreau_gen_check_shape(dim, p));
  MOREAU_CHECK(p->type == MOREAU_GEN_LATTICE || p->type == MOREAU_GEN_RANDOM, MOREAU_ERR_INPUT,
               "-gen_type: unknown generator %d", (int)p->type);
  MOREAU_CHECK(p->radius > 0.0 && isfinite(p->radius), MOREAU_ERR_INPUT, "-gen_radius must be positive, got %g",
               p->radius);
  MOREAU_CHECK(p->material >= 0 && p->material < m->n, MOREAU_ERR_INPUT,
               "-gen_material %d does not exist (there are %d materials)", (int)p->material, m->n);
  MOREAU_CHECK(m->density[p->material] > 0.0, MOREAU_ERR_INPUT, "material %d: density must be positive, got %g",
               (int)p->material, m->density[p->material]);
  r_max = moreau_gen_r_max(p);
  for (int k = 0; k < dim; k++)
    MOREAU_CHECK(2.0 * r_max <= p->hi[k] - p->lo[k], MOREAU_ERR_INPUT,
                 "-gen_radius %g: the largest bodies (diameter %g) do not fit across -gen_box along %c (%g)", p->radius,
                 2.0 * r_max, axis_name[k], p->hi[k] - p->lo[k]);
  fill = (double)p->n * moreau_gen_mean_body_measure(dim, p) / moreau_gen_box_measure(dim, p);
  MOREAU_CHECK(p->fraction <= 0.0 || fill < 1.0, MOREAU_ERR_INPUT,
               "-gen_fraction %g: the bodies would need %.3g times the volume of -gen_box; lower -gen_fraction",
               p->fraction, fill);
  MOREAU_CHECK(fill < 1.0, MOREAU_ERR_INPUT,
               "-gen_n %lld bodies of -gen_radius %g would need %.3g times the volume of -gen_box; reduce -gen_n or "
               "-gen_radius",
               (long long)p->n, p->radius, fill);
  return MOREAU_SUCCESS;
}

moreau_err moreau_generate(const moreau_gen_params *p, moreau_bodies *b, const moreau_materials *m)
{
  moreau_lid n0 = b->n_owned;
  moreau_err err;
  MOREAU_CALL(check_params(b->dim, p, m));
  err = p->type == MOREAU_GEN_LATTICE ? moreau_gen_lattice(p, b, m) : moreau_gen_random(p, b, m);
  /* A random tile may fail on one rank only; every rank must return it. */
  err = moreau_error_agree(b->comm, err);
  if (err) b->n_owned = n0;
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}
