#ifndef MOREAU_PART_TEST_UTIL_H
#define MOREAU_PART_TEST_UTIL_H

#include <check.h>
#include <mpi.h>
#include <stdint.h>

#include "moreau/bodies.h"
#include "moreau/contacts.h"
#include "moreau/part.h"

/* The part tests run under mpiexec with CK_FORK=no: a check failing on one
 * rank only would leave the others waiting in a collective call. So every
 * check is reduced over MPI_COMM_WORLD first (part_test_expect) and library
 * errors are agreed on (PT_TRY); every rank then fails alike. */

#define PT_TRY(call)                                                                                                   \
  do {                                                                                                                 \
    moreau_err pt_err_ = moreau_error_agree(MPI_COMM_WORLD, (call));                                                   \
    if (pt_err_ && moreau_error_is_local()) moreau_error_print(1);                                                     \
    ck_assert_msg(pt_err_ == 0, "%s failed with %d", #call, pt_err_);                                                  \
  } while (0)

/* Collective: fails the test on every rank if bad (a count of violations on
 * this rank) is nonzero on any rank. */
#define PT_EXPECT(bad, what)                                                                                           \
  do {                                                                                                                 \
    long pt_total_ = part_test_sum((long)(bad));                                                                       \
    ck_assert_msg(pt_total_ == 0, "%s: %ld violations", (what), pt_total_);                                            \
  } while (0)

/* Where the generated bodies start before setup. */
typedef enum {
  PT_ON_ROOT,      /* all on rank 0 */
  PT_SLABS,        /* contiguous gid ranges */
  PT_RANDOM_RANKS, /* each gid on a pseudo-random rank */
} part_test_layout;

/* A random loose packing: n bodies with gids 1..n, centres uniform in
 * [0, side)^dim, radii uniform in [rmin, rmax], velocities from the gid.
 * Every body is a function of (seed, gid) only, so the global set does not
 * depend on the layout or the number of ranks. */
typedef struct {
  int dim;
  int64_t n;
  double side, rmin, rmax;
  uint64_t seed;
} part_test_scene;

long part_test_sum(long v);
double part_test_max(double v);
double part_test_sum_double(double v);
void part_test_body(const part_test_scene *s, moreau_gid gid, moreau_body *body);
/* Creates the bodies of the scene this rank starts with. */
moreau_err part_test_make_bodies(const part_test_scene *s, part_test_layout layout, moreau_bodies **b);
/* A known warm-start force for a history key. */
void part_test_force(moreau_gid ga, moreau_gid gb, int32_t point, double *force);
/* Two history entries per body: (gid, gid + 1, 0) and (gid, wall 0, 1), with
 * part_test_force. When shift is nonzero, the entries of the bodies of this
 * rank are created on rank (rank + shift) mod P instead (history that does
 * not start with its bodies). */
moreau_err part_test_make_history(const moreau_bodies *b, int shift, moreau_contacts **h);

/* Violations on this rank of: no gid owned twice; every owned body in a
 * cell of this rank (cell computed here from the grid, independently of
 * the library's cell function). */
long part_test_check_ownership(const moreau_part *part, const moreau_bodies *b);
/* Violations of: every entry's gid_a owned here, force as made by
 * part_test_make_history, sorted by key. */
long part_test_check_history(const moreau_bodies *b, const moreau_contacts *h);
/* The rank that owns the cell of x, from the grid (test's own cell formula). */
int part_test_owner_of(const moreau_part *part, const double *x);
/* 1 when the two parts' maps (grid, and cells or RCB cuts) differ. */
long part_test_maps_differ(const moreau_part *a, const moreau_part *b);
/* Collective. 1 on a rank whose map differs from rank 0's. */
long part_test_map_as_root(const moreau_part *part);

/* The bodies' own velocities as an interface average's input. */
static inline moreau_part_velocities part_test_body_velocities(moreau_bodies *b)
{
  return (moreau_part_velocities){b->v, b->dim == 2 ? b->w + 2 : b->w, 3};
}

/* Collective: gathers n records of width doubles from every rank on rank 0,
 * which gets them in rank order (*all, malloc'ed) with the count of each
 * rank (*counts, malloc'ed, size entries); other ranks get NULLs. */
void part_test_gather(const double *rec, int n, int width, double **all, int **counts);
/* A gid stored bitwise in a double record. */
double part_test_gid_to_double(moreau_gid gid);
moreau_gid part_test_double_to_gid(double d);

/* Collective: runs the named suite (or all) and returns the exit status,
 * nonzero on every rank if a check failed on any. */
int part_test_run(Suite *s);

#endif
