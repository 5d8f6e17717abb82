# Physics tests with closed forms or physical invariants. Each runs on 1, 2 and
# 4 ranks: scenes are built on rank 0 (or generated collectively) and
# distributed by setup, and the checks read bodies and contacts by global id.
moreau_test_program(test_collision ${CMAKE_CURRENT_LIST_DIR}/test_collision.c)
moreau_mpi_test(physics_collision test_collision RANKS 1 2 4 TIMEOUT 120)
moreau_test_program(test_static ${CMAKE_CURRENT_LIST_DIR}/test_static.c)
moreau_mpi_test(physics_static test_static RANKS 1 2 4 TIMEOUT 300)
moreau_test_program(test_pile ${CMAKE_CURRENT_LIST_DIR}/test_pile.c)
moreau_mpi_test(physics_pile test_pile RANKS 1 2 4 TIMEOUT 900)
