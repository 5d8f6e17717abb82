# domain: nearest images (periodic, Lees-Edwards) against brute force,
# wrapping, the Lees-Edwards offset over long runs, input errors. Serial.
moreau_test_program(test_domain ${CMAKE_CURRENT_LIST_DIR}/test_domain.c)
moreau_serial_test(domain_unit test_domain TIMEOUT 300)
