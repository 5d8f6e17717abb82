#include <stdint.h>
#include <string.h>

#include "part_private.h"

int part_history_record(const moreau_contacts *history)
{
  /* Any positive size does when there is no history: nothing is sent. */
  return history ? (int)moreau_contacts_record_doubles(history) : 1;
}

void part_pack_history(const void *history, moreau_lid i, double *rec) { moreau_contacts_pack(history, i, rec); }

/* The history's sort is skipped when nothing arrived and the order held
 * already, the common case of an update where no body changes rank. */
static int history_sorted(const moreau_contacts *c)
{
  for (moreau_lid i = 1; i < c->n; i++) {
    if (c->gid_a[i - 1] != c->gid_a[i]) {
      if (c->gid_a[i - 1] > c->gid_a[i]) return 0;
      continue;
    }
    if (c->gid_b[i - 1] != c->gid_b[i]) {
      if (c->gid_b[i - 1] > c->gid_b[i]) return 0;
      continue;
    }
    if (c->point[i - 1] > c->point[i]) return 0;
  }
  return 1;
}

static void pack_body(const void *obj, moreau_lid i, double *rec)
{
  moreau_bodies_pack(obj, MOREAU_FIELD_MIGRATE, i, rec);
}

/* The body and history records bound for one rank travel in one message:
 * the number of bodies, the bodies, then the history entries. */
static moreau_err pack_outgoing(const part_plan *pb, const part_plan *ph, int body_record, int hist_record,
                                const moreau_bodies *b, const moreau_contacts *history, part_messages *out)
{
  int n = 0, *rank;
  int64_t *length;
  MOREAU_CALL(moreau_malloc(((size_t)pb->n_rank + (size_t)ph->n_rank) * sizeof(int), &rank));
  MOREAU_CALL(moreau_malloc(((size_t)pb->n_rank + (size_t)ph->n_rank) * sizeof(int64_t), &length));
  for (int kb = 0, kh = 0; kb < pb->n_rank || kh < ph->n_rank; n++) {
    int rb = kb < pb->n_rank ? pb->rank[kb] : INT32_MAX, rh = kh < ph->n_rank ? ph->rank[kh] : INT32_MAX;
    rank[n] = rb < rh ? rb : rh;
    length[n] = 1;
    if (rb == rank[n]) {
      length[n] += (int64_t)(pb->offset[kb + 1] - pb->offset[kb]) * body_record;
      kb++;
    }
    if (rh == rank[n]) {
      length[n] += (int64_t)(ph->offset[kh + 1] - ph->offset[kh]) * hist_record;
      kh++;
    }
  }
  MOREAU_CALL(part_messages_alloc(out, n, rank, length));
  for (int k = 0, kb = 0, kh = 0; k < n; k++) {
    double *count = &out->data[out->offset[k]], *at = count + 1;
    *count = 0.0;
    if (kb < pb->n_rank && pb->rank[kb] == rank[k]) {
      *count = pb->offset[kb + 1] - pb->offset[kb];
      for (int e = pb->offset[kb]; e < pb->offset[kb + 1]; e++, at += body_record)
        pack_body(b, pb->index[e], at);
      kb++;
    }
    if (kh < ph->n_rank && ph->rank[kh] == rank[k]) {
      for (int e = ph->offset[kh]; e < ph->offset[kh + 1]; e++, at += hist_record)
        part_pack_history(history, ph->index[e], at);
      kh++;
    }
  }
  moreau_free(&rank);
  moreau_free(&length);
  return MOREAU_SUCCESS;
}

static moreau_err unpack_incoming(const part_messages *in, int body_record, int hist_record, moreau_bodies *b,
                                  moreau_contacts *history, int64_t *n_bodies, int64_t *n_entries)
{
  int64_t nb = 0, nh = 0;
  for (int k = 0; k < in->n; k++) {
    int64_t len = in->offset[k + 1] - in->offset[k], bodies = (int64_t)in->data[in->offset[k]];
    MOREAU_CHECK(
        bodies >= 0 && (len - 1 - bodies * body_record) % hist_record == 0 && len - 1 - bodies * body_record >= 0,
        MOREAU_ERR_INTERNAL, "migration: malformed message of %lld doubles from rank %d", (long long)len, in->rank[k]);
    nb += bodies;
    nh += (len - 1 - bodies * body_record) / hist_record;
  }
  MOREAU_CHECK(b->n_owned + nb <= INT32_MAX, MOREAU_ERR_RUNTIME, "migration: more than 2^31 bodies on a rank");
  MOREAU_CALL(moreau_bodies_reserve(b, (moreau_lid)(b->n_owned + nb)));
  MOREAU_CHECK(nh == 0 || history, MOREAU_ERR_INTERNAL, "migration: history entries arrived without a history");
  if (history) MOREAU_CALL(moreau_contacts_reserve(history, (moreau_lid)(history->n + nh)));
  for (int k = 0; k < in->n; k++) {
    const double *at = &in->data[in->offset[k]], *end = &in->data[in->offset[k + 1]];
    int64_t bodies = (int64_t)*at++;
    for (int64_t j = 0; j < bodies; j++, at += body_record)
      MOREAU_CALL(moreau_bodies_push_record(b, 0, MOREAU_FIELD_MIGRATE, at));
    for (; at < end; at += hist_record)
      MOREAU_CALL(moreau_contacts_push_record(history, at));
  }
  *n_bodies = nb;
  *n_entries = nh;
  return MOREAU_SUCCESS;
}

/* What every migration leaves behind: the history in key order (arrivals
 * and a renumbering's reordering break it), the ghosts and the interface
 * stale. */
static moreau_err settle(moreau_part *part, moreau_contacts *history, int64_t n_entries)
{
  if (history && (n_entries > 0 || !history_sorted(history))) MOREAU_CALL(moreau_contacts_sort(history));
  part->ghosts_valid = 0;
  part->n_ghost = 0;
  part->iface_valid = 0;
  return MOREAU_SUCCESS;
}

moreau_err part_stay(moreau_part *part, moreau_contacts *history) { return settle(part, history, 0); }

moreau_err part_migrate(moreau_part *part, moreau_bodies *b, const int *body_dest, moreau_contacts *history,
                        const int *hist_dest, int64_t *n_sent)
{
  int me = part->rank;
  part_plan pb = {0}, ph = {0};
  part_messages out = {0}, in = {0};
  int64_t n_bodies = 0, n_entries = 0;
  char *keep;
  moreau_lid n_hist = history ? history->n : 0;
  int body_record = (int)moreau_bodies_record_doubles(MOREAU_FIELD_MIGRATE), hist_record = part_history_record(history);

  for (moreau_lid i = 0; i < b->n_owned; i++)
    MOREAU_ASSERT(body_dest[i] >= 0 && body_dest[i] < part->size);
  MOREAU_CALL(part_plan_from_dest(&pb, part->size, b->n_owned, body_dest, me));
  MOREAU_CALL(part_plan_from_dest(&ph, part->size, n_hist, hist_dest, me));
  *n_sent = part_plan_total(&pb);
  MOREAU_CALL(pack_outgoing(&pb, &ph, body_record, hist_record, b, history, &out));
  part_plan_free(&pb);
  part_plan_free(&ph);
  MOREAU_CALL(part_sparse_exchange(part, &out, &in));
  part_messages_free(&out);

  MOREAU_CALL(moreau_malloc((size_t)b->n_owned + (size_t)n_hist, &keep));
  for (moreau_lid i = 0; i < b->n_owned; i++)
    keep[i] = body_dest[i] == me;
  MOREAU_CALL(moreau_bodies_compact_owned(b, keep));
  if (history) {
    for (moreau_lid j = 0; j < n_hist; j++)
      keep[j] = hist_dest[j] == me;
    moreau_contacts_compact(history, keep);
  }
  moreau_free(&keep);
  MOREAU_CALL(unpack_incoming(&in, body_record, hist_record, b, history, &n_bodies, &n_entries));
  if (*n_sent > 0 || n_bodies > 0) part_gid_index_invalidate(part);
  part_messages_free(&in);
  return settle(part, history, n_entries);
}
