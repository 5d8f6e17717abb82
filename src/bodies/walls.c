#include "moreau/walls.h"

#include <math.h>
#include <string.h>

moreau_err moreau_walls_create(moreau_walls **walls)
{
  MOREAU_CALL(moreau_calloc(1, sizeof(**walls), walls));
  return MOREAU_SUCCESS;
}

moreau_err moreau_walls_destroy(moreau_walls **walls)
{
  moreau_walls *w = *walls;
  if (!w) return MOREAU_SUCCESS;
  moreau_free(&w->point);
  moreau_free(&w->normal);
  moreau_free(&w->velocity);
  moreau_free(&w->mass);
  moreau_free(&w->drive);
  moreau_free(&w->reaction);
  moreau_free(&w->material);
  moreau_free(&w->mode);
  moreau_free(walls);
  return MOREAU_SUCCESS;
}

moreau_err moreau_walls_add(moreau_walls *w, const double point[3], const double normal[3], moreau_wall_mode mode,
                            const double velocity[3], double mass, double drive, int32_t material, int *idx)
{
  double len = sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
  int i = w->n;
  MOREAU_CHECK(len > 0 && isfinite(len), MOREAU_ERR_INPUT, "wall %d: the normal must be a nonzero vector", i);
  MOREAU_CHECK(mode != MOREAU_WALL_FORCE || (mass > 0 && isfinite(mass)), MOREAU_ERR_INPUT,
               "wall %d: a force-driven wall needs a positive mass", i);
  if (i == w->capacity) {
    size_t cap = (size_t)(w->capacity ? 2 * w->capacity : 8);
    MOREAU_CALL(moreau_realloc(3 * cap * sizeof(double), &w->point));
    MOREAU_CALL(moreau_realloc(3 * cap * sizeof(double), &w->normal));
    MOREAU_CALL(moreau_realloc(3 * cap * sizeof(double), &w->velocity));
    MOREAU_CALL(moreau_realloc(cap * sizeof(double), &w->mass));
    MOREAU_CALL(moreau_realloc(cap * sizeof(double), &w->drive));
    MOREAU_CALL(moreau_realloc(3 * cap * sizeof(double), &w->reaction));
    MOREAU_CALL(moreau_realloc(cap * sizeof(int32_t), &w->material));
    MOREAU_CALL(moreau_realloc(cap * sizeof(moreau_wall_mode), &w->mode));
    w->capacity = (int)cap;
  }
  for (int d = 0; d < 3; d++) {
    w->point[3 * i + d] = point[d];
    w->normal[3 * i + d] = normal[d] / len;
    w->velocity[3 * i + d] = (mode == MOREAU_WALL_FIXED || !velocity) ? 0.0 : velocity[d];
    w->reaction[3 * i + d] = 0.0;
  }
  w->mass[i] = mode == MOREAU_WALL_FORCE ? mass : 0.0;
  w->drive[i] = mode == MOREAU_WALL_FORCE ? drive : 0.0;
  w->material[i] = material;
  w->mode[i] = mode;
  w->n++;
  if (idx) *idx = i;
  return MOREAU_SUCCESS;
}
