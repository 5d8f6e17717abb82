# Collective friction of an array of disks (seed 004): closed forms of the
# rolling mode and the saturation of mu_g at mu' (Fig 8).
moreau_test_program(test_array ${CMAKE_CURRENT_LIST_DIR}/test_array.c)
moreau_serial_test(physics_array test_array TIMEOUT 120)
moreau_mpi_test(physics_array test_array RANKS 2 4 TIMEOUT 180)
