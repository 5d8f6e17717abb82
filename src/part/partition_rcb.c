#include <math.h>

#include "part_private.h"

/* Recursive coordinate bisection, level by level over the whole tree: the
 * ranks [r0, r1) of a node are split at m = r0 + (r1 - r0) / 2 by a cut
 * across the node's longest side that leaves (m - r0) / (r1 - r0) of its
 * weight below. Every rank bins its own bodies; the bins of all nodes of a
 * level travel in one reduction, and each pass narrows every cut to one bin
 * of the last: RCB_PASSES passes of RCB_BINS bins place a cut within
 * 1 / RCB_BINS^RCB_PASSES of its side, far below a body. No body moves and
 * no rank holds more than its bodies, one level's bins and the P - 1 cuts;
 * the weights are integers, so the sums and the cuts are the same bits
 * whichever rank holds which body, in whatever order. */
#define RCB_BINS 64
#define RCB_PASSES 3
/* Per node and pass: the weight below the window, in each bin, above it. */
#define RCB_SLOTS (RCB_BINS + 2)

typedef struct {
  int r0, r1, axis;
  double lo[3], hi[3]; /* the node's region, closed by the bodies' box */
  double a, b;         /* the window the cut is in, along axis */
  int64_t total;       /* the node's weight */
} rcb_node;

/* The root's region: the box of all centres, and along a periodic axis the
 * period (bodies are wrapped into it). */
static moreau_err root_node(moreau_part *part, const moreau_bodies *b, rcb_node *root)
{
  double local[6], global[6], box_lo[3], box_hi[3];
  for (int k = 0; k < 6; k++)
    local[k] = HUGE_VAL;
  for (moreau_lid i = 0; i < b->n_owned; i++)
    for (int k = 0; k < 3; k++) {
      local[k] = fmin(local[k], b->x[3 * i + k]);
      local[3 + k] = fmin(local[3 + k], -b->x[3 * i + k]);
    }
  MOREAU_MPI_CALL(MPI_Allreduce(local, global, 6, MPI_DOUBLE, MPI_MIN, part->comm));
  if (part->domain && moreau_domain_any_periodic(part->domain)) moreau_domain_get_box(part->domain, box_lo, box_hi);
  *root = (rcb_node){.r0 = 0, .r1 = part->size};
  for (int k = 0; k < 3; k++) {
    root->lo[k] = global[k] == HUGE_VAL ? 0.0 : global[k];
    root->hi[k] = global[k] == HUGE_VAL ? 0.0 : -global[3 + k];
    if (part->domain && moreau_domain_is_periodic(part->domain, k)) {
      root->lo[k] = box_lo[k];
      root->hi[k] = box_hi[k];
    }
  }
  return MOREAU_SUCCESS;
}

/* Bin k of the window [a, b) holds [a + k (b - a) / BINS, a + (k + 1) (b - a) / BINS). */
static double bin_edge(const rcb_node *nd, int k)
{
  return k == RCB_BINS ? nd->b : nd->a + (nd->b - nd->a) * k / RCB_BINS;
}

static void bin_bodies(const rcb_node *nodes, const moreau_bodies *b, const int *node_of, const int64_t *w,
                       int64_t *bins)
{
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    if (node_of[i] < 0) continue;
    const rcb_node *nd = &nodes[node_of[i]];
    double x = b->x[3 * i + nd->axis];
    int64_t *s = &bins[(size_t)node_of[i] * RCB_SLOTS];
    if (!(x >= nd->a))
      s[0] += w[i];
    else if (!(x < nd->b))
      s[RCB_SLOTS - 1] += w[i];
    else {
      int k = (int)((x - nd->a) / (nd->b - nd->a) * RCB_BINS);
      s[1 + (k < 0 ? 0 : (k >= RCB_BINS ? RCB_BINS - 1 : k))] += w[i];
    }
  }
}

/* Narrows the node's window to the bin where the weight below reaches the
 * target; on the last pass, sets the cut to whichever edge of that bin
 * leaves the weight below nearer the target. */
static void narrow(moreau_part *part, rcb_node *nd, const int64_t *s, int first, int last)
{
  int m = part_rcb_middle(nd->r0, nd->r1), k = 0;
  int64_t below = s[0];
  double target;
  if (first) {
    nd->total = 0;
    for (int j = 0; j < RCB_SLOTS; j++)
      nd->total += s[j];
  }
  target = (double)nd->total * (m - nd->r0) / (nd->r1 - nd->r0);
  while (k < RCB_BINS && (double)(below + s[1 + k]) <= target)
    below += s[1 + k++];
  if (k == RCB_BINS) { /* everything in the window is below the target */
    nd->a = nd->b;
  } else {
    double lo = bin_edge(nd, k), hi = bin_edge(nd, k + 1);
    nd->a = lo;
    nd->b = hi;
    if (last && target - (double)below > (double)(below + s[1 + k]) - target) nd->a = hi;
  }
  if (last) {
    part->rcb_cut[m] = nd->a;
    part->rcb_axis[m] = nd->axis;
  }
}

static int longest_axis(const rcb_node *nd, int dim)
{
  int axis = 0;
  for (int k = 1; k < dim; k++)
    if (nd->hi[k] - nd->lo[k] > nd->hi[axis] - nd->lo[axis]) axis = k;
  return axis;
}

/* The children of each node with at least two ranks become the next
 * level's nodes; child[2 j] (below the cut) and child[2 j + 1] are their
 * indices there, or -1. */
static int next_level(int dim, const rcb_node *nodes, int n, const double *cut, rcb_node *next, int *child)
{
  int n_next = 0;
  for (int j = 0; j < n; j++) {
    const rcb_node *nd = &nodes[j];
    int m = part_rcb_middle(nd->r0, nd->r1);
    rcb_node kids[2] = {*nd, *nd};
    kids[0].r1 = m;
    kids[0].hi[nd->axis] = cut[m];
    kids[1].r0 = m;
    kids[1].lo[nd->axis] = cut[m];
    for (int s = 0; s < 2; s++) {
      child[2 * j + s] = -1;
      if (kids[s].r1 - kids[s].r0 < 2) continue;
      kids[s].axis = longest_axis(&kids[s], dim);
      child[2 * j + s] = n_next;
      next[n_next++] = kids[s];
    }
  }
  return n_next;
}

/* nodes and next have room for a level (at most size / 2 nodes), child for
 * two per node, bins for RCB_SLOTS per node. */
static moreau_err bisect(moreau_part *part, const moreau_bodies *b, const int64_t *w, rcb_node *nodes, rcb_node *next,
                         int *node_of, int *child, int64_t *bins)
{
  int n = 1, dim = part->grid.dim;
  MOREAU_CALL(root_node(part, b, &nodes[0]));
  nodes[0].axis = longest_axis(&nodes[0], dim);
  for (moreau_lid i = 0; i < b->n_owned; i++)
    node_of[i] = 0;
  while (n > 0) {
    int n_next;
    for (int j = 0; j < n; j++) {
      nodes[j].a = nodes[j].lo[nodes[j].axis];
      nodes[j].b = nodes[j].hi[nodes[j].axis];
    }
    for (int pass = 0; pass < RCB_PASSES; pass++) {
      for (size_t k = 0; k < (size_t)n * RCB_SLOTS; k++)
        bins[k] = 0;
      bin_bodies(nodes, b, node_of, w, bins);
      MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, bins, n * RCB_SLOTS, MPI_INT64_T, MPI_SUM, part->comm));
      for (int j = 0; j < n; j++)
        narrow(part, &nodes[j], &bins[(size_t)j * RCB_SLOTS], pass == 0, pass == RCB_PASSES - 1);
    }
    n_next = next_level(dim, nodes, n, part->rcb_cut, next, child);
    for (moreau_lid i = 0; i < b->n_owned; i++) {
      if (node_of[i] < 0) continue;
      const rcb_node *nd = &nodes[node_of[i]];
      int m = part_rcb_middle(nd->r0, nd->r1);
      node_of[i] = child[2 * node_of[i] + !(b->x[3 * i + nd->axis] < part->rcb_cut[m])];
    }
    for (int j = 0; j < n_next; j++)
      nodes[j] = next[j];
    n = n_next;
  }
  return MOREAU_SUCCESS;
}

moreau_err part_partition_rcb(moreau_part *part, const moreau_bodies *b, const moreau_contacts *history)
{
  size_t level = (size_t)part->size / 2 + 1;
  int64_t *w = NULL, *bins = NULL;
  int *node_of = NULL, *child = NULL;
  rcb_node *nodes = NULL, *next = NULL;
  moreau_err err;
  /* Every allocation is agreed on before the first collective. */
  err = moreau_realloc((size_t)part->size * sizeof(double), &part->rcb_cut);
  if (!err) err = moreau_realloc((size_t)part->size * sizeof(int), &part->rcb_axis);
  if (!err) err = moreau_malloc(((size_t)b->n_owned + 1) * sizeof(int64_t), &w);
  if (!err) err = moreau_malloc(((size_t)b->n_owned + 1) * sizeof(int), &node_of);
  if (!err) err = moreau_malloc(2 * level * sizeof(int), &child);
  if (!err) err = moreau_malloc(level * RCB_SLOTS * sizeof(int64_t), &bins);
  if (!err) err = moreau_malloc(level * sizeof(rcb_node), &nodes);
  if (!err) err = moreau_malloc(level * sizeof(rcb_node), &next);
  err = moreau_error_agree(part->comm, err);
  if (!err) {
    part->rcb_cut[0] = 0.0;
    part->rcb_axis[0] = 0;
    err = part_body_weights(part, b, history, w);
  }
  if (!err && part->size > 1) err = bisect(part, b, w, nodes, next, node_of, child, bins);
  moreau_free(&w);
  moreau_free(&node_of);
  moreau_free(&child);
  moreau_free(&bins);
  moreau_free(&nodes);
  moreau_free(&next);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}
