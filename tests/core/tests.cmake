# core: options getters and registry (serial, with PETSc), error traceback and
# its spread over ranks.
moreau_test_program(test_core_options ${CMAKE_CURRENT_LIST_DIR}/test_options.c)
moreau_serial_test(core_options test_core_options TIMEOUT 60)

moreau_test_program(test_core_error ${CMAKE_CURRENT_LIST_DIR}/test_error.c)
moreau_mpi_test(core_error test_core_error RANKS 1 2 TIMEOUT 60)
