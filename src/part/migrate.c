#include <string.h>

#include "part_private.h"

void part_history_pack(const moreau_contacts *c, moreau_lid i, double *rec)
{
  memcpy(&rec[0], &c->gid_a[i], sizeof(double));
  memcpy(&rec[1], &c->gid_b[i], sizeof(double));
  rec[2] = (double)c->point[i];
  memcpy(&rec[3], &c->force[3 * i], 3 * sizeof(double));
}

moreau_err part_history_push_record(moreau_contacts *c, const double *rec)
{
  moreau_gid ga, gb;
  moreau_lid i;
  memcpy(&ga, &rec[0], sizeof(ga));
  memcpy(&gb, &rec[1], sizeof(gb));
  /* Local indices and geometry are rebuilt by the next detection; only the
   * key and the force matter for the warm start. */
  MOREAU_CALL(moreau_contacts_push(c, ga, gb, (int32_t)rec[2], -1, -1, &i));
  memset(&c->normal[3 * i], 0, 3 * sizeof(double));
  memset(&c->tangent[3 * i], 0, 3 * sizeof(double));
  memset(&c->binormal[3 * i], 0, 3 * sizeof(double));
  memset(&c->ca[3 * i], 0, 3 * sizeof(double));
  memset(&c->cb[3 * i], 0, 3 * sizeof(double));
  c->gap[i] = 0.0;
  memcpy(&c->force[3 * i], &rec[3], 3 * sizeof(double));
  return MOREAU_SUCCESS;
}

#define MOVE(arr, stride)                                                                                              \
  memmove(&(arr)[(size_t)(stride)*j], &(arr)[(size_t)(stride)*i], (size_t)(stride) * sizeof(*(arr)))

void part_history_compact(moreau_contacts *c, const char *keep)
{
  moreau_lid j = 0;
  for (moreau_lid i = 0; i < c->n; i++) {
    if (!keep[i]) continue;
    if (i != j) {
      MOVE(c->gid_a, 1);
      MOVE(c->gid_b, 1);
      MOVE(c->point, 1);
      MOVE(c->a, 1);
      MOVE(c->b, 1);
      MOVE(c->normal, 3);
      MOVE(c->tangent, 3);
      MOVE(c->binormal, 3);
      MOVE(c->ca, 3);
      MOVE(c->cb, 3);
      MOVE(c->gap, 1);
      MOVE(c->force, 3);
    }
    j++;
  }
  c->n = j;
}

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
  moreau_body body;
  moreau_bodies_get(obj, i, &body);
  moreau_body_pack(&body, rec);
}

static void pack_history(const void *obj, moreau_lid i, double *rec) { part_history_pack(obj, i, rec); }

moreau_err part_migrate(moreau_part *part, moreau_bodies *b, const int *body_dest, moreau_contacts *history,
                        const int *hist_dest, int64_t *n_sent)
{
  int size = part->size, me = part->rank;
  int *count; /* [0, 2P): sent (bodies, history) per rank; [2P, 4P): received */
  double *recv;
  int64_t n_recv;
  char *keep;
  moreau_lid n_hist = history ? history->n : 0;
  moreau_body body;

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

  MOREAU_CALL(part_exchange_records(part, count, 0, MOREAU_BODY_RECORD, b->n_owned, body_dest, me, b, pack_body, &recv,
                                    &n_recv));
  MOREAU_CALL(moreau_malloc((size_t)b->n_owned + (size_t)n_hist, &keep));
  for (moreau_lid i = 0; i < b->n_owned; i++)
    keep[i] = body_dest[i] == me;
  MOREAU_CALL(moreau_bodies_compact_owned(b, keep));
  MOREAU_CHECK(b->n_owned + n_recv <= INT32_MAX, MOREAU_ERR_RUNTIME, "migration: more than 2^31 bodies on a rank");
  MOREAU_CALL(moreau_bodies_reserve(b, (moreau_lid)(b->n_owned + n_recv)));
  for (int64_t k = 0; k < n_recv; k++) {
    moreau_body_unpack(&recv[k * MOREAU_BODY_RECORD], &body);
    MOREAU_CALL(moreau_bodies_push_owned(b, &body));
  }
  moreau_free(&recv);
  if (n_recv > 0 || !owned_sorted(b)) MOREAU_CALL(moreau_bodies_sort_owned(b));

  MOREAU_CALL(part_exchange_records(part, count, 1, PART_HISTORY_RECORD, n_hist, hist_dest, me, history, pack_history,
                                    &recv, &n_recv));
  if (history) {
    for (moreau_lid j = 0; j < n_hist; j++)
      keep[j] = hist_dest[j] == me;
    part_history_compact(history, keep);
    MOREAU_CALL(moreau_contacts_reserve(history, (moreau_lid)(history->n + n_recv)));
    for (int64_t k = 0; k < n_recv; k++)
      MOREAU_CALL(part_history_push_record(history, &recv[k * PART_HISTORY_RECORD]));
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
