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
  moreau_free(&w->pressure);
  moreau_free(&w->force);
  moreau_free(&w->load_rate);
  moreau_free(&w->reaction);
  moreau_free(&w->origin);
  moreau_free(&w->stop_travel);
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
    MOREAU_CALL(moreau_realloc(cap * sizeof(double), &w->pressure));
    MOREAU_CALL(moreau_realloc(cap * sizeof(double), &w->force));
    MOREAU_CALL(moreau_realloc(cap * sizeof(double), &w->load_rate));
    MOREAU_CALL(moreau_realloc(3 * cap * sizeof(double), &w->reaction));
    MOREAU_CALL(moreau_realloc(3 * cap * sizeof(double), &w->origin));
    MOREAU_CALL(moreau_realloc(cap * sizeof(double), &w->stop_travel));
    MOREAU_CALL(moreau_realloc(cap * sizeof(int32_t), &w->material));
    MOREAU_CALL(moreau_realloc(cap * sizeof(moreau_wall_mode), &w->mode));
    w->capacity = (int)cap;
  }
  for (int d = 0; d < 3; d++) {
    w->point[3 * i + d] = point[d];
    w->normal[3 * i + d] = normal[d] / len;
    w->velocity[3 * i + d] = (mode == MOREAU_WALL_FIXED || !velocity) ? 0.0 : velocity[d];
    w->reaction[3 * i + d] = 0.0;
    w->origin[3 * i + d] = point[d];
  }
  w->stop_travel[i] = 0.0;
  w->mass[i] = mode == MOREAU_WALL_FORCE ? mass : 0.0;
  w->drive[i] = w->force[i] = mode == MOREAU_WALL_FORCE ? drive : 0.0;
  w->pressure[i] = 0.0;
  w->load_rate[i] = 0.0;
  w->material[i] = material;
  w->mode[i] = mode;
  w->n++;
  if (idx) *idx = i;
  return MOREAU_SUCCESS;
}

moreau_err moreau_walls_set_pressure(moreau_walls *w, int i, double pressure)
{
  MOREAU_CHECK(i >= 0 && i < w->n && w->mode[i] == MOREAU_WALL_FORCE, MOREAU_ERR_INPUT,
               "wall %d: only a force-driven wall takes a pressure", i);
  w->pressure[i] = pressure;
  return MOREAU_SUCCESS;
}

moreau_err moreau_walls_set_load_rate(moreau_walls *w, int i, double rate)
{
  MOREAU_CHECK(i >= 0 && i < w->n && w->mode[i] == MOREAU_WALL_FORCE, MOREAU_ERR_INPUT,
               "wall %d: only a force-driven wall takes a load rate", i);
  MOREAU_CHECK(rate >= 0 && isfinite(rate), MOREAU_ERR_INPUT, "wall %d: the load rate must be >= 0, got %g", i, rate);
  w->load_rate[i] = rate;
  return MOREAU_SUCCESS;
}

moreau_err moreau_walls_set_stop_travel(moreau_walls *w, int i, double travel)
{
  MOREAU_CHECK(i >= 0 && i < w->n, MOREAU_ERR_INPUT, "wall %d does not exist", i);
  MOREAU_CHECK(travel >= 0 && isfinite(travel), MOREAU_ERR_INPUT, "wall %d: the stop travel must be >= 0, got %g", i,
               travel);
  w->stop_travel[i] = travel;
  return MOREAU_SUCCESS;
}

int moreau_walls_travel_done(const moreau_walls *w)
{
  for (int i = 0; i < w->n; i++) {
    if (!(w->stop_travel[i] > 0.0)) continue;
    double d2 = 0.0;
    for (int k = 0; k < 3; k++) {
      double d = w->point[3 * i + k] - w->origin[3 * i + k];
      d2 += d * d;
    }
    if (d2 >= w->stop_travel[i] * w->stop_travel[i]) return i + 1;
  }
  return 0;
}

static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Walls whose normals are this close to parallel never meet. */
#define PARALLEL_SIN 1e-9

/* The constraint of wall j on the points x = p_i + a t1 + b t2 of wall i's
 * plane: (x - p_j) . n_j >= 0, i.e. a g[0] + b g[1] >= c. Returns 0 for a
 * wall parallel to wall i, which does not bound its face. */
static int face_constraint(const moreau_walls *w, int i, int j, const double *t1, const double *t2, double g[2],
                           double *c)
{
  const double *ni = &w->normal[3 * i], *nj = &w->normal[3 * j];
  double d[3], cos_ij = dot3(ni, nj);
  if (1.0 - cos_ij * cos_ij < PARALLEL_SIN * PARALLEL_SIN) return 0;
  for (int k = 0; k < 3; k++)
    d[k] = w->point[3 * j + k] - w->point[3 * i + k];
  g[0] = dot3(t1, nj);
  g[1] = t2 ? dot3(t2, nj) : 0.0;
  *c = dot3(d, nj);
  return 1;
}

/* 2D: the interval of the line of wall i, s in [lo, hi] along t = (-n_y, n_x). */
static moreau_err face_length(const moreau_walls *w, int i, double *size)
{
  const double *n = &w->normal[3 * i];
  double t[3] = {-n[1], n[0], 0.0}, lo = -HUGE_VAL, hi = HUGE_VAL, g[2], c;
  for (int j = 0; j < w->n; j++) {
    if (j == i || !face_constraint(w, i, j, t, NULL, g, &c)) continue;
    if (g[0] > 0)
      lo = fmax(lo, c / g[0]);
    else
      hi = fmin(hi, c / g[0]);
  }
  MOREAU_CHECK(isfinite(lo) && isfinite(hi), MOREAU_ERR_INPUT,
               "wall %d: no walls meet it on both sides, so its length (for a pressure) is unbounded", i);
  *size = fmax(hi - lo, 0.0);
  return MOREAU_SUCCESS;
}

/* Clips the convex polygon (*n vertices (a, b) in poly, room for 64) to
 * a g[0] + b g[1] >= c (Sutherland-Hodgman, one edge). */
static void clip(double *poly, int *n, const double g[2], double c)
{
  double out[2 * 64];
  int m = 0;
  for (int k = 0; k < *n && m < 62; k++) {
    const double *p = &poly[2 * k], *q = &poly[2 * ((k + 1) % *n)];
    double fp = p[0] * g[0] + p[1] * g[1] - c, fq = q[0] * g[0] + q[1] * g[1] - c;
    if (fp >= 0) {
      out[2 * m] = p[0];
      out[2 * m++ + 1] = p[1];
    }
    if ((fp >= 0) != (fq >= 0)) {
      double s = fp / (fp - fq);
      out[2 * m] = p[0] + s * (q[0] - p[0]);
      out[2 * m++ + 1] = p[1] + s * (q[1] - p[1]);
    }
  }
  memcpy(poly, out, 2 * (size_t)m * sizeof(double));
  *n = m;
}

/* 3D: the polygon of wall i's plane inside the other walls, clipped from a
 * square of half-edge h around p_i; *open says the square bounded it. */
static double face_polygon_area(const moreau_walls *w, int i, const double *t1, const double *t2, double h, int *open)
{
  double poly[2 * 64] = {-h, -h, h, -h, h, h, -h, h}, g[2], c, area = 0.0;
  int n = 4;
  for (int j = 0; j < w->n; j++)
    if (j != i && face_constraint(w, i, j, t1, t2, g, &c)) clip(poly, &n, g, c);
  *open = 0;
  for (int k = 0; k < n; k++) {
    const double *p = &poly[2 * k], *q = &poly[2 * ((k + 1) % n)];
    area += 0.5 * (p[0] * q[1] - q[0] * p[1]);
    *open |= fabs(p[0]) >= h || fabs(p[1]) >= h;
  }
  return area;
}

static moreau_err face_area(const moreau_walls *w, int i, double *size)
{
  const double *n = &w->normal[3 * i];
  double t1[3], t2[3], len, reach = 1.0;
  int open = 1;
  /* t1: perpendicular to n, from the axis n is least aligned with. */
  if (fabs(n[0]) <= fabs(n[1]) && fabs(n[0]) <= fabs(n[2])) {
    t1[0] = 0, t1[1] = n[2], t1[2] = -n[1];
  } else if (fabs(n[1]) <= fabs(n[2])) {
    t1[0] = -n[2], t1[1] = 0, t1[2] = n[0];
  } else {
    t1[0] = n[1], t1[1] = -n[0], t1[2] = 0;
  }
  len = sqrt(dot3(t1, t1));
  for (int k = 0; k < 3; k++)
    t1[k] /= len;
  t2[0] = n[1] * t1[2] - n[2] * t1[1];
  t2[1] = n[2] * t1[0] - n[0] * t1[2];
  t2[2] = n[0] * t1[1] - n[1] * t1[0];
  for (int j = 0; j < w->n; j++)
    for (int k = 0; k < 3; k++)
      reach = fmax(reach, 4.0 * fabs(w->point[3 * j + k] - w->point[3 * i + k]));
  /* A square that the other walls cut on every side holds the whole face;
   * one they leave touching its edge may be too small, or the face open. */
  for (int tries = 0; open && tries < 8; tries++, reach *= 64.0)
    *size = face_polygon_area(w, i, t1, t2, reach, &open);
  MOREAU_CHECK(!open, MOREAU_ERR_INPUT,
               "wall %d: the other walls do not bound it on every side, so its area (for a pressure) is unbounded", i);
  return MOREAU_SUCCESS;
}

moreau_err moreau_walls_face_size(const moreau_walls *w, int dim, int i, double *size)
{
  if (dim == 2)
    MOREAU_CALL(face_length(w, i, size));
  else
    MOREAU_CALL(face_area(w, i, size));
  return MOREAU_SUCCESS;
}

moreau_err moreau_walls_update_drive(moreau_walls *w, int dim, double t)
{
  for (int i = 0; i < w->n; i++) {
    double size = 0.0;
    if (w->mode[i] != MOREAU_WALL_FORCE || (w->pressure[i] == 0.0 && w->load_rate[i] == 0.0)) continue;
    if (w->pressure[i] != 0.0) MOREAU_CALL(moreau_walls_face_size(w, dim, i, &size));
    w->drive[i] = (w->force[i] + w->pressure[i] * size) * (1.0 + w->load_rate[i] * t);
  }
  return MOREAU_SUCCESS;
}
