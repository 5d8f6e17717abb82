# NLGS throughput benchmark of issue 3 (see README.md). Not a test: run by hand.
option(MOREAU_BUILD_BENCHMARKS "Build the benchmark programs" ON)

if(MOREAU_BUILD_BENCHMARKS)
  add_library(moreau_bench_nlgs_common OBJECT ${CMAKE_CURRENT_LIST_DIR}/bench_args.c
                                              ${CMAKE_CURRENT_LIST_DIR}/bench_packing.c
                                              ${CMAKE_CURRENT_LIST_DIR}/bench_measure.c)
  target_compile_options(moreau_bench_nlgs_common PRIVATE ${MOREAU_WARNINGS} ${MOREAU_SANITIZERS})
  target_link_libraries(moreau_bench_nlgs_common PRIVATE moreau)

  add_executable(bench_nlgs ${CMAKE_CURRENT_LIST_DIR}/bench_nlgs.c $<TARGET_OBJECTS:moreau_bench_nlgs_common>)
  target_compile_options(bench_nlgs PRIVATE ${MOREAU_WARNINGS} ${MOREAU_SANITIZERS})
  target_link_libraries(bench_nlgs PRIVATE moreau ${MATH_LIBRARY})

  # Debian: libsiconos-numerics-dev. Optional; its headers include each other
  # by bare name and SiconosConfig.h from the directory above.
  find_path(SICONOS_NUMERICS_INCLUDE_DIR fc2d_Solvers.h PATH_SUFFIXES siconos/numerics)
  find_library(SICONOS_NUMERICS_LIBRARY siconos_numerics)
  if(SICONOS_NUMERICS_INCLUDE_DIR AND SICONOS_NUMERICS_LIBRARY)
    get_filename_component(SICONOS_INCLUDE_DIR ${SICONOS_NUMERICS_INCLUDE_DIR} DIRECTORY)
    message(STATUS "Siconos numerics found: ${SICONOS_NUMERICS_LIBRARY}; building bench_nlgs_siconos")
    add_executable(bench_nlgs_siconos ${CMAKE_CURRENT_LIST_DIR}/bench_nlgs_siconos.c
                                      ${CMAKE_CURRENT_LIST_DIR}/bench_siconos.c
                                      $<TARGET_OBJECTS:moreau_bench_nlgs_common>)
    target_compile_options(bench_nlgs_siconos PRIVATE ${MOREAU_WARNINGS} ${MOREAU_SANITIZERS})
    target_include_directories(bench_nlgs_siconos PRIVATE ${SICONOS_NUMERICS_INCLUDE_DIR} ${SICONOS_INCLUDE_DIR})
    target_link_libraries(bench_nlgs_siconos PRIVATE moreau ${SICONOS_NUMERICS_LIBRARY} ${MATH_LIBRARY})
  else()
    message(STATUS "Siconos numerics not found: bench_nlgs_siconos is not built")
  endif()
endif()

# The memory bandwidth a random-order sweep is bound by (issue 14).
if(MOREAU_BUILD_BENCHMARKS)
  add_executable(bench_memory ${CMAKE_CURRENT_LIST_DIR}/bench_memory.c)
  target_compile_options(bench_memory PRIVATE ${MOREAU_WARNINGS})
endif()

# Checkpoint write/read cost against body and rank count (issue 8).
if(MOREAU_BUILD_BENCHMARKS)
  add_executable(bench_checkpoint ${CMAKE_CURRENT_LIST_DIR}/bench_checkpoint.c)
  target_compile_options(bench_checkpoint PRIVATE ${MOREAU_WARNINGS} ${MOREAU_SANITIZERS})
  target_link_libraries(bench_checkpoint PRIVATE moreau ${MATH_LIBRARY})
endif()
