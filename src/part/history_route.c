#include <string.h>

#include "part_private.h"

static int sorted_by_gid_a(const moreau_contacts *history)
{
  for (moreau_lid j = 1; j < history->n; j++)
    if (history->gid_a[j - 1] > history->gid_a[j]) return 0;
  return 1;
}

moreau_err part_history_lids(moreau_part *part, const moreau_bodies *b, const moreau_contacts *history,
                             moreau_lid **lid, int64_t *n_orphans)
{
  const moreau_lid *order;
  moreau_lid n = history ? history->n : 0;
  *n_orphans = 0;
  MOREAU_CALL(moreau_malloc((size_t)n * sizeof(moreau_lid), lid));
  if (n == 0) return MOREAU_SUCCESS;
  MOREAU_CALL(part_gid_index(part, b, &order));
  /* After every update the history is sorted by key: one merge walk along
   * the gid order then. */
  if (sorted_by_gid_a(history)) {
    for (moreau_lid j = 0, k = 0; j < n; j++) {
      while (k < b->n_owned && b->gid[order[k]] < history->gid_a[j])
        k++;
      (*lid)[j] = k < b->n_owned && b->gid[order[k]] == history->gid_a[j] ? order[k] : -1;
      if ((*lid)[j] < 0) (*n_orphans)++;
    }
    return MOREAU_SUCCESS;
  }
  for (moreau_lid j = 0; j < n; j++) {
    (*lid)[j] = part_gid_lookup(b, order, history->gid_a[j]);
    if ((*lid)[j] < 0) (*n_orphans)++;
  }
  return MOREAU_SUCCESS;
}

/* The directory spreads "gid -> new owner" over the ranks by gid, so that
 * an entry whose body is elsewhere finds it in two exchanges without any
 * rank holding a global table. */
static int directory_rank(moreau_gid gid, int size)
{
  int64_t r = gid % size;
  return (int)(r < 0 ? r + size : r);
}

typedef struct {
  const moreau_bodies *b;
  const int *body_dest;
} directory_source;

static void pack_directory(const void *obj, moreau_lid i, double *rec)
{
  const directory_source *d = obj;
  memcpy(&rec[0], &d->b->gid[i], sizeof(double));
  rec[1] = (double)d->body_dest[i];
}

/* Collective: item i goes to rank dest[i] (none when negative); what
 * arrives is in *in. */
static moreau_err send_by_dest(moreau_part *part, moreau_lid n, const int *dest, int record, const void *obj,
                               part_pack_fn pack, part_messages *in)
{
  part_plan plan = {0};
  part_messages out = {0};
  MOREAU_CALL(part_plan_from_dest(&plan, part->size, n, dest, -1));
  MOREAU_CALL(part_messages_from_plan(&plan, record, obj, pack, &out));
  part_plan_free(&plan);
  MOREAU_CALL(part_sparse_exchange(part, &out, in));
  part_messages_free(&out);
  return MOREAU_SUCCESS;
}

moreau_err part_history_route(moreau_part *part, const moreau_bodies *b, const int *body_dest, moreau_contacts *history,
                              int **dest)
{
  int size = part->size;
  int *dir_dest, *orphan_dest;
  char *keep;
  double *dir_recv, *orphan_recv;
  int64_t n_dir, n_orphan;
  moreau_lid n_hist = history ? history->n : 0, kept = 0;
  int hist_record = part_history_record(history);
  part_gid_lid *directory;
  directory_source src = {b, body_dest};
  part_messages dir_in = {0}, orphan_in = {0};

  MOREAU_CALL(moreau_malloc((size_t)b->n_owned * sizeof(int), &dir_dest));
  MOREAU_CALL(moreau_malloc((size_t)n_hist * sizeof(int), &orphan_dest));
  for (moreau_lid i = 0; i < b->n_owned; i++)
    dir_dest[i] = directory_rank(b->gid[i], size);
  for (moreau_lid j = 0; j < n_hist; j++)
    orphan_dest[j] = (*dest)[j] < 0 ? directory_rank(history->gid_a[j], size) : -1;
  MOREAU_CALL(send_by_dest(part, b->n_owned, dir_dest, 2, &src, pack_directory, &dir_in));
  MOREAU_CALL(send_by_dest(part, n_hist, orphan_dest, hist_record, history, part_pack_history, &orphan_in));
  dir_recv = dir_in.data;
  n_dir = dir_in.n ? dir_in.offset[dir_in.n] / 2 : 0;
  orphan_recv = orphan_in.data;
  n_orphan = orphan_in.n ? orphan_in.offset[orphan_in.n] / hist_record : 0;
  moreau_free(&dir_dest);

  /* Drop the orphans sent away, keeping dest aligned with the history. */
  if (history) {
    MOREAU_CALL(moreau_malloc((size_t)n_hist, &keep));
    for (moreau_lid j = 0; j < n_hist; j++) {
      keep[j] = orphan_dest[j] < 0;
      if (keep[j]) (*dest)[kept++] = (*dest)[j];
    }
    moreau_contacts_compact(history, keep);
    moreau_free(&keep);
  }
  moreau_free(&orphan_dest);

  /* The directory's pairs carry the new owner rank in the lid field. */
  MOREAU_CALL(moreau_malloc((size_t)n_dir * sizeof(*directory), &directory));
  for (int64_t k = 0; k < n_dir; k++) {
    memcpy(&directory[k].gid, &dir_recv[2 * k], sizeof(moreau_gid));
    directory[k].lid = (moreau_lid)dir_recv[2 * k + 1];
  }
  part_messages_free(&dir_in);
  part_gid_sort(directory, (moreau_lid)n_dir);
  /* An entry whose body no rank owns cannot warm-start anything: dropped. */
  if (history) {
    MOREAU_CALL(moreau_realloc(((size_t)history->n + (size_t)n_orphan) * sizeof(int), dest));
    for (int64_t k = 0; k < n_orphan; k++) {
      moreau_gid ga;
      int to;
      memcpy(&ga, &orphan_recv[k * hist_record], sizeof(ga));
      to = part_gid_find(directory, (moreau_lid)n_dir, ga);
      if (to < 0) continue;
      MOREAU_CALL(moreau_contacts_push_record(history, &orphan_recv[k * hist_record]));
      (*dest)[history->n - 1] = to;
    }
  }
  moreau_free(&directory);
  part_messages_free(&orphan_in);
  return MOREAU_SUCCESS;
}
