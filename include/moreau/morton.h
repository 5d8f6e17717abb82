#ifndef MOREAU_MORTON_H
#define MOREAU_MORTON_H

/* The Morton (Z-order) curve: a point's key interleaves the bits of its
 * coordinates on an integer grid, so that points near each other along the
 * keys are near each other in space. The sweep orders contacts along it
 * (-nlgs_order blocks) and the partition stores bodies along it, so that
 * what a stretch of the sweep touches is a stretch of memory. */

#include <stdint.h>

#pragma GCC visibility push(default)

/* The bits of q moved to every second bit (bit i to bit 2i): 32 bits to 64. */
static inline uint64_t moreau_morton_spread2(uint32_t q)
{
  uint64_t x = q;
  x = (x | x << 16) & 0x0000ffff0000ffffull;
  x = (x | x << 8) & 0x00ff00ff00ff00ffull;
  x = (x | x << 4) & 0x0f0f0f0f0f0f0f0full;
  x = (x | x << 2) & 0x3333333333333333ull;
  return (x | x << 1) & 0x5555555555555555ull;
}

/* The low 21 bits of q moved to every third bit (bit i to bit 3i). */
static inline uint64_t moreau_morton_spread3(uint32_t q)
{
  uint64_t x = q & 0x1fffffu;
  x = (x | x << 32) & 0x001f00000000ffffull;
  x = (x | x << 16) & 0x001f0000ff0000ffull;
  x = (x | x << 8) & 0x100f00f00f00f00full;
  x = (x | x << 4) & 0x10c30c30c30c30c3ull;
  return (x | x << 2) & 0x1249249249249249ull;
}

/* The key of x on a grid of 2^bits points per axis over the cube of edge
 * `edge` from lo (coordinates outside are clamped; dim 2 with bits <= 32 or
 * dim 3 with bits <= 21). A cube, not the bounding box: over a box 100
 * times longer than high the curve's cells would be 100 times wider than
 * high, and a stretch of the curve a single row of bodies. Bit i of axis d
 * is bit dim i + dim - 1 - d of the key (x's bit first at each level). The
 * bits are spread by masks, not moved one at a time: a loop over them cost
 * the sweep's blocks order about 0.1 s a solve at 1.5e6 contacts. */
static inline uint64_t moreau_morton_key(const double *x, const double lo[3], double edge, int dim, int bits)
{
  uint32_t q[3] = {0, 0, 0};
  const double top = (double)((1ull << bits) - 1u);
  for (int d = 0; d < dim; d++) {
    double t = edge > 0.0 ? (x[d] - lo[d]) / edge : 0.0;
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    q[d] = (uint32_t)(t * top);
  }
  if (dim == 2) return moreau_morton_spread2(q[0]) << 1 | moreau_morton_spread2(q[1]);
  return moreau_morton_spread3(q[0]) << 2 | moreau_morton_spread3(q[1]) << 1 | moreau_morton_spread3(q[2]);
}

#pragma GCC visibility pop

#endif
