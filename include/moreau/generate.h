#ifndef MOREAU_GENERATE_H
#define MOREAU_GENERATE_H

#include "moreau/bodies.h"
#include "moreau/error.h"
#include "moreau/materials.h"
#include "moreau/options.h"

/* The public API: exported from libmoreau, which hides everything else. */
#pragma GCC visibility push(default)

typedef enum { MOREAU_GEN_LATTICE, MOREAU_GEN_RANDOM } moreau_gen_type;

/* How radii are drawn. Every distribution is a shape scaled by the mean
 * radius: the radius field below is always the number-mean radius. */
typedef enum {
  MOREAU_GEN_SIZE_UNIFORM,    /* uniform in [r (1 - p), r (1 + p)], p = polydispersity */
  MOREAU_GEN_SIZE_BIDISPERSE, /* small or large (r_large = size_ratio r_small), large with probability size_fraction */
  MOREAU_GEN_SIZE_FILE        /* the radii of a table, each with its probability */
} moreau_gen_size_dist;

typedef struct {
  moreau_gen_type type;
  int64_t n;             /* number of bodies */
  double lo[3], hi[3];   /* the box to fill; z ignored in 2D */
  double radius;         /* number-mean radius, > 0 for moreau_generate */
  double polydispersity; /* uniform: radii uniform in [r (1 - p), r (1 + p)], 0 <= p < 1 */
  double jitter;         /* lattice: displacement as a fraction of the free space, in [0, 1] */
  uint64_t seed;
  int32_t material;
  /* The fields below come last so that initialisers of the ones above keep
   * their meaning: zero is the uniform distribution and no target fraction. */
  moreau_gen_size_dist size_dist;
  double size_ratio;    /* bidisperse: r_large / r_small, in [1, MOREAU_GEN_MAX_SIZE_RATIO] */
  double size_fraction; /* bidisperse: probability that a body is large (number fraction), in [0, 1] */
  int64_t size_count;   /* file: entries of the table */
  double *size_radius;  /* file: radii divided by their mean (so of mean 1); owned, see moreau_generate_params_free */
  double *size_cdf;     /* file: cumulative probabilities, the last one 1; owned likewise */
  double fraction;      /* solid fraction that radius 0 (automatic) fills; 0: the generator's default. Only
                           chooses the radius (moreau_generate_auto_radius) and names -gen_fraction in errors */
  /* Clusters: with body_shape >= 1 every body is that shape of the table
   * shapes (not owned), its drawn radius the cluster's bounding radius,
   * turned by an angle uniform in [0, 2 pi) (2D) or a rotation uniform over
   * all rotations (3D), drawn from (seed, gid).
   * Placement and -gen_fraction count the bounding disks. */
  int32_t body_shape;
  const moreau_shapes *shapes;
} moreau_gen_params;

/* The largest ratio of the largest to the smallest radius of a distribution
 * (bidisperse ratio or size file). */
#define MOREAU_GEN_MAX_SIZE_RATIO 1000.0

/* Relative clearance between neighbouring lattice sites: the lattice spacing
 * is 2 r_max (1 + gap), so that even the largest bodies start apart. */
#define MOREAU_GEN_LATTICE_GAP 0.01

/* Collective over b->comm. Appends n non-overlapping bodies inside the box to
 * b as owned bodies, with global ids 0..n-1, at rest, unfixed, of material
 * p->material and mass from m's density, with radii drawn from p's size
 * distribution. Every body's centre is at least its radius from each face of
 * the box (so the box may later be walled or periodic). Rank r of P generates
 * the gids (or, for random, the tiles) of block r, so no rank holds the whole
 * system; the partitioner moves bodies to their owners later. Each body
 * (lattice) or tile (random) draws from its own counter-based stream keyed by
 * (seed, gid or tile), so the bodies are bitwise the same whatever P.
 *
 * lattice: square/cubic lattice of spacing 2 r_max (1 + MOREAU_GEN_LATTICE_GAP)
 * from lo, filled row by row with the vertical axis (y in 2D, z in 3D) last
 * (bottom layers first, for deposition under gravity); each body moves by up
 * to jitter (spacing / 2 - r_i) per axis, so it stays inside its cell.
 * random: the box is cut into tiles of a size set by the radius and n only
 * (30 r_max in 2D, 40 r_max in 3D, or larger); each tile places its share of
 * the n bodies, the largest first, each keeping its own radius (and a hair)
 * from the tile's faces, so tiles cannot overlap each other: by random
 * sequential addition while that finds room, then in batches at random
 * positions whose overlaps are relaxed away by pushing pairs apart. This
 * reaches loose random packings of about 0.75 area fraction in 2D and 0.55
 * volume fraction in 3D (slowly above 0.5), also bidisperse.
 *
 * Fails with MOREAU_ERR_INPUT (on every rank) when a parameter is invalid or
 * the box cannot hold the bodies (random: a tile's overlaps could not be
 * relaxed; the message gives the solid fraction reached and names
 * -gen_fraction when p->fraction is set); b then keeps its previous owned
 * bodies. */
MOREAU_MUST_CHECK moreau_err moreau_generate(const moreau_gen_params *p, moreau_bodies *b, const moreau_materials *m);

/* Collective (only in that it reads the options database, and the size file,
 * the same way on every rank). Fills p (zeroed first) from -gen_type, -gen_n,
 * -gen_box, -gen_radius, -gen_fraction, -gen_size_dist and the options of that
 * distribution only (-gen_polydispersity; -gen_size_ratio and
 * -gen_size_fraction, both required; -gen_size_file), -gen_jitter, -gen_material, and the
 * seed from -seed, which the app registers. -gen_box holds 2 dim numbers;
 * when it is not given in 3D, the box is 0,0,0,1,1,2 (the table's default is
 * the 2D one). -gen_radius 0 picks the radius with moreau_generate_auto_radius;
 * -gen_fraction with a nonzero -gen_radius is an error. The caller frees p
 * with moreau_generate_params_free (p holds nothing to free on failure). */
MOREAU_MUST_CHECK moreau_err moreau_generate_params_from_options(int dim, moreau_gen_params *p);

/* Not collective. Reads a size table into p and sets p->size_dist to
 * MOREAU_GEN_SIZE_FILE (any table p held is freed first). The file is text:
 * one entry per line, "radius" or "radius,weight" (or "radius weight"),
 * blank lines and '#' comments skipped; radii positive, weights >= 0 (1 when
 * absent) with a positive sum. A body draws entry i with probability
 * weight_i / sum of weights (weights count bodies, not volume), and the radii
 * are scaled so that their weighted mean is p->radius: a file of absolute
 * radii is reproduced as it is when p->radius is its weighted mean. Fails
 * with MOREAU_ERR_INPUT naming -gen_size_file and the file (and line). */
MOREAU_MUST_CHECK moreau_err moreau_generate_read_size_file(const char *path, moreau_gen_params *p);

/* Not collective. Frees the size table p owns (p may be NULL; safe to call
 * twice). A copy of p shares its table: free only one of them. */
void moreau_generate_params_free(moreau_gen_params *p);

/* Not collective. The mean radius that -gen_radius 0 means, for p's type, n,
 * box, size distribution and fraction (p->radius is ignored): with
 * p->fraction > 0, the radius at which the n bodies fill that fraction of the
 * box's area (2D) or volume (3D); otherwise
 * lattice: the largest radius for which n lattice sites fit in the box;
 * random: the radius at which the bodies fill 35% of the area (2D) or 25% of
 * the volume (3D), well below what the random generator reaches, capped so
 * that the largest body is at most a quarter of the box's shortest side. */
MOREAU_MUST_CHECK moreau_err moreau_generate_auto_radius(int dim, const moreau_gen_params *p, double *radius);

/* Not collective. The number of lattice sites that fit in p's box for p's
 * radius and size distribution (INT64_MAX if more than that). */
int64_t moreau_generate_lattice_capacity(int dim, const moreau_gen_params *p);

extern const moreau_option_spec moreau_generate_options[];

#pragma GCC visibility pop

#endif
