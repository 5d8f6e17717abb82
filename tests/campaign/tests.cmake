# The mu(I) campaign (tools/campaign.sh, docs/validation.md): its analysis
# and plot against hand computations on made-up data, and the whole local
# campaign on two tiny cases (about 20 s on 2 idle cores).
set(MOREAU_CAMPAIGN_TEST_DIR ${CMAKE_CURRENT_LIST_DIR})
add_test(NAME campaign_tools COMMAND sh ${MOREAU_CAMPAIGN_TEST_DIR}/tools.sh ${PROJECT_SOURCE_DIR}/tools
                                     ${CMAKE_CURRENT_BINARY_DIR}/campaign/tools)
set_tests_properties(campaign_tools PROPERTIES TIMEOUT 60)
add_test(NAME campaign_local
         COMMAND sh ${MOREAU_CAMPAIGN_TEST_DIR}/local.sh $<TARGET_FILE:moreau_exe> ${CMAKE_CURRENT_BINARY_DIR}/campaign/local
                 ${PROJECT_SOURCE_DIR}/tools ${MPIEXEC_EXECUTABLE})
set_tests_properties(campaign_local PROPERTIES TIMEOUT 300 PROCESSORS 2 ENVIRONMENT "${MOREAU_MPI_TEST_ENV}")

# The biaxial campaign (tools/biaxial.sh, docs/validation_laws.md): its fit
# against made-up peaks on a known Mohr-Coulomb line, and the whole campaign
# on 60 disks (about 20 s on 2 cores).
add_test(NAME campaign_biaxial COMMAND sh ${MOREAU_CAMPAIGN_TEST_DIR}/biaxial.sh $<TARGET_FILE:moreau_exe>
                                       ${CMAKE_CURRENT_BINARY_DIR}/campaign/biaxial ${PROJECT_SOURCE_DIR}/tools
                                       ${MPIEXEC_EXECUTABLE})
set_tests_properties(campaign_biaxial PROPERTIES TIMEOUT 300 PROCESSORS 2 ENVIRONMENT "${MOREAU_MPI_TEST_ENV}")
