#ifndef MOREAU_PART_H
#define MOREAU_PART_H

#include <mpi.h>

#include "moreau/bodies.h"
#include "moreau/contacts.h"
#include "moreau/domain.h"
#include "moreau/error.h"
#include "moreau/options.h"
#include "moreau/walls.h"

/* The public API: exported from libmoreau, which hides everything else. */
#pragma GCC visibility push(default)

/* Space partition over the ranks of a communicator. By default space is cut by
 * recursive coordinate bisection computed by all ranks; or the domain is
 * covered by a grid of cells partitioned into P parts on rank 0
 * (METIS_PartGraphKway on the cell graph weighted by bodies and contacts, or
 * contiguous blocks). A body belongs to the rank owning the region (the cell)
 * of its centre. The part also keeps
 * the ghost layer and the plan of interface bodies (bodies touched by contacts
 * on more than one rank), whose velocities are glued every NLGS sweep. */
typedef struct moreau_part moreau_part;

/* METIS and BLOCK split a cell grid, whose owner map every rank holds; RCB
 * cuts space recursively (recursive coordinate bisection), computed in
 * parallel, and every rank holds only the P - 1 cuts. */
typedef enum { MOREAU_PART_METIS, MOREAU_PART_BLOCK, MOREAU_PART_RCB } moreau_part_type;

/* What a body weighs in a (re)partition, and what the imbalance measures.
 * COUNT: 1 + its contacts of the last step; the imbalance is max/mean of
 * bodies + contacts. TIME: the same scaled by its rank's measured sweep
 * seconds per unit of that work since the last partition (relative to the
 * mean over all ranks), so that regions whose contacts cost more (clusters,
 * rough walls, a slower node) get fewer; the imbalance is max/mean of the
 * sweep seconds since the last partition. TIME follows the clock, so runs
 * that use it are not bitwise reproducible. */
typedef enum { MOREAU_PART_WEIGHT_COUNT, MOREAU_PART_WEIGHT_TIME } moreau_part_weight;

typedef struct {
  double imbalance;           /* max / mean of per-rank work, measured on entry to the last update */
  int64_t repartitions;       /* so far */
  int64_t migrated;           /* bodies sent to another rank at the last update (global) */
  int64_t sweep_messages;     /* messages sent by this rank per interface average */
  int64_t sweep_bytes;        /* bytes sent by this rank per interface average */
  int64_t interface_bodies;   /* local bodies with multiplicity > 1 */
  int64_t exchange_messages;  /* messages sent by this rank in ghost and migration exchanges, so far */
  int64_t exchange_bytes;     /* bytes in them */
  int64_t exchange_rounds;    /* those exchanges (each ends in a nonblocking barrier), so far */
  double repartition_seconds; /* spent in repartitions (partition, relabelling, migration) so far, this rank */
  int64_t repartition_bytes;  /* sent by this rank in the migrations of those repartitions */
} moreau_part_stats;

/* The partition's map (the same on every rank), as a checkpoint stores it:
 * the grid, and the owner of each cell (METIS, BLOCK) or the cuts (RCB). */
typedef struct {
  moreau_part_type type;
  double lo[3], h;
  int n[3];
  int32_t ncells;
  int nranks;           /* the communicator size the map was made for */
  int *cell_rank;       /* ncells entries (METIS, BLOCK; NULL for RCB) */
  double *rcb_cut;      /* RCB, nranks entries: entry m (1 <= m < nranks) cuts */
  int *rcb_axis;        /* the ranks [r0, r1) with m = r0 + (r1 - r0) / 2 along rcb_axis[m] */
  int64_t repartitions; /* repartitions done before this map, for the record */
} moreau_part_map;

/* Not collective; comm is stored, not duplicated. Defaults: RCB,
 * threshold 1.2, automatic cell size. */
MOREAU_MUST_CHECK moreau_err moreau_part_create(MPI_Comm comm, moreau_part **part);
MOREAU_MUST_CHECK moreau_err moreau_part_destroy(moreau_part **part);
/* Not collective. Reads -part_type, -part_weight, -part_imbalance,
 * -part_cell_size, -part_renumber_every (the table must be registered). */
MOREAU_MUST_CHECK moreau_err moreau_part_set_from_options(moreau_part *part);
/* Not collective; must be the same on every rank; take effect at the next
 * (re)partition. */
void moreau_part_set_type(moreau_part *part, moreau_part_type type);
void moreau_part_set_imbalance(moreau_part *part, double threshold);
void moreau_part_set_weight(moreau_part *part, moreau_part_weight weight);
/* Not collective. Adds the seconds this rank spent sweeping its own
 * contacts in a solve (not waiting for others), for MOREAU_PART_WEIGHT_TIME;
 * the sums restart at every partition. */
void moreau_part_add_sweep_time(moreau_part *part, double seconds);
/* Cell edge; h <= 0 restores the default (twice the largest radius). The
 * grid is capped at 2^20 cells: the edge grows when it would exceed that. */
void moreau_part_set_cell_size(moreau_part *part, double h);
/* Owned bodies are stored along a Morton curve through their centres (so a
 * contact's bodies, and a block of the sweep's, are near in memory) at
 * setup, at every repartition and every `every` updates; 0: never, the
 * bodies keep their input order with migrants appended. Default 100. No
 * result depends on it. */
void moreau_part_set_renumber_every(moreau_part *part, int every);

/* Not collective. The domain whose periodic axes the grid and the ghosts
 * follow (not owned; it must outlive the partition and be the same on every
 * rank). Without one every axis is bounded. Along a periodic axis the grid
 * starts at the box's lower face and covers the period (bodies are expected
 * wrapped into the box), and a body is sent as a ghost to every rank owning
 * cells near any of its images (under Lees-Edwards the images of the current
 * offset: ghosts are rebuilt every step). */
void moreau_part_set_domain(moreau_part *part, const moreau_domain *domain);

/* Collective. Builds the cell grid over the global bounding box of the bodies
 * (widened by margin on each side), partitions it and sends every body, with
 * the history entries whose gid_a it is, to the rank owning its cell. The
 * bodies may start anywhere (e.g. a slab read from a file), and so may the
 * history entries: an entry whose body is on another rank is found through
 * a directory distributed by gid (entries whose body exists nowhere are
 * dropped). history may be NULL on every rank (not on some only). Owned
 * bodies end along the Morton curve (see moreau_part_set_renumber_every),
 * the history sorted by key; ghosts are dropped.
 * With METIS and BLOCK rank 0 computes the partition and broadcasts the cell
 * map; RCB's cuts come from histograms reduced over all ranks. Either
 * depends on the global set of bodies (and of history entries that start on
 * their body's rank), not on which rank holds what. */
MOREAU_MUST_CHECK moreau_err moreau_part_setup(moreau_part *part, moreau_bodies *b, moreau_contacts *history,
                                               double margin);

/* Collective. Sends bodies that moved out of this rank's cells, with their
 * history, to their new owners; repartitions first when the imbalance of
 * work (owned bodies + owned contacts of the last step, given as
 * n_contacts) exceeds the threshold. The imbalance is measured on entry, on
 * the work of the step just done, so a drift is corrected one update after
 * it shows (with MOREAU_PART_WEIGHT_TIME, the imbalance of the sweep seconds
 * since the last partition). A repartition refits the grid to the current
 * bodies, weights each cell (or, with RCB, each body) by its bodies plus
 * their history entries (see moreau_part_weight), and moves everything.
 * Migrants are appended to the owned bodies, which are renumbered as
 * moreau_part_set_renumber_every says; the history ends sorted by key;
 * ghosts are dropped. Bodies outside the grid belong to the nearest edge
 * cell; RCB's outermost regions are unbounded. */
MOREAU_MUST_CHECK moreau_err moreau_part_update(moreau_part *part, moreau_bodies *b, moreau_contacts *history,
                                                moreau_lid n_contacts);

/* Not collective. The owned bodies' lids in increasing gid order (n_owned
 * entries, kept by the partition, not to be freed): valid until the owned
 * set changes (the next update). */
MOREAU_MUST_CHECK moreau_err moreau_part_owned_by_gid(moreau_part *part, const moreau_bodies *b,
                                                      const moreau_lid **lids);
/* Not collective. The same order when the partition has it at hand for b,
 * else NULL; never sorts. */
const moreau_lid *moreau_part_kept_gid_order(const moreau_part *part, const moreau_bodies *b);

/* Collective. Drops the ghosts and copies in every body owned by another
 * rank whose bounding box (centre +- (radius + cutoff)) overlaps a cell (or,
 * with RCB, the region) owned here. Ghosts are ordered by owner rank, then gid. With cutoff >= largest
 * radius + alert distance, the owner of the smaller gid of every pair with a
 * gap below the alert distance holds the other body (owned or ghost). */
MOREAU_MUST_CHECK moreau_err moreau_part_ghosts(moreau_part *part, moreau_bodies *b, double cutoff);

/* Not collective, after setup. A view of the current map (its arrays stay
 * owned by the part, valid until the next repartition). */
void moreau_part_get_map(const moreau_part *part, moreau_part_map *map);
/* Not collective, before setup (the same on every rank). When map->nranks is
 * the communicator's size, setup takes a copy of this map instead of
 * partitioning, so that a run restarted on the same rank count distributes
 * its bodies exactly as before and continues bitwise; otherwise the map is
 * ignored and setup partitions afresh. */
MOREAU_MUST_CHECK moreau_err moreau_part_set_map(moreau_part *part, const moreau_part_map *map);

/* Not collective. Rank owning ghost i (0 <= i < b->n_ghost, counted from the
 * first ghost). */
int moreau_part_ghost_owner(const moreau_part *part, moreau_lid i);

/* Not collective, after setup. The rank owning point x (its cell's, or its
 * RCB region's). */
int moreau_part_rank_of_point(const moreau_part *part, const double x[3]);
/* Not collective, after setup. The grid: cell (i, j, k) spans
 * [lo + (i, j, k) h, lo + (i+1, j+1, k+1) h), has index i + n[0] (j + n[1] k)
 * (n[2] == 1 in 2D), and belongs to rank cell_rank[index]; points outside
 * are clamped to the edge cells. cell_rank is owned by the part and valid
 * until the next repartition (NULL for RCB, which has no cell map). */
void moreau_part_get_grid(const moreau_part *part, double lo[3], double *h, int n[3], const int **cell_rank);

/* Collective. touched[i] (i over owned + ghost bodies) says whether a contact
 * owned by this rank involves body i. Builds the interface plan and returns in
 * mult[i] the number of ranks whose contacts touch body i (at least 1): for
 * owned bodies and touched ghosts the holder count, for untouched ghosts 1.
 * Messages go only between ranks sharing ghosts. Call after
 * moreau_part_ghosts; the plan holds until the next ghosts or update. */
MOREAU_MUST_CHECK moreau_err moreau_part_interface_build(moreau_part *part, const moreau_bodies *b, const char *touched,
                                                         double *mult);

/* Collective. Walls are replicated on every rank; a force-driven wall whose
 * normal velocity is an unknown is glued like an interface body. touched[i]
 * says whether a contact of this rank involves wall i; share[i] returns the
 * number of ranks whose contacts touch it (its copy on this rank has the
 * mass M / share). Call after moreau_part_interface_build. */
MOREAU_MUST_CHECK moreau_err moreau_part_wall_interface_build(moreau_part *part, const moreau_walls *w,
                                                              const char *touched, double *share);

/* The factor on the inverse mass and inertia of a copy of a body held by k
 * ranks, for a copy split in [0.5, 1]: max(1, split k). Split 1 is the mass
 * split M / k, whose plain average of the copies is the whole body's
 * velocity. Below it, each copy answers its rank's impulses more stiffly:
 * in a model of one body whose copies' contacts resolve the same velocity
 * error on j of its k ranks, a sweep multiplies that error by 1 - j / s, so
 * s > k / 2 (split > 1/2) keeps every j in check and a smaller s passes load
 * on faster where one rank pushes and another carries (j = 1). */
static inline double moreau_part_copy_scale(double k, double split) { return k * split > 1.0 ? k * split : 1.0; }

/* The velocities an interface average acts on, wherever the caller keeps
 * them: local body i's (owned then ghosts) are v[stride i + k] and
 * w[stride i + k], k < 2 and k < 1 in 2D (vx, vy and wz), k < 3 in 3D. A
 * solve keeps them in one table (v and w of a body in one cache line);
 * moreau_bodies holds them in its v and w, stride 3 (in 2D, w = b->w + 2). */
typedef struct {
  double *v, *w;
  int stride;
} moreau_part_velocities;

/* Not collective. Starts a solve's averages, after moreau_part_interface_build:
 * the velocities of the interface bodies now are where all their copies
 * start, and each copy has its inverse mass scaled by moreau_part_copy_scale
 * (k, split). Below split 1, every average until the next build moves the
 * owner's common velocity by k / scale times the mean change of the copies
 * since the last average, which is the change their impulses give the whole
 * body, and gives every copy the result. At 1 (and without this call) the
 * averages are plain means. */
MOREAU_MUST_CHECK moreau_err moreau_part_interface_start(moreau_part *part, const moreau_bodies *b,
                                                         const moreau_part_velocities *vel, double split);

/* Collective. Replaces the velocity in vel (of b's local bodies) of
 * every holder copy and of the owner's copy of every interface body by the
 * average over the holder copies (glued as moreau_part_interface_start says
 * when a solve started with a split below 1), summed in a fixed order (the
 * owner's copy first when it is a holder, then holders by increasing rank)
 * so the result is bitwise reproducible. Copies on ranks that do not hold the body are left
 * alone. Nonblocking point-to-point messages with interface neighbours only.
 * Then, when w is not NULL and has force-driven walls touched anywhere, their
 * velocities are averaged over the touching ranks (one small reduction). */
MOREAU_MUST_CHECK moreau_err moreau_part_interface_average(moreau_part *part, const moreau_bodies *b,
                                                           const moreau_part_velocities *vel, moreau_walls *w);
/* The same in two halves, to overlap the messages with work (ghost
 * begin/end): begin sends the holders' copies of the interface bodies'
 * velocities to their owners and starts the nonblocking reduction of the
 * force-driven walls' velocities; end averages and sends the result back,
 * and sets the walls' averages. Between them the caller may change any
 * velocity but an interface body's (a holder copy or the owner's) or a
 * force-driven wall's that several ranks touch. */
MOREAU_MUST_CHECK moreau_err moreau_part_interface_average_begin(moreau_part *part, const moreau_bodies *b,
                                                                 const moreau_part_velocities *vel, moreau_walls *w);
MOREAU_MUST_CHECK moreau_err moreau_part_interface_average_end(moreau_part *part);

/* Not collective; the same answer on every rank. Whether every
 * moreau_part_interface_average_begin given w reduces the force-driven walls'
 * velocities over the ranks (several ranks and a force-driven wall in w), so
 * that small values can ride with it. Call after
 * moreau_part_wall_interface_build. */
int moreau_part_wall_reduces(const moreau_part *part, const moreau_walls *w);

/* The most values moreau_part_wall_carry takes. */
#define MOREAU_PART_CARRY_MAX 16

/* Not collective, but every rank must make the same call. Lets n values
 * ride on the next moreau_part_interface_average_begin's reduction of the
 * walls' velocities, so that a convergence check costs no message of its
 * own (only when moreau_part_wall_reduces). That reduction then runs over
 * one element of a contiguous type of n + 3 (walls) doubles, the values
 * first and the walls' sums after, with op, which must sum every double
 * past the first n and may reduce those n as it likes; its end puts the n
 * reduced values in recv. */
MOREAU_MUST_CHECK moreau_err moreau_part_wall_carry(moreau_part *part, const double *values, int n, MPI_Op op,
                                                    double *recv);

/* Not collective. The largest difference, over this rank's interface bodies
 * and velocity components, between a holder copy and the plain average of
 * the copies in the last moreau_part_interface_average (0 when there was no
 * interface). */
double moreau_part_interface_spread(const moreau_part *part);

/* Collective. values holds width doubles per local body (owned then ghosts:
 * values[width i .. width i + width)). Every holder copy of an interface body
 * (a rank whose contacts touch it, as given to the last
 * moreau_part_interface_build) and the owner's copy get the sum over the
 * holder copies, added in the fixed order of moreau_part_interface_average,
 * so every one of them gets the same bits; the values of other bodies and of
 * copies on ranks that do not hold the body are left alone (and not added:
 * a quantity counted per contact, on the ranks whose contacts touch the
 * body, becomes its global value on every rank that holds it). */
MOREAU_MUST_CHECK moreau_err moreau_part_interface_sum(moreau_part *part, const moreau_bodies *b, double *values,
                                                       int width);

/* Not collective. */
void moreau_part_get_stats(const moreau_part *part, moreau_part_stats *stats);

extern const moreau_option_spec moreau_part_options[];

#pragma GCC visibility pop

#endif
