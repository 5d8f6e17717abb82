/* Rigid clusters from options: the shapes table of a run. */
#include "app_private.h"
#include "moreau/io.h"

const moreau_option_spec moreau_shape_options[] = {
    {"-shape", "<disk|trimer|ring|file>", "disk",
     "bodies are disks/spheres, or rigid clusters: seed 003's trimer, a ring of -shape_n disks (spheres in 3D, "
     "in the xy plane of the body), or the shapes of -shape_file; generated bodies are shape 1, CSV rows choose with "
     "their shape column"},
    {"-shape_eta", "<real>", "",
     "trimer, ring: nonconvexity eta = (R - R') / R of seed 003 eq 1 (trimer: 0 to 0.732, three tangent disks)"},
    {"-shape_n", "<int>", "", "ring: number of disks, >= 2"},
    {"-shape_file", "<file>", "",
     "file: one contactor per line, 'id, x, y, r' (2D) or 'id, x, y, z, r' (3D), ids from 1; each shape is scaled "
     "by its bodies' radius (the radius is the bounding radius)"},
    {NULL, NULL, NULL, NULL}};

/* The trimer or ring of the options, as shape 1. */
static moreau_err add_generated(int kind, moreau_shapes *shapes)
{
  double eta, offsets[3 * 64], radii[64], bound;
  int64_t n = 3;
  moreau_lid s;
  int given;
  MOREAU_CALL(moreau_option_is_set("-shape_eta", &given));
  MOREAU_CHECK(given, MOREAU_ERR_INPUT, "option -shape %s: needs -shape_eta (the nonconvexity)",
               kind == 1 ? "trimer" : "ring");
  MOREAU_CALL(moreau_option_real("-shape_eta", &eta));
  if (kind == 2) {
    MOREAU_CALL(moreau_option_is_set("-shape_n", &given));
    MOREAU_CHECK(given, MOREAU_ERR_INPUT, "option -shape ring: needs -shape_n (the number of disks)");
    MOREAU_CALL(moreau_option_int("-shape_n", &n));
    MOREAU_CHECK(n >= 2 && n <= 64, MOREAU_ERR_INPUT, "option -shape_n: must be in [2, 64], got %lld", (long long)n);
  }
  MOREAU_CALL(moreau_shape_ring((int)n, eta, 1.0, offsets, radii));
  MOREAU_CALL(moreau_shapes_add_unit(shapes, (int)n, offsets, radii, &s, &bound));
  return MOREAU_SUCCESS;
}

static moreau_err read_table(MPI_Comm comm, int kind, moreau_shapes *shapes)
{
  char path[4096];
  if (kind == 3) {
    int given;
    MOREAU_CALL(moreau_option_is_set("-shape_file", &given));
    MOREAU_CHECK(given, MOREAU_ERR_INPUT, "option -shape file: needs -shape_file");
    MOREAU_CALL(moreau_option_string("-shape_file", path, sizeof(path)));
    MOREAU_CALL(moreau_read_shapes(comm, path, shapes));
  } else {
    MOREAU_CALL(add_generated(kind, shapes));
  }
  return MOREAU_SUCCESS;
}

moreau_err app_shapes_from_options(MPI_Comm comm, int dim, moreau_shapes **shapes)
{
  static const char *const kinds[] = {"disk", "trimer", "ring", "file", NULL};
  int kind;
  moreau_err err;
  *shapes = NULL;
  MOREAU_CALL(moreau_option_enum("-shape", kinds, &kind));
  if (kind == 0) return MOREAU_SUCCESS;
  MOREAU_CALL(moreau_shapes_create(dim, shapes));
  err = read_table(comm, kind, *shapes);
  if (err) MOREAU_CALL(moreau_shapes_destroy(shapes));
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}
