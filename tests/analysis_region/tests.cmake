# analysis, solid in a region: the exact disk-rectangle area and ball-box
# volume, lattice packings, periodic and Lees-Edwards images, the same double
# on 1 and 3 ranks as on one.
moreau_test_program(test_analysis_region ${CMAKE_CURRENT_LIST_DIR}/test_region.c)
moreau_mpi_test(analysis_region test_analysis_region RANKS 1 3 TIMEOUT 120)
