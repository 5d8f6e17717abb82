# Partition invariance: each case compares a run on P ranks with the same
# scene run on one rank inside the same program (or, for determinism, two
# runs on P ranks). One program, one CTest entry per case and rank count.
set(MOREAU_PARALLEL_TEST_DIR ${CMAKE_CURRENT_LIST_DIR})
moreau_test_program(test_parallel ${MOREAU_PARALLEL_TEST_DIR}/test_parallel.c ${MOREAU_PARALLEL_TEST_DIR}/invariance.c
                    ${MOREAU_PARALLEL_TEST_DIR}/test_contacts.c ${MOREAU_PARALLEL_TEST_DIR}/test_forces.c
                    ${MOREAU_PARALLEL_TEST_DIR}/test_deposition.c ${MOREAU_PARALLEL_TEST_DIR}/test_drift.c
                    ${MOREAU_PARALLEL_TEST_DIR}/test_determinism.c)
foreach(tcase contacts alert forces deposition drift determinism)
  moreau_mpi_test(parallel_${tcase} test_parallel RANKS 1 2 4 8 TIMEOUT 300 ARGS ${tcase})
endforeach()

# Communication audit: PMPI wrappers in the program count what a step sends
# and to whom; the program exports them so that libmoreau binds to them.
moreau_test_program(test_comm_audit ${MOREAU_PARALLEL_TEST_DIR}/test_comm_audit.c ${MOREAU_PARALLEL_TEST_DIR}/invariance.c)
set_target_properties(test_comm_audit PROPERTIES ENABLE_EXPORTS ON)
moreau_mpi_test(parallel_comm_audit test_comm_audit RANKS 2 4 8 16 TIMEOUT 300)
