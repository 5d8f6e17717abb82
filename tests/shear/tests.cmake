# Periodic and Lees-Edwards boundaries: one-rank closed cases (collision
# across a face, Lees-Edwards jumps and image velocities, a dilute sheared
# profile) and partition invariance of sheared periodic packings on 1-8 ranks;
# the rough-wall cell.
set(MOREAU_SHEAR_TEST_DIR ${CMAKE_CURRENT_LIST_DIR})
moreau_test_program(test_shear ${MOREAU_SHEAR_TEST_DIR}/test_shear.c ${MOREAU_SHEAR_TEST_DIR}/shear_scene.c
                    ${MOREAU_SHEAR_TEST_DIR}/test_face.c ${MOREAU_SHEAR_TEST_DIR}/test_le.c
                    ${MOREAU_SHEAR_TEST_DIR}/test_invariance.c ${MOREAU_SHEAR_TEST_DIR}/test_rough.c)
target_include_directories(test_shear PRIVATE ${MOREAU_SHEAR_TEST_DIR})
moreau_mpi_test(shear_face test_shear RANKS 1 TIMEOUT 120 ARGS face)
moreau_mpi_test(shear_lees_edwards test_shear RANKS 1 TIMEOUT 120 ARGS lees_edwards)
moreau_mpi_test(shear_invariance test_shear RANKS 1 2 3 4 8 TIMEOUT 300 ARGS invariance)
# The rough-wall cell: an impact on a wall's grain against its closed form,
# the top wall's momentum balance in a sheared cell, partition invariance.
moreau_mpi_test(shear_rough test_shear RANKS 1 2 4 TIMEOUT 300 ARGS rough)

# Steady dense plane shear under pressure at two inertial numbers (300
# disks, 4 strain units each), then mu(I) rising and phi(I) falling between
# them. The two runs are fixtures of the comparison.
set(MOREAU_SHEAR_WORK_DIR ${CMAKE_CURRENT_BINARY_DIR}/shear)
foreach(case IN ITEMS "0.01;5e-3" "0.1;5e-4")
  list(GET case 0 inertial)
  list(GET case 1 dt)
  add_test(NAME shear_steady_I${inertial}
           COMMAND sh ${MOREAU_SHEAR_TEST_DIR}/steady.sh $<TARGET_FILE:moreau_exe>
                   ${MOREAU_SHEAR_WORK_DIR}/steady_I${inertial} ${inertial} ${dt})
  set_tests_properties(shear_steady_I${inertial} PROPERTIES TIMEOUT 600 FIXTURES_SETUP shear_steady
                                                            ENVIRONMENT "${MOREAU_MPI_TEST_ENV}")
endforeach()
add_test(NAME shear_mu_of_i COMMAND sh ${MOREAU_SHEAR_TEST_DIR}/mu_of_i.sh ${MOREAU_SHEAR_WORK_DIR}/steady_I0.01
                                    ${MOREAU_SHEAR_WORK_DIR}/steady_I0.1)
set_tests_properties(shear_mu_of_i PROPERTIES FIXTURES_REQUIRED shear_steady)
