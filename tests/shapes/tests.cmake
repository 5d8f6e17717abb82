# shapes: mass properties of unions of disks and spheres (closed forms,
# seed 003's trimer, independent references), generators and the table.
moreau_test_program(test_shapes2d ${CMAKE_CURRENT_LIST_DIR}/test_shapes2d.c)
moreau_serial_test(shapes2d test_shapes2d TIMEOUT 120)

moreau_test_program(test_shapes3d ${CMAKE_CURRENT_LIST_DIR}/test_shapes3d.c)
moreau_serial_test(shapes3d test_shapes3d TIMEOUT 120)
