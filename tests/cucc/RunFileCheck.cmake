# cmake -DCUCC=... -DFILECHECK=... -DSOURCE=k.cu -DOUTPUT=k.ll -P RunFileCheck.cmake
# Compiles SOURCE to IR with cucc and checks it against SOURCE's CHECK lines.
execute_process(COMMAND ${CUCC} --emit-llvm -o ${OUTPUT} ${SOURCE}
  RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "cucc failed on ${SOURCE} (${_rc})")
endif()
execute_process(COMMAND ${FILECHECK} ${SOURCE} --input-file=${OUTPUT}
  RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "FileCheck failed on ${SOURCE}")
endif()
