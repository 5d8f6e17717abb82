#ifndef MOREAU_DETECT_H
#define MOREAU_DETECT_H

#include "moreau/bodies.h"
#include "moreau/contacts.h"
#include "moreau/domain.h"
#include "moreau/error.h"
#include "moreau/walls.h"

/* The public API: exported from libmoreau, which hides everything else. */
#pragma GCC visibility push(default)

/* Contact detection: a linked-cell broad phase over the local bodies (owned
 * and ghosts; a cluster by its bounding ball) that costs O(N), then
 * disk-disk / sphere-sphere and body-wall narrow phases between contactors. A pair is a potential contact when its gap
 * is below the alert distance. The broad phase keeps its pairs between
 * calls (a Verlet list): the pairs whose bounding balls are within
 * alert + skin. Each call tests only those, and builds the list again when
 * a body it left out could have come within alert (twice the largest
 * displacement of a body since the build, through its nearest image, plus
 * that of the box's periodic images, above the skin), when the bodies at the local indices changed
 * (migration, ghosts, renumbering) or when alert changed. The contacts found
 * do not depend on the skin: it only trades builds for candidates. A body
 * keeps its radius and shape. Work arrays are kept between calls. */
typedef struct moreau_detector moreau_detector;

MOREAU_MUST_CHECK moreau_err moreau_detector_create(moreau_detector **d);
MOREAU_MUST_CHECK moreau_err moreau_detector_destroy(moreau_detector **d);
/* The skin (>= 0, default 0: a build at every call in which anything
 * moved); the next call builds the list. */
MOREAU_MUST_CHECK moreau_err moreau_detector_set_skin(moreau_detector *d, double skin);
double moreau_detector_skin(const moreau_detector *d);
/* How many times the candidate list has been built. */
int64_t moreau_detector_builds(const moreau_detector *d);

/* Not collective. Clears c and fills it with the contacts this rank owns
 * (a cluster, whose contactors are in b->shapes, touches another body or a
 * wall at every pair of contactors within alert, each a contact keyed by
 * its contactor pair, contacts.h: point):
 * owned body a with local body b of larger global id, and owned body a with
 * every wall, whose gap is below alert. Frames, contact vectors and gaps are
 * set; forces and law state are zero. The list is sorted by key: by_gid
 * lists the owned bodies' lids in increasing gid order
 * (moreau_part_owned_by_gid). Separations between bodies are taken through
 * the domain's nearest image. */
MOREAU_MUST_CHECK moreau_err moreau_detect(moreau_detector *d, const moreau_domain *domain, const moreau_bodies *b,
                                           const moreau_walls *w, double alert, const moreau_lid *by_gid,
                                           moreau_contacts *c);

#pragma GCC visibility pop

#endif
