# Precompiled headers for the targets whose sources share heavy headers
# (LLVM's IR, GoogleTest): each is parsed once per target instead of once per
# source file, which roughly halves those targets' compile time.
option(CUCPU_PRECOMPILED_HEADERS "Precompile the headers the sources of large targets share" ON)

# cucpu_precompile_headers(TARGET HEADER...): HEADERs (as in #include <...>)
# are precompiled for TARGET's C++ sources.
function(cucpu_precompile_headers TARGET)
  if(NOT CUCPU_PRECOMPILED_HEADERS)
    return()
  endif()
  set(_headers)
  foreach(_header IN LISTS ARGN)
    list(APPEND _headers "$<$<COMPILE_LANGUAGE:CXX>:<${_header}$<ANGLE-R>>")
  endforeach()
  target_precompile_headers(${TARGET} PRIVATE ${_headers})
endfunction()
