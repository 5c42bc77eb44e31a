# The install.outside_project test (registered in CMakeLists.txt, which passes
# BUILD_DIR, WORK_DIR, CONSUMER_DIR, GENERATOR, MAKE_PROGRAM, C_COMPILER,
# CXX_COMPILER, C_FLAGS, LIBDIR and INCLUDEDIR). Everything it writes is under WORK_DIR,
# which it empties first and removes when it passes (a failure leaves it for
# inspection).
cmake_minimum_required(VERSION 3.25)

# Runs a command quietly; when it fails, shows its output and stops.
function(run_step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE Result OUTPUT_VARIABLE Output
    ERROR_VARIABLE Output)
  if(NOT Result EQUAL 0)
    list(JOIN ARGN " " Command)
    message(FATAL_ERROR "${Command}\nfailed (${Result}):\n${Output}")
  endif()
endfunction()

set(Prefix "${WORK_DIR}/prefix")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

# 1. Install the build tree into the scratch prefix.
run_step("${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${Prefix}")

# 2. The prefix is toolkit-shaped.
foreach(File IN ITEMS
    "${INCLUDEDIR}/cuda.h"
    "${INCLUDEDIR}/cudaTypedefs.h"
    "${INCLUDEDIR}/builtin_types.h"
    "${INCLUDEDIR}/vector_types.h"
    "${INCLUDEDIR}/driver_types.h"
    "${INCLUDEDIR}/host_defines.h"
    "${INCLUDEDIR}/crt/host_defines.h"
    "${LIBDIR}/libcuda.so.1"
    "${LIBDIR}/cmake/cucpu/cucpuConfig.cmake"
    "${LIBDIR}/cmake/cucpu/cucpuConfigVersion.cmake"
    "${LIBDIR}/cmake/cucpu/cucpuTargets.cmake"
    "${LIBDIR}/pkgconfig/cuda.pc"
    "${LIBDIR}/pkgconfig/cucpu.pc")
  if(NOT EXISTS "${Prefix}/${File}")
    message(FATAL_ERROR "The install prefix lacks ${File}.")
  endif()
endforeach()
if(NOT IS_SYMLINK "${Prefix}/${LIBDIR}/libcuda.so")
  message(FATAL_ERROR "${LIBDIR}/libcuda.so is not a symbolic link (to libcuda.so.1).")
endif()
file(READ_SYMLINK "${Prefix}/${LIBDIR}/libcuda.so" Target)
if(NOT Target STREQUAL "libcuda.so.1")
  message(FATAL_ERROR "${LIBDIR}/libcuda.so points to '${Target}', not to libcuda.so.1.")
endif()

# 3. Build and run the consumer, once per way of finding cucpu. Each sees the
#    prefix through that way only: CMAKE_PREFIX_PATH for the package,
#    PKG_CONFIG_PATH for pkg-config.
#    The consumer finds libcuda through what its build recorded, so a
#    LD_LIBRARY_PATH of the caller's must not interfere.
unset(ENV{LD_LIBRARY_PATH})
foreach(Via IN ITEMS package pkgconfig)
  message(STATUS "consumer via ${Via}")
  set(Build "${WORK_DIR}/consumer-${Via}")
  set(Args -S "${CONSUMER_DIR}" -B "${Build}" -G "${GENERATOR}"
    "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}" "-DCMAKE_C_COMPILER=${C_COMPILER}"
    "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" "-DCMAKE_C_FLAGS=${C_FLAGS}"
    "-DCMAKE_CXX_FLAGS=${C_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${C_FLAGS}"
    "-DCMAKE_BUILD_TYPE=Release" "-DCONSUMER_VIA=${Via}")
  if(Via STREQUAL "package")
    unset(ENV{PKG_CONFIG_PATH})
    list(APPEND Args "-DCMAKE_PREFIX_PATH=${Prefix}")
  else()
    set(ENV{PKG_CONFIG_PATH} "${Prefix}/${LIBDIR}/pkgconfig")
  endif()
  run_step("${CMAKE_COMMAND}" ${Args})
  run_step("${CMAKE_COMMAND}" --build "${Build}")
  execute_process(COMMAND "${Build}/consumer" OUTPUT_VARIABLE Output
    COMMAND_ERROR_IS_FATAL ANY)
  message("${Output}")
  # It must run on the installed library, not the build tree's or another.
  string(REGEX MATCH "libcuda: ([^\n]*)" Unused "${Output}")
  file(REAL_PATH "${CMAKE_MATCH_1}" Loaded)
  file(REAL_PATH "${Prefix}/${LIBDIR}/libcuda.so.1" Installed)
  if(NOT Loaded STREQUAL Installed)
    message(FATAL_ERROR "The consumer loaded '${CMAKE_MATCH_1}', not ${Installed}.")
  endif()
  # The samples-style program checks itself and prints PASSED.
  execute_process(COMMAND "${Build}/samples_style" OUTPUT_VARIABLE Output
    COMMAND_ERROR_IS_FATAL ANY)
  if(NOT Output MATCHES "PASSED")
    message(FATAL_ERROR "samples_style did not pass:\n${Output}")
  endif()
endforeach()

file(REMOVE_RECURSE "${WORK_DIR}")
