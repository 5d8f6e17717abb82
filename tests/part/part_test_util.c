#include "part_test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "moreau/rng.h"
#include "moreau/types.h"

long part_test_sum(long v)
{
  long total = 0;
  MPI_Allreduce(&v, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

double part_test_sum_double(double v)
{
  double total = 0;
  MPI_Allreduce(&v, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

double part_test_max(double v)
{
  double m = 0;
  MPI_Allreduce(&v, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return m;
}

void part_test_body(const part_test_scene *s, moreau_gid gid, moreau_body *body)
{
  moreau_rng rng;
  moreau_rng_seed(&rng, s->seed, (uint64_t)gid);
  memset(body, 0, sizeof(*body));
  body->gid = gid;
  for (int k = 0; k < s->dim; k++)
    body->x[k] = s->side * moreau_rng_uniform(&rng);
  body->radius = s->rmin + (s->rmax - s->rmin) * moreau_rng_uniform(&rng);
  for (int k = 0; k < s->dim; k++)
    body->v[k] = (double)(gid % 97) - 48.0 + k;
  body->w[2] = 0.5 * (double)(gid % 13);
  moreau_body_set_mass(body, s->dim, 1.0);
}

static int start_rank(const part_test_scene *s, part_test_layout layout, moreau_gid gid, int size)
{
  uint64_t h = (uint64_t)gid * 0x9e3779b97f4a7c15ULL;
  switch (layout) {
  case PT_ON_ROOT:
    return 0;
  case PT_SLABS:
    return (int)(((gid - 1) * size) / s->n);
  case PT_RANDOM_RANKS:
    return (int)((h >> 33) % (uint64_t)size);
  }
  return 0;
}

moreau_err part_test_make_bodies(const part_test_scene *s, part_test_layout layout, moreau_bodies **b)
{
  int rank, size;
  moreau_body body;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MOREAU_CALL(moreau_bodies_create(MPI_COMM_WORLD, s->dim, b));
  /* Random layouts also start unsorted (descending gids), as input read
   * from a file may. */
  for (moreau_gid k = 1; k <= s->n; k++) {
    moreau_gid gid = layout == PT_RANDOM_RANKS ? s->n + 1 - k : k;
    if (start_rank(s, layout, gid, size) != rank) continue;
    part_test_body(s, gid, &body);
    MOREAU_CALL(moreau_bodies_push_owned(*b, &body));
  }
  return MOREAU_SUCCESS;
}

void part_test_force(moreau_gid ga, moreau_gid gb, int32_t point, double *force)
{
  force[0] = (double)(ga % 1009) + 0.25 * point;
  force[1] = -(double)(gb % 1013);
  force[2] = 0.125 * (double)(ga % 7);
}

static moreau_err push_entry(moreau_contacts *h, moreau_gid ga, moreau_gid gb, int32_t point)
{
  moreau_lid i;
  MOREAU_CALL(moreau_contacts_push(h, ga, gb, point, -1, -1, &i));
  part_test_force(ga, gb, point, &h->force[3 * i]);
  return MOREAU_SUCCESS;
}

moreau_err part_test_make_history(const moreau_bodies *b, int shift, moreau_contacts **h)
{
  int rank, size, n_in = 0, n_out = b->n_owned;
  moreau_gid *gids;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MOREAU_CALL(moreau_contacts_create(0, h));
  if (shift) {
    int to = (rank + shift) % size, from = (rank - shift % size + size) % size;
    MPI_Sendrecv(&n_out, 1, MPI_INT, to, 1, &n_in, 1, MPI_INT, from, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MOREAU_CALL(moreau_malloc((size_t)n_in * sizeof(moreau_gid), &gids));
    MPI_Sendrecv(b->gid, n_out, MOREAU_GID_MPI, to, 2, gids, n_in, MOREAU_GID_MPI, from, 2, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
  } else {
    n_in = n_out;
    MOREAU_CALL(moreau_malloc((size_t)n_in * sizeof(moreau_gid), &gids));
    if (n_in) memcpy(gids, b->gid, (size_t)n_in * sizeof(moreau_gid));
  }
  for (int k = 0; k < n_in; k++) {
    MOREAU_CALL(push_entry(*h, gids[k], gids[k] + 1, 0));
    MOREAU_CALL(push_entry(*h, gids[k], MOREAU_WALL_GID(0), 1));
  }
  moreau_free(&gids);
  return MOREAU_SUCCESS;
}

/* RCB: the documented map read by hand (moreau_part_map): descend from the
 * ranks [0, P), below the cut m = r0 + (r1 - r0) / 2 to [r0, m), else to
 * [m, r1). */
static int rcb_owner_of(const moreau_part_map *map, const double *x)
{
  int r0 = 0, r1 = map->nranks;
  while (r1 - r0 > 1) {
    int m = r0 + (r1 - r0) / 2;
    if (x[map->rcb_axis[m]] < map->rcb_cut[m])
      r1 = m;
    else
      r0 = m;
  }
  return r0;
}

int part_test_owner_of(const moreau_part *part, const double *x)
{
  double lo[3], h;
  int n[3], cell = 0;
  const int *cell_rank;
  moreau_part_map map;
  moreau_part_get_map(part, &map);
  if (map.type == MOREAU_PART_RCB) return rcb_owner_of(&map, x);
  moreau_part_get_grid(part, lo, &h, n, &cell_rank);
  for (int k = 2; k >= 0; k--) {
    double t = floor((x[k] - lo[k]) / h);
    int i = t < 0 ? 0 : (t > n[k] - 1 ? n[k] - 1 : (int)t);
    if (n[k] == 1) i = 0;
    cell = cell * n[k] + i;
  }
  return cell_rank[cell];
}

long part_test_maps_differ(const moreau_part *a, const moreau_part *b)
{
  moreau_part_map x, y;
  moreau_part_get_map(a, &x);
  moreau_part_get_map(b, &y);
  if (x.type != y.type || x.nranks != y.nranks || memcmp(x.lo, y.lo, sizeof(x.lo)) || x.h != y.h ||
      memcmp(x.n, y.n, sizeof(x.n)))
    return 1;
  if (x.type == MOREAU_PART_RCB)
    return memcmp(x.rcb_cut + 1, y.rcb_cut + 1, (size_t)(x.nranks - 1) * sizeof(double)) != 0 ||
           memcmp(x.rcb_axis + 1, y.rcb_axis + 1, (size_t)(x.nranks - 1) * sizeof(int)) != 0;
  return memcmp(x.cell_rank, y.cell_rank, (size_t)x.ncells * sizeof(int)) != 0;
}

long part_test_map_as_root(const moreau_part *part)
{
  moreau_part_map map;
  int rank, nbytes;
  char *mine, *root;
  long bad;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  moreau_part_get_map(part, &map);
  /* The map's content as bytes: the grid, then the cuts or the cells. */
  if (map.type == MOREAU_PART_RCB)
    nbytes = (int)(sizeof(map.lo) + sizeof(map.h) + (size_t)(map.nranks - 1) * (sizeof(double) + sizeof(int)));
  else
    nbytes = (int)(sizeof(map.lo) + sizeof(map.h) + (size_t)map.ncells * sizeof(int));
  mine = malloc((size_t)nbytes);
  root = malloc((size_t)nbytes);
  memcpy(mine, map.lo, sizeof(map.lo));
  memcpy(mine + sizeof(map.lo), &map.h, sizeof(map.h));
  if (map.type == MOREAU_PART_RCB) {
    char *p = mine + sizeof(map.lo) + sizeof(map.h);
    memcpy(p, map.rcb_cut + 1, (size_t)(map.nranks - 1) * sizeof(double));
    memcpy(p + (size_t)(map.nranks - 1) * sizeof(double), map.rcb_axis + 1, (size_t)(map.nranks - 1) * sizeof(int));
  } else {
    memcpy(mine + sizeof(map.lo) + sizeof(map.h), map.cell_rank, (size_t)map.ncells * sizeof(int));
  }
  if (rank == 0) memcpy(root, mine, (size_t)nbytes);
  MPI_Bcast(root, nbytes, MPI_BYTE, 0, MPI_COMM_WORLD);
  bad = memcmp(root, mine, (size_t)nbytes) != 0;
  free(mine);
  free(root);
  return bad;
}

static int cmp_gid(const void *pa, const void *pb)
{
  moreau_gid a = *(const moreau_gid *)pa, b = *(const moreau_gid *)pb;
  return (a > b) - (a < b);
}

/* The owned gids, sorted (the bodies themselves are in Morton order). */
static moreau_gid *sorted_gids(const moreau_bodies *b)
{
  moreau_gid *g = malloc((size_t)b->n_owned * sizeof(*g) + 1);
  /* A rank may own nothing, and its gid array may then be NULL. */
  if (b->n_owned == 0) return g;
  memcpy(g, b->gid, (size_t)b->n_owned * sizeof(*g));
  qsort(g, (size_t)b->n_owned, sizeof(*g), cmp_gid);
  return g;
}

long part_test_check_ownership(const moreau_part *part, const moreau_bodies *b)
{
  int rank;
  long bad = 0;
  moreau_gid *g = sorted_gids(b);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    if (i > 0 && g[i] == g[i - 1]) bad++;
    if (part_test_owner_of(part, &b->x[3 * i]) != rank) bad++;
  }
  free(g);
  return bad;
}

long part_test_check_history(const moreau_bodies *b, const moreau_contacts *h)
{
  long bad = 0;
  moreau_gid *g = sorted_gids(b);
  for (moreau_lid j = 0; j < h->n; j++) {
    double f[3];
    if (!bsearch(&h->gid_a[j], g, (size_t)b->n_owned, sizeof(*g), cmp_gid)) bad++;
    part_test_force(h->gid_a[j], h->gid_b[j], h->point[j], f);
    if (memcmp(f, &h->force[3 * j], sizeof(f)) != 0) bad++;
    if (j > 0) {
      int order = h->gid_a[j - 1] != h->gid_a[j]   ? (h->gid_a[j - 1] < h->gid_a[j] ? -1 : 1)
                  : h->gid_b[j - 1] != h->gid_b[j] ? (h->gid_b[j - 1] < h->gid_b[j] ? -1 : 1)
                                                   : (h->point[j - 1] > h->point[j]) - (h->point[j - 1] < h->point[j]);
      if (order >= 0) bad++;
    }
  }
  free(g);
  return bad;
}

void part_test_gather(const double *rec, int n, int width, double **all, int **counts)
{
  int rank, size, *displ = NULL, *nd = NULL;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  *all = NULL;
  *counts = NULL;
  if (rank == 0) {
    *counts = malloc((size_t)size * sizeof(int));
    displ = malloc((size_t)size * sizeof(int));
    nd = malloc((size_t)size * sizeof(int));
  }
  MPI_Gather(&n, 1, MPI_INT, *counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    int total = 0;
    for (int r = 0; r < size; r++) {
      nd[r] = (*counts)[r] * width;
      displ[r] = total;
      total += nd[r];
    }
    *all = malloc((size_t)total * sizeof(double) + 1);
  }
  MPI_Gatherv(rec, n * width, MPI_DOUBLE, *all, nd, displ, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  free(displ);
  free(nd);
}

double part_test_gid_to_double(moreau_gid gid)
{
  double d;
  memcpy(&d, &gid, sizeof(d));
  return d;
}

moreau_gid part_test_double_to_gid(double d)
{
  moreau_gid gid;
  memcpy(&gid, &d, sizeof(gid));
  return gid;
}

int part_test_run(Suite *s)
{
  int rank, failed, any;
  SRunner *sr = srunner_create(s);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  srunner_run_all(sr, rank == 0 ? CK_NORMAL : CK_SILENT);
  failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return any ? 1 : 0;
}
