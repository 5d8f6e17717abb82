#include <string.h>

#include "part_private.h"

int part_history_record(const moreau_contacts *history)
{
  /* Any positive size does when there is no history: nothing is sent. */
  return history ? (int)moreau_contacts_record_doubles(history) : 1;
}

void part_pack_history(const void *history, moreau_lid i, double *rec) { moreau_contacts_pack(history, i, rec); }

/* Sorting is skipped when nothing arrived and the order held already, the
 * common case of an update where no body changes rank. */
static int owned_sorted(const moreau_bodies *b)
{
  for (moreau_lid i = 1; i < b->n_owned; i++)
    if (b->gid[i - 1] >= b->gid[i]) return 0;
  return 1;
}

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

moreau_err part_migrate(moreau_part *part, moreau_bodies *b, const int *body_dest, moreau_contacts *history,
                        const int *hist_dest, int64_t *n_sent)
{
  int size = part->size, me = part->rank;
  int *count; /* [0, 2P): sent (bodies, history) per rank; [2P, 4P): received */
  double *recv;
  int64_t n_recv;
  char *keep;
  moreau_lid n_hist = history ? history->n : 0;
  int body_record = (int)moreau_bodies_record_doubles(MOREAU_FIELD_MIGRATE), hist_record = part_history_record(history);

  for (moreau_lid i = 0; i < b->n_owned; i++)
    MOREAU_ASSERT(body_dest[i] >= 0 && body_dest[i] < size);
  MOREAU_CALL(moreau_calloc(4 * (size_t)size, sizeof(int), &count));
  *n_sent = 0;
  for (moreau_lid i = 0; i < b->n_owned; i++)
    if (body_dest[i] != me) {
      count[2 * body_dest[i]]++;
      (*n_sent)++;
    }
  for (moreau_lid j = 0; j < n_hist; j++)
    if (hist_dest[j] != me) count[2 * hist_dest[j] + 1]++;
  MOREAU_MPI_CALL(MPI_Alltoall(count, 2, MPI_INT, count + 2 * size, 2, MPI_INT, part->comm));

  MOREAU_CALL(
      part_exchange_records(part, count, 0, body_record, b->n_owned, body_dest, me, b, pack_body, &recv, &n_recv));
  MOREAU_CALL(moreau_malloc((size_t)b->n_owned + (size_t)n_hist, &keep));
  for (moreau_lid i = 0; i < b->n_owned; i++)
    keep[i] = body_dest[i] == me;
  MOREAU_CALL(moreau_bodies_compact_owned(b, keep));
  MOREAU_CHECK(b->n_owned + n_recv <= INT32_MAX, MOREAU_ERR_RUNTIME, "migration: more than 2^31 bodies on a rank");
  MOREAU_CALL(moreau_bodies_reserve(b, (moreau_lid)(b->n_owned + n_recv)));
  for (int64_t k = 0; k < n_recv; k++)
    MOREAU_CALL(moreau_bodies_push_record(b, 0, MOREAU_FIELD_MIGRATE, &recv[k * body_record]));
  moreau_free(&recv);
  if (n_recv > 0 || !owned_sorted(b)) MOREAU_CALL(moreau_bodies_sort_owned(b));

  MOREAU_CALL(part_exchange_records(part, count, 1, hist_record, n_hist, hist_dest, me, history, part_pack_history,
                                    &recv, &n_recv));
  if (history) {
    for (moreau_lid j = 0; j < n_hist; j++)
      keep[j] = hist_dest[j] == me;
    moreau_contacts_compact(history, keep);
    MOREAU_CALL(moreau_contacts_reserve(history, (moreau_lid)(history->n + n_recv)));
    for (int64_t k = 0; k < n_recv; k++)
      MOREAU_CALL(moreau_contacts_push_record(history, &recv[k * hist_record]));
    if (n_recv > 0 || !history_sorted(history)) MOREAU_CALL(moreau_contacts_sort(history));
  }
  moreau_free(&recv);
  moreau_free(&keep);
  moreau_free(&count);
  part->ghosts_valid = 0;
  part->n_ghost = 0;
  part->iface_valid = 0;
  return MOREAU_SUCCESS;
}
