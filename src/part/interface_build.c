#include "part_private.h"

void part_interface_free(moreau_part *part)
{
  moreau_free(&part->iface_lid);
  moreau_free(&part->iface_k);
  moreau_free(&part->iface_own);
  moreau_free(&part->iface_sum);
  moreau_free(&part->iface_base);
  part_plan_free(&part->gather_send);
  part_plan_free(&part->gather_recv);
  part_plan_free(&part->scatter_send);
  part_plan_free(&part->scatter_recv);
  moreau_free(&part->gather_sbuf);
  moreau_free(&part->gather_rbuf);
  moreau_free(&part->scatter_sbuf);
  moreau_free(&part->scatter_rbuf);
  moreau_free(&part->requests);
  part->n_iface = 0;
  part->buf_width = 0;
  part->iface_valid = 0;
  part->iface_split = 1.0;
}

/* One message per neighbour of the ghost layer, in both directions: holders
 * send `out` (one item per ghost, in ghost order) to each owner, owners
 * receive `in` (one item per ghost they sent, in send-plan order). The two
 * orders agree, so no counts need exchanging. Reversed, owners send and
 * holders receive. */
static moreau_err ghost_neighbour_exchange(moreau_part *part, int reverse, MPI_Datatype type, size_t item,
                                           const void *out, void *in, int tag)
{
  const part_plan *to = reverse ? &part->ghost_send : &part->ghost_recv;
  const part_plan *from = reverse ? &part->ghost_recv : &part->ghost_send;
  MPI_Request *req;
  int n = 0;
  MOREAU_CALL(moreau_malloc(((size_t)to->n_rank + (size_t)from->n_rank) * sizeof(MPI_Request), &req));
  for (int k = 0; k < from->n_rank; k++)
    MOREAU_MPI_CALL(MPI_Irecv((char *)in + item * (size_t)from->offset[k], from->offset[k + 1] - from->offset[k], type,
                              from->rank[k], tag, part->comm, &req[n++]));
  for (int k = 0; k < to->n_rank; k++)
    MOREAU_MPI_CALL(MPI_Isend((const char *)out + item * (size_t)to->offset[k], to->offset[k + 1] - to->offset[k], type,
                              to->rank[k], tag, part->comm, &req[n++]));
  MOREAU_MPI_CALL(MPI_Waitall(n, req, MPI_STATUSES_IGNORE));
  moreau_free(&req);
  return MOREAU_SUCCESS;
}

/* The owner's side: holders per owned body, the interface slots, and the
 * per-holder plans. in_touched[e] is whether the rank of ghost_send entry e
 * touches its copy. */
static moreau_err owner_side(moreau_part *part, moreau_lid n_owned, const char *touched, const char *in_touched,
                             int32_t *holders, double *mult)
{
  const part_plan *gs = &part->ghost_send;
  moreau_lid n_sent = part_plan_total(gs), *slot, n_pairs = 0;
  int *pair_rank;
  moreau_lid *pair_index, *pair_lid;
  int n_scatter = 0;
  MOREAU_CALL(moreau_malloc((size_t)n_owned * sizeof(moreau_lid), &slot));
  for (moreau_lid i = 0; i < n_owned; i++) {
    holders[i] = touched[i] ? 1 : 0;
    slot[i] = -1;
  }
  for (moreau_lid e = 0; e < n_sent; e++)
    if (in_touched[e]) holders[gs->index[e]]++;
  /* Interface bodies: touched on some other rank. */
  part->n_iface = 0;
  for (moreau_lid i = 0; i < n_owned; i++) {
    mult[i] = holders[i] > 1 ? holders[i] : 1;
    if (holders[i] > (touched[i] ? 1 : 0)) slot[i] = part->n_iface++;
  }
  MOREAU_CALL(moreau_malloc((size_t)part->n_iface * sizeof(moreau_lid), &part->iface_lid));
  MOREAU_CALL(moreau_malloc((size_t)part->n_iface * sizeof(int), &part->iface_k));
  MOREAU_CALL(moreau_malloc((size_t)part->n_iface, &part->iface_own));
  for (moreau_lid i = 0; i < n_owned; i++) {
    if (slot[i] < 0) continue;
    part->iface_lid[slot[i]] = i;
    part->iface_k[slot[i]] = holders[i];
    part->iface_own[slot[i]] = touched[i] ? 1 : 0;
  }

  MOREAU_CALL(moreau_malloc((size_t)n_sent * sizeof(int), &pair_rank));
  MOREAU_CALL(moreau_malloc((size_t)n_sent * sizeof(moreau_lid), &pair_index));
  MOREAU_CALL(moreau_malloc((size_t)n_sent * sizeof(moreau_lid), &pair_lid));
  for (int k = 0; k < gs->n_rank; k++)
    for (moreau_lid e = gs->offset[k]; e < gs->offset[k + 1]; e++) {
      moreau_lid i = gs->index[e];
      if (!in_touched[e]) continue;
      pair_rank[n_pairs] = gs->rank[k];
      pair_index[n_pairs] = slot[i];
      n_pairs++;
    }
  MOREAU_CALL(part_plan_from_pairs(&part->gather_recv, part->size, n_pairs, pair_rank, pair_index));
  /* A body with a single holder that is not its owner needs no reply: the
   * holder's copy already is the average. */
  for (int k = 0; k < gs->n_rank; k++)
    for (moreau_lid e = gs->offset[k]; e < gs->offset[k + 1]; e++) {
      moreau_lid i = gs->index[e];
      if (!in_touched[e] || holders[i] < 2) continue;
      pair_rank[n_scatter] = gs->rank[k];
      pair_lid[n_scatter] = i;
      n_scatter++;
    }
  MOREAU_CALL(part_plan_from_pairs(&part->scatter_send, part->size, n_scatter, pair_rank, pair_lid));
  moreau_free(&pair_rank);
  moreau_free(&pair_index);
  moreau_free(&pair_lid);
  moreau_free(&slot);
  return MOREAU_SUCCESS;
}

/* The holder's side: mult of its touched ghosts, and the per-owner plans. */
static moreau_err holder_side(moreau_part *part, moreau_lid n_owned, const char *touched, const int32_t *holders,
                              double *mult)
{
  moreau_lid n_ghost = part->n_ghost, n_gather = 0, n_scatter = 0;
  int *gather_rank, *scatter_rank;
  moreau_lid *gather_lid, *scatter_lid;
  MOREAU_CALL(moreau_malloc((size_t)n_ghost * sizeof(int), &gather_rank));
  MOREAU_CALL(moreau_malloc((size_t)n_ghost * sizeof(int), &scatter_rank));
  MOREAU_CALL(moreau_malloc((size_t)n_ghost * sizeof(moreau_lid), &gather_lid));
  MOREAU_CALL(moreau_malloc((size_t)n_ghost * sizeof(moreau_lid), &scatter_lid));
  for (moreau_lid g = 0; g < n_ghost; g++) {
    moreau_lid i = n_owned + g;
    mult[i] = 1.0;
    if (!touched[i]) continue;
    mult[i] = holders[g];
    gather_rank[n_gather] = part->ghost_owner[g];
    gather_lid[n_gather++] = i;
    if (holders[g] < 2) continue;
    scatter_rank[n_scatter] = part->ghost_owner[g];
    scatter_lid[n_scatter++] = i;
  }
  MOREAU_CALL(part_plan_from_pairs(&part->gather_send, part->size, n_gather, gather_rank, gather_lid));
  MOREAU_CALL(part_plan_from_pairs(&part->scatter_recv, part->size, n_scatter, scatter_rank, scatter_lid));
  moreau_free(&gather_rank);
  moreau_free(&scatter_rank);
  moreau_free(&gather_lid);
  moreau_free(&scatter_lid);
  return MOREAU_SUCCESS;
}

static moreau_err allocate_buffers(moreau_part *part)
{
  size_t nc = (size_t)part->ncomp;
  size_t n_req = (size_t)part->gather_send.n_rank + (size_t)part->gather_recv.n_rank +
                 (size_t)part->scatter_send.n_rank + (size_t)part->scatter_recv.n_rank;
  MOREAU_CALL(moreau_malloc((size_t)part->n_iface * nc * sizeof(double), &part->iface_sum));
  MOREAU_CALL(moreau_malloc((size_t)part_plan_total(&part->gather_send) * nc * sizeof(double), &part->gather_sbuf));
  MOREAU_CALL(moreau_malloc((size_t)part_plan_total(&part->gather_recv) * nc * sizeof(double), &part->gather_rbuf));
  MOREAU_CALL(moreau_malloc((size_t)part_plan_total(&part->scatter_send) * nc * sizeof(double), &part->scatter_sbuf));
  MOREAU_CALL(moreau_malloc((size_t)part_plan_total(&part->scatter_recv) * nc * sizeof(double), &part->scatter_rbuf));
  /* At least one, so that the exchange's offsets into it never start from
   * NULL (undefined even when the offset is 0). */
  MOREAU_CALL(moreau_malloc((n_req ? n_req : 1) * sizeof(MPI_Request), &part->requests));
  part->buf_width = part->ncomp;
  return MOREAU_SUCCESS;
}

moreau_err moreau_part_interface_build(moreau_part *part, const moreau_bodies *b, const char *touched, double *mult)
{
  moreau_lid n_owned = b->n_owned, n_ghost = b->n_ghost, n_sent = part_plan_total(&part->ghost_send), n_local = 0;
  char *out_touched, *in_touched;
  int32_t *holders_owned, *holders_out, *holders_in;
  MOREAU_CHECK(part->ghosts_valid && n_ghost == part->n_ghost && n_owned == part->ghost_n_owned, MOREAU_ERR_INTERNAL,
               "moreau_part_interface_build: the ghosts are stale (call moreau_part_ghosts after every update)");
  part_interface_free(part);
  part->ncomp = b->dim == 2 ? 3 : 6;

  MOREAU_CALL(moreau_malloc((size_t)n_ghost, &out_touched));
  MOREAU_CALL(moreau_malloc((size_t)n_sent, &in_touched));
  for (moreau_lid g = 0; g < n_ghost; g++)
    out_touched[g] = touched[n_owned + g] ? 1 : 0;
  MOREAU_CALL(ghost_neighbour_exchange(part, 0, MPI_CHAR, 1, out_touched, in_touched, PART_TAG_TOUCHED));

  MOREAU_CALL(moreau_malloc((size_t)n_owned * sizeof(int32_t), &holders_owned));
  MOREAU_CALL(owner_side(part, n_owned, touched, in_touched, holders_owned, mult));
  MOREAU_CALL(moreau_malloc((size_t)n_sent * sizeof(int32_t), &holders_out));
  MOREAU_CALL(moreau_malloc((size_t)n_ghost * sizeof(int32_t), &holders_in));
  for (moreau_lid e = 0; e < n_sent; e++)
    holders_out[e] = holders_owned[part->ghost_send.index[e]];
  MOREAU_CALL(
      ghost_neighbour_exchange(part, 1, MPI_INT32_T, sizeof(int32_t), holders_out, holders_in, PART_TAG_HOLDERS));
  MOREAU_CALL(holder_side(part, n_owned, touched, holders_in, mult));
  MOREAU_CALL(allocate_buffers(part));

  for (moreau_lid i = 0; i < n_owned + n_ghost; i++)
    n_local += mult[i] > 1.0;
  part->stats.interface_bodies = n_local;
  part->stats.sweep_messages = part->gather_send.n_rank + part->scatter_send.n_rank;
  part->stats.sweep_bytes = ((int64_t)part_plan_total(&part->gather_send) + part_plan_total(&part->scatter_send)) *
                            part->ncomp * (int64_t)sizeof(double);
  part->iface_valid = 1;
  moreau_free(&out_touched);
  moreau_free(&in_touched);
  moreau_free(&holders_owned);
  moreau_free(&holders_out);
  moreau_free(&holders_in);
  return MOREAU_SUCCESS;
}
