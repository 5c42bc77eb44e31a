# Script mode (cmake -P): builds SOURCE with CUCC and runs it with
# CUCPU_DEBUG=dump-ir and the compute cache off, and checks that stderr has
# the IR before the lowering, after each of cucpu's passes (the stages of
# block-function formation included) and after LLVM's optimizer.
execute_process(
  COMMAND ${CUCC} ${SOURCE} -o ${WORK}/reverse
  RESULT_VARIABLE Rc ERROR_VARIABLE Err)
if(NOT Rc EQUAL 0)
  message(FATAL_ERROR "cucc failed (${Rc}): ${Err}")
endif()
set(ENV{CUCPU_DEBUG} dump-ir)
set(ENV{CUDA_CACHE_DISABLE} 1)
execute_process(
  COMMAND ${WORK}/reverse
  OUTPUT_VARIABLE Out ERROR_VARIABLE Err RESULT_VARIABLE Rc
  TIMEOUT 240)
if(NOT Rc EQUAL 0 OR NOT Out MATCHES "PASSED")
  message(FATAL_ERROR "the program failed (${Rc}): ${Out}")
endif()
set(Last -1)
foreach(Expected
    "IR of [^\n]* before lowering"
    "IR after cucpu::modules::InlineAsmPass"
    "IR after cucpu::modules::SyncPass"
    "IR after cucpu::modules::SharedMemoryPass"
    "IR after cucpu::modules::ThreadEntryPass"
    "IR after cucpu::modules::CheckLoweredPass"
    "IR after cucpu::modules::WorkFunctionPass"
    "IR after cucpu::modules::SharedAtomicsPass"
    "IR after cucpu::modules::LoopBarriersPass"
    "IR of __cucpu_work[^\n]* split at its sync points"
    "IR of __cucpu_work[^\n]* values across the splits"
    "IR of __cucpu_work[^\n]* private memory in the frame"
    "IR after cucpu::modules::BlockFunctionPass"
    "IR after cucpu::modules::CheckJitServicesPass"
    "IR after default<O")
  string(REGEX MATCH "\\*\\*\\* cucpu: ${Expected}" Found "${Err}")
  if(NOT Found)
    message(FATAL_ERROR "stderr lacks \"${Expected}\"")
  endif()
  string(FIND "${Err}" "${Found}" At)
  if(At LESS Last)
    message(FATAL_ERROR "\"${Expected}\" comes before the stage it follows")
  endif()
  set(Last ${At})
endforeach()
message(STATUS "every stage was printed, in order")
