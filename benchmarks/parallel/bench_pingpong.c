/* The MPI transport's latency and bandwidth between ranks 0 and 1, the two
 * parameters of the performance model (perf_model.py): half the round-trip
 * time of a ping-pong for message sizes from 8 bytes to 2 MiB, and the
 * latency of an 8-double allreduce and of a barrier on all ranks.
 *
 *   mpiexec -n 2 bench_pingpong [repeats]
 *
 * Prints one CSV row per size on rank 0: bytes, one-way seconds (best of 5
 * batches of `repeats` round trips; the best, since the model wants the
 * transport, not the noise of a shared machine), bandwidth. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define BATCHES 5

static double best_of_batches(int repeats, double (*batch)(int, void *), void *arg)
{
  double best = 1e300;
  for (int b = 0; b < BATCHES; b++) {
    double t = batch(repeats, arg);
    if (t < best) best = t;
  }
  return best;
}

typedef struct {
  char *buf;
  int bytes, rank;
} pingpong;

static double pingpong_batch(int repeats, void *arg)
{
  pingpong *p = arg;
  double t0;
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  for (int i = 0; i < repeats; i++) {
    if (p->rank == 0) {
      MPI_Send(p->buf, p->bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(p->buf, p->bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (p->rank == 1) {
      MPI_Recv(p->buf, p->bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(p->buf, p->bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
  }
  return (MPI_Wtime() - t0) / (2.0 * repeats);
}

static double allreduce_batch(int repeats, void *arg)
{
  double x[8] = {0}, y[8], t0;
  (void)arg;
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  for (int i = 0; i < repeats; i++)
    MPI_Allreduce(x, y, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return (MPI_Wtime() - t0) / repeats;
}

static double barrier_batch(int repeats, void *arg)
{
  double t0;
  MPI_Request r;
  (void)arg;
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  for (int i = 0; i < repeats; i++) {
    MPI_Ibarrier(MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
  return (MPI_Wtime() - t0) / repeats;
}

int main(int argc, char **argv)
{
  int size, repeats = argc > 1 ? atoi(argv[1]) : 200;
  pingpong p;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &p.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2 || repeats < 1) {
    if (p.rank == 0) fprintf(stderr, "bench_pingpong: error: needs at least 2 ranks and repeats >= 1\n");
    MPI_Finalize();
    return 2;
  }
  p.buf = calloc(1 << 22, 1);
  if (p.rank == 0) printf("bytes,one_way_seconds,bandwidth_bytes_per_second\n");
  for (p.bytes = 8; p.bytes <= (1 << 22); p.bytes *= 4) {
    double t = best_of_batches(p.bytes >= (1 << 20) ? repeats / 10 + 1 : repeats, pingpong_batch, &p);
    if (p.rank == 0) printf("%d,%.3e,%.3e\n", p.bytes, t, p.bytes / t);
  }
  {
    double ta = best_of_batches(repeats, allreduce_batch, NULL), tb = best_of_batches(repeats, barrier_batch, NULL);
    if (p.rank == 0) printf("# on %d ranks: allreduce of 8 doubles %.3e s, nonblocking barrier %.3e s\n", size, ta, tb);
  }
  free(p.buf);
  MPI_Finalize();
  return 0;
}
