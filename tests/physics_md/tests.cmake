# The MD comparison law against closed forms: a soft binary collision
# (restitution and contact time of the clipped spring-dashpot) and the
# regularized Coulomb friction of a disk sliding into rolling. 1, 2, 4 ranks.
moreau_test_program(test_md ${CMAKE_CURRENT_LIST_DIR}/test_md.c)
moreau_mpi_test(physics_md test_md RANKS 1 2 4 TIMEOUT 300)
