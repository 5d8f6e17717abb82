#ifndef MOREAU_PART_PRIVATE_H
#define MOREAU_PART_PRIVATE_H

#include <stdint.h>

#include "moreau/part.h"

/* Every point-to-point message of the part module carries one of these tags,
 * so that two exchanges in flight between the same ranks can never match
 * each other's messages. */
enum {
  PART_TAG_TOUCHED = 7100, /* holder -> owner: which ghosts this rank's contacts touch */
  PART_TAG_HOLDERS,        /* owner -> holder: number of holders of each of those ghosts */
  PART_TAG_GATHER,         /* holder -> owner: copy velocities, every sweep */
  PART_TAG_SCATTER,        /* owner -> holder: averaged velocities, every sweep */
  PART_TAG_SPARSE          /* and PART_TAG_SPARSE + 1: sparse exchange rounds (ghosts, migration) */
};

/* Capping the grid keeps the replicated cell map and the METIS graph small
 * (a few MB) whatever the domain. */
#define PART_MAX_CELLS (1 << 20)

/* Uniform grid of cubic (square in 2D) cells. Positions outside are clamped
 * to the edge cells, so every point has a cell. */
typedef struct {
  int dim;
  double lo[3]; /* corner of cell (0, 0, 0) */
  double h;     /* cell edge */
  int n[3];     /* cells per axis; n[2] == 1 in 2D */
  int32_t ncells;
} part_grid;

/* Local indices grouped by neighbour rank (CSR): entries of rank[r] are
 * index[offset[r] .. offset[r+1]). Ranks are increasing. */
typedef struct {
  int n_rank;
  int *rank;
  int *offset; /* n_rank + 1 */
  moreau_lid *index;
} part_plan;

typedef void (*part_get_fn)(const void *obj, int width, moreau_lid i, double *out);
typedef void (*part_set_fn)(void *obj, int width, moreau_lid i, const double *in);

typedef struct {
  moreau_gid gid;
  moreau_lid lid;
} part_gid_lid;

/* An interface exchange between its begin and its end. */
typedef struct {
  int open, width, average;
  part_get_fn get;
  part_set_fn set;
  void *obj;
} part_reduce_state;

struct moreau_part {
  MPI_Comm comm; /* not owned */
  int rank, size;
  moreau_part_type type;
  double threshold; /* repartition when max/mean work exceeds it */
  moreau_part_weight weight;
  /* Since the last partition: this rank's sweep seconds and its work
   * (owned bodies + contacts, summed over the updates). */
  double sweep_seconds;
  int64_t work_sum;
  double cell_size_option;     /* 0: twice the largest radius */
  double margin;               /* widening of the bounding box, from setup */
  const moreau_domain *domain; /* not owned; NULL: every axis bounded */
  int ready;                   /* setup done */
  int map_given;               /* setup takes the map set by moreau_part_set_map */

  part_grid grid;  /* kept for RCB too: renumbering orders bodies over it */
  int *cell_rank;  /* METIS, BLOCK: grid.ncells entries, the same on every rank */
  double *rcb_cut; /* RCB: size entries, see moreau_part_map */
  int *rcb_axis;

  /* Owned bodies are stored along a Morton curve through their centres
   * (renumber.c): at setup, at every repartition and every renumber_every
   * updates (0: never; migrants are appended in between). */
  int renumber_every;
  int64_t updates; /* moreau_part_update calls so far */

  /* part_gid_index: the owned bodies' lids in increasing gid order (4 bytes
   * a body; lookups read the gids from the bodies). */
  int gid_index_valid;
  moreau_lid gid_index_n;
  moreau_lid *gid_order;

  /* Ghost layer, from the last moreau_part_ghosts. ghost_send holds the owned
   * lids copied to each rank (gid order); ghost_recv the ghost positions
   * (0-based among ghosts) received from each owner. Both orders are the
   * same on the two sides of a pair, which is what lets interface_build talk
   * to neighbours without exchanging counts. */
  int ghosts_valid;
  moreau_lid ghost_n_owned, n_ghost;
  int *ghost_owner;
  part_plan ghost_send, ghost_recv;

  /* Interface plan, from the last moreau_part_interface_build. Owned bodies
   * touched by another rank get a slot s: iface_lid[s], iface_k[s] holders,
   * iface_own[s] whether this rank is one of them. */
  int iface_valid;
  int ncomp; /* doubles per body in the average: 3 in 2D (vx, vy, wz), 6 in 3D */
  moreau_lid n_iface;
  moreau_lid *iface_lid;
  int *iface_k;
  char *iface_own;
  double *iface_sum;
  /* The solve's copy split (moreau_part_interface_start; 1 until then) and,
   * when it is below 1, each slot's common velocity: where its copies
   * started from at the last average (ncomp doubles a slot). */
  double iface_split;
  double *iface_base;
  moreau_part_velocities iface_vel; /* what the average in flight acts on (its reduce's obj) */
  part_plan gather_send;            /* ghost lids of touched ghosts, per owner */
  part_plan gather_recv;            /* interface slots, per holder, in the holder's order */
  part_plan scatter_send;           /* owned lids with >= 2 holders, per remote holder */
  part_plan scatter_recv;           /* ghost lids with >= 2 holders, per owner */
  double *gather_sbuf, *gather_rbuf, *scatter_sbuf, *scatter_rbuf;
  int buf_width; /* doubles per body the slot sum and the four buffers have room for */
  /* Of the last average: the largest |copy - average| of the first
   * `average` components over this rank's interface slots. */
  double iface_spread;
  part_reduce_state reduce; /* the exchange begun and not yet ended */
  MPI_Request *requests;
  uint64_t sparse_round; /* sparse exchanges so far: picks the round's tag */

  /* Force-driven walls touched by contacts, from the last
   * moreau_part_wall_interface_build: per wall whether this rank touches it
   * and how many ranks do, and the reduction buffer. */
  int n_walls, wall_cap, any_force_wall;
  double *wall_touch, *wall_share, *wall_buf; /* wall_buf: carried values, then 3 sums per wall */
  MPI_Request wall_request;                   /* the wall average begun and not yet ended */
  moreau_walls *wall_walls;                   /* the walls it sets at its end */
  /* Values riding on the next wall reduction (moreau_part_wall_carry):
   * how many (0: none), the op, where the result goes, and the type of the
   * reduction in flight that carries them (MPI_DATATYPE_NULL: none). */
  int carry_n;
  double carry[MOREAU_PART_CARRY_MAX];
  MPI_Op carry_op;
  double *carry_recv;
  MPI_Datatype carry_type;

  moreau_part_stats stats;
};

/* part_plan.c */
void part_plan_free(part_plan *p);
/* Builds a plan from n (rank, index) pairs with ranks in [0, size): entries
 * are grouped by rank, keeping their input order within a rank. */
MOREAU_MUST_CHECK moreau_err part_plan_from_pairs(part_plan *p, int size, moreau_lid n, const int *rank,
                                                  const moreau_lid *index);
/* The plan of items i in [0, n) with dest[i] >= 0 and != skip, by dest. */
MOREAU_MUST_CHECK moreau_err part_plan_from_dest(part_plan *p, int size, moreau_lid n, const int *dest, int skip);
static inline moreau_lid part_plan_total(const part_plan *p) { return p->n_rank ? p->offset[p->n_rank] : 0; }

/* cell_grid.c */
/* Collective. Fits the grid to the global bounding box of the owned centres,
 * widened by part->margin, with the cell size from the option or the
 * largest radius. */
MOREAU_MUST_CHECK moreau_err part_grid_build(moreau_part *part, const moreau_bodies *b);
int32_t part_grid_cell(const part_grid *g, const double *x);
/* Cell index range [lo, hi] per axis covering the box x +- r. */
void part_grid_range(const part_grid *g, const double *x, double r, int lo[3], int hi[3]);

/* owner.c */
/* The middle rank of the ranks [r0, r1) (r1 - r0 >= 2), which names the RCB
 * cut between [r0, m) and [m, r1): distinct for every cut of the tree. */
static inline int part_rcb_middle(int r0, int r1) { return r0 + (r1 - r0) / 2; }
/* The rank owning point x under the current map. */
int part_owner(const moreau_part *part, const double *x);
/* Ranks whose RCB region meets the box [lo, hi], one at a time: start with
 * part_rcb_walk_start, then part_rcb_walk_next gives ranks until -1. */
typedef struct {
  int depth;
  int r0[64], r1[64];
} part_rcb_walk;
void part_rcb_walk_start(const moreau_part *part, part_rcb_walk *w);
int part_rcb_walk_next(const moreau_part *part, part_rcb_walk *w, const double *lo, const double *hi);

/* weights.c */
/* Collective. w[i]: what owned body i weighs in a partition (see
 * moreau_part_weight): 1 + its history entries (contacts of the last step
 * whose gid_a it is), times the rank's relative cost under TIME. */
MOREAU_MUST_CHECK moreau_err part_body_weights(moreau_part *part, const moreau_bodies *b,
                                               const moreau_contacts *history, int64_t *w);

/* The measures of TIME start again with a new partition. */
static inline void part_restart_measures(moreau_part *part)
{
  part->sweep_seconds = 0.0;
  part->work_sum = 0;
}

/* partition_rcb.c */
/* Collective. The RCB cuts for the current bodies, weighted like the cells
 * of part_partition (one per body plus one per history entry of it). */
MOREAU_MUST_CHECK moreau_err part_partition_rcb(moreau_part *part, const moreau_bodies *b,
                                                const moreau_contacts *history);

/* partition.c */
/* Collective. Rebuilds the grid and the cell map from the current bodies,
 * weighting cells by bodies and by history entries of their bodies. */
MOREAU_MUST_CHECK moreau_err part_partition(moreau_part *part, const moreau_bodies *b, const moreau_contacts *history);

/* renumber.c */
/* Stores the owned bodies along a Morton curve through their centres over
 * the cube on the grid's corner with its longest edge (ties, and bodies sharing a point, by gid), so that the
 * bodies near each other in space are near each other in memory. Drops the
 * ghosts. Not collective (callers agree on its error); no result depends on
 * the order. */
MOREAU_MUST_CHECK moreau_err part_renumber(moreau_part *part, moreau_bodies *b);

/* relabel.c */
/* Collective. Renumbers the parts of a new cell map so that each goes to
 * the rank that holds most of its bodies now (as far as ranks are free):
 * a rebalance then moves few bodies. Used at repartitions, not at setup,
 * whose split must not depend on where the bodies start. */
MOREAU_MUST_CHECK moreau_err part_relabel(moreau_part *part, const moreau_bodies *b);

/* partition_metis.c, partition_block.c: not collective; cell_rank out. */
MOREAU_MUST_CHECK moreau_err part_partition_metis(const part_grid *g, const int32_t *weight, int nparts,
                                                  int *cell_rank);
MOREAU_MUST_CHECK moreau_err part_partition_block(const part_grid *g, const int32_t *weight, int nparts,
                                                  int *cell_rank);

/* gid_index.c */
/* The owned bodies' lids in increasing gid order, kept by the partition
 * (not to be freed) until the owned set changes: migration and renumbering
 * invalidate it, the next call rebuilds it. */
MOREAU_MUST_CHECK moreau_err part_gid_index(moreau_part *part, const moreau_bodies *b, const moreau_lid **order);
void part_gid_index_invalidate(moreau_part *part);
/* The lid of the owned body gid, or -1 (order: part_gid_index's). */
moreau_lid part_gid_lookup(const moreau_bodies *b, const moreau_lid *order, moreau_gid gid);
void part_gid_sort(part_gid_lid *index, moreau_lid n);
/* The lid of gid in sorted (gid, lid) pairs, or -1. */
moreau_lid part_gid_find(const part_gid_lid *index, moreau_lid n, moreau_gid gid);

/* history_route.c */
/* lid[j]: the owned body whose gid is history->gid_a[j], or -1 (an orphan,
 * e.g. history read from a file slab that does not match the bodies'). */
MOREAU_MUST_CHECK moreau_err part_history_lids(moreau_part *part, const moreau_bodies *b,
                                               const moreau_contacts *history, moreau_lid **lid, int64_t *n_orphans);
/* Collective. dest[i] is the rank to send history entry i to, or -1 when its
 * gid_a is not owned here. Entries with dest -1 on any rank are sent to the
 * rank holding their body (found through a directory spread over the ranks
 * by gid); they come back appended to this rank's history with their dest
 * (or are dropped when no rank owns their gid_a). body_dest[i] is the rank
 * every owned body goes to. *dest may be reallocated. */
MOREAU_MUST_CHECK moreau_err part_history_route(moreau_part *part, const moreau_bodies *b, const int *body_dest,
                                                moreau_contacts *history, int **dest);

/* sparse_exchange.c */
typedef void (*part_pack_fn)(const void *obj, moreau_lid i, double *rec);
/* One message per peer rank, ranks increasing: message k goes to (or came
 * from) rank[k] and is data[offset[k] .. offset[k+1]). */
typedef struct {
  int n;
  int *rank;
  int64_t *offset; /* n + 1 */
  double *data;
} part_messages;
void part_messages_free(part_messages *m);
/* Room for n messages of the given lengths (doubles) to the given ranks. */
MOREAU_MUST_CHECK moreau_err part_messages_alloc(part_messages *m, int n, const int *rank, const int64_t *length);
/* One message per rank of plan: its items packed by pack(obj, index, rec),
 * `record` doubles each, in plan order. */
MOREAU_MUST_CHECK moreau_err part_messages_from_plan(const part_plan *plan, int record, const void *obj,
                                                     part_pack_fn pack, part_messages *m);
/* Collective. Sends each message of send to its rank and receives what any
 * rank sent here, without knowing the senders beforehand, into recv (source
 * ranks increasing, so the result does not depend on arrival order).
 * Point-to-point with the peers plus one nonblocking barrier. */
MOREAU_MUST_CHECK moreau_err part_sparse_exchange(moreau_part *part, const part_messages *send, part_messages *recv);

/* migrate.c */
/* Collective. Sends owned body i to body_dest[i] and history entry j to
 * hist_dest[j]; keeps what stays, appends what arrives (bodies at the end,
 * in the order they came), sorts the history by key, and drops the ghosts. *n_sent is the number of bodies
 * this rank sent away. Bodies travel as their MOREAU_FIELD_MIGRATE fields,
 * history entries as theirs (key, force, law state). */
MOREAU_MUST_CHECK moreau_err part_migrate(moreau_part *part, moreau_bodies *b, const int *body_dest,
                                          moreau_contacts *history, const int *hist_dest, int64_t *n_sent);
/* What part_migrate does when every body and entry stays on its rank
 * (one rank, no orphans): sorts the history if needed, drops the ghosts. */
MOREAU_MUST_CHECK moreau_err part_stay(moreau_part *part, moreau_contacts *history);
/* Doubles of one history record (history may be NULL on every rank). */
int part_history_record(const moreau_contacts *history);
/* part_pack_fn for history entries. */
void part_pack_history(const void *history, moreau_lid i, double *rec);

/* interface_build.c: drops the interface plan (also marks it invalid). */
void part_interface_free(moreau_part *part);

/* interface_reduce.c: the message pattern of the interface plan, shared by
 * the velocity average and the sum of per-body values. get copies the
 * `width` values of local body i out of obj, set writes them back. */

/* Collective. Every holder copy and the owner's copy of every interface body
 * get the sum over the holder copies (divided by the holder count when
 * average is nonzero), added in a fixed order: the owner's copy first when it
 * is a holder, then the holders by increasing rank, so every copy gets the
 * same bits whatever the arrival order of the messages. Other copies are
 * left alone. Nonblocking point-to-point messages with interface neighbours
 * only. With average nonzero, part->iface_spread gets the largest difference
 * between a holder copy and the average over the first `average` components
 * (the velocity's, not the spin's). */
MOREAU_MUST_CHECK moreau_err part_interface_reduce(moreau_part *part, const moreau_bodies *b, int width, int average,
                                                   part_get_fn get, part_set_fn set, void *obj);
/* The same in two halves: begin sends the holders' copies (read now with
 * get) to the owners; end combines them (the owner's own copy read then),
 * sends the result back and sets it. Between them the caller may change
 * anything but the interface bodies' values. */
MOREAU_MUST_CHECK moreau_err part_interface_reduce_begin(moreau_part *part, const moreau_bodies *b, int width,
                                                         int average, part_get_fn get, part_set_fn set, void *obj);
MOREAU_MUST_CHECK moreau_err part_interface_reduce_end(moreau_part *part);

/* wall_average.c: collective; averages the force-driven walls' velocities
 * over the ranks touching them (a no-op without such walls or with w NULL):
 * begin starts the reduction of the velocities as they are now, end sets
 * the averages. */
MOREAU_MUST_CHECK moreau_err part_wall_average_begin(moreau_part *part, moreau_walls *w);
MOREAU_MUST_CHECK moreau_err part_wall_average_end(moreau_part *part);
void part_wall_free(moreau_part *part);

#endif
