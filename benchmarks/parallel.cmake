# Issue 4 (distributed memory) measurements: bench_parallel_step, the probe
# behind benchmarks/parallel/RESULTS.md. Not a test: run by hand or by the
# scripts in benchmarks/parallel/.
option(MOREAU_BUILD_BENCHMARKS "Build the benchmark programs" ON)

if(MOREAU_BUILD_BENCHMARKS)
  add_executable(bench_parallel_step ${CMAKE_CURRENT_LIST_DIR}/parallel/bench_parallel_step.c)
  target_compile_options(bench_parallel_step PRIVATE ${MOREAU_WARNINGS} ${MOREAU_SANITIZERS})
  # PETSc directly too: the probe starts PETSc itself, for its options and -log_view.
  target_link_libraries(bench_parallel_step PRIVATE moreau PkgConfig::PETSC)
  # The transport's latency and bandwidth, for the performance model.
  add_executable(bench_pingpong ${CMAKE_CURRENT_LIST_DIR}/parallel/bench_pingpong.c)
  target_compile_options(bench_pingpong PRIVATE ${MOREAU_WARNINGS} ${MOREAU_SANITIZERS})
  target_link_options(bench_pingpong PRIVATE ${MOREAU_SANITIZERS})
  target_link_libraries(bench_pingpong PRIVATE MPI::MPI_C)
endif()
