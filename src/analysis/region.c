#include "moreau/analysis.h"

int moreau_region_contains(const moreau_domain *d, const moreau_region *r, const double x[3])
{
  double y[3] = {x[0], x[1], x[2]};
  moreau_domain_wrap(d, y, NULL);
  for (int k = 0; k < moreau_domain_dim(d); k++)
    if (!(y[k] >= r->lo[k] && y[k] <= r->hi[k])) return 0;
  return 1;
}
