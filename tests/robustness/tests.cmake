# The table of bad inputs (tests/robustness/cases.txt): each case runs build
# moreau on 1 or 3 ranks and checks the exit code and the one error line
# (some 600 short runs: no leak checks under the sanitizers, see
# MOREAU_INPUT_ERROR_TEST_ENV).
# In two halves (every other case), so that CTest runs them side by side: a
# case is mostly a process start, and one run of the whole table took 166 s.
foreach(k 1 2)
  add_test(NAME robustness_catalogue_${k}of2
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run_cases.sh $<TARGET_FILE:moreau_exe>
                   ${CMAKE_CURRENT_BINARY_DIR}/robustness_${k}of2 ${MPIEXEC_EXECUTABLE}
                   ${CMAKE_CURRENT_LIST_DIR}/cases.txt ${k}/2)
  set_tests_properties(robustness_catalogue_${k}of2 PROPERTIES TIMEOUT 600 ENVIRONMENT "${MOREAU_INPUT_ERROR_TEST_ENV}")
endforeach()

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
