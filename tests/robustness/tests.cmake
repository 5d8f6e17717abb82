# The table of bad inputs (tests/robustness/cases.txt): each case runs build
# moreau on 1 or 3 ranks and checks the exit code and the one error line.
set(MOREAU_ROBUSTNESS_ENV "${MOREAU_MPI_TEST_ENV}")
if(MOREAU_SANITIZE)
  # Some 400 short runs: ASan and UBSan stay on, but leak checking, which
  # needs the slow unwinder at every allocation of MPI_Init, would take most
  # of the CI time (the fuzz targets check the same error paths for leaks).
  list(APPEND MOREAU_ROBUSTNESS_ENV
       "ASAN_OPTIONS=detect_leaks=0:suppressions=${PROJECT_SOURCE_DIR}/tests/sanitize/asan_hdf5.supp")
endif()
add_test(NAME robustness_catalogue
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run_cases.sh $<TARGET_FILE:moreau_exe>
                 ${CMAKE_CURRENT_BINARY_DIR}/robustness ${MPIEXEC_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/cases.txt)
set_tests_properties(robustness_catalogue PROPERTIES TIMEOUT 600 PROCESSORS 2
                     ENVIRONMENT "${MOREAU_ROBUSTNESS_ENV}")

# A full disk during a snapshot and a checkpoint (a small tmpfs in a private
# mount namespace; skipped where none can be mounted), on 1, 2 and 4 ranks:
# from 3 ranks on, Open MPI's aggregating collective writes once lost the
# failure (a silently incomplete snapshot) or hung.
add_test(NAME robustness_full_disk COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/full_disk.sh $<TARGET_FILE:moreau_exe>
                                           ${CMAKE_CURRENT_BINARY_DIR}/full_disk)
foreach(np 2 4)
  add_test(NAME robustness_full_disk_np${np}
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/full_disk.sh $<TARGET_FILE:moreau_exe>
                   ${CMAKE_CURRENT_BINARY_DIR}/full_disk_np${np} ${MPIEXEC_EXECUTABLE} ${np})
  set_tests_properties(robustness_full_disk_np${np} PROPERTIES PROCESSORS 2)
endforeach()
set_tests_properties(robustness_full_disk robustness_full_disk_np2 robustness_full_disk_np4
                     PROPERTIES TIMEOUT 180 SKIP_RETURN_CODE 77 ENVIRONMENT "${MOREAU_MPI_TEST_ENV}")
