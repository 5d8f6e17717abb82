#include <math.h>

#include "moreau/morton.h"
#include "nlgs_private.h"

/* Bits per axis of the Morton key: 2^31 positions along each axis in 2D,
 * 2^21 in 3D, far finer than a body whatever the size of the packing, so
 * that consecutive keys are neighbours in space. */
#define ORDER_BITS(dim) ((dim) == 2 ? 31 : 21)

typedef struct {
  uint64_t key;
  moreau_lid k;
} keyed_contact;

/* Sorts keyed[0..n) by key, equal keys in the order they come in (the
 * contacts' order, as qsort by key and index had it), with tmp as room for n
 * more: a least-significant-digit radix sort, one stable pass a byte, passes
 * over a byte that all keys share skipped. On the 3D bed (3.3e4 contacts)
 * qsort's comparisons took 6-18 ms a solve, this 3-4 ms: a step of 50
 * sweeps there takes some 125 ms (benchmarks/README.md, the layers order). */
static keyed_contact *sort_by_key(keyed_contact *keyed, keyed_contact *tmp, moreau_lid n)
{
  for (int shift = 0; shift < 64; shift += 8) {
    moreau_lid count[257] = {0};
    for (moreau_lid i = 0; i < n; i++)
      count[((keyed[i].key >> shift) & 0xff) + 1]++;
    if (count[((keyed[0].key >> shift) & 0xff) + 1] == n) continue;
    for (int d = 0; d < 256; d++)
      count[d + 1] += count[d];
    for (moreau_lid i = 0; i < n; i++)
      tmp[count[(keyed[i].key >> shift) & 0xff]++] = keyed[i];
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
  const double *x = &b->x[3 * c->a[k]], *ca = &c->ca[3 * k];
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
    keyed[k] = (keyed_contact){(uint64_t)((contact_depth(s, c, b, k) - lo) * scale), k};
}

/* The blocks' curve order: Morton keys of a's position over the cube that
 * holds the contacts' bodies a. */
static void curve_keys(const moreau_nlgs *s, const moreau_contacts *c, const moreau_bodies *b, keyed_contact *keyed)
{
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, edge = 0.0;
  for (moreau_lid k = 0; k < c->n; k++)
    for (int d = 0; d < s->dim; d++) {
      double x = b->x[3 * c->a[k] + d];
      if (k == 0 || x < lo[d]) lo[d] = x;
      if (k == 0 || x > hi[d]) hi[d] = x;
    }
  for (int d = 0; d < s->dim; d++)
    edge = fmax(edge, hi[d] - lo[d]);
  for (moreau_lid k = 0; k < c->n; k++)
    keyed[k] = (keyed_contact){moreau_morton_key(&b->x[3 * c->a[k]], lo, edge, s->dim, ORDER_BITS(s->dim)), k};
}

moreau_err nlgs_contact_order(moreau_nlgs *s, const moreau_nlgs_problem *prob)
{
  const moreau_contacts *c = prob->contacts;
  const moreau_bodies *b = prob->bodies;
  keyed_contact *keyed, *sorted;
  if (s->order_kind == MOREAU_NLGS_ORDER_RANDOM) return MOREAU_SUCCESS;
  /* Every rank has the same gravity: all fail here or none. */
  MOREAU_CHECK(s->order_kind != MOREAU_NLGS_ORDER_LAYERS || s->down[0] != 0.0 || s->down[1] != 0.0 || s->down[2] != 0.0,
               MOREAU_ERR_INPUT, "option -nlgs_order layers: needs a nonzero -gravity (the layers are across it)");
  MOREAU_CALL(moreau_realloc(((size_t)c->n + 1) * sizeof(moreau_lid), &s->contact_perm));
  MOREAU_CALL(moreau_realloc(((size_t)c->n / (size_t)s->block + 2) * sizeof(moreau_lid), &s->block_perm));
  if (c->n == 0) return MOREAU_SUCCESS;
  MOREAU_CALL(moreau_malloc(2 * (size_t)c->n * sizeof(*keyed), &keyed));
  if (s->order_kind == MOREAU_NLGS_ORDER_LAYERS)
    height_keys(s, c, b, keyed);
  else
    curve_keys(s, c, b, keyed);
  sorted = sort_by_key(keyed, keyed + c->n, c->n);
  for (moreau_lid k = 0; k < c->n; k++)
    s->contact_perm[k] = sorted[k].k;
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
