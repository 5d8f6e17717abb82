# find_package(moreau) from another CMake project, against an installed copy.
add_test(NAME package_find_moreau
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/install_and_consume.sh ${PROJECT_BINARY_DIR}
                 ${CMAKE_CURRENT_LIST_DIR}/consumer ${CMAKE_CURRENT_BINARY_DIR}/package_test)
set_tests_properties(package_find_moreau PROPERTIES ENVIRONMENT "${MOREAU_MPI_TEST_ENV}" TIMEOUT 300)
