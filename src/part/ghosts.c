#include <math.h>

#include "moreau/log.h"
#include "part_private.h"

/* The ghost box is grown by a relative hair so that a pair whose gap is
 * below the cutoff by less than a rounding error is still covered. */
#define PART_GHOST_SLACK 1e-9

/* A ghost receives only what contacts and free velocities read of it. */
static void pack_ghost(const void *b, moreau_lid i, double *rec) { moreau_bodies_pack(b, MOREAU_FIELD_GHOST, i, rec); }

/* Records that owned body i goes to rank r, once per body and rank: the
 * pairs of body i so far are the list's tail from first (a handful, where a
 * per-rank stamp would be an array as long as the number of ranks). */
static moreau_err add_pair(moreau_lid i, int r, moreau_lid first, moreau_lid *n, moreau_lid *cap, int **rank,
                           moreau_lid **lid)
{
  for (moreau_lid k = first; k < *n; k++)
    if ((*rank)[k] == r) return MOREAU_SUCCESS;
  if (*n == *cap) {
    *cap = *cap ? 2 * *cap : 1024;
    MOREAU_CALL(moreau_realloc((size_t)*cap * sizeof(int), rank));
    MOREAU_CALL(moreau_realloc((size_t)*cap * sizeof(moreau_lid), lid));
  }
  (*rank)[*n] = r;
  (*lid)[*n] = i;
  (*n)++;
  return MOREAU_SUCCESS;
}

/* The pairs of body i (or its image at x) with the ranks whose RCB region
 * meets the box x +- reach. */
static moreau_err rcb_pairs(const moreau_part *part, moreau_lid i, const double *x, double reach, moreau_lid first,
                            moreau_lid *n, moreau_lid *cap, int **rank, moreau_lid **lid)
{
  double lo[3], hi[3];
  part_rcb_walk w;
  for (int d = 0; d < 3; d++) {
    lo[d] = x[d] - reach;
    hi[d] = x[d] + reach;
  }
  part_rcb_walk_start(part, &w);
  for (int r = part_rcb_walk_next(part, &w, lo, hi); r >= 0; r = part_rcb_walk_next(part, &w, lo, hi))
    if (r != part->rank) MOREAU_CALL(add_pair(i, r, first, n, cap, rank, lid));
  return MOREAU_SUCCESS;
}

/* (rank, lid) pairs: owned body lid is copied to rank when a cell of rank
 * (or its RCB region) lies within reach of the body or of one of its
 * periodic images (the ghost keeps its own position: detection finds the
 * image). Bodies are visited in gid order, so each rank's list is in gid
 * order. A rank that is its own periodic neighbour already holds the body. */
static moreau_err ghost_pairs(moreau_part *part, const moreau_bodies *b, double cutoff, moreau_lid *n_pairs, int **rank,
                              moreau_lid **lid)
{
  const part_grid *g = &part->grid;
  const moreau_lid *order;
  moreau_lid n = 0, cap = 0;
  int32_t stride[3] = {1, g->n[0], g->n[0] * g->n[1]};
  int mlo[3] = {0, 0, 0}, mhi[3] = {0, 0, 0}, periodic[3] = {0, 0, 0}, m[3];
  double box_lo[3], box_hi[3];
  if (part->domain) {
    moreau_domain_image_range(part->domain, mlo, mhi);
    moreau_domain_get_box(part->domain, box_lo, box_hi);
    for (int k = 0; k < 3; k++)
      periodic[k] = moreau_domain_is_periodic(part->domain, k);
  }
  *rank = NULL;
  *lid = NULL;
  MOREAU_CALL(part_gid_index(part, b, &order));
  for (moreau_lid k = 0; k < b->n_owned; k++) {
    moreau_lid i = order[k], first = n;
    double reach = (b->radius[i] + cutoff) * (1.0 + PART_GHOST_SLACK);
    for (m[2] = mlo[2]; m[2] <= mhi[2]; m[2]++)
      for (m[1] = mlo[1]; m[1] <= mhi[1]; m[1]++)
        for (m[0] = mlo[0]; m[0] <= mhi[0]; m[0]++) {
          double x[3], shift[3] = {0, 0, 0}, vshift[3];
          int lo[3], hi[3], miss = 0;
          if (part->domain) moreau_domain_image(part->domain, m, shift, vshift);
          /* Every body is inside the box along a periodic axis: an image
           * whose reach misses the box there touches nobody. */
          for (int d = 0; d < 3; d++) {
            x[d] = b->x[3 * i + d] + shift[d];
            miss |= periodic[d] && (x[d] + reach < box_lo[d] || x[d] - reach > box_hi[d]);
          }
          if (miss) continue;
          if (part->type == MOREAU_PART_RCB) {
            MOREAU_CALL(rcb_pairs(part, i, x, reach, first, &n, &cap, rank, lid));
            continue;
          }
          part_grid_range(g, x, reach, lo, hi);
          for (int c2 = lo[2]; c2 <= hi[2]; c2++)
            for (int c1 = lo[1]; c1 <= hi[1]; c1++)
              for (int c0 = lo[0]; c0 <= hi[0]; c0++) {
                int r = part->cell_rank[c0 + c1 * stride[1] + c2 * stride[2]];
                if (r != part->rank) MOREAU_CALL(add_pair(i, r, first, &n, &cap, rank, lid));
              }
        }
  }
  *n_pairs = n;
  return MOREAU_SUCCESS;
}

/* Ghosts from each owner are contiguous (they arrive grouped by source
 * rank), so the receive plan is one run per owner. */
static moreau_err receive_plan(moreau_part *part, const part_messages *in, int record)
{
  part_plan *p = &part->ghost_recv;
  moreau_lid g = 0;
  part_plan_free(p);
  p->n_rank = in->n;
  MOREAU_CALL(moreau_malloc((size_t)p->n_rank * sizeof(int), &p->rank));
  MOREAU_CALL(moreau_malloc(((size_t)p->n_rank + 1) * sizeof(int), &p->offset));
  MOREAU_CALL(moreau_malloc((size_t)part->n_ghost * sizeof(moreau_lid), &p->index));
  MOREAU_CALL(moreau_realloc((size_t)part->n_ghost * sizeof(int), &part->ghost_owner));
  p->offset[0] = 0;
  for (int k = 0; k < in->n; k++) {
    p->rank[k] = in->rank[k];
    p->offset[k + 1] = p->offset[k] + (int)((in->offset[k + 1] - in->offset[k]) / record);
    for (; g < p->offset[k + 1]; g++) {
      p->index[g] = g;
      part->ghost_owner[g] = in->rank[k];
    }
  }
  return MOREAU_SUCCESS;
}

moreau_err moreau_part_ghosts(moreau_part *part, moreau_bodies *b, double cutoff)
{
  int *pair_rank = NULL;
  moreau_lid *pair_lid = NULL, n_pairs = 0;
  part_messages out = {0}, in = {0};
  int64_t n_recv;
  int record = (int)moreau_bodies_record_doubles(MOREAU_FIELD_GHOST);
  MOREAU_CHECK(part->ready, MOREAU_ERR_INTERNAL, "moreau_part_ghosts called before moreau_part_setup");
  MOREAU_CHECK(cutoff >= 0.0 && isfinite(cutoff), MOREAU_ERR_INPUT, "ghost cutoff must be >= 0, got %g", cutoff);
  moreau_log_begin(MOREAU_EV_MIGRATE);
  part->iface_valid = 0;
  moreau_bodies_clear_ghosts(b);
  /* One rank holds every body and is its own periodic neighbour: no pairs. */
  if (part->size > 1) MOREAU_CALL(ghost_pairs(part, b, cutoff, &n_pairs, &pair_rank, &pair_lid));
  MOREAU_CALL(part_plan_from_pairs(&part->ghost_send, part->size, n_pairs, pair_rank, pair_lid));
  moreau_free(&pair_rank);
  moreau_free(&pair_lid);
  MOREAU_CALL(part_messages_from_plan(&part->ghost_send, record, b, pack_ghost, &out));
  MOREAU_CALL(part_sparse_exchange(part, &out, &in));
  part_messages_free(&out);
  n_recv = in.n ? in.offset[in.n] / record : 0;
  MOREAU_CHECK((int64_t)b->n_owned + n_recv <= INT32_MAX, MOREAU_ERR_RUNTIME, "ghosts: more than 2^31 local bodies");
  MOREAU_CALL(moreau_bodies_reserve(b, (moreau_lid)(b->n_owned + n_recv)));
  for (int64_t k = 0; k < n_recv; k++)
    MOREAU_CALL(moreau_bodies_push_record(b, 1, MOREAU_FIELD_GHOST, &in.data[k * record]));
  part->n_ghost = b->n_ghost;
  part->ghost_n_owned = b->n_owned;
  MOREAU_CALL(receive_plan(part, &in, record));
  part->ghosts_valid = 1;
  part_messages_free(&in);
  moreau_log_end(MOREAU_EV_MIGRATE);
  return MOREAU_SUCCESS;
}
