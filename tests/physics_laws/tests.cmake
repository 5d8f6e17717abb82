# The contact laws of src/law (cohesive, static_dynamic, rolling) against
# closed forms, on 1, 2 and 4 ranks: scenes are built on rank 0 and
# distributed by setup, and the checks read bodies and contacts by global id.
moreau_test_program(test_laws_cohesive ${CMAKE_CURRENT_LIST_DIR}/test_cohesive.c)
moreau_mpi_test(physics_laws_cohesive test_laws_cohesive RANKS 1 2 4 TIMEOUT 120)
moreau_test_program(test_laws_static_dynamic ${CMAKE_CURRENT_LIST_DIR}/test_static_dynamic.c)
moreau_mpi_test(physics_laws_static_dynamic test_laws_static_dynamic RANKS 1 2 4 TIMEOUT 120)
moreau_test_program(test_laws_rolling ${CMAKE_CURRENT_LIST_DIR}/test_rolling.c)
moreau_mpi_test(physics_laws_rolling test_laws_rolling RANKS 1 2 4 TIMEOUT 120)
# Zero-load bonds converge (they once ran every step to the sweep cap; see
# the file).
moreau_test_program(test_laws_cohesive_convergence ${CMAKE_CURRENT_LIST_DIR}/test_cohesive_convergence.c)
moreau_mpi_test(physics_laws_cohesive_convergence test_laws_cohesive_convergence RANKS 1 2 4 TIMEOUT 60)
