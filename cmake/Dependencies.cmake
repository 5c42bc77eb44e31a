# Every dependency comes from a Debian 12 package; LLVM is pinned to 19.
# LLVM's version check wants major.minor (see docs/building.md).
find_package(LLVM 19.1 REQUIRED CONFIG
  HINTS /usr/lib/llvm-19/lib/cmake/llvm)
message(STATUS "Using LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_DIR}")

# Debian builds LLVM as one shared library; link only that (never the static
# component libraries, which register LLVM's options a second time).
add_library(cucpu_llvm INTERFACE)
target_include_directories(cucpu_llvm SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
target_compile_definitions(cucpu_llvm INTERFACE ${LLVM_DEFINITIONS})
target_link_libraries(cucpu_llvm INTERFACE LLVM)

find_package(PkgConfig REQUIRED)
pkg_check_modules(LIBELF REQUIRED IMPORTED_TARGET libelf)

find_package(Threads REQUIRED)
