# Script mode (cmake -P): builds SOURCE with `CUCC -G`, runs it under GDB
# in batch mode with CUCPU_DEBUG=gdb, stopping at line 10 of the kernel for
# the thread with I == 37, and checks what gdb shows there: the source line,
# the thread's locals and built-in variables, a step into a device function
# and the backtrace through the kernel.
execute_process(
  COMMAND ${CUCC} -G ${SOURCE} -o ${WORK}/scale
  RESULT_VARIABLE Rc ERROR_VARIABLE Err)
if(NOT Rc EQUAL 0)
  message(FATAL_ERROR "cucc -G failed (${Rc}): ${Err}")
endif()
set(ENV{CUCPU_DEBUG} gdb)
execute_process(
  COMMAND ${GDB} -batch -nx
    -ex "set breakpoint pending on"
    -ex "break scale.cu:10 if I == 37"
    -ex run
    -ex "info locals"
    -ex "print threadIdx"
    -ex "print blockIdx"
    -ex "print blockDim"
    -ex "print gridDim"
    -ex step
    -ex backtrace
    -ex "delete"
    -ex continue
    ${WORK}/scale
  OUTPUT_VARIABLE Out ERROR_VARIABLE Err RESULT_VARIABLE Rc
  TIMEOUT 240)
set(Shown "${Out}${Err}")
foreach(Expected
    "Breakpoint 1, scale \\(Data=0x[0-9a-f]+, N=64\\) at [^\n]*scale.cu:10"
    "Before = 37"
    "I = 37"
    "= {x = 5, y = 0, z = 0}"
    "= {x = 1, y = 0, z = 0}"
    "= {x = 32, y = 1, z = 1}"
    "= {x = 2, y = 1, z = 1}"
    "twice \\(X=37\\) at [^\n]*scale.cu:4"
    "#1 [^\n]*scale \\(Data=[^\n]*scale.cu:10"
    "Data\\[37\\] = 74"
    "exited normally")
  if(NOT Shown MATCHES "${Expected}")
    message(FATAL_ERROR "gdb did not show /${Expected}/:\n${Shown}")
  endif()
endforeach()
message(STATUS "gdb stopped in the kernel as expected:\n${Shown}")
