#ifndef MOREAU_DETECT_PRIVATE_H
#define MOREAU_DETECT_PRIVATE_H

#include <stdint.h>

#include "moreau/detect.h"

/* Images of the box a pair can be taken through: m[k] in lo[k]..hi[k]
 * (moreau_domain_image_range), numbered along x fastest. */
#define DETECT_MAX_IMAGES 125

struct moreau_detector {
  double skin;    /* pairs within alert + skin are candidates */
  int64_t builds; /* candidate lists built so far */

  /* The linked cells of the last build (CSR over cells: the bodies of cell
   * k are order[cell_start[k] .. cell_start[k+1])). */
  moreau_lid ncell_cap, nbody_cap;
  moreau_lid *cell_start, *order, *body_cell;

  /* The candidates: the partners of owned body a (a lid) are cand_b[j] for
   * j in cand_start[a] .. cand_start[a+1] - 1, each seen through image
   * cand_img[j] (unused without periodic axes), sorted by (gid, image) so
   * that the narrow phase writes its contacts in key order. */
  moreau_lid cand_cap, start_cap;
  moreau_lid *cand_start, *cand_b;
  uint8_t *cand_img;

  /* What the list was built for: it stays valid while the same bodies sit
   * at the same local indices and none has moved (nor any image) far enough
   * to bring a pair that was beyond alert + skin within alert. */
  int built;
  double alert;
  moreau_lid n_owned, n_local, saved_cap;
  double *x0;       /* positions of the local bodies at the build */
  moreau_gid *gid0; /* their gids */
  int img_lo[3], img_hi[3], n_img;
  double shift0[DETECT_MAX_IMAGES][3]; /* each image's displacement at the build */

  /* This call's images: displacement and velocity of each (periodic axes). */
  double shift[DETECT_MAX_IMAGES][3], vshift[DETECT_MAX_IMAGES][3];
};

/* candidates.c: fills d->shift and d->vshift for this call; if the list is
 * not valid any more for these bodies, images and alert distance, builds it
 * again (the broad phase: linked cells over the local bodies, pairs whose
 * bounding balls come within alert + skin). */
MOREAU_MUST_CHECK moreau_err detect_candidates(moreau_detector *d, const moreau_domain *domain, const moreau_bodies *b,
                                               double alert);

#endif
