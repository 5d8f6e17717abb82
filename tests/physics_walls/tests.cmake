moreau_test_program(test_walls ${CMAKE_CURRENT_LIST_DIR}/test_walls.c)
moreau_mpi_test(physics_walls test_walls RANKS 1 2 4)
