# `cmake --install` lays out a toolkit-shaped prefix:
#
#   include/cuda.h, include/cudaGL.h, include/cucpu/...   the public headers
#   include/cudaTypedefs.h, include/builtin_types.h, ... the toolkit headers programs include
#   lib/libcuda.so.1, lib/libcuda.so -> libcuda.so.1      the driver library
#   lib/libcudart.so.13 (.so, .so.12), lib/libcudart_static.a  the runtime library
#   bin/                                                  the tools (cucc, nvcc -> cucc, ...)
#   lib/cmake/cucpu/                                      find_package(cucpu)
#   lib/pkgconfig/cuda.pc, lib/pkgconfig/cucpu.pc         pkg-config
#   version.json, nvvm/libdevice/, lib/libcudadevrt.a     for CMake's CUDA language
#                                                         and FindCUDAToolkit (below)
#
# ("lib" is CMAKE_INSTALL_LIBDIR: lib/x86_64-linux-gnu when the prefix is /usr.)
# The top-level CMakeLists.txt includes this file last, so every target exists.
# All install() calls of the project live here. tests/install checks the result
# from an outside project.
include(CMakePackageConfigHelpers)

set(CUCPU_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/cucpu" CACHE STRING
  "Where the CMake package files (cucpuConfig.cmake) are installed, relative to the prefix")
mark_as_advanced(CUCPU_INSTALL_CMAKEDIR)

# Outside projects use the same names as the in-tree aliases:
# cucpu::headers and cucpu::cuda_driver.
set_target_properties(cucpu_headers PROPERTIES EXPORT_NAME headers)
set(_cucpu_exported cucpu_headers cuda_driver)
# The runtime: libcudart.so.13 (with libcudart.so) and libcudart_static.a.
foreach(_runtime IN ITEMS cudart cudart_static)
  if(TARGET ${_runtime})
    list(APPEND _cucpu_exported ${_runtime})
  endif()
endforeach()

# The user-facing tools go to bin/ and into the export set (cucpu::cucc lets an
# outside project compile kernels). Add a tool here when it should ship;
# developer helpers (tools/driver-facts) stay in the build tree.
set(_cucpu_tools "")
foreach(_tool IN ITEMS cucc cucpu-objdump)
  if(TARGET ${_tool})
    list(APPEND _cucpu_tools ${_tool})
    # An installed tool finds an installed libcuda (if it links it) next door.
    set_property(TARGET ${_tool} APPEND PROPERTY INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
  endif()
endforeach()

install(TARGETS ${_cucpu_exported} ${_cucpu_tools}
  EXPORT cucpuTargets
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"   # libcuda.so.1 and the libcuda.so link
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")

# bin/nvcc: cucc answering as nvcc (it reads its name from argv[0]), the name
# PyCUDA, build scripts and CMake's CUDA support look for. A relative symlink,
# so a moved prefix keeps working.
if(TARGET cucc)
  install(CODE "
    set(_nvcc \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/nvcc\")
    message(STATUS \"Installing: \${_nvcc} -> cucc\")
    file(REMOVE \"\${_nvcc}\")
    file(CREATE_LINK cucc \"\${_nvcc}\" SYMBOLIC)")
endif()

# lib/libcudart.so.12: programs linked against CUDA 12's runtime load the same
# library under that name.
if(TARGET cudart)
  install(CODE "
    set(_cudart12 \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/libcudart.so.12\")
    message(STATUS \"Installing: \${_cudart12} -> libcudart.so.13\")
    file(REMOVE \"\${_cudart12}\")
    file(CREATE_LINK libcudart.so.13 \"\${_cudart12}\" SYMBOLIC)")
endif()

# cuda.h, cudaGL.h, the toolkit headers that driver-API programs include
# (cudaTypedefs.h, builtin_types.h, vector_types.h, driver_types.h, crt/, ...)
# and include/cucpu/ (including the kernel-side headers that cucc
# force-includes); include/CMakeLists.txt itself is not a header.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
  FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp" PATTERN "*.cuh" PATTERN "*.def")

# The CMake package: find_package(cucpu) gives cucpu::cuda_driver.
install(EXPORT cucpuTargets
  NAMESPACE cucpu::
  DESTINATION "${CUCPU_INSTALL_CMAKEDIR}")
configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/cucpuConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/cmake/cucpuConfig.cmake"
  INSTALL_DESTINATION "${CUCPU_INSTALL_CMAKEDIR}"
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR)
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/cmake/cucpuConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}"
  COMPATIBILITY SameMajorVersion)
install(FILES
  "${PROJECT_BINARY_DIR}/cmake/cucpuConfig.cmake"
  "${PROJECT_BINARY_DIR}/cmake/cucpuConfigVersion.cmake"
  DESTINATION "${CUCPU_INSTALL_CMAKEDIR}")

# pkg-config: cuda.pc (`pkg-config --cflags --libs cuda`) and cucpu.pc, with
# the same content. Paths are relative to the .pc file
# (${pcfiledir}), so `cmake --install --prefix <anywhere>` and a moved prefix
# both work.
set(CUCPU_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
if(NOT IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  file(RELATIVE_PATH _cucpu_pc_up "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
  string(REGEX REPLACE "/$" "" _cucpu_pc_up "${_cucpu_pc_up}")
  set(CUCPU_PC_PREFIX "\${pcfiledir}/${_cucpu_pc_up}")
endif()
foreach(_dir IN ITEMS LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${_dir}}")
    set(CUCPU_PC_${_dir} "${CMAKE_INSTALL_${_dir}}")
  else()
    set(CUCPU_PC_${_dir} "\${prefix}/${CMAKE_INSTALL_${_dir}}")
  endif()
endforeach()
foreach(CUCPU_PC_NAME IN ITEMS cuda cucpu)
  configure_file("${PROJECT_SOURCE_DIR}/cmake/cucpu.pc.in"
    "${PROJECT_BINARY_DIR}/pkgconfig/${CUCPU_PC_NAME}.pc" @ONLY)
  install(FILES "${PROJECT_BINARY_DIR}/pkgconfig/${CUCPU_PC_NAME}.pc"
    DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
endforeach()

# What CMake's CUDA language (project(... CUDA) with bin/nvcc as
# CMAKE_CUDA_COMPILER) and find_package(CUDAToolkit) look for in a toolkit
# beyond bin/nvcc, include/cuda_runtime.h and lib/libcudart*; see
# docs/building.md, "CMake's CUDA language". No lib64 -> lib link: CMake
# searches lib/ (CMAKE_INSTALL_LIBDIR) as it searches lib64/, and nvcc -v
# tells it the folder (LIBRARIES=, docs/cucc.md).
#
# version.json: the toolkit's version file in CUDA 13.0's shape ("cuda":
# {"name", "version"}), which newer FindCUDAToolkit and build scripts read;
# the names say that it is cucpu's. CUDA 13.0.0, the version cucc and the
# runtime answer with (nvcc --version, cudaRuntimeGetVersion).
set(CUCPU_CUDA_VERSION "13.0.0")
configure_file("${PROJECT_SOURCE_DIR}/cmake/cuda-version.json.in"
  "${PROJECT_BINARY_DIR}/cmake/version.json" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/cmake/version.json" DESTINATION ".")

# nvvm/libdevice/: CMake takes a compiler for nvcc only where this folder
# exists. It holds a README that says why it is otherwise empty.
configure_file("${PROJECT_SOURCE_DIR}/cmake/nvvm-libdevice-README.in"
  "${PROJECT_BINARY_DIR}/cmake/nvvm-libdevice-README" COPYONLY)
install(FILES "${PROJECT_BINARY_DIR}/cmake/nvvm-libdevice-README"
  DESTINATION "nvvm/libdevice" RENAME README)

# lib/libcudadevrt.a: CMake links -lcudadevrt (the device runtime of
# NVIDIA's dynamic parallelism) into every target with CUDA code, whichever
# CUDA_RUNTIME_LIBRARY it has. cucpu has no device runtime; an archive
# without members lets those links succeed and adds nothing to them.
file(WRITE "${PROJECT_BINARY_DIR}/cmake/libcudadevrt.a" "!<arch>\n")
install(FILES "${PROJECT_BINARY_DIR}/cmake/libcudadevrt.a"
  DESTINATION "${CMAKE_INSTALL_LIBDIR}")
