#ifndef MOREAU_TEST_CHECK_RUNNER_H
#define MOREAU_TEST_CHECK_RUNNER_H

#include <check.h>
#include <mpi.h>
#include <stdlib.h>

/* Runs a Check suite on every rank of MPI_COMM_WORLD and returns the same
 * exit status everywhere: failure if any rank saw a failure. */
static inline int moreau_test_run_suite(Suite *suite)
{
  SRunner *sr = srunner_create(suite);
  int failed;
  srunner_run_all(sr, CK_NORMAL);
  failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
