# The table of bad inputs (tests/robustness/cases.txt): each case runs build
# moreau on 1 or 3 ranks and checks the exit code and the one error line.
add_test(NAME robustness_catalogue
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run_cases.sh $<TARGET_FILE:moreau_exe>
                 ${CMAKE_CURRENT_BINARY_DIR}/robustness ${MPIEXEC_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/cases.txt)
set_tests_properties(robustness_catalogue PROPERTIES TIMEOUT 600 PROCESSORS 2 ENVIRONMENT "${MOREAU_MPI_TEST_ENV}")
