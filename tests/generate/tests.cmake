moreau_test_program(test_generate ${CMAKE_CURRENT_LIST_DIR}/test_generate.c)
moreau_mpi_test(generate test_generate RANKS 1 2 3 4 TIMEOUT 120)
