# NVIDIA's driver, for the suites that also run against it (tests/api,
# tests/kernels) when built with -DCUCPU_CONFORMANCE_NVIDIA=ON.
#
#   cucpu_use_nvidia_driver(<interface-target> <what>)
#
# finds NVIDIA's cuda.h (CUDA toolkit) and the real libcuda.so.1 (the driver,
# never the toolkit's stubs/libcuda.so, which only links), and makes
# <interface-target> carry them plus the definition CUCPU_CONFORMANCE_NVIDIA=1,
# so that tests can tell the two drivers apart where cucpu deliberately
# differs. The cache variables CUCPU_NVIDIA_INCLUDE_DIR and
# CUCPU_NVIDIA_LIBCUDA override the search. <what> names the suite in the
# status message.
include_guard(GLOBAL)

function(cucpu_use_nvidia_driver TARGET WHAT)
  find_path(CUCPU_NVIDIA_INCLUDE_DIR cuda.h
    HINTS ${CUDAToolkit_ROOT} $ENV{CUDA_HOME} $ENV{CUDA_PATH}
    PATH_SUFFIXES include
    PATHS /usr/local/cuda /opt/cuda /usr
    DOC "Folder holding NVIDIA's cuda.h")
  # The driver library is libcuda.so.1 as installed by the driver package (or
  # mounted into a container); the toolkit's stubs/libcuda.so only links.
  find_library(CUCPU_NVIDIA_LIBCUDA NAMES libcuda.so.1 cuda
    PATHS /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib
          /usr/local/nvidia/lib64 /usr/local/nvidia/lib /usr/lib/wsl/lib
    NO_DEFAULT_PATH
    DOC "NVIDIA's driver library (libcuda.so.1), not the toolkit stub")
  if(NOT CUCPU_NVIDIA_LIBCUDA)
    find_library(CUCPU_NVIDIA_LIBCUDA NAMES libcuda.so.1 cuda)
  endif()
  if(NOT CUCPU_NVIDIA_INCLUDE_DIR OR NOT CUCPU_NVIDIA_LIBCUDA)
    message(FATAL_ERROR "NVIDIA's cuda.h (${CUCPU_NVIDIA_INCLUDE_DIR}) or "
      "libcuda.so.1 (${CUCPU_NVIDIA_LIBCUDA}) not found; set "
      "CUCPU_NVIDIA_INCLUDE_DIR / CUCPU_NVIDIA_LIBCUDA.")
  endif()
  if(CUCPU_NVIDIA_LIBCUDA MATCHES "/stubs/")
    message(FATAL_ERROR "${CUCPU_NVIDIA_LIBCUDA} is the toolkit's link stub, "
      "not the driver; point CUCPU_NVIDIA_LIBCUDA at the real libcuda.so.1.")
  endif()
  message(STATUS "${WHAT} against NVIDIA: ${CUCPU_NVIDIA_INCLUDE_DIR}/cuda.h, ${CUCPU_NVIDIA_LIBCUDA}")
  target_include_directories(${TARGET} SYSTEM INTERFACE ${CUCPU_NVIDIA_INCLUDE_DIR})
  target_link_libraries(${TARGET} INTERFACE ${CUCPU_NVIDIA_LIBCUDA})
  target_compile_definitions(${TARGET} INTERFACE CUCPU_CONFORMANCE_NVIDIA=1)
endfunction()
