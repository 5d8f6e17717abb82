# detect: the candidate list kept between steps (-detect_skin) never
# changes the contacts. A unit test of the detector against a second one
# with skin 0, bodies moved in every way the list must notice (serial), and
# runs of the program with three skins that must end bitwise the same
# (tests/detect/skin.sh, which uses the checkpoint tests' helpers).
moreau_test_program(test_detect_skin ${CMAKE_CURRENT_LIST_DIR}/test_skin.c)
moreau_serial_test(detect_skin_unit test_detect_skin TIMEOUT 300)

foreach(case pile sheared rough trimers pile3d sheared3d)
  foreach(np 1 3)
    set(name detect_skin_${case}_np${np})
    add_test(NAME ${name} COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/skin.sh $<TARGET_FILE:moreau_exe>
                                  ${CMAKE_CURRENT_BINARY_DIR}/detect/${name} ${MPIEXEC_EXECUTABLE} ${np} ${case})
    set_tests_properties(${name} PROPERTIES TIMEOUT 300 PROCESSORS ${np} ENVIRONMENT "${MOREAU_MPI_TEST_ENV}")
  endforeach()
endforeach()
