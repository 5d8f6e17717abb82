# part module: partition, migration, ghosts, interface average. One program,
# one CTest entry per test case and rank count.
set(MOREAU_PART_TEST_DIR ${CMAKE_CURRENT_LIST_DIR})
moreau_test_program(test_part ${MOREAU_PART_TEST_DIR}/test_part.c ${MOREAU_PART_TEST_DIR}/part_test_util.c
                    ${MOREAU_PART_TEST_DIR}/test_setup.c ${MOREAU_PART_TEST_DIR}/test_ghosts.c
                    ${MOREAU_PART_TEST_DIR}/test_migrate.c ${MOREAU_PART_TEST_DIR}/test_repartition.c
                    ${MOREAU_PART_TEST_DIR}/test_interface.c ${MOREAU_PART_TEST_DIR}/test_determinism.c
                    ${MOREAU_PART_TEST_DIR}/test_renumber.c ${MOREAU_PART_TEST_DIR}/test_wall_carry.c)
foreach(tcase setup ghosts migrate repartition interface determinism renumber wall_carry)
  moreau_mpi_test(part_${tcase} test_part RANKS 1 2 4 8 TIMEOUT 120 ARGS ${tcase})
endforeach()

# History entries with law state (state width 3) through setup from the
# wrong ranks, migration and forced repartitions: each entry stays with its
# body, sorted, with the force and state of its key.
moreau_test_program(test_history_state ${MOREAU_PART_TEST_DIR}/test_history_state.c
                    ${MOREAU_PART_TEST_DIR}/part_test_util.c)
moreau_mpi_test(part_history_state test_history_state RANKS 1 2 4 TIMEOUT 120)
