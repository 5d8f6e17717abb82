# The plotting scripts of tools/ (plot_timeseries, plot_forces,
# plot_profiles, plot_force_pdf, rough_profile): each run on the outputs of tiny moreau runs
# (the fixture plots_runs) or on synthetic files in the documented formats,
# headless, writing valid PNGs that show what they should; their
# computations against hand values; bad input to each (one line, exit 2).
# Skipped (77) when no python3 has numpy, matplotlib and h5py.
set(MOREAU_PLOTS_TEST_DIR ${CMAKE_CURRENT_LIST_DIR})
set(MOREAU_PLOTS_WORK_DIR ${CMAKE_CURRENT_BINARY_DIR}/plots)
set(MOREAU_PLOTS_RUNS ${MOREAU_PLOTS_WORK_DIR}/runs)

add_test(NAME plots_runs COMMAND sh ${MOREAU_PLOTS_TEST_DIR}/runs.sh $<TARGET_FILE:moreau_exe> ${MOREAU_PLOTS_RUNS})
set_tests_properties(plots_runs PROPERTIES TIMEOUT 120 FIXTURES_SETUP plots_runs ENVIRONMENT "${MOREAU_MPI_TEST_ENV}")

# moreau_plots_test(name script [args after the tools folder and work directory])
function(moreau_plots_test name script)
  add_test(NAME ${name} COMMAND sh ${MOREAU_PLOTS_TEST_DIR}/${script} ${PROJECT_SOURCE_DIR}/tools
                                   ${MOREAU_PLOTS_WORK_DIR}/${name} ${ARGN})
  set_tests_properties(${name} PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77
                                         ENVIRONMENT "MPLBACKEND=Agg;PYTHONDONTWRITEBYTECODE=1")
endfunction()

moreau_plots_test(plots_timeseries timeseries.sh ${MOREAU_PLOTS_RUNS})
moreau_plots_test(plots_forces forces.sh ${MOREAU_PLOTS_RUNS})
moreau_plots_test(plots_functions functions.sh ${MOREAU_PLOTS_RUNS})
moreau_plots_test(plots_profiles profiles.sh)
moreau_plots_test(plots_force_pdf force_pdf.sh)
moreau_plots_test(plots_rough rough.sh ${MOREAU_PLOTS_RUNS})
set_tests_properties(plots_timeseries plots_forces plots_functions plots_rough PROPERTIES FIXTURES_REQUIRED plots_runs)
foreach(script IN ITEMS plot_timeseries plot_forces plot_profiles plot_force_pdf)
  moreau_plots_test(plots_${script}_bad_input bad_input.sh ${script} ${MOREAU_PLOTS_RUNS})
  set_tests_properties(plots_${script}_bad_input PROPERTIES FIXTURES_REQUIRED plots_runs)
endforeach()
