# io module: CSV reader, HDF5 snapshots + XDMF, time series. Each program runs
# its Check suite on every rank and is registered at several rank counts.
set(MOREAU_IO_TEST_DIR ${CMAKE_CURRENT_LIST_DIR})

moreau_test_program(test_io_csv ${MOREAU_IO_TEST_DIR}/test_csv.c ${MOREAU_IO_TEST_DIR}/io_test_util.c)
moreau_mpi_test(io_csv test_io_csv RANKS 1 3 TIMEOUT 60)

moreau_test_program(test_io_snapshot ${MOREAU_IO_TEST_DIR}/test_snapshot.c ${MOREAU_IO_TEST_DIR}/io_test_util.c)
moreau_mpi_test(io_snapshot test_io_snapshot RANKS 1 2 3 TIMEOUT 60)

moreau_test_program(test_io_timeseries ${MOREAU_IO_TEST_DIR}/test_timeseries.c ${MOREAU_IO_TEST_DIR}/io_test_util.c)
moreau_mpi_test(io_timeseries test_io_timeseries RANKS 1 2 TIMEOUT 60)
