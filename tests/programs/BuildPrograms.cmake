# The programs.build test (registered in CMakeLists.txt, which passes
# BUILD_DIR, WORK_DIR, SOURCE_DIR, GENERATOR, MAKE_PROGRAM, CXX_COMPILER,
# CXX_FLAGS and LIBDIR): installs the build into WORK_DIR/prefix and builds
# the programs of SOURCE_DIR into WORK_DIR/build against that prefix alone,
# with its bin/nvcc for the kernels. Everything it writes is under WORK_DIR,
# which it empties first and leaves for the programs' tests.
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

run_step("${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${Prefix}")

# Nothing of the caller's environment may point the build at another
# toolkit or library.
unset(ENV{LD_LIBRARY_PATH})
unset(ENV{CUDA_PATH})
unset(ENV{CUDAToolkit_ROOT})
unset(ENV{CPATH})
unset(ENV{LIBRARY_PATH})
run_step("${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${WORK_DIR}/build"
  -G "${GENERATOR}" "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}"
  "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
  "-DCMAKE_EXE_LINKER_FLAGS=${CXX_FLAGS}" "-DCMAKE_BUILD_TYPE=Release"
  "-DPROGRAMS_PREFIX=${Prefix}" "-DPROGRAMS_LIBDIR=${Prefix}/${LIBDIR}"
  -DPROGRAMS_WERROR=ON)
run_step("${CMAKE_COMMAND}" --build "${WORK_DIR}/build")
