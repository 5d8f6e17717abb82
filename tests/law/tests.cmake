# law: the Signorini-Coulomb kernel on hand-built single rows (2D and 3D)
# against closed forms, and the law registry. Serial. The kernel interface is
# internal (src/law/law_kernel.h); the test reaches the kernel only through
# the exported moreau_law_find handle.
moreau_test_program(test_law ${CMAKE_CURRENT_LIST_DIR}/test_law.c)
target_include_directories(test_law PRIVATE ${PROJECT_SOURCE_DIR}/src)
moreau_serial_test(law_signorini_coulomb test_law TIMEOUT 60)
