#include <math.h>

#include "part_private.h"

/* Room for width doubles per body in the slot sum and the message buffers
 * (sized for the velocity average when the plan is built; a wider sum grows
 * them once). */
static moreau_err reserve_width(moreau_part *part, int width)
{
  size_t w = (size_t)width;
  if (width <= part->buf_width) return MOREAU_SUCCESS;
  MOREAU_CALL(moreau_realloc((size_t)part->n_iface * w * sizeof(double), &part->iface_sum));
  MOREAU_CALL(moreau_realloc((size_t)part_plan_total(&part->gather_send) * w * sizeof(double), &part->gather_sbuf));
  MOREAU_CALL(moreau_realloc((size_t)part_plan_total(&part->gather_recv) * w * sizeof(double), &part->gather_rbuf));
  MOREAU_CALL(moreau_realloc((size_t)part_plan_total(&part->scatter_send) * w * sizeof(double), &part->scatter_sbuf));
  MOREAU_CALL(moreau_realloc((size_t)part_plan_total(&part->scatter_recv) * w * sizeof(double), &part->scatter_rbuf));
  part->buf_width = width;
  return MOREAU_SUCCESS;
}

static moreau_err post_receives(const moreau_part *part, const part_plan *p, int width, double *buf, int tag,
                                MPI_Request *req)
{
  for (int k = 0; k < p->n_rank; k++)
    MOREAU_MPI_CALL(MPI_Irecv(buf + (size_t)width * p->offset[k], width * (p->offset[k + 1] - p->offset[k]), MPI_DOUBLE,
                              p->rank[k], tag, part->comm, &req[k]));
  return MOREAU_SUCCESS;
}

static moreau_err pack_and_send(const moreau_part *part, const part_plan *p, int width, part_get_fn get,
                                const void *obj, double *buf, int tag, MPI_Request *req)
{
  for (moreau_lid e = 0; e < part_plan_total(p); e++)
    get(obj, width, p->index[e], &buf[(size_t)width * e]);
  for (int k = 0; k < p->n_rank; k++)
    MOREAU_MPI_CALL(MPI_Isend(buf + (size_t)width * p->offset[k], width * (p->offset[k + 1] - p->offset[k]), MPI_DOUBLE,
                              p->rank[k], tag, part->comm, &req[k]));
  return MOREAU_SUCCESS;
}

/* With a copy split below 1, a copy of a body held by k ranks has mass M / s
 * (s = moreau_part_copy_scale): its velocity moved from the common one by s
 * times what its own impulses give the whole body. The whole body's change is
 * then k / s times the mean change of the copies; it becomes the new common
 * velocity. */
static void relax(moreau_part *part, size_t w)
{
  double *sum = part->iface_sum, *base = part->iface_base;
  for (moreau_lid s = 0; s < part->n_iface; s++) {
    double k = part->iface_k[s], lambda = k / moreau_part_copy_scale(k, part->iface_split);
    for (size_t c = 0; c < w; c++) {
      base[w * s + c] += lambda * (sum[w * s + c] - base[w * s + c]);
      sum[w * s + c] = base[w * s + c];
    }
  }
}

/* The owner sums its own copy first (when it holds the body), then the
 * holders' copies in increasing rank order (gather_recv is grouped by
 * increasing rank): a fixed order, so the result is bitwise reproducible
 * whatever the arrival order of the messages. With average > 0, also the
 * largest difference of a copy from the average in the first `average`
 * components. */
static void combine(moreau_part *part, int width, int average, part_get_fn get, part_set_fn set, void *obj)
{
  const part_plan *p = &part->gather_recv;
  size_t w = (size_t)width;
  double *sum = part->iface_sum, spread = 0.0, own[6];
  for (moreau_lid s = 0; s < part->n_iface; s++) {
    if (part->iface_own[s])
      get(obj, width, part->iface_lid[s], &sum[w * s]);
    else
      for (size_t c = 0; c < w; c++)
        sum[w * s + c] = 0.0;
  }
  for (moreau_lid e = 0; e < part_plan_total(p); e++)
    for (size_t c = 0; c < w; c++)
      sum[w * p->index[e] + c] += part->gather_rbuf[w * e + c];
  for (moreau_lid s = 0; average && s < part->n_iface; s++) {
    for (size_t c = 0; c < w; c++)
      sum[w * s + c] /= (double)part->iface_k[s];
    if (part->iface_own[s]) {
      get(obj, width, part->iface_lid[s], own);
      for (int c = 0; c < average; c++)
        spread = fmax(spread, fabs(own[c] - sum[w * s + c]));
    }
  }
  if (average)
    for (moreau_lid e = 0; e < part_plan_total(p); e++)
      for (int c = 0; c < average; c++)
        spread = fmax(spread, fabs(part->gather_rbuf[w * e + c] - sum[w * p->index[e] + c]));
  if (average && part->iface_split < 1.0) relax(part, w);
  for (moreau_lid s = 0; s < part->n_iface; s++)
    set(obj, width, part->iface_lid[s], &sum[w * s]);
  part->iface_spread = spread;
}

/* The four runs of requests: gather receives, scatter receives, gather
 * sends, scatter sends. */
static MPI_Request *requests(const moreau_part *part, int run)
{
  MPI_Request *r = part->requests;
  const int n[3] = {part->gather_recv.n_rank, part->scatter_recv.n_rank, part->gather_send.n_rank};
  for (int k = 0; k < run; k++)
    r += n[k];
  return r;
}

moreau_err part_interface_reduce_begin(moreau_part *part, const moreau_bodies *b, int width, int average,
                                       part_get_fn get, part_set_fn set, void *obj)
{
  MOREAU_CHECK(part->iface_valid && b->n_owned == part->ghost_n_owned && b->n_ghost == part->n_ghost,
               MOREAU_ERR_INTERNAL, "the interface exchange has no plan for these bodies (build it after the ghosts)");
  MOREAU_CHECK(!part->reduce.open, MOREAU_ERR_INTERNAL, "an interface exchange is already in flight");
  MOREAU_CALL(reserve_width(part, width));
  part->reduce = (part_reduce_state){1, width, average, get, set, obj};
  MOREAU_CALL(post_receives(part, &part->gather_recv, width, part->gather_rbuf, PART_TAG_GATHER, requests(part, 0)));
  MOREAU_CALL(post_receives(part, &part->scatter_recv, width, part->scatter_rbuf, PART_TAG_SCATTER, requests(part, 1)));
  MOREAU_CALL(
      pack_and_send(part, &part->gather_send, width, get, obj, part->gather_sbuf, PART_TAG_GATHER, requests(part, 2)));
  return MOREAU_SUCCESS;
}

moreau_err part_interface_reduce_end(moreau_part *part)
{
  const part_reduce_state r = part->reduce;
  const part_plan *sr = &part->scatter_recv;
  MOREAU_CHECK(r.open, MOREAU_ERR_INTERNAL, "no interface exchange in flight");
  part->reduce.open = 0;
  MOREAU_MPI_CALL(MPI_Waitall(part->gather_recv.n_rank, requests(part, 0), MPI_STATUSES_IGNORE));
  combine(part, r.width, r.average, r.get, r.set, r.obj);
  MOREAU_CALL(pack_and_send(part, &part->scatter_send, r.width, r.get, r.obj, part->scatter_sbuf, PART_TAG_SCATTER,
                            requests(part, 3)));
  MOREAU_MPI_CALL(MPI_Waitall(sr->n_rank, requests(part, 1), MPI_STATUSES_IGNORE));
  for (moreau_lid e = 0; e < part_plan_total(sr); e++)
    r.set(r.obj, r.width, sr->index[e], &part->scatter_rbuf[(size_t)r.width * e]);
  MOREAU_MPI_CALL(
      MPI_Waitall(part->gather_send.n_rank + part->scatter_send.n_rank, requests(part, 2), MPI_STATUSES_IGNORE));
  return MOREAU_SUCCESS;
}

moreau_err part_interface_reduce(moreau_part *part, const moreau_bodies *b, int width, int average, part_get_fn get,
                                 part_set_fn set, void *obj)
{
  MOREAU_CALL(part_interface_reduce_begin(part, b, width, average, get, set, obj));
  MOREAU_CALL(part_interface_reduce_end(part));
  return MOREAU_SUCCESS;
}
