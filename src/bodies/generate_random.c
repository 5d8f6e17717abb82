#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "generate_private.h"

/* Tiles are at least this many r_max wide, so that the layers along faces
 * shared between tiles (where each body keeps its own radius away from the
 * face, as at a wall) are a small part of a tile, and hold on average at least
 * MIN_PER_TILE bodies, so that a small radius does not make empty tiles. */
#define TILE_WIDTH_IN_RMAX_2D 30.0
#define TILE_WIDTH_IN_RMAX_3D 40.0
#define MIN_PER_TILE 64.0
/* Random sequential addition tries this many positions for a body; once one
 * finds no room, the rest of the tile is added in RELAX_BATCHES batches at
 * random positions, each followed by at most RELAX_SWEEPS sweeps that push
 * overlapping pairs apart to (r_a + r_b) (1 + PUSH_GAP). */
#define RSA_ATTEMPTS 100
#define RELAX_BATCHES 20
#define RELAX_SWEEPS 2000
#define PUSH_GAP 1e-3
/* Bodies keep their radius plus this relative hair from faces shared with
 * other tiles, so that rounding cannot bring two tiles' bodies into contact. */
#define FACE_HAIR 1e-9

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
  moreau_rng rng;
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

static void insert(tile *tl, int dim, int64_t i)
{
  int64_t c[3], id;
  cell_coords(tl, dim, &tl->x[3 * i], c);
  id = cell_id(tl, c);
  tl->next[i] = tl->head[id];
  tl->head[id] = i;
}

static void rebuild_cells(tile *tl, int dim, int64_t m)
{
  int64_t ncells = tl->ncell[0] * tl->ncell[1] * tl->ncell[2];
  for (int64_t c = 0; c < ncells; c++)
    tl->head[c] = -1;
  for (int64_t i = 0; i < m; i++)
    insert(tl, dim, i);
}

/* The cells around x (its own and the existing neighbours); cells are at
 * least 2 r_max wide, so any body that overlaps a body at x is in one of
 * them. Returns their number. */
static int cells_around(const tile *tl, int dim, const double *x, int64_t ids[27])
{
  int64_t c[3];
  int reach[3] = {1, 1, dim == 3 ? 1 : 0}, count = 0;
  cell_coords(tl, dim, x, c);
  for (int dz = -reach[2]; dz <= reach[2]; dz++)
    for (int dy = -reach[1]; dy <= reach[1]; dy++)
      for (int dx = -reach[0]; dx <= reach[0]; dx++) {
        int64_t n[3] = {c[0] + dx, c[1] + dy, c[2] + dz};
        int outside = 0;
        for (int k = 0; k < 3; k++)
          outside |= n[k] < 0 || n[k] >= tl->ncell[k];
        if (!outside) ids[count++] = cell_id(tl, n);
      }
  return count;
}

static int overlaps(const tile *tl, int dim, const double *x, double r)
{
  int64_t ids[27];
  int count = cells_around(tl, dim, x, ids);
  for (int c = 0; c < count; c++)
    for (int64_t j = tl->head[ids[c]]; j >= 0; j = tl->next[j]) {
      double d2 = 0.0, sum = r + tl->radius[j];
      for (int k = 0; k < dim; k++) {
        double d = x[k] - tl->x[3 * j + k];
        d2 += d * d;
      }
      if (d2 < sum * sum) return 1;
    }
  return 0;
}

static int by_decreasing_radius(const void *a, const void *b)
{
  double ra = *(const double *)a, rb = *(const double *)b;
  return (ra < rb) - (ra > rb);
}

/* Where the centre of a body of radius r may be: its radius from the box's
 * faces, and a hair more from faces shared with other tiles. */
static void centre_range(const moreau_gen_params *p, const tiling *tg, const tile *tl, double r, double a[3],
                         double b[3])
{
  for (int k = 0; k < tg->dim; k++) {
    a[k] = tl->index[k] == 0 ? p->lo[k] + r : tl->lo[k] + r * (1.0 + FACE_HAIR);
    b[k] = tl->index[k] == tg->count[k] - 1 ? p->hi[k] - r : tl->hi[k] - r * (1.0 + FACE_HAIR);
  }
}

static void random_position(const moreau_gen_params *p, const tiling *tg, tile *tl, int64_t i)
{
  double a[3], b[3], *x = &tl->x[3 * i];
  centre_range(p, tg, tl, tl->radius[i], a, b);
  x[0] = x[1] = x[2] = 0.0;
  for (int k = 0; k < tg->dim; k++)
    x[k] = a[k] + (b[k] - a[k]) * moreau_rng_uniform(&tl->rng);
}

static void clamp_position(const moreau_gen_params *p, const tiling *tg, tile *tl, int64_t i)
{
  double a[3], b[3], *x = &tl->x[3 * i];
  centre_range(p, tg, tl, tl->radius[i], a, b);
  for (int k = 0; k < tg->dim; k++)
    x[k] = fmin(fmax(x[k], a[k]), b[k]);
}

/* Pushes bodies i and j apart along their line of centres if they overlap
 * (along a random direction if the centres coincide); returns whether they
 * did. */
static int push_apart(const moreau_gen_params *p, const tiling *tg, tile *tl, int64_t i, int64_t j)
{
  int dim = tg->dim;
  double *xi = &tl->x[3 * i], *xj = &tl->x[3 * j], n[3] = {0.0, 0.0, 0.0}, d2 = 0.0, dist, norm2, shift;
  double sum = tl->radius[i] + tl->radius[j];
  for (int k = 0; k < dim; k++) {
    n[k] = xj[k] - xi[k];
    d2 += n[k] * n[k];
  }
  if (d2 >= sum * sum) return 0;
  dist = sqrt(d2);
  for (norm2 = d2; norm2 == 0.0;)
    for (int k = 0; k < dim; k++) {
      n[k] = 2.0 * moreau_rng_uniform(&tl->rng) - 1.0;
      norm2 += n[k] * n[k];
    }
  shift = 0.5 * (sum * (1.0 + PUSH_GAP) - dist) / sqrt(norm2);
  for (int k = 0; k < dim; k++) {
    xi[k] -= shift * n[k];
    xj[k] += shift * n[k];
  }
  clamp_position(p, tg, tl, i);
  clamp_position(p, tg, tl, j);
  return 1;
}

/* Gauss-Seidel sweeps over the pairs of the first m bodies until a sweep finds
 * no overlap (then none is left: nothing moved during that sweep, so the cells
 * were exact). Returns whether that happened within RELAX_SWEEPS. */
static int relax(const moreau_gen_params *p, const tiling *tg, tile *tl, int64_t m)
{
  int dim = tg->dim;
  for (int sweep = 0; sweep < RELAX_SWEEPS; sweep++) {
    int64_t pushed = 0;
    rebuild_cells(tl, dim, m);
    for (int64_t i = 0; i < m; i++) {
      int64_t ids[27];
      int count = cells_around(tl, dim, &tl->x[3 * i], ids);
      for (int c = 0; c < count; c++)
        for (int64_t j = tl->head[ids[c]]; j >= 0; j = tl->next[j])
          if (j > i) pushed += push_apart(p, tg, tl, i, j);
    }
    if (!pushed) return 1;
  }
  return 0;
}

/* Solid fraction of the tile filled by its first m bodies. */
static double tile_fraction(int dim, const tile *tl, int64_t m)
{
  double solid = 0.0, measure = 1.0;
  for (int64_t i = 0; i < m; i++)
    solid += moreau_gen_body_measure(dim, tl->radius[i]);
  for (int k = 0; k < dim; k++)
    measure *= tl->hi[k] - tl->lo[k];
  return solid / measure;
}

/* Places the tile's quota bodies, the largest first (they are the hardest to
 * place): random sequential addition while it finds room, then batches of
 * random positions relaxed apart. Returns MOREAU_ERR_INPUT when a batch cannot
 * be relaxed. */
static moreau_err fill_tile(const moreau_gen_params *p, const tiling *tg, int64_t t, tile *tl, int64_t quota)
{
  int dim = tg->dim;
  int64_t placed = 0, batch = (quota + RELAX_BATCHES - 1) / RELAX_BATCHES;
  moreau_rng_seed(&tl->rng, p->seed, (uint64_t)t);
  for (int64_t i = 0; i < quota; i++)
    tl->radius[i] = moreau_gen_draw_radius(p, &tl->rng);
  qsort(tl->radius, (size_t)quota, sizeof(double), by_decreasing_radius);
  rebuild_cells(tl, dim, 0);
  for (; placed < quota; placed++) {
    int attempt;
    for (attempt = 0; attempt < RSA_ATTEMPTS; attempt++) {
      random_position(p, tg, tl, placed);
      if (!overlaps(tl, dim, &tl->x[3 * placed], tl->radius[placed])) break;
    }
    if (attempt == RSA_ATTEMPTS) break;
    insert(tl, dim, placed);
  }
  while (placed < quota) {
    int64_t end = placed + batch < quota ? placed + batch : quota;
    for (int64_t i = placed; i < end; i++)
      random_position(p, tg, tl, i);
    if (!relax(p, tg, tl, end)) {
      if (p->fraction > 0.0)
        MOREAU_FAIL(MOREAU_ERR_INPUT,
                    "-gen_fraction %g: random placement reached a solid fraction of only %.3f of the %.3f a tile needs "
                    "(%lld of its %lld bodies); lower -gen_fraction",
                    p->fraction, tile_fraction(dim, tl, placed), tile_fraction(dim, tl, quota), (long long)placed,
                    (long long)quota);
      MOREAU_FAIL(MOREAU_ERR_INPUT,
                  "-gen_radius %g: random placement reached a solid fraction of only %.3f of the %.3f a tile needs "
                  "(%lld of its %lld bodies); use a smaller -gen_radius or -gen_n, or -gen_type lattice",
                  p->radius, tile_fraction(dim, tl, placed), tile_fraction(dim, tl, quota), (long long)placed,
                  (long long)quota);
    }
    placed = end;
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
    /* The same expression as the next tile's lo, so that they share the face bitwise. */
    tl->hi[k] =
        k < dim ? (tl->index[k] == tg->count[k] - 1 ? p->hi[k] : p->lo[k] + (double)(tl->index[k] + 1) * tg->width[k])
                : 0.0;
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
    MOREAU_CALL(fill_tile(p, tg, t, tl, quota));
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
