# Stress, profiles and the analysis columns (issue 11): the Love-Weber
# stress of hand-built contacts (walls included) and moving bodies over
# explicit regions, the invariants of hand tensors, profiles of lattices
# (exact solid fractions, velocities), partition invariance on 1-4 ranks;
# then through the executable: the stress of a static packing against the
# wall tractions (2D, 3D), the -analysis_every means, and the profile and
# force-PDF files of a sheared run.
set(MOREAU_STRESS_TEST_DIR ${CMAKE_CURRENT_LIST_DIR})
moreau_test_program(test_stress ${MOREAU_STRESS_TEST_DIR}/test_stress.c ${MOREAU_STRESS_TEST_DIR}/test_hand.c
                    ${MOREAU_STRESS_TEST_DIR}/test_profile.c ${MOREAU_STRESS_TEST_DIR}/test_partition.c
                    ${PROJECT_SOURCE_DIR}/tests/shear/shear_scene.c
                    ${PROJECT_SOURCE_DIR}/tests/analysis_texture/texture_test.c)
target_include_directories(test_stress PRIVATE ${MOREAU_STRESS_TEST_DIR} ${PROJECT_SOURCE_DIR}/tests/shear
                                               ${PROJECT_SOURCE_DIR}/tests/analysis_texture)
moreau_mpi_test(stress_hand test_stress RANKS 1 2 TIMEOUT 120 ARGS hand)
moreau_mpi_test(stress_invariants test_stress RANKS 1 TIMEOUT 60 ARGS invariants)
moreau_mpi_test(stress_profile test_stress RANKS 1 2 3 TIMEOUT 120 ARGS profile)
moreau_mpi_test(stress_partition test_stress RANKS 1 2 3 4 TIMEOUT 300 ARGS partition)
