/* Size distributions of the generators: relative radii s (of mean 1, the
 * body's radius is p->radius s), their moments and range, drawing, and the
 * size file. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generate_private.h"

/* Longest line of a size file. */
#define SIZE_LINE_LEN 1024

/* Bidisperse relative radii: the mean (1 - f) s_small + f s_large is 1. */
static void bidisperse_sizes(const moreau_gen_params *p, double *small, double *large)
{
  *small = 1.0 / (1.0 - p->size_fraction + p->size_fraction * p->size_ratio);
  *large = p->size_ratio * *small;
}

void moreau_gen_size_range(const moreau_gen_params *p, double *s_min, double *s_max)
{
  double small, large;
  switch (p->size_dist) {
  case MOREAU_GEN_SIZE_BIDISPERSE:
    bidisperse_sizes(p, &small, &large);
    *s_min = p->size_fraction < 1.0 ? small : large;
    *s_max = p->size_fraction > 0.0 ? large : small;
    return;
  case MOREAU_GEN_SIZE_FILE:
    *s_min = INFINITY;
    *s_max = 0.0;
    for (int64_t i = 0; i < p->size_count; i++) {
      double weight = p->size_cdf[i] - (i ? p->size_cdf[i - 1] : 0.0);
      if (weight <= 0.0) continue;
      *s_min = fmin(*s_min, p->size_radius[i]);
      *s_max = fmax(*s_max, p->size_radius[i]);
    }
    return;
  default:
    *s_min = 1.0 - p->polydispersity;
    *s_max = 1.0 + p->polydispersity;
  }
}

double moreau_gen_r_max(const moreau_gen_params *p)
{
  double s_min, s_max;
  moreau_gen_size_range(p, &s_min, &s_max);
  return p->radius * s_max;
}

double moreau_gen_body_measure(int dim, double r) { return dim == 2 ? M_PI * r * r : 4.0 / 3.0 * M_PI * r * r * r; }

/* E[s^dim] times the measure of the unit disk or sphere; for the uniform
 * distribution E[(1 + p U)^2] = 1 + p^2 / 3 and E[(1 + p U)^3] = 1 + p^2, U
 * uniform in [-1, 1]. */
double moreau_gen_mean_body_measure(int dim, const moreau_gen_params *p)
{
  double small, large, moment = 0.0, p2 = p->polydispersity * p->polydispersity;
  switch (p->size_dist) {
  case MOREAU_GEN_SIZE_BIDISPERSE:
    bidisperse_sizes(p, &small, &large);
    moment = (1.0 - p->size_fraction) * pow(small, dim) + p->size_fraction * pow(large, dim);
    break;
  case MOREAU_GEN_SIZE_FILE:
    for (int64_t i = 0; i < p->size_count; i++)
      moment += (p->size_cdf[i] - (i ? p->size_cdf[i - 1] : 0.0)) * pow(p->size_radius[i], dim);
    break;
  default:
    moment = dim == 2 ? 1.0 + p2 / 3.0 : 1.0 + p2;
  }
  return moreau_gen_body_measure(dim, p->radius) * moment;
}

double moreau_gen_draw_radius(const moreau_gen_params *p, moreau_rng *rng)
{
  double u = moreau_rng_uniform(rng), small, large;
  int64_t lo = 0, hi;
  switch (p->size_dist) {
  case MOREAU_GEN_SIZE_BIDISPERSE:
    bidisperse_sizes(p, &small, &large);
    return p->radius * (u < p->size_fraction ? large : small);
  case MOREAU_GEN_SIZE_FILE:
    /* The first entry whose cumulative probability exceeds u. */
    hi = p->size_count - 1;
    while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      if (p->size_cdf[mid] > u)
        hi = mid;
      else
        lo = mid + 1;
    }
    return p->radius * p->size_radius[lo];
  default:
    return p->radius * (1.0 + p->polydispersity * (2.0 * u - 1.0));
  }
}

moreau_err moreau_gen_check_sizes(const moreau_gen_params *p)
{
  double s_min, s_max;
  switch (p->size_dist) {
  case MOREAU_GEN_SIZE_UNIFORM:
    MOREAU_CHECK(p->polydispersity >= 0.0 && p->polydispersity < 1.0, MOREAU_ERR_INPUT,
                 "-gen_polydispersity must be in [0, 1), got %g", p->polydispersity);
    return MOREAU_SUCCESS;
  case MOREAU_GEN_SIZE_BIDISPERSE:
    MOREAU_CHECK(p->size_ratio >= 1.0 && p->size_ratio <= MOREAU_GEN_MAX_SIZE_RATIO, MOREAU_ERR_INPUT,
                 "-gen_size_ratio (r_large / r_small) must be in [1, %g], got %g", MOREAU_GEN_MAX_SIZE_RATIO,
                 p->size_ratio);
    MOREAU_CHECK(p->size_fraction >= 0.0 && p->size_fraction <= 1.0, MOREAU_ERR_INPUT,
                 "-gen_size_fraction (number fraction of large bodies) must be in [0, 1], got %g", p->size_fraction);
    return MOREAU_SUCCESS;
  case MOREAU_GEN_SIZE_FILE:
    MOREAU_CHECK(p->size_count > 0 && p->size_radius && p->size_cdf, MOREAU_ERR_INPUT,
                 "-gen_size_dist file: no size table (give -gen_size_file)");
    moreau_gen_size_range(p, &s_min, &s_max);
    MOREAU_CHECK(s_max <= MOREAU_GEN_MAX_SIZE_RATIO * s_min, MOREAU_ERR_INPUT,
                 "-gen_size_file: the radii span a ratio of %g, more than %g", s_max / s_min,
                 MOREAU_GEN_MAX_SIZE_RATIO);
    return MOREAU_SUCCESS;
  }
  MOREAU_FAIL(MOREAU_ERR_INPUT, "-gen_size_dist: unknown distribution %d", (int)p->size_dist);
}

void moreau_generate_params_free(moreau_gen_params *p)
{
  if (!p) return;
  moreau_free(&p->size_radius);
  moreau_free(&p->size_cdf);
  p->size_count = 0;
}

/* Parses "radius", "radius,weight" or "radius weight" (a '#' starts a
 * comment); *count is 0 for a blank line. Returns 0 when the line is not
 * that. */
static int parse_size_line(char *line, double v[2], int *count)
{
  char *s = line, *end;
  char *hash = strchr(line, '#');
  if (hash) *hash = '\0';
  *count = 0;
  v[1] = 1.0;
  for (;;) {
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
      s++;
    if (*s == '\0') return 1;
    if (*count == 2) return 0;
    if (*count == 1 && *s == ',') {
      s++;
      while (*s == ' ' || *s == '\t')
        s++;
    }
    errno = 0;
    v[*count] = strtod(s, &end);
    if (end == s || errno == ERANGE) return 0;
    (*count)++;
    s = end;
    if (*s != '\0' && *s != ' ' && *s != '\t' && *s != '\r' && *s != '\n' && *s != ',') return 0;
  }
}

static moreau_err append_size(moreau_gen_params *p, int64_t *cap, double radius, double weight)
{
  if (p->size_count == *cap) {
    *cap = *cap ? 2 * *cap : 64;
    MOREAU_CALL(moreau_realloc((size_t)*cap * sizeof(double), &p->size_radius));
    MOREAU_CALL(moreau_realloc((size_t)*cap * sizeof(double), &p->size_cdf));
  }
  p->size_radius[p->size_count] = radius;
  p->size_cdf[p->size_count] = weight;
  p->size_count++;
  return MOREAU_SUCCESS;
}

/* Turns the table's weights into cumulative probabilities and its radii into
 * relative radii of mean 1. */
static moreau_err normalise_sizes(const char *path, moreau_gen_params *p)
{
  double total = 0.0, mean = 0.0, sum = 0.0;
  MOREAU_CHECK(p->size_count > 0, MOREAU_ERR_INPUT, "-gen_size_file %s: no radius in the file", path);
  for (int64_t i = 0; i < p->size_count; i++) {
    total += p->size_cdf[i];
    mean += p->size_cdf[i] * p->size_radius[i];
  }
  MOREAU_CHECK(total > 0.0 && isfinite(total) && isfinite(mean), MOREAU_ERR_INPUT,
               "-gen_size_file %s: the weights must have a positive finite sum, got %g", path, total);
  mean /= total;
  for (int64_t i = 0; i < p->size_count; i++) {
    sum += p->size_cdf[i];
    p->size_cdf[i] = i == p->size_count - 1 ? 1.0 : sum / total;
    p->size_radius[i] /= mean;
  }
  return MOREAU_SUCCESS;
}

static moreau_err read_sizes(FILE *f, const char *path, moreau_gen_params *p)
{
  char line[SIZE_LINE_LEN];
  int64_t cap = 0;
  for (int row = 1; fgets(line, sizeof(line), f); row++) {
    double v[2];
    int count;
    MOREAU_CHECK(strchr(line, '\n') || feof(f), MOREAU_ERR_INPUT,
                 "-gen_size_file %s:%d: line longer than %d characters", path, row, SIZE_LINE_LEN - 2);
    MOREAU_CHECK(parse_size_line(line, v, &count), MOREAU_ERR_INPUT,
                 "-gen_size_file %s:%d: expected 'radius' or 'radius,weight'", path, row);
    if (count == 0) continue;
    MOREAU_CHECK(isfinite(v[0]) && v[0] >= DBL_MIN, MOREAU_ERR_INPUT,
                 "-gen_size_file %s:%d: radius must be positive and finite, got %g", path, row, v[0]);
    MOREAU_CHECK(isfinite(v[1]) && v[1] >= 0.0, MOREAU_ERR_INPUT,
                 "-gen_size_file %s:%d: weight must be >= 0 and finite, got %g", path, row, v[1]);
    MOREAU_CALL(append_size(p, &cap, v[0], v[1]));
  }
  MOREAU_CHECK(!ferror(f), MOREAU_ERR_INPUT, "-gen_size_file %s: read error", path);
  MOREAU_CALL(normalise_sizes(path, p));
  return MOREAU_SUCCESS;
}

moreau_err moreau_generate_read_size_file(const char *path, moreau_gen_params *p)
{
  FILE *f;
  moreau_err err;
  moreau_generate_params_free(p);
  MOREAU_CHECK(path && path[0], MOREAU_ERR_INPUT, "-gen_size_dist file needs -gen_size_file");
  f = fopen(path, "rb");
  MOREAU_CHECK(f, MOREAU_ERR_INPUT, "-gen_size_file %s: cannot open (%s)", path, strerror(errno));
  err = read_sizes(f, path, p);
  fclose(f);
  if (err) moreau_generate_params_free(p);
  MOREAU_CALL(err);
  p->size_dist = MOREAU_GEN_SIZE_FILE;
  return MOREAU_SUCCESS;
}
