# Builds a project with CMake's CUDA language against this build, as one is
# built with NVIDIA's toolkit: the install.cuda_language test
# (tests/install/cuda-language) and the cmakeSaxpy sample. The caller passes
# BUILD_DIR, WORK_DIR, PROJECT_DIR, GENERATOR, MAKE_PROGRAM, CXX_COMPILER,
# CXX_FLAGS, LIBDIR, PROGRAM (the executable the project builds, which must
# exit 0 and print PASSED) and WAYS (of "compiler" and "path", below). It
# installs the build tree into a scratch prefix under WORK_DIR, then
# configures, builds and runs PROJECT_DIR against it once per way:
#   1. -DCMAKE_CUDA_COMPILER=<prefix>/bin/nvcc -DCUDAToolkit_ROOT=<prefix>,
#      the architectures CMake detects by default;
#   2. nvcc found on PATH (no CMAKE_CUDA_COMPILER, no CUDAToolkit_ROOT),
#      -DCMAKE_CUDA_ARCHITECTURES=75;80.
# WORK_DIR is emptied first and removed when the test passes.
cmake_minimum_required(VERSION 3.25)

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
foreach(File IN ITEMS bin/nvcc include/cuda_runtime.h version.json
    nvvm/libdevice "${LIBDIR}/libcudart.so" "${LIBDIR}/libcudart_static.a"
    "${LIBDIR}/libcudadevrt.a" "${LIBDIR}/libcuda.so")
  if(NOT EXISTS "${Prefix}/${File}")
    message(FATAL_ERROR "The install prefix lacks ${File}.")
  endif()
endforeach()

# The program finds libcudart and libcuda through the run path CMake records
# for CUDA::cudart, not through the caller's LD_LIBRARY_PATH; CUDA variables
# of the caller's must not choose another toolkit.
unset(ENV{LD_LIBRARY_PATH})
unset(ENV{CUDACXX})
unset(ENV{CUDAHOSTCXX})
unset(ENV{CUDAARCHS})
unset(ENV{CUDAToolkit_ROOT})
unset(ENV{CUDA_PATH})
set(Common -S "${PROJECT_DIR}" -G "${GENERATOR}"
  "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
  "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" "-DCMAKE_CUDA_FLAGS=${CXX_FLAGS}"
  "-DCMAKE_EXE_LINKER_FLAGS=${CXX_FLAGS}" "-DCMAKE_BUILD_TYPE=Release")
foreach(Way IN LISTS WAYS)
  message(STATUS "cuda-language, nvcc given by ${Way}")
  set(Build "${WORK_DIR}/build-${Way}")
  if(Way STREQUAL "compiler")
    set(Args "-DCMAKE_CUDA_COMPILER=${Prefix}/bin/nvcc" "-DCUDAToolkit_ROOT=${Prefix}")
  else()
    set(ENV{PATH} "${Prefix}/bin:$ENV{PATH}")
    set(Args "-DCMAKE_CUDA_ARCHITECTURES=75;80")
  endif()
  run_step("${CMAKE_COMMAND}" ${Common} -B "${Build}" ${Args})
  run_step("${CMAKE_COMMAND}" --build "${Build}")
  execute_process(COMMAND "${Build}/${PROGRAM}" OUTPUT_VARIABLE Output
    ERROR_VARIABLE Output RESULT_VARIABLE Result)
  message("${Output}")
  if(NOT Result EQUAL 0 OR NOT Output MATCHES "PASSED")
    message(FATAL_ERROR "${PROGRAM} (${Way}) did not pass (${Result}).")
  endif()
endforeach()

file(REMOVE_RECURSE "${WORK_DIR}")
