/* Regular clusters of equal disks: seed 003's trimer and its n-disk kin.
 *
 * Derivation. n disks of radius r centred at distance c from the origin, at
 * angles 2 pi k / n. The circumscribing circle has radius R = c + r. The
 * concave directions bisect two neighbours, at angle pi/n from each centre;
 * along one of them the boundary is the outer crossing point of the two
 * neighbours' circles, at distance s from the origin with
 *   s^2 - 2 s c cos(pi/n) + c^2 = r^2,  s = c C + sqrt(r^2 - c^2 S^2)
 * (C = cos(pi/n), S = sin(pi/n)). That point is on the boundary of the union:
 * every other centre is further from it than the neighbours. And it is the
 * nearest point of the outer boundary: a disk's exposed arc lies between the
 * two bisectors (past a bisector its circle is inside the neighbour), and
 * along it the distance to the origin grows towards the disk's own
 * direction. So R' = s, and eta = (R - R') / R (seed 003 eq 1).
 * Given eta and R, R' = (1 - eta) R; with r = R - c, squaring
 * R' - c C = sqrt((R - c)^2 - c^2 S^2) gives (the c^2 terms cancel as
 * C^2 + S^2 = 1)
 *   c = (R^2 - R'^2) / (2 (R - R' C)),   r = R - c.
 * eta = 0 gives c = 0 (the disks coincide: one disk of radius R). The
 * neighbours touch (2 c S = 2 r, the square root vanishes, R' = c C) at
 *   eta_max = 1 - C / (1 + S),
 * sqrt(3) - 1 ~ 0.732 for the trimer (seed 003: "eta ~ 0.73, a trimer of
 * three disks of vanishing overlap"); beyond it the disks fall apart and R'
 * means something else. For eta in [0, eta_max], R' - c C >= 0, so the
 * squared equation has no spurious root. For the trimer, c > r (eta > 1/2)
 * leaves a small hole at the centre, outside all three disks: it is not part
 * of the union and the mass properties leave it out. */
#include "moreau/shapes.h"

#include <math.h>

moreau_err moreau_shape_ring(int n, double eta, double R, double *offsets, double *radii)
{
  MOREAU_CHECK(n >= 2, MOREAU_ERR_INPUT, "a ring shape needs at least 2 disks, got %d", n);
  const double C = cos(M_PI / n), S = sin(M_PI / n), eta_max = 1.0 - C / (1.0 + S);
  MOREAU_CHECK(R > 0.0 && isfinite(R), MOREAU_ERR_INPUT, "ring shape: circumscribing radius must be positive, got %g",
               R);
  MOREAU_CHECK(eta >= 0.0 && eta <= eta_max, MOREAU_ERR_INPUT,
               "ring shape of %d disks: nonconvexity eta must be in [0, %.6f], got %g", n, eta_max, eta);
  const double Rp = (1.0 - eta) * R, c = (R * R - Rp * Rp) / (2.0 * (R - Rp * C)), r = R - c;
  for (int k = 0; k < n; k++) {
    double a = 2.0 * M_PI * k / n;
    offsets[3 * k] = c * cos(a);
    offsets[3 * k + 1] = c * sin(a);
    offsets[3 * k + 2] = 0.0;
    radii[k] = r;
  }
  return MOREAU_SUCCESS;
}

moreau_err moreau_shape_trimer(double eta, double R, double *offsets, double *radii)
{
  MOREAU_CALL(moreau_shape_ring(3, eta, R, offsets, radii));
  return MOREAU_SUCCESS;
}
