#ifndef MOREAU_GENERATE_PRIVATE_H
#define MOREAU_GENERATE_PRIVATE_H

/* Shared by the generator sources only (not installed). */

#include "moreau/generate.h"
#include "moreau/rng.h"

/* generate_sizes.c: the size distribution. Relative radii s have mean 1; a
 * body's radius is p->radius s. */
/* The smallest and largest s the distribution draws. */
void moreau_gen_size_range(const moreau_gen_params *p, double *s_min, double *s_max);
/* The largest radius the distribution draws. */
double moreau_gen_r_max(const moreau_gen_params *p);
/* One radius drawn from the distribution. */
double moreau_gen_draw_radius(const moreau_gen_params *p, moreau_rng *rng);
/* Area (2D) or volume (3D) of one disk or sphere. */
double moreau_gen_body_measure(int dim, double r);
/* Mean body area (2D) or volume (3D) over the distribution, for p->radius. */
double moreau_gen_mean_body_measure(int dim, const moreau_gen_params *p);
/* The distribution's parameters, with messages naming the options. */
MOREAU_MUST_CHECK moreau_err moreau_gen_check_sizes(const moreau_gen_params *p);
/* Area (2D) or volume (3D) of the box. */
double moreau_gen_box_measure(int dim, const moreau_gen_params *p);

/* Not collective. The checks every entry point shares: n, box,
 * size distribution and jitter, with messages naming the options. */
MOREAU_MUST_CHECK moreau_err moreau_gen_check_shape(int dim, const moreau_gen_params *p);

/* Entry [begin, end) of block r when total items are split over size ranks
 * as evenly as possible, lower ranks taking the remainder. */
void moreau_gen_block(int64_t total, int r, int size, int64_t *begin, int64_t *end);

/* Appends one generated body at rest. */
MOREAU_MUST_CHECK moreau_err moreau_gen_push(moreau_bodies *b, const moreau_gen_params *p, const moreau_materials *m,
                                             moreau_gid gid, const double x[3], double radius);

/* The two generators; p is already validated. Collective only in that every
 * rank must call them; they do not communicate. */
MOREAU_MUST_CHECK moreau_err moreau_gen_lattice(const moreau_gen_params *p, moreau_bodies *b,
                                                const moreau_materials *m);
MOREAU_MUST_CHECK moreau_err moreau_gen_random(const moreau_gen_params *p, moreau_bodies *b, const moreau_materials *m);

/* The lattice part of moreau_generate_auto_radius. */
double moreau_gen_lattice_auto_radius(int dim, const moreau_gen_params *p);

#endif
