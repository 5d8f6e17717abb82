# Collective friction of an array of disks (seed 004): closed forms of the
# rolling mode and the saturation of mu_g at mu' (Fig 8); the MD law (RC1)
# reaches C1's steady state from every start, C2 holds the array at rest
# below its static threshold where C1 moves it; on one rank, the effective
# friction of 5 disks against their acceleration, CD against MD (Figs
# 10-11: they part only where a loop of NS contacts forms).
moreau_test_program(test_array ${CMAKE_CURRENT_LIST_DIR}/test_array.c)
moreau_serial_test(physics_array test_array TIMEOUT 240)
# Two ranks, not four: the array's few disks make every step a handful of
# messages, and four ranks on a 2-core machine spend their time waiting for
# each other (81 s against 11 s on two; 65 s on three).
moreau_mpi_test(physics_array test_array RANKS 2 TIMEOUT 300)
