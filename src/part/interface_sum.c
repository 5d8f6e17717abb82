#include "part_private.h"

static void get_values(const void *obj, int width, moreau_lid i, double *out)
{
  const double *values = obj;
  for (int c = 0; c < width; c++)
    out[c] = values[(size_t)width * i + c];
}

static void set_values(void *obj, int width, moreau_lid i, const double *in)
{
  double *values = obj;
  for (int c = 0; c < width; c++)
    values[(size_t)width * i + c] = in[c];
}

moreau_err moreau_part_interface_sum(moreau_part *part, const moreau_bodies *b, double *values, int width)
{
  MOREAU_CHECK(width >= 1, MOREAU_ERR_INTERNAL, "moreau_part_interface_sum: width %d < 1", width);
  MOREAU_CALL(part_interface_reduce(part, b, width, 0, get_values, set_values, values));
  return MOREAU_SUCCESS;
}
