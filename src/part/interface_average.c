#include "moreau/log.h"
#include "part_private.h"

/* The velocity components a dimension uses: (vx, vy, wz) in 2D, (v, w) in
 * 3D. Sending only these halves the 2D messages. */
static void get_velocity(const moreau_bodies *b, int ncomp, moreau_lid i, double *out)
{
  if (ncomp == 3) {
    out[0] = b->v[3 * i];
    out[1] = b->v[3 * i + 1];
    out[2] = b->w[3 * i + 2];
    return;
  }
  for (int k = 0; k < 3; k++) {
    out[k] = b->v[3 * i + k];
    out[3 + k] = b->w[3 * i + k];
  }
}

static void set_velocity(moreau_bodies *b, int ncomp, moreau_lid i, const double *in)
{
  if (ncomp == 3) {
    b->v[3 * i] = in[0];
    b->v[3 * i + 1] = in[1];
    b->w[3 * i + 2] = in[2];
    return;
  }
  for (int k = 0; k < 3; k++) {
    b->v[3 * i + k] = in[k];
    b->w[3 * i + k] = in[3 + k];
  }
}

static moreau_err post_receives(const moreau_part *part, const part_plan *p, double *buf, int tag, MPI_Request *req)
{
  for (int k = 0; k < p->n_rank; k++)
    MOREAU_MPI_CALL(MPI_Irecv(buf + (size_t)part->ncomp * p->offset[k], part->ncomp * (p->offset[k + 1] - p->offset[k]),
                              MPI_DOUBLE, p->rank[k], tag, part->comm, &req[k]));
  return MOREAU_SUCCESS;
}

static moreau_err pack_and_send(const moreau_part *part, const moreau_bodies *b, const part_plan *p, double *buf,
                                int tag, MPI_Request *req)
{
  int nc = part->ncomp;
  for (moreau_lid e = 0; e < part_plan_total(p); e++)
    get_velocity(b, nc, p->index[e], &buf[(size_t)nc * e]);
  for (int k = 0; k < p->n_rank; k++)
    MOREAU_MPI_CALL(MPI_Isend(buf + (size_t)nc * p->offset[k], nc * (p->offset[k + 1] - p->offset[k]), MPI_DOUBLE,
                              p->rank[k], tag, part->comm, &req[k]));
  return MOREAU_SUCCESS;
}

/* The owner sums its own copy first (when it holds the body), then the
 * holders' copies in increasing rank order: a fixed order, so the average
 * is bitwise reproducible whatever the arrival order of the messages. */
static void average(moreau_part *part, moreau_bodies *b)
{
  int nc = part->ncomp;
  const part_plan *p = &part->gather_recv;
  double *sum = part->iface_sum;
  for (moreau_lid s = 0; s < part->n_iface; s++) {
    if (part->iface_own[s])
      get_velocity(b, nc, part->iface_lid[s], &sum[(size_t)nc * s]);
    else
      for (int c = 0; c < nc; c++)
        sum[(size_t)nc * s + c] = 0.0;
  }
  for (moreau_lid e = 0; e < part_plan_total(p); e++)
    for (int c = 0; c < nc; c++)
      sum[(size_t)nc * p->index[e] + c] += part->gather_rbuf[(size_t)nc * e + c];
  for (moreau_lid s = 0; s < part->n_iface; s++) {
    for (int c = 0; c < nc; c++)
      sum[(size_t)nc * s + c] /= (double)part->iface_k[s];
    set_velocity(b, nc, part->iface_lid[s], &sum[(size_t)nc * s]);
  }
}

moreau_err moreau_part_interface_average(moreau_part *part, moreau_bodies *b, moreau_walls *w)
{
  int nc = part->ncomp;
  /* Requests in four runs: gather receives, scatter receives, gather sends,
   * scatter sends. */
  MPI_Request *gather_recv = part->requests, *scatter_recv = gather_recv + part->gather_recv.n_rank;
  MPI_Request *gather_send = scatter_recv + part->scatter_recv.n_rank;
  MPI_Request *scatter_send = gather_send + part->gather_send.n_rank;
  const part_plan *sr = &part->scatter_recv;
  MOREAU_CHECK(part->iface_valid && b->n_owned == part->ghost_n_owned && b->n_ghost == part->n_ghost,
               MOREAU_ERR_INTERNAL, "moreau_part_interface_average: no interface plan for these bodies");
  moreau_log_begin(MOREAU_EV_EXCHANGE);
  MOREAU_CALL(post_receives(part, &part->gather_recv, part->gather_rbuf, PART_TAG_GATHER, gather_recv));
  MOREAU_CALL(post_receives(part, sr, part->scatter_rbuf, PART_TAG_SCATTER, scatter_recv));
  MOREAU_CALL(pack_and_send(part, b, &part->gather_send, part->gather_sbuf, PART_TAG_GATHER, gather_send));
  MOREAU_MPI_CALL(MPI_Waitall(part->gather_recv.n_rank, gather_recv, MPI_STATUSES_IGNORE));
  average(part, b);
  MOREAU_CALL(pack_and_send(part, b, &part->scatter_send, part->scatter_sbuf, PART_TAG_SCATTER, scatter_send));
  MOREAU_MPI_CALL(MPI_Waitall(sr->n_rank, scatter_recv, MPI_STATUSES_IGNORE));
  for (moreau_lid e = 0; e < part_plan_total(sr); e++)
    set_velocity(b, nc, sr->index[e], &part->scatter_rbuf[(size_t)nc * e]);
  MOREAU_MPI_CALL(MPI_Waitall(part->gather_send.n_rank + part->scatter_send.n_rank, gather_send, MPI_STATUSES_IGNORE));
  moreau_log_end(MOREAU_EV_EXCHANGE);
  if (w) MOREAU_CALL(part_wall_average(part, w));
  return MOREAU_SUCCESS;
}
