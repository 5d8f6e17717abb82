# The jobscripts on a real SLURM: tests/slurm/jobscripts.sh starts a private
# one-node cluster on localhost (its own munged, slurmctld and slurmd under a
# temporary directory) and runs requeue, pre-timeout signal, chain, job array
# campaign and restart-cap jobs through it (see the script's header). Without
# the SLURM packages, root or a cgroup file system it reports "SKIPPED:" and
# exits 77, which CTest shows as skipped, except under CI=true, where that
# fails. Alone on the machine (RUN_SERIAL): its jobs time the pre-timeout
# signal and use both cores.
add_test(NAME slurm_jobscripts
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/jobscripts.sh $<TARGET_FILE:moreau_exe> ${PROJECT_SOURCE_DIR}/jobscripts
                 ${MPIEXEC_EXECUTABLE})
set_tests_properties(slurm_jobscripts PROPERTIES TIMEOUT 600 RUN_SERIAL TRUE SKIP_RETURN_CODE 77 PROCESSORS 2
                                                 ENVIRONMENT "${MOREAU_MPI_TEST_ENV}")
