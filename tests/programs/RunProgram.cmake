# A programs.<name> test (registered in CMakeLists.txt, which passes
# PROGRAM): runs the program, which must exit with status 0 and print
# PASSED. The program finds the installed libcuda through the path its build
# recorded, so a LD_LIBRARY_PATH of the caller's must not interfere.
cmake_minimum_required(VERSION 3.25)

unset(ENV{LD_LIBRARY_PATH})
execute_process(COMMAND "${PROGRAM}" RESULT_VARIABLE Result
  OUTPUT_VARIABLE Output ERROR_VARIABLE Output)
message("${Output}")
if(NOT Result EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} exited with '${Result}'; expected 0.")
endif()
if(NOT Output MATCHES "(^|\n)PASSED\n")
  message(FATAL_ERROR "${PROGRAM} did not print PASSED.")
endif()
