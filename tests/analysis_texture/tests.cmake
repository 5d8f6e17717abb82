# Contact texture (analysis): rattlers, coordination and sliding on
# hand-built networks, fabric and force anisotropies against closed forms,
# and every field on 1-4 ranks equal to the one-rank value on dense periodic
# and walled packings.
set(MOREAU_TEXTURE_TEST_DIR ${CMAKE_CURRENT_LIST_DIR})
moreau_test_program(test_texture ${MOREAU_TEXTURE_TEST_DIR}/test_texture.c ${MOREAU_TEXTURE_TEST_DIR}/texture_test.c
                    ${MOREAU_TEXTURE_TEST_DIR}/test_rattlers.c ${MOREAU_TEXTURE_TEST_DIR}/test_fabric.c
                    ${MOREAU_TEXTURE_TEST_DIR}/test_invariance.c ${MOREAU_TEXTURE_TEST_DIR}/test_lattice.c
                    ${PROJECT_SOURCE_DIR}/tests/shear/shear_scene.c)
target_include_directories(test_texture PRIVATE ${MOREAU_TEXTURE_TEST_DIR} ${PROJECT_SOURCE_DIR}/tests/shear)
moreau_mpi_test(texture_rattlers test_texture RANKS 1 2 3 4 TIMEOUT 120 ARGS rattlers)
moreau_mpi_test(texture_fabric test_texture RANKS 1 2 TIMEOUT 120 ARGS fabric)
moreau_mpi_test(texture_invariance test_texture RANKS 1 2 3 4 TIMEOUT 300 ARGS invariance)
# Hexagonal disks and simple cubic spheres: Z = 6 and the lattice fractions.
moreau_mpi_test(texture_lattice test_texture RANKS 1 3 TIMEOUT 120 ARGS lattice)
