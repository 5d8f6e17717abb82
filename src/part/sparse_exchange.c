#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "part_private.h"

void part_messages_free(part_messages *m)
{
  moreau_free(&m->rank);
  moreau_free(&m->offset);
  moreau_free(&m->data);
  m->n = 0;
}

moreau_err part_messages_alloc(part_messages *m, int n, const int *rank, const int64_t *length)
{
  part_messages_free(m);
  MOREAU_CALL(moreau_malloc((size_t)n * sizeof(int), &m->rank));
  MOREAU_CALL(moreau_malloc(((size_t)n + 1) * sizeof(int64_t), &m->offset));
  m->n = n;
  m->offset[0] = 0;
  for (int k = 0; k < n; k++) {
    m->rank[k] = rank[k];
    m->offset[k + 1] = m->offset[k] + length[k];
  }
  MOREAU_CALL(moreau_malloc((size_t)m->offset[n] * sizeof(double), &m->data));
  return MOREAU_SUCCESS;
}

moreau_err part_messages_from_plan(const part_plan *plan, int record, const void *obj, part_pack_fn pack,
                                   part_messages *m)
{
  int64_t *length;
  MOREAU_CALL(moreau_malloc((size_t)plan->n_rank * sizeof(int64_t), &length));
  for (int k = 0; k < plan->n_rank; k++)
    length[k] = (int64_t)(plan->offset[k + 1] - plan->offset[k]) * record;
  MOREAU_CALL(part_messages_alloc(m, plan->n_rank, plan->rank, length));
  moreau_free(&length);
  for (moreau_lid e = 0; e < part_plan_total(plan); e++)
    pack(obj, plan->index[e], &m->data[(int64_t)e * record]);
  return MOREAU_SUCCESS;
}

typedef struct {
  int source;
  int count;
  double *data;
} arrival;

static int by_source(const void *a, const void *b)
{
  const arrival *x = a, *y = b;
  return (x->source > y->source) - (x->source < y->source);
}

/* Received messages in source order into one buffer. */
static moreau_err gather_arrivals(arrival *in, int n, part_messages *recv)
{
  int *rank;
  int64_t *length;
  if (n > 1) qsort(in, (size_t)n, sizeof(*in), by_source);
  MOREAU_CALL(moreau_malloc((size_t)n * sizeof(int), &rank));
  MOREAU_CALL(moreau_malloc((size_t)n * sizeof(int64_t), &length));
  for (int k = 0; k < n; k++) {
    MOREAU_CHECK(k == 0 || in[k].source != in[k - 1].source, MOREAU_ERR_INTERNAL,
                 "sparse exchange: two messages from rank %d in one round", in[k].source);
    rank[k] = in[k].source;
    length[k] = in[k].count;
  }
  MOREAU_CALL(part_messages_alloc(recv, n, rank, length));
  for (int k = 0; k < n; k++)
    if (in[k].count) memcpy(&recv->data[recv->offset[k]], in[k].data, (size_t)in[k].count * sizeof(double));
  moreau_free(&rank);
  moreau_free(&length);
  return MOREAU_SUCCESS;
}

/* The NBX pattern (Hoefler, Siebert, Lumsdaine, PPoPP 2010): synchronous
 * sends complete only once matched, so a rank whose sends have all completed
 * enters a nonblocking barrier, and once the barrier completes every message
 * of the round has been received. Nobody learns counts first: no array or
 * message grows with the number of ranks, and each rank talks to the ranks it
 * has data for plus the barrier's log P hops. Consecutive rounds alternate
 * tags: a rank can start round k + 1 while a slower one still probes in round
 * k, but not round k + 2, which needs the slower rank in barrier k + 1. */
moreau_err part_sparse_exchange(moreau_part *part, const part_messages *send, part_messages *recv)
{
  int tag = PART_TAG_SPARSE + (int)(part->sparse_round++ & 1), sends_done = 0, done = 0, n_in = 0, cap = 0;
  MPI_Request *req, barrier = MPI_REQUEST_NULL;
  arrival *in = NULL;
  MOREAU_CALL(moreau_malloc(((size_t)send->n + 1) * sizeof(MPI_Request), &req));
  part->stats.exchange_rounds++;
  part->stats.exchange_messages += send->n;
  part->stats.exchange_bytes += (send->n ? send->offset[send->n] : 0) * (int64_t)sizeof(double);
  for (int k = 0; k < send->n; k++) {
    int64_t count = send->offset[k + 1] - send->offset[k];
    MOREAU_CHECK(count <= INT_MAX, MOREAU_ERR_RUNTIME, "part: more than %d doubles in one message", INT_MAX);
    MOREAU_MPI_CALL(
        MPI_Issend(&send->data[send->offset[k]], (int)count, MPI_DOUBLE, send->rank[k], tag, part->comm, &req[k]));
  }
  while (!done) {
    int flag;
    MPI_Status status;
    MOREAU_MPI_CALL(MPI_Iprobe(MPI_ANY_SOURCE, tag, part->comm, &flag, &status));
    if (flag) {
      if (n_in == cap) {
        cap = cap ? 2 * cap : 16;
        MOREAU_CALL(moreau_realloc((size_t)cap * sizeof(*in), &in));
      }
      MOREAU_MPI_CALL(MPI_Get_count(&status, MPI_DOUBLE, &in[n_in].count));
      in[n_in].source = status.MPI_SOURCE;
      MOREAU_CALL(moreau_malloc((size_t)in[n_in].count * sizeof(double), &in[n_in].data));
      MOREAU_MPI_CALL(
          MPI_Recv(in[n_in].data, in[n_in].count, MPI_DOUBLE, status.MPI_SOURCE, tag, part->comm, MPI_STATUS_IGNORE));
      n_in++;
    }
    if (!sends_done) {
      MOREAU_MPI_CALL(MPI_Testall(send->n, req, &sends_done, MPI_STATUSES_IGNORE));
      if (sends_done) MOREAU_MPI_CALL(MPI_Ibarrier(part->comm, &barrier));
    } else {
      MOREAU_MPI_CALL(MPI_Test(&barrier, &done, MPI_STATUS_IGNORE));
    }
  }
  moreau_free(&req);
  MOREAU_CALL(gather_arrivals(in, n_in, recv));
  for (int k = 0; k < n_in; k++)
    moreau_free(&in[k].data);
  moreau_free(&in);
  return MOREAU_SUCCESS;
}
