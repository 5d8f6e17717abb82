#ifndef MOREAU_SHAPES_H
#define MOREAU_SHAPES_H

#include "moreau/error.h"
#include "moreau/types.h"

/* The public API: exported from libmoreau, which hides everything else. */
#pragma GCC visibility push(default)

/* Rigid clusters ("shapes"): a shape is n contactors, disks in 2D and spheres
 * in 3D, each an offset in the body frame and a radius; a body of that shape
 * is their union, rigidly attached (seed 003's aggregates of three
 * overlapping disks). The table holds each shape's geometry and its mass
 * properties per unit density, computed once when the shape is added, so a
 * body only stores a shape id and its density. */

/* Mass properties per unit density of a union of disks (2D, per unit
 * thickness) or spheres (3D), in the frame of the contactors given:
 * measure: area (2D) or volume (3D), i.e. mass / density;
 * centroid: the centre of mass;
 * inertia: the inertia tensor about the centroid (row-major 3x3). In 2D it
 * is the tensor of the plane lamina, so inertia[8] is the polar moment and
 * inertia[0], inertia[4] the moments about the x and y axes. */
typedef struct {
  double measure;
  double centroid[3];
  double inertia[9];
} moreau_shape_mass;

/* Shapes table, structure of arrays (all owned by the table):
 * per shape s: contactors first[s] .. first[s] + count[s] - 1; measure[s],
 * centroid[3s..3s+2] (in the frame the contactors were given in), inertia[9s..]
 * (about the centroid, that frame), principal[3s..] (3D: the principal moments,
 * ascending; 2D: inertia xx, yy and the polar moment in the translated frame),
 * axes[9s..] (row-major rotation R whose columns are the principal axes in the
 * given frame, det R = +1; identity in 2D; moments within 1e-11 of the trace
 * of each other with a coupling below that count as equal, so a symmetric
 * cluster keeps the given axes rather than axes turned by quadrature noise) and the
 * same rotation as a unit
 * quaternion q[4s..] (w, x, y, z) like the bodies' orientations, and
 * bounding[s], the radius about the centroid of the smallest ball centred there
 * that holds the shape.
 * per contactor c: offset[3c..3c+2] in the body frame, whose origin is the
 * centroid (so a body's position is its centre of mass) and, in 3D, whose axes
 * are the principal axes: given = centroid + R offset. z is zero in 2D.
 * radius[c]. */
typedef struct {
  int dim;
  moreau_lid n_shapes, n_contactors;
  moreau_lid cap_shapes, cap_contactors;
  moreau_lid *first, *count;
  double *measure, *centroid, *inertia, *principal, *axes, *q, *bounding;
  double *offset, *radius;
} moreau_shapes;

/* Not collective. dim is 2 or 3. */
MOREAU_MUST_CHECK moreau_err moreau_shapes_create(int dim, moreau_shapes **shapes);
/* Accepts NULL and nulls the handle. */
MOREAU_MUST_CHECK moreau_err moreau_shapes_destroy(moreau_shapes **shapes);

/* Adds a shape of n >= 1 contactors: offsets[3i..3i+2] (z ignored in 2D) and
 * radii[i] > 0 in any frame, overlapping, nested, tangent or apart (a
 * disconnected cluster is integrated as it is). Computes the mass properties
 * of the union and stores the contactors re-expressed in the body frame.
 * shape_id receives the new shape's index. Bad input: MOREAU_ERR_INPUT. */
MOREAU_MUST_CHECK moreau_err moreau_shapes_add(moreau_shapes *shapes, int n, const double *offsets, const double *radii,
                                               moreau_lid *shape_id);

/* Like moreau_shapes_add, then scales the new shape to a bounding radius of
 * 1: bodies use unit shapes, each scaled by its own radius (moreau/bodies.h),
 * so one shape serves every size. *bounding receives the bounding radius of
 * the shape as given (the radius a body needs to have it at that size). */
MOREAU_MUST_CHECK moreau_err moreau_shapes_add_unit(moreau_shapes *shapes, int n, const double *offsets,
                                                    const double *radii, moreau_lid *shape_id, double *bounding);

/* Contactor c of the table on a body at x with orientation q (unit
 * quaternion w, x, y, z) scaled by r: its centre in the world frame (centre
 * = x + r R(q) offset) and its radius. */
static inline void moreau_shape_contactor(const moreau_shapes *shapes, moreau_lid c, const double x[3],
                                          const double q[4], double r, double centre[3], double *radius)
{
  const double *o = shapes->offset + 3 * c;
  /* R(q) o = o + 2 w (u x o) + 2 u x (u x o), u = (q1, q2, q3). */
  double t[3] = {2.0 * (q[2] * o[2] - q[3] * o[1]), 2.0 * (q[3] * o[0] - q[1] * o[2]),
                 2.0 * (q[1] * o[1] - q[2] * o[0])};
  double ro[3] = {o[0] + q[0] * t[0] + q[2] * t[2] - q[3] * t[1], o[1] + q[0] * t[1] + q[3] * t[0] - q[1] * t[2],
                  o[2] + q[0] * t[2] + q[1] * t[1] - q[2] * t[0]};
  for (int k = 0; k < 3; k++)
    centre[k] = x[k] + r * ro[k];
  *radius = r * shapes->radius[c];
}

/* Mass properties of the union of n disks (dim 2) or spheres (dim 3), not the
 * sum of their masses: overlaps count once. Exact for a single contactor;
 * otherwise adaptive Gauss-Legendre quadrature (see src/bodies/shape_mass.c)
 * with tolerances of 1e-13 (2D) and 1e-11 (3D) on the sum of the panels'
 * error estimates, relative to the moments' scales (the tests find 1e-16 to
 * 4e-14 against exact references). The cost grows quickly with n: meant for
 * clusters of a few to some tens. */
MOREAU_MUST_CHECK moreau_err moreau_shape_union_mass(int dim, int n, const double *offsets, const double *radii,
                                                     moreau_shape_mass *mass);

/* Seed 003's aggregate: three equal disks whose centres form an equilateral
 * triangle about the origin, in a circumscribing circle of radius R, with
 * nonconvexity eta = (R - R') / R (seed 003 eq 1) in [0, sqrt(3) - 1]
 * (sqrt(3) - 1 ~ 0.732: three tangent disks). Writes offsets[9] (disk 0 on
 * the +x axis, z = 0) and radii[3]. Same as moreau_shape_ring(3, ...). */
MOREAU_MUST_CHECK moreau_err moreau_shape_trimer(double eta, double R, double *offsets, double *radii);

/* n >= 2 equal disks centred on a regular n-gon about the origin, with
 * circumscribing radius R and nonconvexity eta = (R - R') / R, R' the
 * distance from the centre to the boundary in the concave directions (between
 * two neighbours); eta in [0, 1 - cos(pi/n) / (1 + sin(pi/n))], the upper end
 * being neighbours that touch. Writes offsets[3n] (disk 0 on the +x axis,
 * z = 0) and radii[n]. The derivation is in src/bodies/shape_generators.c. */
MOREAU_MUST_CHECK moreau_err moreau_shape_ring(int n, double eta, double R, double *offsets, double *radii);

#pragma GCC visibility pop

#endif
