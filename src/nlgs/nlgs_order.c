#include <math.h>
#include <string.h>

#include "moreau/morton.h"
#include "nlgs_private.h"

/* Bits per axis of the Morton key: 2^31 positions along each axis in 2D,
 * 2^21 in 3D, far finer than a body whatever the size of the packing, so
 * that consecutive keys are neighbours in space. */
#define ORDER_BITS(dim) ((dim) == 2 ? 31 : 21)

/* How many runs ahead the curve's keys prefetch their body's position. */
enum { ORDER_AHEAD = 16 };

/* k, k + 1, ..., k + len - 1: contacts of the same key (len fills what
 * would be padding). */
typedef struct {
  uint64_t key;
  moreau_lid k, len;
} keyed_contact;

/* Sorts keyed[0..n) by key, equal keys in the order they come in (the
 * contacts' order, as qsort by key and index had it), with tmp as room for n
 * more: a least-significant-digit radix sort, one stable pass a digit of 11
 * bits (six for 64-bit keys, with the counts of all six taken in one read),
 * passes over a digit that all keys share skipped. On the 3D bed (3.3e4
 * contacts) qsort's comparisons took 6-18 ms a solve, eight passes of a byte
 * 3-4 ms: a step of 50 sweeps there takes some 125 ms (benchmarks/README.md,
 * the layers order). */
enum { SORT_DIGIT = 11, SORT_BUCKETS = 1 << SORT_DIGIT, SORT_PASSES = (64 + SORT_DIGIT - 1) / SORT_DIGIT };

static keyed_contact *sort_by_key(keyed_contact *keyed, keyed_contact *tmp, moreau_lid n, moreau_lid *count)
{
  memset(count, 0, SORT_PASSES * SORT_BUCKETS * sizeof(*count));
  for (moreau_lid i = 0; i < n; i++)
    for (int p = 0; p < SORT_PASSES; p++)
      count[p * SORT_BUCKETS + ((keyed[i].key >> (p * SORT_DIGIT)) & (SORT_BUCKETS - 1))]++;
  for (int p = 0; p < SORT_PASSES; p++) {
    moreau_lid *at = count + p * SORT_BUCKETS;
    const int shift = p * SORT_DIGIT;
    if (at[(keyed[0].key >> shift) & (SORT_BUCKETS - 1)] == n) continue;
    for (moreau_lid d = 0, sum = 0; d < SORT_BUCKETS; d++) {
      const moreau_lid m = at[d];
      at[d] = sum;
      sum += m;
    }
    for (moreau_lid i = 0; i < n; i++)
      tmp[at[(keyed[i].key >> shift) & (SORT_BUCKETS - 1)]++] = keyed[i];
    keyed_contact *t = keyed;
    keyed = tmp;
    tmp = t;
  }
  return keyed;
}

/* The height order of the layers: keys that grow with the contact point's
 * position along down (the highest contact first), on 2^53 steps between
 * the extremes. */
static double contact_depth(const moreau_nlgs *s, const moreau_contacts *c, const moreau_bodies *b, moreau_lid k)
{
  const double *x = &b->x[3 * c->a[k]];
  double ca[3], cb[3];
  moreau_contacts_arms(c, b, k, ca, cb);
  return (x[0] + ca[0]) * s->down[0] + (x[1] + ca[1]) * s->down[1] + (x[2] + ca[2]) * s->down[2];
}

static void height_keys(const moreau_nlgs *s, const moreau_contacts *c, const moreau_bodies *b, keyed_contact *keyed)
{
  double lo = 0.0, hi = 0.0;
  for (moreau_lid k = 0; k < c->n; k++) {
    double h = contact_depth(s, c, b, k);
    if (k == 0 || h < lo) lo = h;
    if (k == 0 || h > hi) hi = h;
  }
  const double scale = hi > lo ? 9007199254740992.0 / (hi - lo) : 0.0;
  for (moreau_lid k = 0; k < c->n; k++)
    keyed[k] = (keyed_contact){(uint64_t)((contact_depth(s, c, b, k) - lo) * scale), k, 1};
}

/* The blocks' curve order: Morton keys of a's position over the cube that
 * holds the contacts' bodies a, one a run of consecutive contacts of the
 * same body a (k: the run's first contact; detection lists a body's
 * contacts together). Returns the number of runs. */
static moreau_lid curve_keys(const moreau_nlgs *s, const moreau_contacts *c, const moreau_bodies *b,
                             keyed_contact *keyed)
{
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, edge = 0.0;
  moreau_lid runs = 0;
  for (moreau_lid k = 0; k < c->n; k++)
    if (k == 0 || c->a[k] != c->a[k - 1])
      keyed[runs++] = (keyed_contact){0, k, 1};
    else
      keyed[runs - 1].len++;
  /* The runs follow the keys (gids), the bodies are stored along the
   * partition's curve: each position is a miss, which these loops
   * prefetch ahead of. */
  for (moreau_lid r = 0; r < runs; r++) {
    if (r + ORDER_AHEAD < runs) __builtin_prefetch(&b->x[3 * c->a[keyed[r + ORDER_AHEAD].k]], 0, 3);
    for (int d = 0; d < s->dim; d++) {
      double x = b->x[3 * c->a[keyed[r].k] + d];
      if (r == 0 || x < lo[d]) lo[d] = x;
      if (r == 0 || x > hi[d]) hi[d] = x;
    }
  }
  for (int d = 0; d < s->dim; d++)
    edge = fmax(edge, hi[d] - lo[d]);
  for (moreau_lid r = 0; r < runs; r++) {
    if (r + ORDER_AHEAD < runs) __builtin_prefetch(&b->x[3 * c->a[keyed[r + ORDER_AHEAD].k]], 0, 3);
    keyed[r].key = moreau_morton_key(&b->x[3 * c->a[keyed[r].k]], lo, edge, s->dim, ORDER_BITS(s->dim));
  }
  return runs;
}

/* Sorting runs, not contacts, gives the contacts in the same order: the
 * contacts of a run share their key and are in index order, as the runs
 * are. */
moreau_err nlgs_contact_order(moreau_nlgs *s, const moreau_nlgs_problem *prob)
{
  const moreau_contacts *c = prob->contacts;
  const moreau_bodies *b = prob->bodies;
  keyed_contact *keyed, *sorted;
  moreau_lid *count, nkeys = c->n;
  if (s->order_kind == MOREAU_NLGS_ORDER_RANDOM) return MOREAU_SUCCESS;
  /* Every rank has the same gravity: all fail here or none. */
  MOREAU_CHECK(s->order_kind != MOREAU_NLGS_ORDER_LAYERS || s->down[0] != 0.0 || s->down[1] != 0.0 || s->down[2] != 0.0,
               MOREAU_ERR_INPUT, "option -nlgs_order layers: needs a nonzero -gravity (the layers are across it)");
  MOREAU_CALL(moreau_realloc(((size_t)c->n + 1) * sizeof(moreau_lid), &s->contact_perm));
  MOREAU_CALL(moreau_realloc(((size_t)c->n / (size_t)s->block + 2) * sizeof(moreau_lid), &s->block_perm));
  if (c->n == 0) return MOREAU_SUCCESS;
  MOREAU_CALL(moreau_malloc(2 * (size_t)c->n * sizeof(*keyed), &keyed));
  moreau_err err = moreau_malloc(SORT_PASSES * SORT_BUCKETS * sizeof(*count), &count);
  if (err != MOREAU_SUCCESS) {
    moreau_free(&keyed);
    MOREAU_CALL(err);
  }
  if (s->order_kind == MOREAU_NLGS_ORDER_BLOCKS)
    nkeys = curve_keys(s, c, b, keyed);
  else
    height_keys(s, c, b, keyed);
  sorted = sort_by_key(keyed, keyed + nkeys, nkeys, count);
  for (moreau_lid r = 0, at = 0; r < nkeys; r++)
    for (moreau_lid i = 0; i < sorted[r].len; i++)
      s->contact_perm[at++] = sorted[r].k + i;
  moreau_free(&count);
  moreau_free(&keyed);
  return MOREAU_SUCCESS;
}

moreau_lid nlgs_visit_order(moreau_nlgs *s, moreau_lid *base, moreau_lid n, moreau_lid *out, moreau_lid perm_at,
                            moreau_law_sweep_args *a)
{
  moreau_lid nb, at = 0, *perm;
  a->n = n;
  if (s->order_kind == MOREAU_NLGS_ORDER_RANDOM) {
    moreau_rng_shuffle(&s->rng, base, n);
    a->order = base;
    a->block = a->nblocks = 0;
    return 0;
  }
  perm = s->block_perm + perm_at;
  nb = (n + s->block - 1) / s->block;
  for (moreau_lid j = 0; j < nb; j++)
    perm[j] = j;
  if (s->order_kind == MOREAU_NLGS_ORDER_BLOCKS) moreau_rng_shuffle(&s->rng, perm, nb);
  for (moreau_lid j = 0; j < nb; j++) {
    moreau_lid first = perm[j] * s->block, len = n - first < s->block ? n - first : s->block;
    for (moreau_lid i = 0; i < len; i++)
      out[at + i] = base[first + i];
    moreau_rng_shuffle(&s->rng, &out[at], len);
    at += len;
  }
  a->order = out;
  a->base = base;
  a->block_perm = perm;
  a->block = s->block;
  a->nblocks = nb;
  return nb;
}
