# The moreau program as users run it (tests/app/*.sh drive build/moreau and
# check exit codes, messages and output files), the README's option list, and
# the jobscripts without SLURM (CI has none; see jobscripts/README.md for the
# checks on a real SLURM).
set(MOREAU_APP_TEST_DIR ${CMAKE_CURRENT_LIST_DIR})
set(MOREAU_APP_WORK_DIR ${CMAKE_CURRENT_BINARY_DIR}/app)

# moreau_app_test(name script [args after the executable and work directory])
function(moreau_app_test name script)
  add_test(NAME ${name} COMMAND sh ${MOREAU_APP_TEST_DIR}/${script} $<TARGET_FILE:moreau_exe>
                                   ${MOREAU_APP_WORK_DIR}/${name} ${ARGN})
  set_tests_properties(${name} PROPERTIES TIMEOUT 120 ENVIRONMENT "${MOREAU_MPI_TEST_ENV}")
endfunction()

moreau_app_test(app_help help.sh)
moreau_app_test(app_bad_options bad_options.sh)
moreau_app_test(app_options_file options_file.sh)
moreau_app_test(app_options_file_missing options_file_missing.sh)
moreau_app_test(app_bad_csv bad_csv.sh)
moreau_app_test(app_bad_csv_np2 bad_csv.sh ${MPIEXEC_EXECUTABLE} 2)
# Some 50 and 16 runs that stop at a bad option or particle file: no leak
# checks under the sanitizers (fuzz_options and fuzz_csv check those paths).
set_tests_properties(app_bad_options app_bad_csv app_bad_csv_np2 PROPERTIES ENVIRONMENT "${MOREAU_INPUT_ERROR_TEST_ENV}")
moreau_app_test(app_run run.sh)
moreau_app_test(app_run_np2 run.sh ${MPIEXEC_EXECUTABLE} 2)
moreau_app_test(app_runtime_guard runtime_guard.sh)
moreau_app_test(app_runtime_guard_np3 runtime_guard.sh ${MPIEXEC_EXECUTABLE} 3)
moreau_app_test(app_snapshot_input snapshot_input.sh)
moreau_app_test(app_snapshot_collection snapshot_collection.sh)
moreau_app_test(app_snapshot_box snapshot_box.sh)
moreau_app_test(app_friction_frame friction_frame.sh)
moreau_app_test(app_friction_frame_np2 friction_frame.sh ${MPIEXEC_EXECUTABLE} 2)
moreau_app_test(app_renumber_invariance renumber_invariance.sh)
moreau_app_test(app_renumber_invariance_np3 renumber_invariance.sh ${MPIEXEC_EXECUTABLE} 3)
moreau_app_test(app_long_paths long_paths.sh)
moreau_app_test(app_long_paths_np2 long_paths.sh ${MPIEXEC_EXECUTABLE} 2)
moreau_app_test(app_log_view log_view.sh)
moreau_app_test(app_log_view_np2 log_view.sh ${MPIEXEC_EXECUTABLE} 2)
set_tests_properties(app_bad_csv_np2 app_run_np2 app_log_view_np2 PROPERTIES PROCESSORS 2)
set_tests_properties(app_runtime_guard_np3 PROPERTIES PROCESSORS 3)
set_tests_properties(app_long_paths_np2 app_friction_frame_np2 app_renumber_invariance_np3 PROPERTIES PROCESSORS 2)

# README command 1's script on a smaller cell, twice into the same directory.
moreau_app_test(app_example example.sh ${PROJECT_SOURCE_DIR}/tools)
set_tests_properties(app_example PROPERTIES PROCESSORS 2 SKIP_RETURN_CODE 77
                     ENVIRONMENT "${MOREAU_MPI_TEST_ENV};MPLBACKEND=Agg;PYTHONDONTWRITEBYTECODE=1")

add_test(NAME app_readme_options COMMAND bash ${PROJECT_SOURCE_DIR}/tools/readme_options.sh
                                         $<TARGET_FILE:moreau_exe> ${PROJECT_SOURCE_DIR}/README.md)
set_tests_properties(app_readme_options PROPERTIES TIMEOUT 60 ENVIRONMENT "${MOREAU_MPI_TEST_ENV}")

add_test(NAME jobscripts_syntax COMMAND sh ${MOREAU_APP_TEST_DIR}/jobscripts_syntax.sh ${PROJECT_SOURCE_DIR}/jobscripts)
moreau_app_test(jobscripts_campaign jobscripts_campaign.sh ${PROJECT_SOURCE_DIR}/jobscripts)
moreau_app_test(jobscripts_scaling jobscripts_scaling.sh ${PROJECT_SOURCE_DIR}/jobscripts ${MPIEXEC_EXECUTABLE})
moreau_app_test(jobscripts_run jobscripts_run.sh ${PROJECT_SOURCE_DIR}/jobscripts ${MPIEXEC_EXECUTABLE})
set_tests_properties(jobscripts_scaling jobscripts_run PROPERTIES PROCESSORS 2)

moreau_app_test(app_timeseries_columns timeseries_columns.sh ${PROJECT_SOURCE_DIR}/docs/file-formats.md
                ${PROJECT_SOURCE_DIR}/README.md)
