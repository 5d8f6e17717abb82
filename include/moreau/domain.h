#ifndef MOREAU_DOMAIN_H
#define MOREAU_DOMAIN_H

#include "moreau/error.h"

/* The public API: exported from libmoreau, which hides everything else. */
#pragma GCC visibility push(default)

/* The simulation box: per axis bounded (walls or nothing) or periodic, and
 * the Lees-Edwards state of a sheared periodic cell. Detection, partition,
 * ghosts and analysis ask the domain for the separation of two points through
 * the nearest image and for the image shifts, so that periodic and
 * Lees-Edwards boundaries live in one place. With no periodic axis every
 * query is the identity: separations are xb - xa bitwise.
 *
 * Lees-Edwards (sliding-brick images): the periodic gradient axis g carries
 * images of the cell that are displaced along the flow axis f. The image at
 * m periods along g (m = +-1, +-2, ...) is shifted by m L_g along g, by
 * m * offset along f, and moves with the velocity m * rate * L_g along f,
 * where rate is the shear rate (the velocity difference across one period is
 * rate * L_g). The offset advances with time by rate * L_g * dt and is kept
 * in [0, L_f). */
typedef struct moreau_domain moreau_domain;

typedef struct {
  int on;               /* Lees-Edwards images in use */
  int flow, gradient;   /* axes */
  double rate;          /* shear rate */
  double offset;        /* current displacement of the m = +1 image along flow, in [0, L_flow) */
  double velocity_jump; /* rate * L_gradient */
} moreau_lees_edwards;

/* Not collective. An unbounded domain of dimension dim (2 or 3), no box. */
MOREAU_MUST_CHECK moreau_err moreau_domain_create(int dim, moreau_domain **d);
MOREAU_MUST_CHECK moreau_err moreau_domain_destroy(moreau_domain **d);
int moreau_domain_dim(const moreau_domain *d);

/* The box [lo, hi] (the first dim values of each are used; finite, hi > lo).
 * Any periodic axis needs a box. Under Lees-Edwards a new box recomputes
 * velocity_jump and reduces the offset into the new [0, L_flow). */
MOREAU_MUST_CHECK moreau_err moreau_domain_set_box(moreau_domain *d, const double lo[3], const double hi[3]);
int moreau_domain_has_box(const moreau_domain *d);
/* lo and hi of the box (zeros when there is none); z is 0 in 2D. */
void moreau_domain_get_box(const moreau_domain *d, double lo[3], double hi[3]);

/* Makes axis (0 <= axis < dim) periodic or bounded. MOREAU_ERR_INPUT
 * without a box or for a bad axis, and for making a Lees-Edwards axis
 * bounded. */
MOREAU_MUST_CHECK moreau_err moreau_domain_set_periodic(moreau_domain *d, int axis, int periodic);
int moreau_domain_is_periodic(const moreau_domain *d, int axis);
int moreau_domain_any_periodic(const moreau_domain *d);

/* Lees-Edwards images along gradient moving along flow at shear rate
 * `rate` (any sign; 0 keeps plain periodic images). Both axes must be
 * periodic and differ (MOREAU_ERR_INPUT otherwise). The offset starts at 0. */
MOREAU_MUST_CHECK moreau_err moreau_domain_set_lees_edwards(moreau_domain *d, int flow, int gradient, double rate);
void moreau_domain_get_lees_edwards(const moreau_domain *d, moreau_lees_edwards *le);
/* Restores an offset (restart); it is reduced into [0, L_flow).
 * MOREAU_ERR_INPUT without Lees-Edwards or for a non-finite offset. */
MOREAU_MUST_CHECK moreau_err moreau_domain_set_lees_edwards_offset(moreau_domain *d, double offset);
/* A box whose length along a periodic axis changes at `rate` (length per
 * time; a pressure-controlled cell): both faces move apart at rate / 2, so
 * the centre stays, and the image m periods away moves at m * rate along
 * that axis on top of the body's own velocity. MOREAU_ERR_INPUT for a
 * bounded axis or a non-finite rate. */
MOREAU_MUST_CHECK moreau_err moreau_domain_set_length_rate(moreau_domain *d, int axis, double rate);
double moreau_domain_length_rate(const moreau_domain *d, int axis);
/* Advances the box by dt: lengths by their rates, then the Lees-Edwards
 * offset by rate * L_gradient * dt, reduced into [0, L_flow) each time so
 * that it keeps full precision over long runs. */
void moreau_domain_advance(moreau_domain *d, double dt);
/* Not collective. Two walls across the bounded gradient axis shear the
 * box along flow (a rough-wall cell): at x[0] and x[1] (x[0] < x[1]) along
 * the gradient they move at v[0] and v[1] along the flow; their linear
 * profile is the stream velocity. Set again as the walls move. */
void moreau_domain_set_wall_shear(moreau_domain *d, int flow, int gradient, const double x[2], const double v[2]);
/* Not collective. The mean flow the boundaries impose at x: the
 * Lees-Edwards profile rate (x_g - centre_g) along flow, or the walls'
 * linear profile (moreau_domain_set_wall_shear) and, along an axis whose
 * length changes, the affine dilation rate_k / L_k (x_k - centre_k). Zero
 * without any. */
void moreau_domain_stream_velocity(const moreau_domain *d, const double x[3], double v[3]);

/* Not collective. dx = xb' - xa, where xb' = xb + shift is the image of xb
 * nearest to xa (minimum image; along a Lees-Edwards gradient the image
 * crossing also moves the flow coordinate by the offset before the flow axis
 * is reduced). vshift is the velocity that image has on top of b's own
 * (nonzero only across a Lees-Edwards face). shift and vshift may be NULL.
 * Each periodic component of dx ends in [-L/2, L/2]: the image count is
 * nearbyint(dx / L), ties to even. Without periodic axes dx = xb - xa and the
 * shifts are zero. */
void moreau_domain_separation(const moreau_domain *d, const double xa[3], const double xb[3], double dx[3],
                              double shift[3], double vshift[3]);

/* Not collective. The image of a point m[k] periods away along each axis
 * (m[k] must be 0 on bounded axes): x + shift is where that image sits and
 * vshift the velocity it has on top of the point's own. Under Lees-Edwards
 * the m[g] gradient periods also displace the image by m[g] * offset along
 * flow and move it at m[g] * rate * L_gradient along flow. */
void moreau_domain_image(const moreau_domain *d, const int m[3], double shift[3], double vshift[3]);
/* Not collective. The image counts to visit so that every image of a point
 * that can come within half a period of the box is among them: m[k] in
 * [lo[k], hi[k]]; 0..0 on bounded axes, -1..1 on periodic ones, and -2..2
 * along a Lees-Edwards flow axis (the offset displaces the gradient images
 * by up to one more period). */
void moreau_domain_image_range(const moreau_domain *d, int lo[3], int hi[3]);

/* Not collective. Brings a position back into the box along the periodic
 * axes (a body that left through one face re-enters through the other); a
 * crossing of a Lees-Edwards gradient face shifts x along flow by -+offset
 * and v (may be NULL) along flow by -+rate L_gradient, and a crossing of a
 * face that moves (length rate) shifts v along that axis by -+ the rate. Positions exactly at
 * hi go to lo. Returns m, the signed number of gradient periods added
 * (x_g -> x_g + m L_g, so -1 after leaving through the upper face; 0 without
 * Lees-Edwards). */
int moreau_domain_wrap(const moreau_domain *d, double x[3], double v[3]);

/* Not collective. MOREAU_ERR_INPUT with a clear message when a periodic axis
 * is shorter than 2 * cutoff (then the nearest image is not unique within the
 * interaction range; L = 2 * cutoff passes), and for a negative or non-finite
 * cutoff. */
MOREAU_MUST_CHECK moreau_err moreau_domain_check_cutoff(const moreau_domain *d, double cutoff);

#pragma GCC visibility pop

#endif
