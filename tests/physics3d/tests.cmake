moreau_test_program(test_spheres ${CMAKE_CURRENT_LIST_DIR}/test_spheres.c)
moreau_serial_test(physics3d_spheres test_spheres)
