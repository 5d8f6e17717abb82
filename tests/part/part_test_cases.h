#ifndef MOREAU_PART_TEST_CASES_H
#define MOREAU_PART_TEST_CASES_H

#include <check.h>

/* One Check test case per file of tests/part. */
TCase *part_tcase_setup(void);
TCase *part_tcase_ghosts(void);
TCase *part_tcase_migrate(void);
TCase *part_tcase_repartition(void);
TCase *part_tcase_interface(void);
TCase *part_tcase_determinism(void);
TCase *part_tcase_renumber(void);
TCase *part_tcase_wall_carry(void);

#endif
