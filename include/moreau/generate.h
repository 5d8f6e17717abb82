#ifndef MOREAU_GENERATE_H
#define MOREAU_GENERATE_H

#include "moreau/bodies.h"
#include "moreau/error.h"
#include "moreau/materials.h"
#include "moreau/options.h"

typedef enum { MOREAU_GEN_LATTICE, MOREAU_GEN_RANDOM } moreau_gen_type;

typedef struct {
  moreau_gen_type type;
  int64_t n;            /* number of bodies */
  double lo[3], hi[3];  /* the box to fill */
  double radius;        /* mean radius */
  double polydispersity; /* radii uniform in [r (1 - p), r (1 + p)], 0 <= p < 1 */
  double jitter;        /* lattice: displacement as a fraction of the free space, in [0, 1] */
  uint64_t seed;
  int32_t material;
} moreau_gen_params;

/* Collective. Appends n non-overlapping bodies inside the box to b, as owned
 * bodies spread over the ranks, with global ids 0..n-1; the result does not
 * depend on the number of ranks. Fails with MOREAU_ERR_INPUT when the box
 * cannot hold them. */
moreau_err moreau_generate(const moreau_gen_params *p, moreau_bodies *b, const moreau_materials *m);

/* Reads -gen_type, -gen_n, -gen_box, -gen_radius, -gen_polydispersity,
 * -gen_jitter into p (seed from -seed). */
moreau_err moreau_generate_params_from_options(int dim, moreau_gen_params *p);

extern const moreau_option_spec moreau_generate_options[];

#endif
