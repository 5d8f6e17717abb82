#ifndef MOREAU_DETECT_PRIVATE_H
#define MOREAU_DETECT_PRIVATE_H

#include <math.h>
#include <stdint.h>

#include "moreau/detect.h"

/* Images of the box a pair can be taken through: m[k] in lo[k]..hi[k]
 * (moreau_domain_image_range), numbered along x fastest. */
#define DETECT_MAX_IMAGES 125

struct moreau_detector {
  double skin;    /* pairs within alert + skin are candidates */
  int64_t builds; /* candidate lists built so far */

  /* The linked cells of a build, freed after it (CSR over cells: the bodies
   * of cell k are order[cell_start[k] .. cell_start[k+1])). */
  moreau_lid ncell_cap, nbody_cap;
  moreau_lid *cell_start, *order, *body_cell;

  /* The candidates: the partners of owned body a (a lid) are cand_b[j] for
   * j in cand_start[a] .. cand_start[a+1] - 1, sorted by gid so that the
   * narrow phase writes its contacts in key order. Across periodic faces
   * the narrow phase takes each pair through its nearest image, so a body
   * that wraps keeps its candidates. */
  moreau_lid cand_cap, start_cap;
  moreau_lid *cand_start, *cand_b;

  /* What the list was built for: it stays valid while the same bodies sit
   * at the same local indices and none has moved (nor any image) far enough
   * to bring a pair that was beyond alert + skin within alert. */
  int built;
  double alert;
  moreau_lid n_owned, n_local, saved_cap;
  /* The positions of the local bodies at the build, dim floats each: the
   * validity check needs them only to within the skin, and adds their
   * rounding to the displacements (still_valid); 12 or 16 bytes a body
   * less than doubles. */
  float *x0;
  moreau_gid *gid0;                    /* their gids */
  double shift0[DETECT_MAX_IMAGES][3]; /* each image's displacement at the build */

  /* This call's box: the images m[k] in img_lo[k]..img_hi[k], numbered
   * along x fastest, with the displacement and velocity of each; the
   * periods and the Lees-Edwards offset, to find a pair's nearest image. */
  int img_lo[3], img_hi[3], n_img;
  double shift[DETECT_MAX_IMAGES][3], vshift[DETECT_MAX_IMAGES][3];
  int periodic[3];
  double len[3];
  moreau_lees_edwards le;
};

/* candidates.c: fills this call's box (images, periods); if the list is
 * not valid any more for these bodies, images and alert distance, builds it
 * again (the broad phase: linked cells over the local bodies, pairs whose
 * bounding balls come within alert + skin). */
MOREAU_MUST_CHECK moreau_err detect_candidates(moreau_detector *d, const moreau_domain *domain, const moreau_bodies *b,
                                               double alert);

/* The index in d->shift of the image of xb nearest to xa (periodic axes;
 * under Lees-Edwards the gradient image first, which sets how far the flow
 * coordinate moves), or -1 if it is outside the images kept, where no
 * contact can be. */
static inline int detect_nearest_image(const moreau_detector *d, const double *xa, const double *xb)
{
  int m[3] = {0, 0, 0}, idx = 0;
  double dx[3] = {xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]};
  if (d->le.on) {
    const int f = d->le.flow, g = d->le.gradient;
    m[g] = -(int)nearbyint(dx[g] / d->len[g]);
    dx[f] += m[g] * d->le.offset;
  }
  for (int k = 0; k < 3; k++)
    if (d->periodic[k] && !(d->le.on && k == d->le.gradient)) m[k] = -(int)nearbyint(dx[k] / d->len[k]);
  for (int k = 2; k >= 0; k--) {
    if (m[k] < d->img_lo[k] || m[k] > d->img_hi[k]) return -1;
    idx = idx * (d->img_hi[k] - d->img_lo[k] + 1) + m[k] - d->img_lo[k];
  }
  return idx;
}

#endif
