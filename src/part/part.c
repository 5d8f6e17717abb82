#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "part_private.h"

const moreau_option_spec moreau_part_options[] = {
    {"-part_type", "<rcb|metis|block>", "rcb",
     "split over the ranks: recursive coordinate bisection computed in parallel (no rank holds a cell map), METIS "
     "k-way on the cell graph (on rank 0), or weighted blocks of cells along the longest axis (on rank 0)"},
    {"-part_weight", "<count|time>", "count",
     "what a body weighs in a partition: 1 + its contacts, or that times its rank's measured sweep seconds per unit "
     "of work (relative to the mean; the imbalance is then measured in sweep seconds; not bitwise reproducible)"},
    {"-part_imbalance", "<real>", "1.2",
     "repartition when max/mean of per-rank work (owned bodies + contacts) exceeds this (>= 1)"},
    {"-part_cell_size", "<real>", "0", "edge of the partition cells; 0: twice the largest radius"},
    {"-part_renumber_every", "<int>", "100",
     "store the owned bodies along a Morton curve at setup, at every repartition and every this many steps (0: "
     "never, bodies stay in input order with migrants appended)"},
    {NULL, NULL, NULL, NULL}};

moreau_err moreau_part_create(MPI_Comm comm, moreau_part **part)
{
  moreau_part *p;
  MOREAU_CALL(moreau_calloc(1, sizeof(*p), &p));
  p->comm = comm;
  MOREAU_MPI_CALL(MPI_Comm_rank(comm, &p->rank));
  MOREAU_MPI_CALL(MPI_Comm_size(comm, &p->size));
  p->type = MOREAU_PART_RCB;
  p->threshold = 1.2;
  p->renumber_every = 100;
  p->stats.imbalance = 1.0;
  p->iface_split = 1.0;
  p->wall_request = MPI_REQUEST_NULL;
  p->carry_type = MPI_DATATYPE_NULL;
  *part = p;
  return MOREAU_SUCCESS;
}

moreau_err moreau_part_destroy(moreau_part **part)
{
  moreau_part *p = *part;
  if (!p) return MOREAU_SUCCESS;
  moreau_free(&p->cell_rank);
  moreau_free(&p->rcb_cut);
  moreau_free(&p->rcb_axis);
  moreau_free(&p->ghost_owner);
  moreau_free(&p->gid_order);
  part_plan_free(&p->ghost_send);
  part_plan_free(&p->ghost_recv);
  part_interface_free(p);
  part_wall_free(p);
  moreau_free(part);
  return MOREAU_SUCCESS;
}

moreau_err moreau_part_set_from_options(moreau_part *part)
{
  static const char *const types[] = {"metis", "block", "rcb", NULL};
  static const moreau_part_type type_of[] = {MOREAU_PART_METIS, MOREAU_PART_BLOCK, MOREAU_PART_RCB};
  static const char *const weights[] = {"count", "time", NULL};
  int weight;
  int type;
  double threshold, h;
  int64_t every;
  MOREAU_CALL(moreau_option_enum("-part_type", types, &type));
  MOREAU_CALL(moreau_option_enum("-part_weight", weights, &weight));
  MOREAU_CALL(moreau_option_real("-part_imbalance", &threshold));
  MOREAU_CALL(moreau_option_real("-part_cell_size", &h));
  MOREAU_CHECK(threshold >= 1.0, MOREAU_ERR_INPUT, "-part_imbalance must be >= 1 (max/mean of work), got %g",
               threshold);
  MOREAU_CHECK(h >= 0.0, MOREAU_ERR_INPUT, "-part_cell_size must be >= 0 (0: automatic), got %g", h);
  MOREAU_CALL(moreau_option_int("-part_renumber_every", &every));
  MOREAU_CHECK(every >= 0 && every <= INT32_MAX, MOREAU_ERR_INPUT,
               "-part_renumber_every must be >= 0 (0: never), got %" PRId64, every);
  part->type = type_of[type];
  part->weight = weight ? MOREAU_PART_WEIGHT_TIME : MOREAU_PART_WEIGHT_COUNT;
  part->threshold = threshold;
  part->cell_size_option = h;
  part->renumber_every = (int)every;
  return MOREAU_SUCCESS;
}

void moreau_part_set_domain(moreau_part *part, const moreau_domain *domain) { part->domain = domain; }

void moreau_part_set_type(moreau_part *part, moreau_part_type type) { part->type = type; }

void moreau_part_set_imbalance(moreau_part *part, double threshold) { part->threshold = threshold; }

void moreau_part_set_weight(moreau_part *part, moreau_part_weight weight) { part->weight = weight; }

void moreau_part_add_sweep_time(moreau_part *part, double seconds)
{
  if (seconds > 0.0 && isfinite(seconds)) part->sweep_seconds += seconds;
}

void moreau_part_set_renumber_every(moreau_part *part, int every) { part->renumber_every = every > 0 ? every : 0; }

void moreau_part_set_cell_size(moreau_part *part, double h) { part->cell_size_option = h > 0.0 ? h : 0.0; }

int moreau_part_ghost_owner(const moreau_part *part, moreau_lid i) { return part->ghost_owner[i]; }

void moreau_part_get_stats(const moreau_part *part, moreau_part_stats *stats) { *stats = part->stats; }

int moreau_part_rank_of_point(const moreau_part *part, const double x[3]) { return part_owner(part, x); }

void moreau_part_get_map(const moreau_part *part, moreau_part_map *map)
{
  map->type = part->type;
  memcpy(map->lo, part->grid.lo, sizeof(map->lo));
  map->h = part->grid.h;
  memcpy(map->n, part->grid.n, sizeof(map->n));
  map->ncells = part->grid.ncells;
  map->nranks = part->size;
  map->cell_rank = part->type == MOREAU_PART_RCB ? NULL : part->cell_rank;
  map->rcb_cut = part->type == MOREAU_PART_RCB ? part->rcb_cut : NULL;
  map->rcb_axis = part->type == MOREAU_PART_RCB ? part->rcb_axis : NULL;
  map->repartitions = part->stats.repartitions;
}

static moreau_err check_map(const moreau_part *part, const moreau_part_map *map)
{
  int64_t cells = 1;
  for (int k = 0; k < 3; k++) {
    MOREAU_CHECK(map->n[k] >= 1, MOREAU_ERR_INPUT, "partition map: %d cells along axis %d", map->n[k], k);
    cells *= map->n[k];
  }
  MOREAU_CHECK(cells == map->ncells && map->h > 0 && isfinite(map->h), MOREAU_ERR_INPUT,
               "partition map: inconsistent grid (%lld cells for %d x %d x %d, edge %g)", (long long)map->ncells,
               map->n[0], map->n[1], map->n[2], map->h);
  if (map->type == MOREAU_PART_RCB) {
    for (int m = 1; m < part->size; m++)
      MOREAU_CHECK(map->rcb_axis[m] >= 0 && map->rcb_axis[m] < 3 && isfinite(map->rcb_cut[m]), MOREAU_ERR_INPUT,
                   "partition map: cut %d along axis %d at %g", m, map->rcb_axis[m], map->rcb_cut[m]);
    return MOREAU_SUCCESS;
  }
  for (int32_t c = 0; c < map->ncells; c++)
    MOREAU_CHECK(map->cell_rank[c] >= 0 && map->cell_rank[c] < part->size, MOREAU_ERR_INPUT,
                 "partition map: cell %d owned by rank %d of %d", (int)c, map->cell_rank[c], part->size);
  return MOREAU_SUCCESS;
}

/* A map of another kind than the one asked for now is ignored like one for
 * another rank count. */
moreau_err moreau_part_set_map(moreau_part *part, const moreau_part_map *map)
{
  if (map->nranks != part->size || map->type != part->type) return MOREAU_SUCCESS;
  MOREAU_CALL(check_map(part, map));
  if (map->type == MOREAU_PART_RCB) {
    MOREAU_CALL(moreau_realloc((size_t)part->size * sizeof(double), &part->rcb_cut));
    MOREAU_CALL(moreau_realloc((size_t)part->size * sizeof(int), &part->rcb_axis));
    memcpy(part->rcb_cut, map->rcb_cut, (size_t)part->size * sizeof(double));
    memcpy(part->rcb_axis, map->rcb_axis, (size_t)part->size * sizeof(int));
    part->rcb_cut[0] = 0.0;
    part->rcb_axis[0] = 0;
  } else {
    MOREAU_CALL(moreau_realloc((size_t)map->ncells * sizeof(int), &part->cell_rank));
    memcpy(part->cell_rank, map->cell_rank, (size_t)map->ncells * sizeof(int));
  }
  memcpy(part->grid.lo, map->lo, sizeof(map->lo));
  part->grid.h = map->h;
  memcpy(part->grid.n, map->n, sizeof(map->n));
  part->grid.ncells = map->ncells;
  part->stats.repartitions = map->repartitions;
  part->map_given = 1;
  return MOREAU_SUCCESS;
}

void moreau_part_get_grid(const moreau_part *part, double lo[3], double *h, int n[3], const int **cell_rank)
{
  memcpy(lo, part->grid.lo, sizeof(part->grid.lo));
  *h = part->grid.h;
  memcpy(n, part->grid.n, sizeof(part->grid.n));
  *cell_rank = part->cell_rank;
}
