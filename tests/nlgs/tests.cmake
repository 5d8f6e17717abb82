# nlgs_residual: the law residual of a column of disks with a closed-form
# solution, zero there and positive away from it, for each law, with the
# column split over 1 to 4 ranks; and the law norm as a stopping rule; the
# blocks sweep order reaching the same closed form for every block size; a
# u_minus lying in the solver's records solving to the same bits; the arrays
# a solve borrows (the contacts' normals, forces and gids, the bodies'
# velocities) coming back to the bit, and steps whose solves borrow giving
# the same bits as steps whose solves do not.
moreau_test_program(test_nlgs_residual ${CMAKE_CURRENT_LIST_DIR}/test_residual.c)
moreau_mpi_test(nlgs_residual test_nlgs_residual RANKS 1 2 3 4 TIMEOUT 120)
