#ifndef MOREAU_GENERATE_H
#define MOREAU_GENERATE_H

#include "moreau/bodies.h"
#include "moreau/error.h"
#include "moreau/materials.h"
#include "moreau/options.h"

/* The public API: exported from libmoreau, which hides everything else. */
#pragma GCC visibility push(default)

typedef enum { MOREAU_GEN_LATTICE, MOREAU_GEN_RANDOM } moreau_gen_type;

typedef struct {
  moreau_gen_type type;
  int64_t n;             /* number of bodies */
  double lo[3], hi[3];   /* the box to fill; z ignored in 2D */
  double radius;         /* mean radius, > 0 for moreau_generate */
  double polydispersity; /* radii uniform in [r (1 - p), r (1 + p)], 0 <= p < 1 */
  double jitter;         /* lattice: displacement as a fraction of the free space, in [0, 1] */
  uint64_t seed;
  int32_t material;
} moreau_gen_params;

/* Relative clearance between neighbouring lattice sites: the lattice spacing
 * is 2 r_max (1 + gap), so that even the largest bodies start apart. */
#define MOREAU_GEN_LATTICE_GAP 0.01

/* Collective over b->comm. Appends n non-overlapping bodies inside the box to
 * b as owned bodies, with global ids 0..n-1, at rest, unfixed, of material
 * p->material and mass from m's density. Rank r of P generates the gids (or,
 * for random, the tiles) of block r, so no rank holds the whole system; the
 * partitioner moves bodies to their owners later. Each body (lattice) or tile
 * (random) draws from its own counter-based stream keyed by (seed, gid or
 * tile), so the bodies are bitwise the same whatever P.
 *
 * lattice: square/cubic lattice of spacing 2 r_max (1 + MOREAU_GEN_LATTICE_GAP)
 * from lo, filled row by row with the vertical axis (y in 2D, z in 3D) last
 * (bottom layers first, for deposition under gravity); each body moves by up
 * to jitter (spacing / 2 - r_i) per axis, so it stays inside its cell.
 * random: the box is cut into tiles of a size set by the radius and n only
 * (30 r_max in 2D, 40 r_max in 3D, or larger); each tile places its share of the n bodies, the
 * largest first, by random sequential addition with centres kept r_max away
 * from faces shared with other tiles, so tiles cannot overlap each other.
 *
 * Fails with MOREAU_ERR_INPUT (on every rank) when a parameter is invalid or
 * the box cannot hold the bodies; b then keeps its previous owned bodies. */
MOREAU_MUST_CHECK moreau_err moreau_generate(const moreau_gen_params *p, moreau_bodies *b, const moreau_materials *m);

/* Collective (only in that it reads the options database the same way on
 * every rank). Reads -gen_type, -gen_n, -gen_box, -gen_radius,
 * -gen_polydispersity, -gen_jitter, -gen_material into p, and the seed from
 * -seed, which the app registers. -gen_box holds 2 dim numbers; when it is not
 * given in 3D, the box is 0,0,0,1,1,2 (the table's default is the 2D one).
 * -gen_radius 0 picks the radius with moreau_generate_auto_radius. */
MOREAU_MUST_CHECK moreau_err moreau_generate_params_from_options(int dim, moreau_gen_params *p);

/* Not collective. The mean radius that -gen_radius 0 means, for p's type, n,
 * box and polydispersity (p->radius is ignored):
 * lattice: the largest radius for which n lattice sites fit in the box;
 * random: the radius at which the bodies fill 35% of the area (2D) or 25% of
 * the volume (3D), below the random-sequential-addition jamming limits (about
 * 55% and 38%) so that the tiles fill quickly; capped so that the largest body
 * is at most a quarter of the box's shortest side. */
MOREAU_MUST_CHECK moreau_err moreau_generate_auto_radius(int dim, const moreau_gen_params *p, double *radius);

/* Not collective. The number of lattice sites that fit in p's box for p's
 * radius and polydispersity (INT64_MAX if more than that). */
int64_t moreau_generate_lattice_capacity(int dim, const moreau_gen_params *p);

extern const moreau_option_spec moreau_generate_options[];

#pragma GCC visibility pop

#endif
