# Periodic and Lees-Edwards boundaries: one-rank closed cases (collision
# across a face, Lees-Edwards jumps and image velocities, a dilute sheared
# profile) and partition invariance of sheared periodic packings on 1-8 ranks.
set(MOREAU_SHEAR_TEST_DIR ${CMAKE_CURRENT_LIST_DIR})
moreau_test_program(test_shear ${MOREAU_SHEAR_TEST_DIR}/test_shear.c ${MOREAU_SHEAR_TEST_DIR}/shear_scene.c
                    ${MOREAU_SHEAR_TEST_DIR}/test_face.c ${MOREAU_SHEAR_TEST_DIR}/test_le.c
                    ${MOREAU_SHEAR_TEST_DIR}/test_invariance.c)
target_include_directories(test_shear PRIVATE ${MOREAU_SHEAR_TEST_DIR})
moreau_mpi_test(shear_face test_shear RANKS 1 TIMEOUT 120 ARGS face)
moreau_mpi_test(shear_lees_edwards test_shear RANKS 1 TIMEOUT 120 ARGS lees_edwards)
moreau_mpi_test(shear_invariance test_shear RANKS 1 2 3 4 8 TIMEOUT 300 ARGS invariance)
