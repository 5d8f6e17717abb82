# Checkpoints and restart of the moreau program (tests/checkpoint/*.sh drive
# build/moreau under mpiexec, kill it and damage its files). Each test is
# `bash <script> MOREAU WORKDIR MPIEXEC [args]` and works in WORKDIR, under
# the build's tests/checkpoint/<test name>. Needs bash, the HDF5 tools
# (h5dump, h5diff, h5ls) and procps (pgrep, pkill, ps).
set(MOREAU_CHECKPOINT_TEST_DIR ${CMAKE_CURRENT_LIST_DIR})
set(MOREAU_CHECKPOINT_WORK_DIR ${CMAKE_CURRENT_BINARY_DIR}/checkpoint)

# moreau_checkpoint_test(name script processors timeout [script args])
function(moreau_checkpoint_test name script processors timeout)
  add_test(NAME ${name}
           COMMAND bash ${MOREAU_CHECKPOINT_TEST_DIR}/${script} $<TARGET_FILE:moreau_exe>
                   ${MOREAU_CHECKPOINT_WORK_DIR}/${name} ${MPIEXEC_EXECUTABLE} ${ARGN})
  set_tests_properties(${name} PROPERTIES TIMEOUT ${timeout} PROCESSORS ${processors}
                                          ENVIRONMENT "${MOREAU_MPI_TEST_ENV}")
endfunction()

# (a) Same rank count: a restart continues bit for bit (final checkpoints'
# /bodies and /history, time series but the timings, each step once); on 2
# ranks also -restart FILE of a checkpoint in the middle of a run; and a
# sheared periodic (Lees-Edwards) run on 1 and 3 ranks.
moreau_checkpoint_test(checkpoint_bitwise_np1 bitwise.sh 1 120 1)
moreau_checkpoint_test(checkpoint_bitwise_np2 bitwise.sh 2 180 2 mid)
moreau_checkpoint_test(checkpoint_bitwise_np4 bitwise.sh 4 180 4)
moreau_checkpoint_test(checkpoint_bitwise_sheared_np1 bitwise.sh 1 120 1 - sheared)
moreau_checkpoint_test(checkpoint_bitwise_sheared_np3 bitwise.sh 3 180 3 - sheared)
moreau_checkpoint_test(checkpoint_bitwise_sheared_rcb_np3 bitwise.sh 3 180 3 - sheared_rcb)
moreau_checkpoint_test(checkpoint_bitwise_rough_np2 bitwise.sh 2 180 2 - rough)
# A restart refuses a shape file edited since the checkpoint.
moreau_checkpoint_test(checkpoint_shape_file_np2 shape_file.sh 2 120 2)
# The same with the laws that keep a per-contact state, and with cohesion.
moreau_checkpoint_test(checkpoint_bitwise_rolling_np2 bitwise.sh 2 180 2 - rolling)
moreau_checkpoint_test(checkpoint_bitwise_static_np1 bitwise.sh 1 180 1 - static)
moreau_checkpoint_test(checkpoint_bitwise_cohesive_np2 bitwise.sh 2 180 2 - cohesive)
moreau_checkpoint_test(checkpoint_bitwise_trimers_np2 bitwise.sh 2 180 2 mid trimers)

# (b) Another rank count: same bodies by gid, no overlap growth, energy and
# wall force of the last 200 steps within 2 % of the run that stayed.
moreau_checkpoint_test(checkpoint_repartition_2to3 repartition.sh 3 180 2 3)
moreau_checkpoint_test(checkpoint_repartition_4to1 repartition.sh 4 180 4 1)

# (c) kill -9 at random moments and while a checkpoint is being written;
# -restart auto always continues from a complete checkpoint (30 + 30 trials,
# fixed seeds; the chain ends bit for bit as an uninterrupted run).
moreau_checkpoint_test(checkpoint_fault_np1 fault.sh 1 240 1 30 101 250)
moreau_checkpoint_test(checkpoint_fault_np2 fault.sh 2 300 2 30 202 450)

# (d) Damaged, truncated, foreign and missing checkpoints: exit 2 and one
# line; a damaged newest one is skipped with one warning line.
moreau_checkpoint_test(checkpoint_damaged_np1 damaged.sh 1 180 1)
moreau_checkpoint_test(checkpoint_damaged_np2 damaged.sh 2 180 2 short)

# (e) SIGTERM or SIGINT to one rank, SIGUSR1 to mpiexec: a checkpoint at
# most one step late, exit 3, and -restart auto goes on.
moreau_checkpoint_test(checkpoint_signals_np2 signals.sh 2 180 2)
moreau_checkpoint_test(checkpoint_signals_np3 signals.sh 3 180 3)

# A restart's ETA is at the rate of its own steps.
moreau_checkpoint_test(checkpoint_eta_np1 eta.sh 1 120 1)

# Which options a restart may change.
moreau_checkpoint_test(checkpoint_options_np1 options.sh 1 120 1)
moreau_checkpoint_test(checkpoint_options_np2 options.sh 2 120 2 short)

# Checkpoint schedules and keeping, and single restart cases.
moreau_checkpoint_test(checkpoint_schedule_np2 cases.sh 2 120 2 schedule)
moreau_checkpoint_test(checkpoint_restart_new_output_dir cases.sh 2 120 2 new_output_dir)
moreau_checkpoint_test(checkpoint_restart_older cases.sh 2 120 2 older)
moreau_checkpoint_test(checkpoint_restart_run_options cases.sh 1 120 1 run_options)
moreau_checkpoint_test(checkpoint_restart_stale cases.sh 2 120 2 stale)
moreau_checkpoint_test(checkpoint_restart_large_np1 cases.sh 1 120 1 large)
