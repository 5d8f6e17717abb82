#ifndef MOREAU_MORTON_H
#define MOREAU_MORTON_H

/* The Morton (Z-order) curve: a point's key interleaves the bits of its
 * coordinates on an integer grid, so that points near each other along the
 * keys are near each other in space. The sweep orders contacts along it
 * (-nlgs_order blocks) and the partition stores bodies along it, so that
 * what a stretch of the sweep touches is a stretch of memory. */

#include <stdint.h>

#pragma GCC visibility push(default)

/* The key of x on a grid of 2^bits points per axis over the cube of edge
 * `edge` from lo (coordinates outside are clamped; dim * bits <= 64). A
 * cube, not the bounding box: over a box 100 times longer than high the
 * curve's cells would be 100 times wider than high, and a stretch of the
 * curve a single row of bodies. */
static inline uint64_t moreau_morton_key(const double *x, const double lo[3], double edge, int dim, int bits)
{
  uint32_t q[3] = {0, 0, 0};
  uint64_t key = 0;
  const double top = (double)((1u << bits) - 1u);
  for (int d = 0; d < dim; d++) {
    double t = edge > 0.0 ? (x[d] - lo[d]) / edge : 0.0;
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    q[d] = (uint32_t)(t * top);
  }
  for (int bit = bits - 1; bit >= 0; bit--)
    for (int d = 0; d < dim; d++)
      key = key << 1 | ((q[d] >> bit) & 1u);
  return key;
}

#pragma GCC visibility pop

#endif
