# analysis, normal-force statistics: mean, histogram and PDF of hand-set and
# sampled forces, the same on every partition, the exponential tail exponent,
# the CSV file and its I/O error on every rank.
moreau_test_program(test_analysis_forces ${CMAKE_CURRENT_LIST_DIR}/test_forces.c)
moreau_mpi_test(analysis_forces test_analysis_forces RANKS 1 2 3 TIMEOUT 120)
