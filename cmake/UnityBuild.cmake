# Unity builds for the targets whose sources spend most of their compile time
# instantiating the same LLVM (or GoogleTest) templates: their sources are
# compiled a few at a time as one translation unit, which about halves those
# targets' compile time again after precompiled headers (CI builds three
# configurations on two cores). Names in a source's anonymous namespace must
# then be unique within its target. CUCPU_UNITY_BUILD=OFF compiles each
# source alone, for error messages about one file.
option(CUCPU_UNITY_BUILD "Compile the sources of LLVM-heavy targets in batches" ON)

# cucpu_unity_build(TARGET...): each TARGET's C++ sources compile in batches
# of eight.
function(cucpu_unity_build)
  if(NOT CUCPU_UNITY_BUILD)
    return()
  endif()
  set_target_properties(${ARGN} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
endfunction()
