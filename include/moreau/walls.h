#ifndef MOREAU_WALLS_H
#define MOREAU_WALLS_H

#include <stdint.h>

#include "moreau/error.h"

/* The public API: exported from libmoreau, which hides everything else. */
#pragma GCC visibility push(default)

/* Plane walls (lines in 2D): each has a point, a unit inward normal (pointing
 * into the region the bodies live in) and one of three modes. */
typedef enum {
  MOREAU_WALL_FIXED,    /* never moves */
  MOREAU_WALL_VELOCITY, /* moves at an imposed velocity */
  MOREAU_WALL_FORCE     /* imposed force along -normal (pushing inward), a
                           mass, and a normal velocity that is an unknown of the
                           contact problem; its tangential velocity is imposed */
} moreau_wall_mode;

typedef struct {
  int n, capacity;
  double *point, *normal, *velocity; /* stride 3 */
  double *mass;                      /* MOREAU_WALL_FORCE only */
  double *drive;                     /* force magnitude pushing the wall inward */
  double *pressure;                  /* MOREAU_WALL_FORCE: drive = force + pressure x face size */
  double *force;                     /* MOREAU_WALL_FORCE: the fixed part of drive */
  double *load_rate;                 /* MOREAU_WALL_FORCE: force and pressure grow as 1 + load_rate t */
  double *reaction;                  /* stride 3: force the bodies exert on the wall, last step */
  double *origin;                    /* stride 3: the point the wall was added at */
  double *stop_travel;               /* > 0: the run stops once the wall is this far from origin */
  int32_t *material;
  moreau_wall_mode *mode;
} moreau_walls;

MOREAU_MUST_CHECK moreau_err moreau_walls_create(moreau_walls **walls);
MOREAU_MUST_CHECK moreau_err moreau_walls_destroy(moreau_walls **walls);
/* Adds a wall; the normal is normalised. Returns its index in *idx (may be
 * NULL). For MOREAU_WALL_FORCE, mass must be > 0. */
MOREAU_MUST_CHECK moreau_err moreau_walls_add(moreau_walls *w, const double point[3], const double normal[3],
                                              moreau_wall_mode mode, const double velocity[3], double mass,
                                              double drive, int32_t material, int *idx);

/* Not collective. Sets the pressure on force wall i: its drive becomes its
 * fixed force plus the pressure times the size of its face, updated by
 * moreau_walls_update_drive as the walls move. */
MOREAU_MUST_CHECK moreau_err moreau_walls_set_pressure(moreau_walls *w, int i, double pressure);
/* Not collective. Sets the load rate r of force wall i: at time t its force
 * and pressure are (1 + r t) times those set, a stress- or force-controlled
 * loading at a constant rate (r >= 0, finite). */
MOREAU_MUST_CHECK moreau_err moreau_walls_set_load_rate(moreau_walls *w, int i, double rate);
/* Not collective. The length (dim 2) or area (dim 3) of wall i's face: the
 * part of its line (plane) on the inner side of every other wall that is not
 * parallel to it, as the face of a convex container of walls (for an
 * axis-aligned box: the distance between the two walls it meets, or the
 * product of two such distances). Fails with MOREAU_ERR_INPUT naming the
 * wall when the other walls do not bound it. */
MOREAU_MUST_CHECK moreau_err moreau_walls_face_size(const moreau_walls *w, int dim, int i, double *size);
/* Not collective. Sets the travel after which wall i ends the run: the
 * distance from the point it was added at (> 0, finite; 0: never). */
MOREAU_MUST_CHECK moreau_err moreau_walls_set_stop_travel(moreau_walls *w, int i, double travel);
/* Not collective (walls are replicated: every rank answers the same). The
 * index + 1 of the first wall past its stop travel, or 0. */
int moreau_walls_travel_done(const moreau_walls *w);
/* Not collective (walls are replicated, so every rank computes the same).
 * Sets each force wall's drive from its force, its pressure, the current
 * size of its face and its load rate at time t (pass the middle of the
 * coming step: the drive is applied as one impulse over the step, exact
 * for a load linear in time). */
MOREAU_MUST_CHECK moreau_err moreau_walls_update_drive(moreau_walls *w, int dim, double t);

#pragma GCC visibility pop

#endif
