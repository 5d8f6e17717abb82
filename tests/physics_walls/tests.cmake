moreau_test_program(test_walls ${CMAKE_CURRENT_LIST_DIR}/test_walls.c)
moreau_mpi_test(physics_walls test_walls RANKS 1 2 4)
# Through the executable: the load rate on 1 and 2 ranks.
add_test(NAME physics_walls_load_rate COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/load_rate.sh $<TARGET_FILE:moreau_exe>
                                              ${CMAKE_CURRENT_BINARY_DIR}/physics_walls/load_rate)
add_test(NAME physics_walls_load_rate_np2
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/load_rate.sh $<TARGET_FILE:moreau_exe>
                 ${CMAKE_CURRENT_BINARY_DIR}/physics_walls/load_rate_np2 ${MPIEXEC_EXECUTABLE} 2)
set_tests_properties(physics_walls_load_rate_np2 PROPERTIES PROCESSORS 2 ENVIRONMENT "${MOREAU_MPI_TEST_ENV}")
