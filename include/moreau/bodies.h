#ifndef MOREAU_BODIES_H
#define MOREAU_BODIES_H

#include <mpi.h>
#include <stddef.h>

#include "moreau/error.h"
#include "moreau/fields.h"
#include "moreau/shapes.h"
#include "moreau/types.h"

/* The public API: exported from libmoreau, which hides everything else. */
#pragma GCC visibility push(default)

/* One body as a plain value: what input readers and generators produce and
 * what moreau_bodies_get returns. In 2D, z components are zero and only w[2]
 * (the spin about z) is used; q is a unit quaternion (w, x, y, z) in both. */
typedef struct {
  moreau_gid gid;
  double x[3], v[3], w[3], q[4];
  double f_ext[3], t_ext[3]; /* constant external force and torque (besides gravity) */
  double radius;
  double inv_mass, inv_inertia; /* 0 for fixed bodies */
  int32_t material;
  int32_t fixed; /* 1: velocity held at its initial value, infinite mass */
  int32_t shape; /* 0: a disk (2D) or sphere (3D) of the radius; s >= 1: shape s of the shapes table */
  int32_t glued; /* 0: free (or fixed); k >= 1: a grain of a rough wall, glued to wall k - 1 (moves with it, fixed) */
} moreau_body;

/* Structure-of-arrays body storage: owned bodies in [0, n_owned), ghosts (copies
 * of bodies owned by other ranks) in [n_owned, n_owned + n_ghost). Vectors have a
 * stride of 3 (x[3*i+k]) whatever the dimension so that 2D and 3D kernels share
 * the layout; quaternions a stride of 4. A body of shape s >= 1 is the
 * rigid cluster s of the shapes table (moreau/shapes.h, whose shape
 * s - 1 it is) scaled by its radius: the radius is the cluster's bounding
 * radius about its centre of mass, which x is. All arrays are owned by the object.
 * The arrays are listed once, with where each goes, in moreau_body_fields
 * (src/bodies/body_fields.c): a new per-body quantity is one member here and
 * one entry there. */
typedef struct {
  MPI_Comm comm; /* not owned */
  int dim;
  moreau_lid n_owned, n_ghost, capacity;
  moreau_gid *gid;
  double *x, *v, *w, *q;
  double *f_ext, *t_ext; /* NULL while every body's are zero (moreau_bodies_enable_external) */
  double *radius, *inv_mass, *inv_inertia;
  int32_t *material, *fixed, *shape, *glued;
  const moreau_shapes *shapes; /* the shapes of the clusters (not owned; NULL: none) */
} moreau_bodies;

/* A body's contactors: a disk or sphere is its own single contactor, a
 * cluster has those of its shape (b->shapes). */
static inline int moreau_bodies_n_contactors(const moreau_bodies *b, moreau_lid i)
{
  return b->shape[i] <= 0 ? 1 : (int)b->shapes->count[b->shape[i] - 1];
}

/* Centre and radius of contactor j of body i when its centre of mass is at
 * x (its own position or an image's). */
static inline void moreau_bodies_contactor(const moreau_bodies *b, moreau_lid i, int j, const double x[3],
                                           double centre[3], double *radius)
{
  if (b->shape[i] <= 0) {
    centre[0] = x[0];
    centre[1] = x[1];
    centre[2] = x[2];
    *radius = b->radius[i];
    return;
  }
  moreau_shape_contactor(b->shapes, b->shapes->first[b->shape[i] - 1] + j, x, &b->q[4 * i], b->radius[i], centre,
                         radius);
}

/* The radius of contactor j of body i (as moreau_bodies_contactor gives it). */
static inline double moreau_bodies_contactor_radius(const moreau_bodies *b, moreau_lid i, int j)
{
  if (b->shape[i] <= 0) return b->radius[i];
  return b->radius[i] * b->shapes->radius[b->shapes->first[b->shape[i] - 1] + j];
}

/* Area (2D) or volume (3D) of body i: of the union of its contactors. */
double moreau_bodies_measure(const moreau_bodies *b, moreau_lid i);
/* The union's measure over the sum of its contactors' measures (1 for a
 * plain body): a quantity summed contactor by contactor times this counts
 * the overlaps once, exactly when the whole body is counted. */
double moreau_bodies_overlap_factor(const moreau_bodies *b, moreau_lid i);

/* The inverse inertia tensor of body i in the world frame, symmetric, as
 * (xx, xy, xz, yy, yz, zz): inv_inertia times the identity for a disk, a
 * sphere or a 2D cluster (which turns about z only); R diag(1 / I_k) R^T for
 * a 3D cluster, I_k the principal moments of its shape at its mass and
 * size and R the rotation of q (a 3D shape's body frame is its principal
 * frame, moreau/shapes.h); zero for a fixed body. */
void moreau_bodies_inv_inertia_world(const moreau_bodies *b, moreau_lid i, double inv[6]);
/* The inertia tensor itself, same layout (zero for a fixed body). */
void moreau_bodies_inertia_world(const moreau_bodies *b, moreau_lid i, double inertia[6]);
/* Rotational kinetic energy w . I w / 2 of body i. */
double moreau_bodies_rotational_energy(const moreau_bodies *b, moreau_lid i);
/* y = S x for a symmetric 3x3 matrix S in the layout above. */
static inline void moreau_sym3_apply(const double S[6], const double x[3], double y[3])
{
  y[0] = S[0] * x[0] + S[1] * x[1] + S[2] * x[2];
  y[1] = S[1] * x[0] + S[3] * x[1] + S[4] * x[2];
  y[2] = S[2] * x[0] + S[4] * x[1] + S[5] * x[2];
}

/* The body schema. */
extern const moreau_field_table moreau_body_fields;

/* Not collective. comm is stored, not duplicated; dim is 2 or 3. */
MOREAU_MUST_CHECK moreau_err moreau_bodies_create(MPI_Comm comm, int dim, moreau_bodies **bodies);
MOREAU_MUST_CHECK moreau_err moreau_bodies_destroy(moreau_bodies **bodies);
MOREAU_MUST_CHECK moreau_err moreau_bodies_reserve(moreau_bodies *b, moreau_lid capacity);

static inline moreau_lid moreau_bodies_n_local(const moreau_bodies *b) { return b->n_owned + b->n_ghost; }

/* Appends an owned body; drops the ghosts first (they are rebuilt after
 * ownership changes). */
MOREAU_MUST_CHECK moreau_err moreau_bodies_push_owned(moreau_bodies *b, const moreau_body *body);
/* Appends a ghost after the owned bodies and existing ghosts. */
MOREAU_MUST_CHECK moreau_err moreau_bodies_push_ghost(moreau_bodies *b, const moreau_body *body);
void moreau_bodies_clear_ghosts(moreau_bodies *b);
void moreau_bodies_get(const moreau_bodies *b, moreau_lid i, moreau_body *body);
MOREAU_MUST_CHECK moreau_err moreau_bodies_set(moreau_bodies *b, moreau_lid i, const moreau_body *body);
/* Gives f_ext and t_ext arrays (zeros) to bodies that have none: they stay
 * NULL, every body's external force and torque zero, until a body with one
 * arrives (pushes and sets do this themselves); code that writes the arrays
 * directly calls this first. */
MOREAU_MUST_CHECK moreau_err moreau_bodies_enable_external(moreau_bodies *b);
/* Frees f_ext, and t_ext, when every local body's is zero (after a file
 * read, which reads into arrays given beforehand). */
void moreau_bodies_trim_external(moreau_bodies *b);

/* Records of the fields in mask (MOREAU_FIELD_MIGRATE for bodies that change
 * rank, MOREAU_FIELD_GHOST for ghost copies), for messages. */
size_t moreau_bodies_record_doubles(unsigned mask);
void moreau_bodies_pack(const moreau_bodies *b, unsigned mask, moreau_lid i, double *rec);
/* Appends an owned body (ghost = 0; drops the ghosts first) or a ghost
 * (ghost = 1) from a record; fields outside mask are zero. */
MOREAU_MUST_CHECK moreau_err moreau_bodies_push_record(moreau_bodies *b, int ghost, unsigned mask, const double *rec);

/* Keeps the owned bodies with keep[i] != 0, in their order, and drops all
 * ghosts. */
MOREAU_MUST_CHECK moreau_err moreau_bodies_compact_owned(moreau_bodies *b, const char *keep);
/* The owned bodies' lids in increasing gid order (n_owned entries, freed by
 * the caller): what a file written in that order holds does not depend on
 * the order the bodies are stored in. */
MOREAU_MUST_CHECK moreau_err moreau_bodies_gid_order(const moreau_bodies *b, moreau_lid **order);
/* Not collective. The order to write the owned bodies in: kept, when not
 * NULL (such an order as the partition keeps; debug builds check that it
 * is one), else sorted here into *sorted, which the caller frees. */
MOREAU_MUST_CHECK moreau_err moreau_bodies_write_order(const moreau_bodies *b, const moreau_lid *kept,
                                                       const moreau_lid **order, moreau_lid **sorted);

/* Collective: global number of owned bodies, and the sum of their global ids
 * (to check that migration neither loses nor duplicates bodies). */
MOREAU_MUST_CHECK moreau_err moreau_bodies_global_count(const moreau_bodies *b, int64_t *count, int64_t *gid_sum);

/* Fills the derived fields of a body of uniform density rho: mass, inertia
 * (disk in 2D: m r^2 / 2, sphere in 3D: 2 m r^2 / 5), unit quaternion. */
void moreau_body_set_mass(moreau_body *body, int dim, double density);
/* The same for a body of any shape: a plain one as above; a cluster
 * (body->shape >= 1, a shape of the table; its radius the scale) gets the
 * mass of its union, rho measure r^dim, and in 2D its polar moment about the
 * centre of mass, rho I_polar r^4. In 3D inv_inertia is that of the largest
 * principal moment and the sim uses the shape's tensor (rotated by q). The
 * orientation is left as it is. */
void moreau_body_set_shape_mass(moreau_body *body, int dim, const moreau_shapes *shapes, double density);

#pragma GCC visibility pop

#endif
