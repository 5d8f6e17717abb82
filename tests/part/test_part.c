/* MPI test program of the part module; argv[1] names the test case to run
 * (setup, ghosts, migrate, repartition, interface, wall_carry, determinism, renumber), so that
 * CTest reports each at each rank count. */
#include <petscsys.h>
#include <string.h>

#include "moreau/log.h"
#include "part_test_cases.h"
#include "part_test_util.h"

static const struct {
  const char *name;
  TCase *(*make)(void);
} cases[] = {{"setup", part_tcase_setup},         {"ghosts", part_tcase_ghosts},
             {"migrate", part_tcase_migrate},     {"repartition", part_tcase_repartition},
             {"interface", part_tcase_interface}, {"determinism", part_tcase_determinism},
             {"renumber", part_tcase_renumber},   {"wall_carry", part_tcase_wall_carry}};

int main(int argc, char **argv)
{
  Suite *s = suite_create("part");
  int status, found = 0;
  if (PetscInitialize(&argc, &argv, NULL, NULL)) return 1;
  moreau_log_register();
  if (moreau_options_register("Partitioning", moreau_part_options)) return 1;
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
    if (argc < 2 || !strcmp(argv[1], cases[i].name)) {
      suite_add_tcase(s, cases[i].make());
      found = 1;
    }
  if (!found) {
    fprintf(stderr, "test_part: unknown test case %s\n", argv[1]);
    PetscFinalize();
    return 2;
  }
  status = part_test_run(s);
  PetscFinalize();
  return status;
}
