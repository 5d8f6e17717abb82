#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "generate_private.h"

/* Tiles are at least this many r_max wide, so that the r_max margins kept at
 * faces shared between tiles waste little room (13% of the area in 2D, 14% of
 * the volume in 3D, where random sequential addition jams sooner), and hold on average
 * at least MIN_PER_TILE bodies, so that a small radius does not make empty
 * tiles. */
#define TILE_WIDTH_IN_RMAX_2D 30.0
#define TILE_WIDTH_IN_RMAX_3D 40.0
#define MIN_PER_TILE 64.0
#define ATTEMPTS_PER_BODY 1000

typedef struct {
  int dim;
  int64_t count[3]; /* tiles per axis (1 beyond dim) */
  double width[3];
  int64_t total;
} tiling;

/* Depends on the box, radius and n only, never on the number of ranks. */
static void make_tiling(int dim, const moreau_gen_params *p, tiling *t)
{
  double target = fmax((dim == 2 ? TILE_WIDTH_IN_RMAX_2D : TILE_WIDTH_IN_RMAX_3D) * moreau_gen_r_max(p),
                       pow(moreau_gen_box_measure(dim, p) * MIN_PER_TILE / (double)p->n, 1.0 / dim));
  t->dim = dim;
  t->total = 1;
  for (int k = 0; k < 3; k++) {
    double len = k < dim ? p->hi[k] - p->lo[k] : 1.0;
    double c = k < dim ? floor(len / target) : 1.0;
    t->count[k] = c < 1.0 ? 1 : (int64_t)c;
    t->width[k] = len / (double)t->count[k];
    t->total *= t->count[k];
  }
}

/* The first global id of tile t: the n bodies are shared out as evenly as
 * possible, lower tiles taking the remainder, and gids follow the tile order,
 * then the placement order within a tile. Tile `total` gives n. */
static moreau_gid tile_first_gid(int64_t n, int64_t total, int64_t t)
{
  int64_t q = n / total, rem = n % total;
  return t * q + (t < rem ? t : rem);
}

typedef struct {
  double lo[3], hi[3]; /* the tile */
  int64_t index[3];    /* its position in the tiling */
  int64_t ncell[3];    /* overlap-search cells, at least 2 r_max wide */
  double cell_width[3];
  int64_t *head, *next; /* per cell: first body; per body: next in its cell */
  double *x;            /* stride 3 */
  double *radius;
} tile;

static void cell_coords(const tile *tl, int dim, const double *x, int64_t c[3])
{
  c[0] = c[1] = c[2] = 0;
  for (int k = 0; k < dim; k++) {
    c[k] = (int64_t)floor((x[k] - tl->lo[k]) / tl->cell_width[k]);
    if (c[k] < 0) c[k] = 0;
    if (c[k] >= tl->ncell[k]) c[k] = tl->ncell[k] - 1;
  }
}

static int64_t cell_id(const tile *tl, const int64_t c[3])
{
  return c[0] + tl->ncell[0] * (c[1] + tl->ncell[1] * c[2]);
}

/* Cells are at least 2 r_max wide, so any body that overlaps x lies in the
 * same cell or a neighbouring one. */
static int overlaps(const tile *tl, int dim, const double *x, double r)
{
  int64_t c[3];
  int reach[3] = {1, 1, dim == 3 ? 1 : 0};
  cell_coords(tl, dim, x, c);
  for (int dz = -reach[2]; dz <= reach[2]; dz++)
    for (int dy = -reach[1]; dy <= reach[1]; dy++)
      for (int dx = -reach[0]; dx <= reach[0]; dx++) {
        int64_t n[3] = {c[0] + dx, c[1] + dy, c[2] + dz};
        int outside = 0;
        for (int k = 0; k < 3; k++)
          outside |= n[k] < 0 || n[k] >= tl->ncell[k];
        if (outside) continue;
        for (int64_t j = tl->head[cell_id(tl, n)]; j >= 0; j = tl->next[j]) {
          double d2 = 0.0, sum = r + tl->radius[j];
          for (int k = 0; k < dim; k++) {
            double d = x[k] - tl->x[3 * j + k];
            d2 += d * d;
          }
          if (d2 < sum * sum) return 1;
        }
      }
  return 0;
}

static int by_decreasing_radius(const void *a, const void *b)
{
  double ra = *(const double *)a, rb = *(const double *)b;
  return (ra < rb) - (ra > rb);
}

/* Random sequential addition of quota bodies, the largest first (they are the
 * hardest to place). Returns MOREAU_ERR_INPUT when some body finds no room. */
static moreau_err fill_tile(const moreau_gen_params *p, int dim, const tiling *tg, int64_t t, tile *tl, int64_t quota)
{
  moreau_rng rng;
  /* The margin exceeds r_max by a hair so that rounding at the shared face
   * cannot bring two tiles' bodies into contact. */
  double margin = moreau_gen_r_max(p) * (1.0 + 1e-9), used = 0.0, tile_measure = 1.0;
  moreau_rng_seed(&rng, p->seed, (uint64_t)t);
  for (int64_t i = 0; i < quota; i++)
    tl->radius[i] = moreau_gen_draw_radius(p, &rng);
  qsort(tl->radius, (size_t)quota, sizeof(double), by_decreasing_radius);
  for (int k = 0; k < dim; k++)
    tile_measure *= tl->hi[k] - tl->lo[k];
  for (int64_t i = 0; i < quota; i++) {
    double r = tl->radius[i], *x = &tl->x[3 * i], a[3], b[3];
    int64_t c[3];
    int attempt;
    for (int k = 0; k < dim; k++) {
      a[k] = tl->index[k] == 0 ? p->lo[k] + r : tl->lo[k] + margin;
      b[k] = tl->index[k] == tg->count[k] - 1 ? p->hi[k] - r : tl->hi[k] - margin;
    }
    x[0] = x[1] = x[2] = 0.0;
    for (attempt = 0; attempt < ATTEMPTS_PER_BODY; attempt++) {
      for (int k = 0; k < dim; k++)
        x[k] = a[k] + (b[k] - a[k]) * moreau_rng_uniform(&rng);
      if (!overlaps(tl, dim, x, r)) break;
    }
    MOREAU_CHECK(attempt < ATTEMPTS_PER_BODY, MOREAU_ERR_INPUT,
                 "-gen_type random: a tile took only %lld of its %lld bodies (packing fraction %.3f) after %d "
                 "attempts for the next one; use a smaller -gen_radius or -gen_n, or -gen_type lattice",
                 (long long)i, (long long)quota, used / tile_measure, ATTEMPTS_PER_BODY);
    used += moreau_gen_mean_body_measure(dim, r, 0.0);
    cell_coords(tl, dim, x, c);
    tl->next[i] = tl->head[cell_id(tl, c)];
    tl->head[cell_id(tl, c)] = i;
  }
  return MOREAU_SUCCESS;
}

/* Sets the tile's bounds and search cells, sized so that there are at most
 * about quota cells. */
static void setup_tile(const moreau_gen_params *p, const tiling *tg, int64_t t, int64_t quota, tile *tl)
{
  int dim = tg->dim;
  double measure = 1.0, cell;
  int64_t rest = t;
  for (int k = 0; k < 3; k++) {
    tl->index[k] = rest % tg->count[k];
    rest /= tg->count[k];
    tl->lo[k] = k < dim ? p->lo[k] + (double)tl->index[k] * tg->width[k] : 0.0;
    tl->hi[k] = k < dim ? (tl->index[k] == tg->count[k] - 1 ? p->hi[k] : tl->lo[k] + tg->width[k]) : 0.0;
    if (k < dim) measure *= tl->hi[k] - tl->lo[k];
  }
  cell = fmax(2.0 * moreau_gen_r_max(p) * (1.0 + 1e-6), pow(measure / (double)quota, 1.0 / dim));
  for (int k = 0; k < 3; k++) {
    double c = k < dim ? floor((tl->hi[k] - tl->lo[k]) / cell) : 1.0;
    tl->ncell[k] = c < 1.0 ? 1 : (int64_t)c;
    tl->cell_width[k] = k < dim ? (tl->hi[k] - tl->lo[k]) / (double)tl->ncell[k] : 1.0;
  }
}

static moreau_err place_tiles(const moreau_gen_params *p, const tiling *tg, int64_t t_begin, int64_t t_end, tile *tl,
                              moreau_bodies *b, const moreau_materials *m)
{
  for (int64_t t = t_begin; t < t_end; t++) {
    moreau_gid first = tile_first_gid(p->n, tg->total, t);
    int64_t quota = tile_first_gid(p->n, tg->total, t + 1) - first, ncells;
    if (quota == 0) continue;
    setup_tile(p, tg, t, quota, tl);
    ncells = tl->ncell[0] * tl->ncell[1] * tl->ncell[2];
    MOREAU_CALL(moreau_realloc((size_t)ncells * sizeof(int64_t), &tl->head));
    MOREAU_CALL(moreau_realloc((size_t)quota * sizeof(int64_t), &tl->next));
    MOREAU_CALL(moreau_realloc((size_t)quota * 3 * sizeof(double), &tl->x));
    MOREAU_CALL(moreau_realloc((size_t)quota * sizeof(double), &tl->radius));
    for (int64_t c = 0; c < ncells; c++)
      tl->head[c] = -1;
    MOREAU_CALL(fill_tile(p, tg->dim, tg, t, tl, quota));
    for (int64_t i = 0; i < quota; i++)
      MOREAU_CALL(moreau_gen_push(b, p, m, first + i, &tl->x[3 * i], tl->radius[i]));
  }
  return MOREAU_SUCCESS;
}

moreau_err moreau_gen_random(const moreau_gen_params *p, moreau_bodies *b, const moreau_materials *m)
{
  tiling tg;
  tile tl = {0};
  int rank, size;
  int64_t t_begin, t_end, n_here;
  moreau_err err;
  make_tiling(b->dim, p, &tg);
  MOREAU_MPI_CALL(MPI_Comm_rank(b->comm, &rank));
  MOREAU_MPI_CALL(MPI_Comm_size(b->comm, &size));
  moreau_gen_block(tg.total, rank, size, &t_begin, &t_end);
  n_here = tile_first_gid(p->n, tg.total, t_end) - tile_first_gid(p->n, tg.total, t_begin);
  MOREAU_CHECK(n_here <= INT32_MAX - b->n_owned, MOREAU_ERR_INPUT,
               "-gen_n %lld: too many bodies per rank for 32-bit local indices; use more ranks", (long long)p->n);
  MOREAU_CALL(moreau_bodies_reserve(b, b->n_owned + (moreau_lid)n_here));
  err = place_tiles(p, &tg, t_begin, t_end, &tl, b, m);
  moreau_free(&tl.head);
  moreau_free(&tl.next);
  moreau_free(&tl.x);
  moreau_free(&tl.radius);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}
