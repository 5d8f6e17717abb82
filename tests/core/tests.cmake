# core: options getters and registry (serial, with PETSc), error traceback and
# its spread over ranks.
moreau_test_program(test_core_options ${CMAKE_CURRENT_LIST_DIR}/test_options.c)
moreau_serial_test(core_options test_core_options TIMEOUT 60)

moreau_test_program(test_core_error ${CMAKE_CURRENT_LIST_DIR}/test_error.c)
moreau_mpi_test(core_error test_core_error RANKS 1 2 TIMEOUT 60)

# Field tables on a container of the test's own, the body schema, and the
# contact law state through push, sort, warm start, compaction and records.
moreau_test_program(test_fields ${CMAKE_CURRENT_LIST_DIR}/test_fields.c)
moreau_serial_test(core_fields test_fields TIMEOUT 60)

# Order-independent sums, in any order and reduced over 1-4 ranks.
moreau_test_program(test_core_sum ${CMAKE_CURRENT_LIST_DIR}/test_sum.c)
moreau_mpi_test(core_sum test_core_sum RANKS 1 2 3 4 TIMEOUT 60)

# The sweep's shuffle: Fisher-Yates' permutation at every size (around the
# size from which it prefetches), and uniform over the orders of 4 entries.
moreau_test_program(test_core_shuffle ${CMAKE_CURRENT_LIST_DIR}/test_shuffle.c)
moreau_serial_test(core_shuffle test_core_shuffle TIMEOUT 60)

# The Morton key's masks against the bit-by-bit interleave it stands for.
moreau_test_program(test_core_morton ${CMAKE_CURRENT_LIST_DIR}/test_morton.c)
moreau_serial_test(core_morton test_core_morton TIMEOUT 60)
