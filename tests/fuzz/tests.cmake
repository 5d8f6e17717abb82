# libFuzzer targets (README.md here): built only with MOREAU_FUZZ (clang and
# the sanitizers), each registered as a bounded, reproducible fuzz run from
# its seed corpus: a fixed seed and a fixed number of inputs, so that CI
# tests the same inputs every time (a random run once turned CI red on an
# HDF5 bug nobody had changed code for); long random campaigns are run by
# hand (README.md).
if(NOT MOREAU_FUZZ)
  return()
endif()
set(MOREAU_FUZZ_DIR ${CMAKE_CURRENT_LIST_DIR})
set(MOREAU_FUZZ_WORK ${CMAKE_CURRENT_BINARY_DIR}/fuzz)
set(MOREAU_FUZZ_SEED 1 CACHE STRING "libFuzzer -seed of the fuzz_* tests")
# Inputs per target: about what 40 s give under the sanitizers on the 2-core
# CI machine (the h5 target opens a file through HDF5 per input). The
# targets have grown slower: 40000 options inputs once took 40 s, and on 29
# November 2026 ran into the cap below (122 s; csv's 30000 took 92 s, h5's
# 4000 75 s), which made the inputs tried depend on the machine's speed.
# Each run is also capped at MOREAU_FUZZ_SECONDS on a slower machine.
set(MOREAU_FUZZ_RUNS_csv 13000)
set(MOREAU_FUZZ_RUNS_h5 2000)
set(MOREAU_FUZZ_RUNS_options 15000)
set(MOREAU_FUZZ_SECONDS 120 CACHE STRING "Longest fuzz_* test run, in seconds")

# The targets' own copy of the library, with libFuzzer's coverage feedback.
moreau_library(moreau_fuzz ${MOREAU_FUZZ_COVERAGE})

# moreau_fuzz_target(name sources...)
function(moreau_fuzz_target name)
  add_executable(${name} ${ARGN} ${MOREAU_FUZZ_DIR}/fuzz_common.c)
  target_compile_options(${name} PRIVATE ${MOREAU_WARNINGS} ${MOREAU_SANITIZERS} ${MOREAU_FUZZ_COVERAGE})
  target_include_directories(${name} PRIVATE ${MOREAU_FUZZ_DIR})
  target_link_options(${name} PRIVATE -fsanitize=fuzzer)
  target_link_libraries(${name} PRIVATE moreau_fuzz PkgConfig::PETSC)
endfunction()

moreau_fuzz_target(fuzz_csv ${MOREAU_FUZZ_DIR}/fuzz_particles.c)
target_compile_definitions(fuzz_csv PRIVATE FUZZ_SUFFIX=".csv")
moreau_fuzz_target(fuzz_h5 ${MOREAU_FUZZ_DIR}/fuzz_particles.c)
target_compile_definitions(fuzz_h5 PRIVATE FUZZ_SUFFIX=".h5")
# The command-line checks are internal to libmoreau: compiled in.
moreau_fuzz_target(fuzz_options ${MOREAU_FUZZ_DIR}/fuzz_options.c ${PROJECT_SOURCE_DIR}/src/app/app_command_line.c)
target_include_directories(fuzz_options PRIVATE ${PROJECT_SOURCE_DIR}/src/app)

# The seed snapshots of fuzz_h5 are written by this build's moreau (2D and
# 3D, a few bodies), so they always have the current layout.
add_test(NAME fuzz_h5_seeds
         COMMAND sh -c "rm -rf \"$1\" && \"$0\" -gen_n 4 -steps 1 -status_every 0 -output_dir \"$1/d2\" \
                        && \"$0\" -dim 3 -gen_n 3 -steps 1 -status_every 0 -output_dir \"$1/d3\""
                 $<TARGET_FILE:moreau_exe> ${MOREAU_FUZZ_WORK}/h5_seeds)
set_tests_properties(fuzz_h5_seeds PROPERTIES TIMEOUT 120 LABELS fuzz FIXTURES_SETUP fuzz_h5_seeds
                     ENVIRONMENT "${MOREAU_MPI_TEST_ENV}")

# A bounded run per target: new inputs go to a corpus in the build tree, the
# seeds are only read; a crash, sanitizer report, leak, hang (-timeout) or
# blown memory limit fails the test and leaves the input as
# crash-*/leak-*/timeout-*/oom-* in the target's work directory.
set(MOREAU_FUZZ_SEEDS_csv ${MOREAU_FUZZ_DIR}/corpus/csv)
set(MOREAU_FUZZ_SEEDS_options ${MOREAU_FUZZ_DIR}/corpus/options)
set(MOREAU_FUZZ_SEEDS_h5 ${MOREAU_FUZZ_WORK}/h5_seeds/d2/snapshots ${MOREAU_FUZZ_WORK}/h5_seeds/d3/snapshots)
foreach(target csv h5 options)
  set(work ${MOREAU_FUZZ_WORK}/${target})
  file(MAKE_DIRECTORY ${work}/corpus)
  add_test(NAME fuzz_${target}
           COMMAND $<TARGET_FILE:fuzz_${target}> -seed=${MOREAU_FUZZ_SEED} -runs=${MOREAU_FUZZ_RUNS_${target}}
                   -max_total_time=${MOREAU_FUZZ_SECONDS} -timeout=20
                   -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=${work}/ ${work}/corpus
                   ${MOREAU_FUZZ_SEEDS_${target}})
  math(EXPR fuzz_timeout "${MOREAU_FUZZ_SECONDS} + 120")
  # A huge malloc returns NULL, as it does outside the sanitizers: HDF5 asks
  # for what a damaged file's metadata says (2^52 bytes seen in H5Fopen) and
  # fails cleanly when it cannot have it.
  set_tests_properties(
    fuzz_${target} PROPERTIES TIMEOUT ${fuzz_timeout} LABELS fuzz
    ENVIRONMENT "${MOREAU_MPI_TEST_ENV};ASAN_OPTIONS=fast_unwind_on_malloc=0:detect_leaks=1:allocator_may_return_null=1")
endforeach()
# HDF5's own over-reads of damaged metadata are not reported
# (tests/sanitize/asan_hdf5.supp says which and why).
set_tests_properties(
  fuzz_h5
  PROPERTIES
    FIXTURES_REQUIRED fuzz_h5_seeds
    ENVIRONMENT
    "${MOREAU_MPI_TEST_ENV};ASAN_OPTIONS=fast_unwind_on_malloc=0:detect_leaks=1:allocator_may_return_null=1:suppressions=${PROJECT_SOURCE_DIR}/tests/sanitize/asan_hdf5.supp"
)
