# Rigid clusters as bodies: closed forms (lever rule, impact at a lever arm,
# free spin) and partition invariance, on 1, 2 and 4 ranks.
moreau_test_program(test_clusters2d ${CMAKE_CURRENT_LIST_DIR}/test_clusters2d.c)
moreau_mpi_test(clusters2d test_clusters2d RANKS 1 2 4 TIMEOUT 120)
moreau_test_program(test_clusters_parallel ${CMAKE_CURRENT_LIST_DIR}/test_clusters_parallel.c)
moreau_mpi_test(clusters_detection test_clusters_parallel RANKS 1 2 4 TIMEOUT 300 ARGS detection)
# Not on one rank: every rank count runs the one-rank reference itself, so
# a one-rank case would run it twice and compare it with itself (86 s).
moreau_mpi_test(clusters_deposition test_clusters_parallel RANKS 2 4 TIMEOUT 300 ARGS deposition)
moreau_test_program(test_clusters3d ${CMAKE_CURRENT_LIST_DIR}/test_clusters3d.c)
moreau_mpi_test(clusters3d test_clusters3d RANKS 1 2 4 TIMEOUT 120 ARGS closed_forms)
# The free top over 1e5 steps: energy and angular momentum to round-off.
moreau_mpi_test(clusters3d_long_spin test_clusters3d RANKS 1 TIMEOUT 300 ARGS long_spin)
