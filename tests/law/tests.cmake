# law: the Signorini-Coulomb kernel on hand-built single rows (2D and 3D)
# against closed forms, and the law registry. Serial. The kernel interface is
# internal (src/law/law_kernel.h); the test reaches the kernel only through
# the exported moreau_law_find handle.
moreau_test_program(test_law ${CMAKE_CURRENT_LIST_DIR}/test_law.c)
target_include_directories(test_law PRIVATE ${PROJECT_SOURCE_DIR}/src)
moreau_serial_test(law_signorini_coulomb test_law TIMEOUT 60)

# law_variants: the cohesive, static_dynamic and rolling kernels on
# hand-built rows, against closed forms and against their graphs on random
# contacts. Serial.
moreau_test_program(test_law_variants ${CMAKE_CURRENT_LIST_DIR}/test_law_variants.c)
target_include_directories(test_law_variants PRIVATE ${PROJECT_SOURCE_DIR}/src)
moreau_serial_test(law_variants test_law_variants TIMEOUT 60)
