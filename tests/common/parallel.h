#ifndef MOREAU_TEST_PARALLEL_H
#define MOREAU_TEST_PARALLEL_H

/* Helpers for test programs that run on any number of ranks.
 *
 * Results are read by global id, not by local index: each body lives on one
 * rank and each contact on one rank (the owner of its smaller gid), so the
 * helpers gather them to every rank, sorted, or sum over the ranks.
 *
 * Every rank must reach the same verdict: under mpiexec the tests run with
 * CK_FORK=no, and a check failing on one rank only would leave the others
 * waiting in the next collective call. So library errors are agreed on
 * (PAR_TRY) and checks of local values are reduced first (PAR_CHECK);
 * values that are already global (gathered or summed) may go to ck_assert
 * directly. */

#include <check.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <time.h>

#include "moreau/sim.h"

/* A library call that must succeed on every rank of comm; the error is
 * printed by the rank that raised it. Collective: every rank must make the
 * same number of PAR_TRY calls (not one per local item). */
#define PAR_TRY(comm, call)                                                                                            \
  do {                                                                                                                 \
    moreau_err par_err_ = moreau_error_agree((comm), (call));                                                          \
    if (par_err_ && moreau_error_is_local()) moreau_error_print(1);                                                    \
    ck_assert_msg(par_err_ == 0, "%s failed with %d", #call, par_err_);                                                \
  } while (0)

/* Collective over comm: fails on every rank when cond is false on any. */
#define PAR_CHECK(comm, cond, ...)                                                                                     \
  do {                                                                                                                 \
    int par_ok_ = par_all((comm), (cond) ? 1 : 0);                                                                     \
    ck_assert_msg(par_ok_, __VA_ARGS__);                                                                               \
  } while (0)

static inline int par_rank(MPI_Comm comm)
{
  int rank;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

static inline int par_size(MPI_Comm comm)
{
  int size;
  MPI_Comm_size(comm, &size);
  return size;
}

/* Collective: whether flag is nonzero on every rank. */
static inline int par_all(MPI_Comm comm, int flag)
{
  int all = flag != 0;
  MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, comm);
  return all;
}

/* Collective: the sum over the ranks, the same bits on every rank (MPI does
 * not promise that of MPI_Allreduce, and checks must agree). */
static inline double par_sum(MPI_Comm comm, double v)
{
  double sum = 0.0;
  MPI_Reduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, comm);
  MPI_Bcast(&sum, 1, MPI_DOUBLE, 0, comm);
  return sum;
}

static inline double par_max(MPI_Comm comm, double v)
{
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_MAX, comm);
  return v;
}

/* Collective: a barrier that sleeps while it waits, so that ranks waiting for
 * rank 0 to finish a one-rank reference run do not take CPU time from it
 * (the tests run oversubscribed, and MPI waits by polling). */
static inline void par_idle_barrier(MPI_Comm comm)
{
  MPI_Request request;
  int done = 0;
  const struct timespec pause = {0, 1000000};
  MPI_Ibarrier(comm, &request);
  for (MPI_Test(&request, &done, MPI_STATUS_IGNORE); !done; MPI_Test(&request, &done, MPI_STATUS_IGNORE))
    thrd_sleep(&pause, NULL);
}

/* Collective: root's array of *n items of size bytes each, on every rank
 * (*items malloc'ed on the other ranks; free it). */
static inline void par_bcast_items(MPI_Comm comm, int root, void **items, int64_t *n, size_t size)
{
  MPI_Bcast(n, 1, MPI_INT64_T, root, comm);
  if (par_rank(comm) != root) *items = malloc((size_t)(*n + 1) * size);
  MPI_Bcast(*items, (int)((size_t)*n * size), MPI_BYTE, root, comm);
}

/* Collective over comm: the n records of width doubles of every rank,
 * concatenated in rank order, on every rank (*all malloc'ed, *n_all records). */
static inline void par_allgather_records(MPI_Comm comm, const double *rec, int n, int width, double **all,
                                         int64_t *n_all)
{
  int size = par_size(comm), total = 0, mine = n * width;
  int *counts = malloc((size_t)size * sizeof(int)), *displs = malloc((size_t)size * sizeof(int));
  MPI_Allgather(&mine, 1, MPI_INT, counts, 1, MPI_INT, comm);
  for (int r = 0; r < size; r++) {
    displs[r] = total;
    total += counts[r];
  }
  *all = malloc((size_t)(total > 0 ? total : 1) * sizeof(double));
  MPI_Allgatherv(rec, mine, MPI_DOUBLE, *all, counts, displs, MPI_DOUBLE, comm);
  *n_all = total / width;
  free(counts);
  free(displs);
}

static inline int par_body_by_gid(const void *x, const void *y)
{
  const moreau_body *a = x, *b = y;
  return (a->gid > b->gid) - (a->gid < b->gid);
}

/* Collective over comm: the n items of size bytes each of every rank,
 * concatenated in rank order, on every rank (*all malloc'ed, *n_all items). */
static inline void par_allgather_bytes(MPI_Comm comm, const void *items, int n, size_t size, void **all, int64_t *n_all)
{
  int ranks = par_size(comm), total = 0, mine = n * (int)size;
  int *counts = malloc((size_t)ranks * sizeof(int)), *displs = malloc((size_t)ranks * sizeof(int));
  MPI_Allgather(&mine, 1, MPI_INT, counts, 1, MPI_INT, comm);
  for (int r = 0; r < ranks; r++) {
    displs[r] = total;
    total += counts[r];
  }
  *all = malloc((size_t)total + size); /* room for one more item, never 0 bytes */
  MPI_Allgatherv(items, mine, MPI_BYTE, *all, counts, displs, MPI_BYTE, comm);
  *n_all = total / (int64_t)size;
  free(counts);
  free(displs);
}

/* Collective over b->comm: every owned body of every rank, on every rank,
 * sorted by gid (*all malloc'ed; free it). The bodies travel as raw bytes
 * (each zeroed before it is filled, so that padding is deterministic). */
static inline void par_gather_bodies(const moreau_bodies *b, moreau_body **all, int64_t *n_all)
{
  moreau_body *mine = malloc((size_t)(b->n_owned + 1) * sizeof(moreau_body));
  void *gathered;
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    memset(&mine[i], 0, sizeof(moreau_body));
    moreau_bodies_get(b, i, &mine[i]);
  }
  par_allgather_bytes(b->comm, mine, b->n_owned, sizeof(moreau_body), &gathered, n_all);
  *all = gathered;
  qsort(*all, (size_t)*n_all, sizeof(moreau_body), par_body_by_gid);
  free(mine);
}

/* Collective over b->comm: the body of global id gid, on every rank. Returns
 * the number of ranks that own it (1 when all is well; body is zeroed when
 * none does). */
static inline int par_get_body(const moreau_bodies *b, moreau_gid gid, moreau_body *body)
{
  int owner = -1, holders = 0, rank = par_rank(b->comm);
  memset(body, 0, sizeof(*body));
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    if (b->gid[i] != gid) continue;
    holders++;
    owner = rank;
    moreau_bodies_get(b, i, body);
  }
  MPI_Allreduce(MPI_IN_PLACE, &holders, 1, MPI_INT, MPI_SUM, b->comm);
  MPI_Allreduce(MPI_IN_PLACE, &owner, 1, MPI_INT, MPI_MAX, b->comm);
  if (owner < 0) return 0;
  MPI_Bcast(body, (int)sizeof(*body), MPI_BYTE, owner, b->comm);
  return holders;
}

/* One contact with its key, geometry and force, independent of where it lives. */
typedef struct {
  moreau_gid gid_a, gid_b;
  int32_t point;
  double gap, normal[3], ca[3], cb[3], force[3];
} par_contact;

#define PAR_CONTACT_RECORD 16

static inline int par_contact_cmp_key(const par_contact *a, moreau_gid ga, moreau_gid gb, int32_t point)
{
  if (a->gid_a != ga) return a->gid_a < ga ? -1 : 1;
  if (a->gid_b != gb) return a->gid_b < gb ? -1 : 1;
  return (a->point > point) - (a->point < point);
}

static inline int par_contact_by_key(const void *x, const void *y)
{
  const par_contact *b = y;
  return par_contact_cmp_key(x, b->gid_a, b->gid_b, b->point);
}

/* Collective over comm: the contacts of every rank (their bodies in b), on
 * every rank, sorted by key (*all malloc'ed; free it). */
static inline void par_gather_contacts(MPI_Comm comm, const moreau_bodies *b, const moreau_contacts *c,
                                       par_contact **all, int64_t *n_all)
{
  double *rec = malloc((size_t)(c->n + 1) * PAR_CONTACT_RECORD * sizeof(double)), *recs;
  for (moreau_lid k = 0; k < c->n; k++) {
    double *r = &rec[(size_t)k * PAR_CONTACT_RECORD];
    memcpy(&r[0], &c->gid_a[k], sizeof(double));
    memcpy(&r[1], &c->gid_b[k], sizeof(double));
    r[2] = (double)c->point[k];
    r[3] = c->gap[k];
    memcpy(&r[4], &c->normal[3 * k], 3 * sizeof(double));
    moreau_contacts_arms(c, b, k, &r[7], &r[10]);
    memcpy(&r[13], &c->force[3 * k], 3 * sizeof(double));
  }
  par_allgather_records(comm, rec, c->n, PAR_CONTACT_RECORD, &recs, n_all);
  *all = malloc((size_t)(*n_all + 1) * sizeof(par_contact));
  for (int64_t k = 0; k < *n_all; k++) {
    const double *r = &recs[k * PAR_CONTACT_RECORD];
    par_contact *p = &(*all)[k];
    memcpy(&p->gid_a, &r[0], sizeof(double));
    memcpy(&p->gid_b, &r[1], sizeof(double));
    p->point = (int32_t)r[2];
    p->gap = r[3];
    memcpy(p->normal, &r[4], 3 * sizeof(double));
    memcpy(p->ca, &r[7], 3 * sizeof(double));
    memcpy(p->cb, &r[10], 3 * sizeof(double));
    memcpy(p->force, &r[13], 3 * sizeof(double));
  }
  qsort(*all, (size_t)*n_all, sizeof(par_contact), par_contact_by_key);
  free(rec);
  free(recs);
}

/* Collective over the sim's comm: sums over the owned bodies. */
static inline double par_total_mass(const moreau_sim *sim)
{
  const moreau_bodies *b = moreau_sim_bodies(sim);
  double m = 0.0;
  for (moreau_lid i = 0; i < b->n_owned; i++)
    if (b->inv_mass[i] > 0.0) m += 1.0 / b->inv_mass[i];
  return par_sum(moreau_sim_comm(sim), m);
}

static inline double par_kinetic_energy(const moreau_sim *sim)
{
  const moreau_bodies *b = moreau_sim_bodies(sim);
  double e = 0.0;
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    if (b->inv_mass[i] > 0.0)
      e += 0.5 / b->inv_mass[i] *
           (b->v[3 * i] * b->v[3 * i] + b->v[3 * i + 1] * b->v[3 * i + 1] + b->v[3 * i + 2] * b->v[3 * i + 2]);
    if (b->inv_inertia[i] > 0.0)
      e += 0.5 / b->inv_inertia[i] *
           (b->w[3 * i] * b->w[3 * i] + b->w[3 * i + 1] * b->w[3 * i + 1] + b->w[3 * i + 2] * b->w[3 * i + 2]);
  }
  return par_sum(moreau_sim_comm(sim), e);
}

/* Mean of coordinate k of the body centres (unweighted); NaN, which fails
 * any check on it, if the bodies cannot be counted. */
static inline double par_mean_coordinate(const moreau_sim *sim, int k)
{
  const moreau_bodies *b = moreau_sim_bodies(sim);
  double s = 0.0;
  int64_t n = 0;
  moreau_err err = moreau_bodies_global_count(b, &n, NULL);
  for (moreau_lid i = 0; i < b->n_owned; i++)
    s += b->x[3 * i + k];
  s = par_sum(moreau_sim_comm(sim), s);
  if (err) return NAN;
  return n > 0 ? s / (double)n : 0.0;
}

/* Collective over comm: runs the test case named tcase of the suite (all
 * cases when tcase is NULL) without forking on every rank and returns the
 * exit status, nonzero on every rank when a check failed on any. Rank 0
 * prints the report; another rank prints its failures when it has more than
 * rank 0 (a check of a value that differs between ranks). */
static inline int par_run_suite(MPI_Comm comm, Suite *s, const char *tcase)
{
  int failed, root_failed, any_failed, rank = par_rank(comm);
  SRunner *runner = srunner_create(s);
  srunner_set_fork_status(runner, CK_NOFORK);
  srunner_run(runner, NULL, tcase, rank == 0 ? CK_NORMAL : CK_SILENT);
  failed = srunner_ntests_failed(runner);
  root_failed = failed;
  MPI_Bcast(&root_failed, 1, MPI_INT, 0, comm);
  if (failed > root_failed) {
    TestResult **results = srunner_failures(runner);
    for (int i = 0; i < failed; i++)
      fprintf(stderr, "rank %d: %s:%d: %s\n", rank, tr_lfile(results[i]), tr_lno(results[i]), tr_msg(results[i]));
    free(results);
  }
  srunner_free(runner);
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, comm);
  return any_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
